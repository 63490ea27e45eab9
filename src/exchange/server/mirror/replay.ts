/**
 * `ReplaySource`: a {@link MarketSource} that replays a SpotDesk market recording (./recording.ts,
 * docs/recording.md "Replay").
 *
 * - Order: events are delivered in file order, one at a time, synchronously.
 * - Time: an event's replay time is its `time` (`since` for a status event), made non-decreasing
 *   (`max(recorded, previous)`, since trade and book times of an upstream may interleave out of order); the
 *   delivered event carries that replay time as `time`, so a consumer's clock never runs backwards.
 * - `start()` delivers at once every event up to the first snapshot of every recorded symbol (the world
 *   starts synced), then:
 *   - with a real clock, the rest on timers at `speed` × the recorded pace (`speed` 0 or Infinity: as fast as
 *     possible, yielding to the event loop between batches);
 *   - with `manualClock`, nothing more until {@link ReplaySource.advanceTo} is called.
 * - Deterministic: the same file gives the same event sequence (byte-identical serializations), whatever the
 *   speed or clock.
 * The recorder's receive time (`recv`) is not delivered.
 */
import { RecordingReader, type RecordedEvent, type RecordingHeader } from './recording';
import type { MarketEvent, MarketSource } from './source';

/** Options of {@link ReplaySource}. */
export interface ReplayOptions {
  /** Pace: N × the recorded pace; 0 or Infinity = as fast as possible. Default 1. Ignored with `manualClock`. */
  speed?: number;
  /** Deliver only on {@link ReplaySource.advanceTo} (the sandbox's admin clock drives it). Default false. */
  manualClock?: boolean;
  /** Warnings sink (torn last block, skipped lines). Default: none. */
  log?: (line: string) => void;
  /** Wall clock for pacing, ms (tests inject one). Default performance.now. */
  now?: () => number;
}

/** Events delivered per batch before yielding to the event loop when replaying as fast as possible. */
const BATCH = 2048;

/** Replay time of a recorded event before clamping: `time`, or `since` for a status event. */
function timeOf(e: RecordedEvent): number {
  return e.type === 'status' ? e.since : e.time;
}

/** The replay source (see the module docstring). */
export class ReplaySource implements MarketSource {
  /** The recording's header (symbols, currencies, upstream, start). */
  readonly header: RecordingHeader;
  /** Events delivered so far. */
  delivered = 0;
  private readonly reader: RecordingReader;
  private readonly speed: number;
  private readonly manual: boolean;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private peeked: RecordedEvent | undefined;
  private eof = false;
  private last = -Infinity;
  private onEvent: ((e: MarketEvent) => void) | undefined;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private closed = false;
  private origin = { time: 0, wall: 0 };
  private resolveFinished!: () => void;
  /** Resolves when every event was delivered, or the source was closed. */
  readonly finished: Promise<void>;
  private warned = 0;

  /**
   * Open `file` and read its header.
   * @throws RecordingFormatError when the file is not a readable recording; Error for a bad `speed`.
   */
  constructor(
    readonly file: string,
    opts: ReplayOptions = {},
  ) {
    const speed = opts.speed ?? 1;
    if (!(speed >= 0)) throw new Error(`replay speed must be ≥ 0 (0 = as fast as possible), got ${speed}`);
    this.speed = speed === 0 ? Infinity : speed;
    this.manual = opts.manualClock ?? false;
    this.log = opts.log ?? (() => undefined);
    this.now = opts.now ?? (() => performance.now());
    this.reader = new RecordingReader(file);
    this.header = this.reader.header;
    this.finished = new Promise((r) => (this.resolveFinished = r));
  }

  /** Replay time of the last delivered event (ms), -Infinity before the first. */
  get time(): number {
    return this.last;
  }

  /** Replay time of the next event (ms), undefined at the end. */
  get nextTime(): number | undefined {
    const e = this.peek();
    return e === undefined ? undefined : Math.max(timeOf(e), this.last);
  }

  /**
   * Deliver every event up to the first snapshot of every recorded symbol, then pace the rest (see the module
   * docstring). @throws (async) Error when the recording ends before a symbol's first snapshot, or when started twice.
   */
  async start(onEvent: (e: MarketEvent) => void): Promise<void> {
    if (this.onEvent) throw new Error('replay source already started');
    this.onEvent = onEvent;
    const missing = new Set(this.header.symbolNames);
    while (missing.size > 0) {
      const e = this.deliverNext();
      if (e === undefined) {
        if (this.closed) return;
        throw new Error(`the recording ${this.file} has no snapshot of ${[...missing].join(', ')}`);
      }
      if (e.type === 'snapshot') missing.delete(e.symbol);
    }
    this.origin = { time: this.last, wall: this.now() };
    if (!this.manual) this.schedule(0);
  }

  /** Deliver, synchronously, every event whose replay time is ≤ `t` (ms) not yet delivered. */
  advanceTo(t: number): void {
    if (!this.onEvent) return;
    for (let e = this.peek(); e !== undefined && Math.max(timeOf(e), this.last) <= t; e = this.peek()) this.deliverNext();
  }

  /** Stop delivering and close the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer();
    this.reader.close();
    this.peeked = undefined;
    this.eof = true;
    this.resolveFinished();
  }

  private peek(): RecordedEvent | undefined {
    if (this.peeked === undefined && !this.eof) {
      this.peeked = this.reader.next();
      if (this.peeked === undefined) this.atEnd();
    }
    return this.peeked;
  }

  private atEnd(): void {
    this.eof = true;
    for (; this.warned < this.reader.warnings.length; this.warned++) this.log(`replay ${this.file}: ${this.reader.warnings[this.warned]}`);
    this.resolveFinished();
  }

  /** Deliver the next event (replay time applied, `recv` dropped); undefined at the end. */
  private deliverNext(): MarketEvent | undefined {
    const r = this.peek();
    if (r === undefined || !this.onEvent) return undefined;
    this.peeked = undefined;
    const t = Math.max(timeOf(r), this.last);
    this.last = t;
    const { recv: _recv, ...rest } = r;
    const e = rest as MarketEvent;
    if (e.type !== 'status') e.time = t;
    this.delivered++;
    this.onEvent(e);
    if (this.peeked === undefined && !this.eof) this.peek();
    return e;
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.eof) return;
    this.timer = delayMs <= 0 ? setImmediate(() => this.pump()) : setTimeout(() => this.pump(), delayMs);
  }

  /** Deliver what is due (at most a batch), then schedule the next step. */
  private pump(): void {
    this.timer = undefined;
    let n = 0;
    for (;;) {
      if (this.closed) return;
      const e = this.peek();
      if (e === undefined) return;
      if (this.speed !== Infinity) {
        const due = this.origin.wall + (Math.max(timeOf(e), this.last) - this.origin.time) / this.speed;
        const wait = due - this.now();
        if (wait > 0) {
          this.schedule(Math.max(1, Math.ceil(wait)));
          return;
        }
      }
      this.deliverNext();
      if (++n >= BATCH) {
        this.schedule(0);
        return;
      }
    }
  }
}
