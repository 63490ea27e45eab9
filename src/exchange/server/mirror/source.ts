/**
 * The market a mirror or replay sandbox borrows: a stream of normalized public-market events of some
 * symbols, from a live upstream (KuCoin, or another sandbox: `UpstreamSource`) or from a recording
 * (`ReplaySource`). The mirror market (the consumer) applies them to the sandbox's public book and tape and
 * matches the sandbox users' orders against them; it never sends anything upstream.
 *
 * Contract of a source:
 * - Per symbol, a `snapshot` comes before any `l2` of that symbol, and again after every resync.
 * - `l2` increments of a symbol arrive in sequence order without gaps after the last `snapshot`: a source
 *   that detects a gap resyncs (`status` `resyncing`, then a new `snapshot`, then `live`) instead of passing it on.
 * - Sequences are the upstream's, exact, as decimal strings (the mirror numbers its own book separately).
 * - Prices and sizes are the wire's decimal strings; a size "0" removes the level.
 * - `time` is the upstream's event time in ms (a recording replays it; the mirror's clock follows it in replay).
 * - Events are delivered synchronously, one at a time, in order; `onEvent` must not throw (a consumer's error
 *   is its own to log).
 * Spec: KuCoin WebSocket `/market/level2` ("Calibration procedure") and `/market/match`.
 */

/** A full level-2 book of one symbol at upstream `sequence` (best first on both sides). */
export interface MarketSnapshotEvent {
  type: 'snapshot';
  symbol: string;
  sequence: string;
  bids: [price: string, size: string][];
  asks: [price: string, size: string][];
  time: number;
}

/** One level-2 increment: the changed levels of one symbol, covering upstream sequences start..end. */
export interface MarketL2Event {
  type: 'l2';
  symbol: string;
  sequenceStart: string;
  sequenceEnd: string;
  changes: { asks: [price: string, size: string, sequence: string][]; bids: [price: string, size: string, sequence: string][] };
  time: number;
}

/** One upstream trade (taker `side`), as `/market/match` prints it. */
export interface MarketTradeEvent {
  type: 'trade';
  symbol: string;
  sequence: string;
  tradeId: string;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  time: number;
}

/**
 * The source's health. `live`: every symbol synced. `resyncing`: a symbol's book is being rebuilt
 * (`symbol` names it). `unreachable`: the upstream cannot be reached. `reason` is for people
 * (it goes into `GET /api/v1/status`'s `msg`); `since` is when this state began (ms).
 */
export interface MarketStatusEvent {
  type: 'status';
  state: 'live' | 'resyncing' | 'unreachable';
  symbol?: string;
  reason: string;
  since: number;
}

/** Everything a market source delivers. */
export type MarketEvent = MarketSnapshotEvent | MarketL2Event | MarketTradeEvent | MarketStatusEvent;

/** A source of {@link MarketEvent}s (live upstream or recording). */
export interface MarketSource {
  /** Begin delivering events to `onEvent`; resolves once the first snapshot of every symbol was delivered. */
  start(onEvent: (e: MarketEvent) => void): Promise<void>;
  /**
   * Replay on a manual clock only: deliver, synchronously, every event whose `time` ≤ `t` (ms) not yet delivered.
   * The admin clock endpoint calls it before the sandbox's clock moves to `t`. Live sources lack it.
   */
  advanceTo?(t: number): void;
  /** Stop delivering and release connections and files. Idempotent. */
  close(): Promise<void>;
}
