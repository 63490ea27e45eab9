/**
 * One shared, cached request with failure back-off ("failures back off instead of
 * repeating"). Every caller of {@link CachedFetch.get} shares the request in flight and then the
 * answer, for `ttlMs`; a failure is remembered and handed to every caller until a back-off delay
 * has passed (`minBackoffMs`, doubling with each consecutive failure up to `maxBackoffMs`), so that
 * switching to an unreachable exchange costs one request per delay instead of one per view. A
 * change of {@link CachedFetchOptions.key} (e.g. another profile) starts afresh; `force` (the
 * person asked to retry) skips the back-off. Pure: the clock is injected.
 */

/** Options of {@link CachedFetch}. */
export interface CachedFetchOptions {
  /** What the cached value belongs to (e.g. the profile id): a new key drops the cache and the back-off. */
  key: () => string;
  /** How long an answer is reused, ms (default 5 minutes). */
  ttlMs?: number;
  /** Back-off after the first failure, ms (default 5 s); doubles per consecutive failure. */
  minBackoffMs?: number;
  /** Longest back-off, ms (default 5 minutes). */
  maxBackoffMs?: number;
  /** Clock, ms (default Date.now). */
  now?: () => number;
}

/** A cached request (see the module docs). */
export class CachedFetch<T> {
  private forKey: string | undefined;
  private inflight: Promise<T> | undefined;
  private value: { v: T; at: number } | undefined;
  private failure: { err: unknown; retryAt: number } | undefined;
  /** Consecutive failures of the current key. */
  failures = 0;
  /** Requests started (tests and the log read it). */
  requests = 0;

  constructor(
    private readonly fetch: () => Promise<T>,
    private readonly opts: CachedFetchOptions,
  ) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /**
   * The value: cached, shared in flight, or fetched now. Within the back-off after a failure it
   * rejects with that failure without a request, unless `force`.
   * @throws whatever the fetch threw (the same error to every caller of the window).
   */
  get(force = false): Promise<T> {
    const key = this.opts.key();
    if (key !== this.forKey) this.reset(key);
    if (this.inflight) return this.inflight;
    const now = this.now();
    if (!force && this.value && now - this.value.at < (this.opts.ttlMs ?? 300_000)) return Promise.resolve(this.value.v);
    if (!force && this.failure && now < this.failure.retryAt) return Promise.reject(this.failure.err);
    this.requests++;
    const p = this.fetch().then(
      (v) => {
        if (this.inflight === p) {
          this.value = { v, at: this.now() };
          this.failure = undefined;
          this.failures = 0;
          this.inflight = undefined;
        }
        return v;
      },
      (err: unknown) => {
        if (this.inflight === p) {
          this.failures++;
          const delay = Math.min(this.opts.maxBackoffMs ?? 300_000, (this.opts.minBackoffMs ?? 5_000) * 2 ** (this.failures - 1));
          this.failure = { err, retryAt: this.now() + delay };
          this.inflight = undefined;
        }
        throw err;
      },
    );
    this.inflight = p;
    return p;
  }

  /** When the next request may be made after a failure (ms, epoch), or undefined when not backing off. */
  get retryAt(): number | undefined {
    return this.failure?.retryAt;
  }

  /** Drop the cached value, the failure and anything in flight (e.g. the profile changed). */
  reset(key: string | undefined = this.opts.key()): void {
    this.forKey = key;
    this.inflight = undefined;
    this.value = undefined;
    this.failure = undefined;
    this.failures = 0;
  }
}
