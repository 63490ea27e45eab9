/**
 * In-flight guard for withdrawals: one submission per confirmation. A confirmed request is keyed
 * by its canonical content ({@link requestKey}); while a submission with that key is in flight a
 * second invocation is refused instead of sending twice. Pure (no timers, no I/O).
 */

/**
 * Canonical key of a request body: JSON with keys sorted, so two objects with the same fields
 * in a different order share a key. `endpoint` distinguishes V1 from V4.
 */
export function requestKey(endpoint: string, body: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(body).sort()) if (body[k] !== undefined) sorted[k] = body[k];
  return `${endpoint} ${JSON.stringify(sorted)}`;
}

/** Set of keys currently being submitted. */
export class InFlightLock {
  private readonly held = new Set<string>();

  /** Take the lock for `key`; false when a submission with that key is already in flight. */
  tryAcquire(key: string): boolean {
    if (this.held.has(key)) return false;
    this.held.add(key);
    return true;
  }

  /** Release `key` once its submission has finished (whatever the outcome). */
  release(key: string): void {
    this.held.delete(key);
  }

  /** True while `key` is held. */
  isHeld(key: string): boolean {
    return this.held.has(key);
  }

  /** Number of submissions in flight. */
  get size(): number {
    return this.held.size;
  }
}
