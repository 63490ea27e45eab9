/**
 * Poll scheduling of the order book panel: how long to wait before the next
 * GET /api/v1/market/orderbook/level2_{20,100} given the configured interval, the public pool's
 * remaining rate budget and recent failures. Pure (no timers, no `vscode`) so it is unit-tested.
 *
 * Weights (spec "Limits"): level2_20 costs 2, level2_100 costs 4 in the Public pool.
 */

/** Snapshot of one weight pool's budget: `remaining` weight of `limit` in the window, which resets in `resetInMs`. */
export interface PoolBudget {
  readonly remaining: number;
  readonly limit: number;
  readonly resetInMs: number;
}

/** Inputs of {@link nextPollDelay}. */
export interface PollInput {
  /** The configured interval, ms (`spotdesk.orderBook.refreshIntervalMs`, clamped to ≥ {@link MIN_POLL_MS}). */
  readonly baseMs: number;
  /** Request weight of one poll: 2 for level2_20, 4 for level2_100. */
  readonly weight: number;
  /** The public pool's budget after the last request, when the client knows it. */
  readonly budget?: PoolBudget;
  /** Consecutive failed polls (0 after a success). */
  readonly failures: number;
  /** True when the last failure was a rate-limit rejection (429000). */
  readonly rateLimited?: boolean;
}

/** Result of {@link nextPollDelay}: the delay (ms) and whether it is a back-off (shown in the panel). */
export interface PollDecision {
  readonly delayMs: number;
  readonly backoff: boolean;
}

/** Fastest allowed poll interval, ms. */
export const MIN_POLL_MS = 250;
/** Longest back-off, ms. */
export const MAX_BACKOFF_MS = 30_000;
/** Share of the pool the order book leaves to the rest of SpotDesk (tree views, other panels). */
export const RESERVE_SHARE = 0.25;

/** Weight of one level-2 poll in the Public pool (spec "Limits"): 2 for 20 levels, 4 for 100. */
export function level2Weight(depth: 20 | 100): number {
  return depth === 100 ? 4 : 2;
}

/**
 * Delay before the next poll, ms.
 * - After failures: exponential back-off `base × 2^failures` capped at 30 s; after a 429 at least
 *   until the pool resets.
 * - With a known budget: while more than half of the pool is left, the configured interval; below
 *   that, the weight above the reserve (25 % of the pool, left to the rest of SpotDesk) is spread
 *   evenly over the rest of the window (never faster than the interval); with less than one poll's
 *   weight above the reserve, wait for the reset.
 */
export function nextPollDelay(input: PollInput): PollDecision {
  const base = Math.max(MIN_POLL_MS, Math.floor(input.baseMs));
  const reset = input.budget ? Math.max(0, input.budget.resetInMs) : 0;
  if (input.failures > 0) {
    let delay = Math.min(MAX_BACKOFF_MS, base * 2 ** Math.min(input.failures, 10));
    if (input.rateLimited) delay = Math.max(delay, Math.min(MAX_BACKOFF_MS, reset + 50));
    return { delayMs: delay, backoff: true };
  }
  const b = input.budget;
  if (!b || b.limit <= 0) return { delayMs: base, backoff: false };
  const reserve = Math.ceil(b.limit * RESERVE_SHARE);
  const usable = b.remaining - reserve;
  if (b.remaining > reserve * 2) return { delayMs: base, backoff: false }; // more than half of the pool left
  if (usable < input.weight) return { delayMs: Math.max(base, Math.min(MAX_BACKOFF_MS, reset + 50)), backoff: true };
  const polls = Math.floor(usable / input.weight);
  const spread = Math.ceil(reset / polls);
  return spread > base ? { delayMs: Math.min(MAX_BACKOFF_MS, spread), backoff: true } : { delayMs: base, backoff: false };
}

/**
 * The client's public-pool budget, adapted to {@link PoolBudget}. The client exposes
 * `budget(): Record<pool, {limit, remaining, resetAt (epoch ms)}>` (src/api/ratelimit.ts); anything
 * else yields undefined (the poller then just uses the configured interval).
 */
export function publicBudget(client: unknown, now: number): PoolBudget | undefined {
  const c = client as { budget?: () => unknown } | undefined;
  if (!c || typeof c.budget !== 'function') return undefined;
  let all: unknown;
  try {
    all = c.budget();
  } catch {
    return undefined;
  }
  const b = (all as Record<string, unknown> | undefined)?.public as { limit?: unknown; remaining?: unknown; resetAt?: unknown } | undefined;
  if (!b || typeof b.limit !== 'number' || typeof b.remaining !== 'number') return undefined;
  const resetAt = typeof b.resetAt === 'number' ? b.resetAt : 0;
  return { limit: b.limit, remaining: b.remaining, resetInMs: resetAt > 0 ? Math.max(0, resetAt - now) : 0 };
}
