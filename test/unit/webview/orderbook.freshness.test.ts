/**
 * The market panel's staleness model (src/features/market/model/freshness.ts): a quiet market on a live
 * stream is not stale (the stream's heartbeat decides, not book changes); a stream that stops beating
 * is; a resync or a reconnect is called stale only once it lasts; a polled book is stale when no poll
 * was answered within its interval (never sooner than 3 s), and a re-polled unchanged book counts.
 */
import { strict as assert } from 'assert';
import { FreshnessMonitor, GRACE_MS, STALE_AFTER_MS, STREAM_STALE_AFTER_MS } from '../../../src/features/market/model/freshness';
import type { FeedInfo } from '../../../src/features/market/protocol';

const LIVE: FeedInfo = { mode: 'stream', state: 'live', reason: null };
const POLLING: FeedInfo = { mode: 'polling', state: 'polling', reason: 'public stream: Unreachable' };

describe('market panel freshness (src/features/market/model/freshness.ts)', () => {
  it('waits until a book is shown', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    assert.deepEqual(m.judge(60_000, false), { state: 'waiting', text: 'Waiting for the first snapshot…' });
  });

  it('a quiet market on a live stream stays fresh while the heartbeat goes on, however long the book does not change', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    m.snapshot(100); // the one and only book change
    // The host relays the stream's heartbeat (the 2 s statistics, pongs) for a minute: no book change at all.
    for (let t = 2000; t <= 60_000; t += 2000) {
      m.heartbeat(t, 28_000);
      assert.equal(m.judge(t + 1999, true).state, 'fresh', `at ${t + 1999} ms`);
    }
    // The old rule (no book change for 3 s) would have called this stale 19 times.
  });

  it('a live stream whose heartbeat stops is stale after its heartbeat timeout (pingInterval + pingTimeout)', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    m.snapshot(0);
    m.heartbeat(1000, 5000);
    assert.equal(m.streamTimeout, 5000);
    assert.equal(m.judge(6000, true).state, 'fresh'); // exactly the timeout
    assert.deepEqual(m.judge(6001, true), { state: 'stale', text: 'Stale: no stream heartbeat in 5 s' });
    m.heartbeat(6500);
    assert.equal(m.judge(6600, true).state, 'fresh', 'a heartbeat makes it fresh again');
    assert.equal(m.streamTimeout, 5000, 'a heartbeat without a timeout keeps the one in force');
  });

  it('defaults to KuCoin\'s 18 s + 10 s when the host names no timeout; a snapshot is a heartbeat too', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    assert.equal(STREAM_STALE_AFTER_MS, 28_000);
    m.snapshot(10_000);
    assert.equal(m.judge(38_000, true).state, 'fresh');
    assert.equal(m.judge(38_001, true).state, 'stale');
  });

  it('going live counts as a heartbeat (the welcome)', () => {
    const m = new FreshnessMonitor();
    m.snapshot(0);
    m.setFeed({ mode: 'stream', state: 'reconnecting', reason: 'the connection closed (code 1006)' }, 1000);
    m.setFeed(LIVE, 50_000);
    assert.equal(m.judge(60_000, true).state, 'fresh');
  });

  it('a resync or a reconnect is stale only once it lasted the grace period, with what is going on', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    m.snapshot(0);
    m.setFeed({ mode: 'stream', state: 'resyncing', reason: 'a sequence gap was detected: loading a fresh snapshot' }, 1000);
    assert.equal(m.judge(1000 + GRACE_MS, true).state, 'fresh', 'a short resync does not flash the banner');
    assert.deepEqual(m.judge(1001 + GRACE_MS, true), { state: 'stale', text: 'Stale: stream resyncing the book (a sequence gap was detected: loading a fresh snapshot)' });
    // Heartbeats do not make a resyncing book current.
    m.heartbeat(5000);
    assert.equal(m.judge(5001, true).state, 'stale');
    m.setFeed({ mode: 'stream', state: 'reconnecting', reason: null }, 6000);
    assert.equal(m.judge(6000 + GRACE_MS, true).state, 'fresh', 'a new state starts its own grace period');
    assert.deepEqual(m.judge(6001 + GRACE_MS, true), { state: 'stale', text: 'Stale: stream reconnecting' });
  });

  it('a polled book: every answered poll counts, also one with the same sequence; stale after the interval plus slack, never under 3 s', () => {
    const m = new FreshnessMonitor();
    m.setFeed(POLLING, 0);
    m.setPollInterval(1000);
    assert.equal(m.pollTimeoutMs, STALE_AFTER_MS);
    m.snapshot(0);
    m.snapshot(2500); // a re-poll of an unchanged book (duplicate sequence) is an answer
    assert.equal(m.judge(5500, true).state, 'fresh');
    assert.deepEqual(m.judge(5501, true), { state: 'stale', text: 'Stale: no update for more than 3 s' });
    // Slower polling (a low rate budget): the interval decides.
    m.setPollInterval(8000);
    assert.equal(m.pollTimeoutMs, 9000);
    assert.equal(m.judge(11_500, true).state, 'fresh');
    assert.deepEqual(m.judge(11_501, true), { state: 'stale', text: 'Stale: no update for more than 9 s' });
  });

  it('without any feed information (an older host) a book is judged as polled', () => {
    const m = new FreshnessMonitor();
    m.snapshot(1000);
    assert.equal(m.judge(4000, true).state, 'fresh');
    assert.equal(m.judge(4001, true).state, 'stale');
    m.heartbeat(4000); // a heartbeat is about the stream, not an answered poll
    assert.equal(m.judge(4001, true).state, 'stale');
  });

  it('reset forgets the evidence', () => {
    const m = new FreshnessMonitor();
    m.setFeed(LIVE, 0);
    m.snapshot(0);
    m.reset();
    assert.equal(m.judge(10, true).state, 'stale', 'no answer seen since the reset');
  });
});
