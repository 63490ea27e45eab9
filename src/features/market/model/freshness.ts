/**
 * Whether the market panel's book is current: the staleness model of the panel's freshness line.
 *
 * A quiet market is not a stale stream. On the stream, the book is current as long as the STREAM is alive: its
 * heartbeat (the welcome, every pong, any data message), relayed by the host as `heartbeat` messages; sequence
 * gaps are the book keeper's job (src/api/l2Book.ts), reported as the feed state `resyncing`. So `live` is stale
 * only when neither a heartbeat nor a snapshot arrived for the heartbeat timeout ({@link STREAM_STALE_AFTER_MS}
 * by default); `resyncing`, `reconnecting` and `connecting` once that state lasted {@link GRACE_MS}. While the
 * book is POLLED, every answered poll is the heartbeat: stale when none was answered for the poll interval plus
 * {@link POLL_SLACK_MS}, never sooner than {@link STALE_AFTER_MS}. Why, and KuCoin's intervals:
 * docs/market.md "Freshness of the book".
 *
 * Pure (no DOM, no timers): the webview calls {@link FreshnessMonitor.judge} on its own tick; unit
 * tests drive it with explicit clocks (ms).
 */
import type { FeedInfo } from '../protocol';

/** Shortest time without an answered poll after which a polled book is stale, ms. */
export const STALE_AFTER_MS = 3000;
/** Default heartbeat timeout of the stream, ms: KuCoin's `pingInterval` (18 s) + `pingTimeout` (10 s). */
export const STREAM_STALE_AFTER_MS = 28_000;
/** How long the stream may be resyncing / reconnecting before the book is called stale, ms. */
export const GRACE_MS = 3000;
/** Allowance for a poll's round trip on top of the poll interval, ms. */
export const POLL_SLACK_MS = 1000;

/** The panel's freshness: no book yet, a current book, or a book that may be out of date. */
export type Freshness = 'waiting' | 'fresh' | 'stale';

/** A freshness state with the words the panel shows (empty when fresh). */
export interface FreshnessVerdict {
  readonly state: Freshness;
  readonly text: string;
}

/** Whole seconds of `ms`, rounded up ("more than 28 s"). */
function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * The evidence that the book's source is alive, and the verdict drawn from it (see the module
 * docstring). Times are the webview's own clock, ms.
 */
export class FreshnessMonitor {
  private feed: FeedInfo | null = null;
  /** When the current feed state began. */
  private feedSince = 0;
  /** Last heartbeat of the stream (or a snapshot while streaming). */
  private beatAt: number | undefined;
  /** Last answered poll (a snapshot accepted or confirming the current one). */
  private answerAt: number | undefined;
  private streamTimeoutMs = STREAM_STALE_AFTER_MS;
  private pollMs = 1000;

  /** The host's feed info (mode and state) changed at `now`. */
  setFeed(feed: FeedInfo, now: number): void {
    if (this.feed?.mode !== feed.mode || this.feed.state !== feed.state) this.feedSince = now;
    // Going live is itself a sign of life (the welcome).
    if (feed.state === 'live' && this.feed?.state !== 'live') this.beatAt = now;
    this.feed = feed;
  }

  /** The poll interval now (init `pollMs`, `polling` messages' `intervalMs`), ms. */
  setPollInterval(ms: number): void {
    this.pollMs = Math.max(0, ms);
  }

  /** A stream heartbeat arrived at `now`; `staleAfterMs` is the stream's heartbeat timeout when the host knows it. */
  heartbeat(now: number, staleAfterMs?: number): void {
    this.beatAt = now;
    if (staleAfterMs !== undefined && staleAfterMs > 0) this.streamTimeoutMs = staleAfterMs;
  }

  /** A snapshot was accepted, or an equal sequence confirmed the current one, at `now`. */
  snapshot(now: number): void {
    this.answerAt = now;
    this.beatAt = now;
  }

  /** Forget the evidence (another profile's market: nothing seen yet). */
  reset(): void {
    this.beatAt = this.answerAt = undefined;
    this.feed = null;
  }

  /** How long a polled book may go without an answer, ms. */
  get pollTimeoutMs(): number {
    return Math.max(STALE_AFTER_MS, this.pollMs + POLL_SLACK_MS);
  }

  /** The heartbeat timeout of the stream in force, ms. */
  get streamTimeout(): number {
    return this.streamTimeoutMs;
  }

  /**
   * The verdict at `now`. `hasBook`: whether a book is shown at all (else `waiting`).
   */
  judge(now: number, hasBook: boolean): FreshnessVerdict {
    if (!hasBook) return { state: 'waiting', text: 'Waiting for the first snapshot…' };
    const f = this.feed;
    if (f && f.mode === 'stream') {
      if (f.state === 'live') {
        const last = this.beatAt ?? this.feedSince;
        return now - last > this.streamTimeoutMs
          ? { state: 'stale', text: `Stale: no stream heartbeat in ${seconds(this.streamTimeoutMs)} s` }
          : { state: 'fresh', text: '' };
      }
      if (now - this.feedSince <= GRACE_MS) return { state: 'fresh', text: '' };
      const what = f.state === 'resyncing' ? 'stream resyncing the book' : f.state === 'reconnecting' ? 'stream reconnecting' : 'stream connecting';
      return { state: 'stale', text: `Stale: ${what}${f.reason ? ` (${f.reason})` : ''}` };
    }
    const timeout = this.pollTimeoutMs;
    if (this.answerAt === undefined || now - this.answerAt > timeout) return { state: 'stale', text: `Stale: no update for more than ${seconds(timeout)} s` };
    return { state: 'fresh', text: '' };
  }
}
