/**
 * Failures back off instead of repeating: src/api/cachedFetch.ts shares one request
 * among its callers, reuses the answer, hands a failure to everyone until its back-off has passed
 * (doubling per failure), starts afresh for another key, and lets a Retry (`force`) ask at once.
 */
import { strict as assert } from 'assert';
import { CachedFetch } from '../../../src/api/cachedFetch';

describe('CachedFetch (src/api/cachedFetch.ts)', () => {
  let now = 0;
  let key = 'sandbox';
  let calls = 0;
  let fail = true;
  const make = () =>
    new CachedFetch<string>(
      async () => {
        calls++;
        if (fail) throw new Error(`unreachable ${calls}`);
        return `list ${calls}`;
      },
      { key: () => key, now: () => now, minBackoffMs: 5_000, maxBackoffMs: 20_000, ttlMs: 60_000 },
    );
  beforeEach(() => {
    now = 0;
    key = 'sandbox';
    calls = 0;
    fail = true;
  });

  it('callers at the same time share one request', async () => {
    fail = false;
    const c = make();
    const all = await Promise.all([c.get(), c.get(), c.get()]);
    assert.deepEqual(all, ['list 1', 'list 1', 'list 1']);
    assert.equal(calls, 1);
    now = 59_999;
    assert.equal(await c.get(), 'list 1', 'reused within the ttl');
    now = 60_000;
    assert.equal(await c.get(), 'list 2', 'asked again after the ttl');
  });

  it('a failure is handed to every caller until its back-off has passed; the back-off doubles, up to the maximum', async () => {
    const c = make();
    await assert.rejects(c.get(), /unreachable 1/);
    for (const t of [1, 2_000, 4_999]) {
      now = t;
      await assert.rejects(c.get(), /unreachable 1/, `no new request at ${t} ms`);
    }
    assert.equal(calls, 1);
    assert.equal(c.retryAt, 5_000);
    now = 5_000;
    await assert.rejects(c.get(), /unreachable 2/);
    assert.equal(c.retryAt, 15_000, 'second failure: 10 s');
    now = 15_000;
    await assert.rejects(c.get(), /unreachable 3/);
    assert.equal(c.retryAt, 35_000, 'third failure: capped at 20 s');
    assert.equal(calls, 3);
  });

  it('a Retry (force) asks at once; a success ends the back-off', async () => {
    const c = make();
    await assert.rejects(c.get());
    fail = false;
    now = 10;
    assert.equal(await c.get(true), 'list 2');
    assert.equal(c.failures, 0);
    assert.equal(c.retryAt, undefined);
  });

  it('another key (another profile) starts afresh', async () => {
    const c = make();
    await assert.rejects(c.get());
    key = 'KuCoin';
    fail = false;
    assert.equal(await c.get(), 'list 2', 'not held back by the other profile\'s failure');
    key = 'sandbox';
    assert.equal(await c.get(), 'list 3', 'nor served the other profile\'s list');
  });
});
