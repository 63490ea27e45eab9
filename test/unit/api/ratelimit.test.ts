import { strict as assert } from 'node:assert';
import { RateLimiter, readRateLimitHeaders } from '../../../src/api/ratelimit';

/** Virtual clock: sleep records the wait and advances time on the next macrotask (no real waiting). */
function clock() {
  const c = { t: 1_000_000, sleeps: [] as number[] };
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      c.sleeps.push(ms);
      setImmediate(() => {
        c.t += ms;
        r();
      });
    });
  return { c, now: () => c.t, sleep };
}

describe('RateLimiter (virtual clock)', () => {
  it('a window opens with the first request and refills after windowMs', async () => {
    const { c, now, sleep } = clock();
    const rl = new RateLimiter({ quotas: { spot: { limit: 5, windowMs: 30_000 } }, now, sleep });
    assert.deepEqual(rl.budget().spot, { limit: 5, remaining: 5, resetAt: 0 });
    await rl.acquire('spot', 2);
    assert.deepEqual(rl.budget().spot, { limit: 5, remaining: 3, resetAt: c.t + 30_000 });
    c.t += 30_000;
    assert.deepEqual(rl.budget().spot, { limit: 5, remaining: 5, resetAt: 0 });
    assert.deepEqual(rl.budget().public, { limit: 2000, remaining: 2000, resetAt: 0 });
    assert.deepEqual(rl.budget().management, { limit: 2000, remaining: 2000, resetAt: 0 });
  });
  it('queues FIFO when exhausted and releases after the reset', async () => {
    const { c, now, sleep } = clock();
    const rl = new RateLimiter({ quotas: { public: { limit: 4, windowMs: 10_000 } }, now, sleep });
    const order: string[] = [];
    const t0 = c.t;
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((x) => rl.acquire('public', 2).then(() => order.push(`${x}@${c.t - t0}`))));
    assert.deepEqual(order, ['a@0', 'b@0', 'c@10000', 'd@10000', 'e@20000']);
    assert.deepEqual(c.sleeps, [10_000, 10_000]);
  });
  it('a weight larger than the limit is granted on a fresh window (no deadlock)', async () => {
    const { now, sleep } = clock();
    const rl = new RateLimiter({ quotas: { management: { limit: 3, windowMs: 1000 } }, now, sleep });
    await rl.acquire('management', 20);
    assert.equal(rl.budget().management.remaining, 0);
  });
  it('server headers and 429 exhaust override the local view', async () => {
    const { c, now, sleep } = clock();
    const rl = new RateLimiter({ now, sleep });
    rl.update('spot', readRateLimitHeaders((n) => ({ 'gw-ratelimit-limit': '4000', 'gw-ratelimit-remaining': '3', 'gw-ratelimit-reset': '2500' })[n] ?? null));
    assert.deepEqual(rl.budget().spot, { limit: 4000, remaining: 3, resetAt: c.t + 2500 });
    rl.exhaust('spot', 900);
    assert.deepEqual(rl.budget().spot, { limit: 4000, remaining: 0, resetAt: c.t + 900 });
    await rl.acquire('spot', 1);
    assert.deepEqual(c.sleeps, [900]);
    assert.equal(rl.budget().spot.remaining, 3999);
    assert.equal(readRateLimitHeaders(() => null), undefined);
    assert.deepEqual(readRateLimitHeaders((n) => (n === 'gw-ratelimit-remaining' ? 'x' : n === 'gw-ratelimit-reset' ? '10' : null)), { limit: undefined, remaining: undefined, reset: 10 });
  });
});
