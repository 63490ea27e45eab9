/**
 * Client-side rate-limit budget per weight pool (spec "Limits"; KuCoin "Rate limit").
 *
 * Each pool has a quota of `limit` weight per window (defaults: {@link POOL_QUOTAS}, 30 000 ms).
 * Before a request is sent, {@link RateLimiter.acquire} takes its weight from the pool; when the
 * pool cannot cover it, the request is QUEUED (FIFO per pool) until the window resets, instead of
 * being sent to earn a 429000. The budget is corrected from the server's answer headers:
 * `gw-ratelimit-limit`, `gw-ratelimit-remaining`, `gw-ratelimit-reset` (ms until the reset).
 * After a 429000, {@link RateLimiter.exhaust} empties the pool until the reset.
 *
 * Time is injected (`now`, `sleep`) so tests can run on a virtual clock.
 */
import { POOL_QUOTAS, type Pool, type PoolQuota } from './endpoints';

/** Budget of one pool. `resetAt` is an epoch ms on the limiter's clock. */
export interface PoolBudget {
  limit: number;
  remaining: number;
  resetAt: number;
}

/** Rate-limit headers of an answer (numbers; undefined when absent or not numeric). */
export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** ms until the pool resets. */
  reset?: number;
}

/** Read `gw-ratelimit-limit/remaining/reset` from a header getter (case-insensitive). */
export function readRateLimitHeaders(get: (name: string) => string | null | undefined): RateLimitHeaders | undefined {
  const num = (n: string) => {
    const v = get(n);
    if (v === null || v === undefined || v.trim() === '') return undefined;
    const x = Number(v);
    return Number.isFinite(x) ? x : undefined;
  };
  const h = { limit: num('gw-ratelimit-limit'), remaining: num('gw-ratelimit-remaining'), reset: num('gw-ratelimit-reset') };
  return h.limit === undefined && h.remaining === undefined && h.reset === undefined ? undefined : h;
}

interface Waiter {
  weight: number;
  resolve: () => void;
}

interface PoolState extends PoolBudget {
  windowMs: number;
  queue: Waiter[];
  draining: boolean;
}

/** Per-pool weight budget with FIFO queuing. */
export class RateLimiter {
  private readonly pools: Record<Pool, PoolState>;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  /**
   * @param opts.quotas per-pool overrides of {@link POOL_QUOTAS}
   * @param opts.now clock in ms (default Date.now)
   * @param opts.sleep wait primitive (default setTimeout-based)
   */
  constructor(opts: { quotas?: Partial<Record<Pool, PoolQuota>>; now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const mk = (p: Pool): PoolState => {
      const q = { ...POOL_QUOTAS[p], ...(opts.quotas?.[p] ?? {}) };
      return { limit: q.limit, remaining: q.limit, resetAt: 0, windowMs: q.windowMs, queue: [], draining: false };
    };
    this.pools = { public: mk('public'), spot: mk('spot'), management: mk('management') };
  }

  /** Current budget of every pool (a window that has passed is reported as refilled). */
  budget(): Record<Pool, PoolBudget> {
    const out = {} as Record<Pool, PoolBudget>;
    for (const p of Object.keys(this.pools) as Pool[]) {
      const s = this.pools[p];
      this.refill(s);
      out[p] = { limit: s.limit, remaining: s.remaining, resetAt: s.resetAt };
    }
    return out;
  }

  /** Number of requests waiting in `pool`'s queue. */
  queued(pool: Pool): number {
    return this.pools[pool].queue.length;
  }

  /**
   * Take `weight` from `pool`, waiting (FIFO) until the budget allows it. A weight larger than the
   * whole limit is granted once the window is fresh (never deadlocks).
   */
  acquire(pool: Pool, weight: number): Promise<void> {
    const s = this.pools[pool];
    if (s.queue.length === 0 && this.tryTake(s, weight)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      s.queue.push({ weight, resolve });
      void this.drain(s);
    });
  }

  /** Apply the server's rate-limit headers of an answer from `pool`. */
  update(pool: Pool, h: RateLimitHeaders | undefined): void {
    if (!h) return;
    const s = this.pools[pool];
    if (h.limit !== undefined && h.limit > 0) s.limit = h.limit;
    if (h.remaining !== undefined) s.remaining = Math.max(0, Math.min(h.remaining, s.limit));
    if (h.reset !== undefined) s.resetAt = this.now() + Math.max(0, h.reset);
  }

  /** After a 429000: the pool is empty until `resetMs` from now (default: the remaining window, or a full one). */
  exhaust(pool: Pool, resetMs?: number): void {
    const s = this.pools[pool];
    s.remaining = 0;
    const now = this.now();
    if (resetMs !== undefined) s.resetAt = now + Math.max(0, resetMs);
    else if (s.resetAt <= now) s.resetAt = now + s.windowMs;
  }

  /** ms until `pool` resets (0 when the window has passed). */
  msUntilReset(pool: Pool): number {
    return Math.max(0, this.pools[pool].resetAt - this.now());
  }

  private refill(s: PoolState): void {
    if (this.now() >= s.resetAt && s.resetAt !== 0) {
      s.remaining = s.limit;
      s.resetAt = 0;
    }
  }

  private tryTake(s: PoolState, weight: number): boolean {
    this.refill(s);
    const fresh = s.remaining === s.limit;
    if (s.remaining >= weight || (fresh && weight > s.limit)) {
      // a window starts with its first request when the server has not told us otherwise
      if (s.resetAt === 0) s.resetAt = this.now() + s.windowMs;
      s.remaining = Math.max(0, s.remaining - weight);
      return true;
    }
    return false;
  }

  private async drain(s: PoolState): Promise<void> {
    if (s.draining) return;
    s.draining = true;
    try {
      while (s.queue.length) {
        const head = s.queue[0];
        if (this.tryTake(s, head.weight)) {
          s.queue.shift();
          head.resolve();
          continue;
        }
        const wait = Math.max(1, s.resetAt - this.now());
        await this.sleep(wait);
        // the window has now passed by our clock: refill even if the server never told us
        if (this.now() >= s.resetAt) {
          s.remaining = s.limit;
          s.resetAt = 0;
        }
      }
    } finally {
      s.draining = false;
    }
  }
}
