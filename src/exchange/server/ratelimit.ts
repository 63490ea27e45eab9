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
  /** Windows per pool, keyed by IP (public) or uid (spot, management). */
  private readonly windows: Record<Pool, Map<string, Window>> = { public: new Map(), spot: new Map(), management: new Map() };
  private size = 0;

  /**
   * @param quotas quota per pool; `false` disables limiting (benchmarks) — headers still report the quota.
   * @param now clock in ms.
   */
  constructor(
    private readonly quotas: Readonly<Record<Pool, PoolQuota>>,
    private readonly now: () => number,
    private readonly enabled = true,
  ) {}

  private window(key: string, pool: Pool, t: number, windowMs: number): Window {
    const m = this.windows[pool];
    let w = m.get(key);
    if (w === undefined) {
      w = { start: t, used: 0 };
      m.set(key, w);
      if (++this.size > 100_000) this.gc(t);
    } else if (t - w.start >= windowMs) {
      // a new window: reuse the record
      w.start = t;
      w.used = 0;
    }
    return w;
  }

  private gc(t: number): void {
    let size = 0;
    for (const pool of ['public', 'spot', 'management'] as const) {
      const windowMs = this.quotas[pool].windowMs;
      const m = this.windows[pool];
      for (const [id, w] of m) if (t - w.start >= windowMs) m.delete(id);
      size += m.size;
    }
    this.size = size;
  }

  /** Charge `weight` to (key, pool) if it fits; otherwise report not allowed (nothing charged). */
  take(key: string, pool: Pool, weight: number): RateLimitState {
    const t = this.now();
    const q = this.quotas[pool];
    const w = this.window(key, pool, t, q.windowMs);
    const allowed = !this.enabled || w.used + weight <= q.limit;
    if (allowed) w.used += weight;
    return { allowed, limit: q.limit, remaining: Math.max(0, q.limit - w.used), resetMs: Math.max(0, w.start + q.windowMs - t) };
  }

  /** Current state of (key, pool) without charging. */
  peek(key: string, pool: Pool): RateLimitState {
    const t = this.now();
    const q = this.quotas[pool];
    const w = this.windows[pool].get(key);
    if (!w || t - w.start >= q.windowMs) return { allowed: true, limit: q.limit, remaining: q.limit, resetMs: q.windowMs };
    return { allowed: true, limit: q.limit, remaining: Math.max(0, q.limit - w.used), resetMs: Math.max(0, w.start + q.windowMs - t) };
  }
}
