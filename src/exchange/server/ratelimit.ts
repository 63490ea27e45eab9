/**
 * Weight-based rate limiting of the sandbox (KuCoin "Rate limit"; quotas from `POOL_QUOTAS` of
 * src/api/endpoints.ts: public 2000 per IP, spot 4000 and management 2000 per user, per 30 000 ms).
 *
 * Fixed windows like KuCoin's gateway: a window of `windowMs` starts at the first request of a
 * (key, pool) and its quota resets when it ends. Each request costs the endpoint's `weight`;
 * a request whose weight does not fit the remaining quota is rejected (HTTP 429, code 429000) and
 * costs nothing. Every response carries
 *   gw-ratelimit-limit     = pool quota
 *   gw-ratelimit-remaining = quota left in the current window (after this request)
 *   gw-ratelimit-reset     = ms until the window resets
 * The clock is the sandbox clock (manual in tests).
 */
import type { Pool, PoolQuota } from '../../api/endpoints';

/**
 * Rate-limit configuration of startSandbox: per-pool quota overrides, `{disabled: true}` or `false`
 * to disable limiting (benchmarks; headers are still sent).
 */
export type RateLimitOption = false | (Partial<Record<Pool, PoolQuota>> & { disabled?: boolean });

/** Outcome of a charge / peek: what goes into the gw-ratelimit-* headers. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** ms until the window resets. */
  resetMs: number;
}

interface Window {
  start: number;
  used: number;
}

/** Per-(key, pool) fixed-window weight counter. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  /**
   * @param quotas quota per pool; `false` disables limiting (benchmarks) — headers still report the quota.
   * @param now clock in ms.
   */
  constructor(
    private readonly quotas: Readonly<Record<Pool, PoolQuota>>,
    private readonly now: () => number,
    private readonly enabled = true,
  ) {}

  private window(key: string, pool: Pool, t: number): Window {
    const id = `${pool}|${key}`;
    let w = this.windows.get(id);
    if (!w || t - w.start >= this.quotas[pool].windowMs) {
      w = { start: t, used: 0 };
      this.windows.set(id, w);
      if (this.windows.size > 100_000) this.gc(t);
    }
    return w;
  }

  private gc(t: number): void {
    for (const [id, w] of this.windows) {
      const pool = id.slice(0, id.indexOf('|')) as Pool;
      if (t - w.start >= this.quotas[pool].windowMs) this.windows.delete(id);
    }
  }

  /** Charge `weight` to (key, pool) if it fits; otherwise report not allowed (nothing charged). */
  take(key: string, pool: Pool, weight: number): RateLimitState {
    const t = this.now();
    const q = this.quotas[pool];
    const w = this.window(key, pool, t);
    const allowed = !this.enabled || w.used + weight <= q.limit;
    if (allowed) w.used += weight;
    return { allowed, limit: q.limit, remaining: Math.max(0, q.limit - w.used), resetMs: Math.max(0, w.start + q.windowMs - t) };
  }

  /** Current state of (key, pool) without charging. */
  peek(key: string, pool: Pool): RateLimitState {
    const t = this.now();
    const q = this.quotas[pool];
    const w = this.windows.get(`${pool}|${key}`);
    if (!w || t - w.start >= q.windowMs) return { allowed: true, limit: q.limit, remaining: q.limit, resetMs: q.windowMs };
    return { allowed: true, limit: q.limit, remaining: Math.max(0, q.limit - w.used), resetMs: Math.max(0, w.start + q.windowMs - t) };
  }
}
