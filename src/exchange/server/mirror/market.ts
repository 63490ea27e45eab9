/**
 * The mirror market: the consumer of a {@link MarketSource} (a live upstream, upstream.ts, or a recording's
 * ReplaySource) inside a sandbox. It turns the source's events into the journaled commands of commands.ts and
 * the sandbox's service status:
 * - `snapshot` → `mirror.book` with `reset` (the symbol's liquidity becomes the snapshot's levels);
 * - `l2` → `mirror.book` with the changed levels;
 * - `trade` → `mirror.print`, with `bookHasIt` when the book events delivered already reach the print's sequence
 *   (its level change came first; commands.ts) (dropped while the source is not live: nothing fills against a stale book);
 * - `status` → `status.set`: `cancelonly` with a `msg` saying why and since when (the order routes then refuse
 *   new orders with KuCoin's `400200` "Forbidden to place an order" and keep accepting cancels, orders/common.ts
 *   `checkCanPlace`, status.ts), `open` again when `live`.
 * At start, before the source's first events, the candles the world carries become the symbols' past
 * (`mirror.candles`, once per symbol: a restart's tape has them already).
 *
 * Every change goes through `SandboxState.run`, so it is journaled and a restart replays it; the source delivers
 * a fresh snapshot after a restart anyway (docs/sandbox.md "Mirror mode"). A command the sandbox refuses (an
 * upstream price off the symbol's increment…) is counted and logged, never thrown into the source.
 */
import { ExchangeError } from '../../core';
import { SandboxError, type SandboxState } from '../state';
import type { MarketEvent, MarketSource, MarketStatusEvent } from './source';
import { sourceStatusPrefix } from './status';
import type { MirrorWorldData } from './upstream';

/** The `mirror` option of `startSandbox`: where the market comes from and what world it lives in. */
export interface MirrorOption {
  /** The market: `UpstreamSource` (mirror) or a recording's ReplaySource (replay). Started and closed by the sandbox. */
  source: MarketSource;
  /** What the status messages call it: `mirror` (a live upstream) or `replay` (a recording). */
  label: 'mirror' | 'replay';
  /** The mirrored symbols' rows, their currencies and candles (upstream.ts `fetchUpstreamWorld`, or the recording's header). */
  world: MirrorWorldData;
}

/** Counters of a {@link MirrorMarket}. */
export interface MirrorStats {
  /** Source events received. */
  events: number;
  /** Commands run (mirror.book, mirror.print, status.set). */
  commands: number;
  /** Prints dropped because the source was not live. */
  droppedPrints: number;
  /** Commands the sandbox refused (logged). */
  errors: number;
  lastError: string;
}

/** The consumer of a market source inside a sandbox (see the module docstring). */
export class MirrorMarket {
  readonly stats: MirrorStats = { events: 0, commands: 0, droppedPrints: 0, errors: 0, lastError: '' };
  readonly symbols: ReadonlySet<string>;
  private sourceState: MarketStatusEvent['state'] = 'live';
  /** per symbol, the upstream sequence the delivered book events reach */
  private readonly bookSeq = new Map<string, bigint>();
  private started = false;
  private closed = false;

  /**
   * @param state the sandbox's current state (read at every event: a reset replaces it)
   * @param opts the option; `log` receives refusals and status changes (never secrets)
   */
  constructor(
    private readonly state: () => SandboxState,
    private readonly opts: MirrorOption & { log?: (line: string) => void },
  ) {
    this.symbols = new Set(opts.world.symbols.map((s) => s.symbol));
  }

  /** The source's last reported state (`live` before any report). */
  get upstreamState(): MarketStatusEvent['state'] {
    return this.sourceState;
  }

  /**
   * Install the world's candles, start the source and wait for its first snapshots.
   * @throws (async) what the source's `start` throws (e.g. the upstream cannot be reached).
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('mirror market already started');
    this.started = true;
    for (const [symbol, rows] of Object.entries(this.opts.world.candles ?? {})) {
      if (!this.symbols.has(symbol) || rows.length === 0) continue;
      // a restarted sandbox has its past already: do not journal the rows again
      const tape = this.state().tape;
      if (tape.oldestMinute(symbol) !== null || tape.recentTrades(symbol).length > 0) continue;
      this.run('mirror.candles', { symbol, rows });
    }
    await this.opts.source.start((e) => this.onEvent(e));
  }

  /**
   * A manual clock moves to `t` (ms): a source on a manual clock (a replay) delivers its events up to `t` now,
   * each command stamped with its event's time (source.ts `advanceTo`). Live sources lack it: nothing happens.
   */
  advanceTo(t: number): void {
    if (!this.closed) this.opts.source.advanceTo?.(t);
  }

  /** Stop the source. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.opts.source.close();
  }

  /** One source event (synchronous; never throws). */
  onEvent(e: MarketEvent): void {
    if (this.closed) return;
    this.stats.events++;
    switch (e.type) {
      case 'snapshot':
        if (!this.symbols.has(e.symbol)) return;
        this.bookSeq.set(e.symbol, BigInt(e.sequence));
        this.run('mirror.book', { symbol: e.symbol, reset: true, bids: e.bids, asks: e.asks }, e.time);
        return;
      case 'l2':
        if (!this.symbols.has(e.symbol)) return;
        this.bookSeq.set(e.symbol, BigInt(e.sequenceEnd));
        this.run('mirror.book', { symbol: e.symbol, bids: e.changes.bids.map(([p, s]) => [p, s]), asks: e.changes.asks.map(([p, s]) => [p, s]) }, e.time);
        return;
      case 'trade':
        if (!this.symbols.has(e.symbol)) return;
        if (this.sourceState !== 'live') {
          this.stats.droppedPrints++;
          return;
        }
        this.run('mirror.print', { symbol: e.symbol, side: e.side, price: e.price, size: e.size, ...(this.bookHas(e.symbol, e.sequence) ? { bookHasIt: true } : {}) }, e.time);
        return;
      case 'status':
        this.onStatus(e);
        return;
    }
  }

  /** True when the book events delivered already reach upstream sequence `seq` (a print's level change). */
  private bookHas(symbol: string, seq: string): boolean {
    const have = this.bookSeq.get(symbol);
    if (have === undefined || !/^\d+$/.test(seq)) return false;
    return BigInt(seq) <= have;
  }

  private onStatus(e: MarketStatusEvent): void {
    this.sourceState = e.state;
    const st = this.state();
    if (e.state === 'live') {
      // back to open only from the cancel-only this market set (an operator's close or cancelonly stays)
      if (st.status.status === 'cancelonly' && st.status.msg.startsWith(sourceStatusPrefix(this.opts.label))) this.run('status.set', { status: 'open', msg: '' });
      return;
    }
    const what = e.state === 'unreachable' ? 'the upstream is unreachable' : `the upstream book${e.symbol ? ` of ${e.symbol}` : ''} is resyncing`;
    const msg = `${sourceStatusPrefix(this.opts.label)}${what} since ${new Date(e.since).toISOString()} (${e.reason}); orders can be cancelled, not placed`;
    if (st.status.status === 'close') return;
    this.opts.log?.(`sandbox: ${msg}`);
    this.run('status.set', { status: 'cancelonly', msg });
  }

  /** Run a command: at the event's `time` on a manual clock (a replay steps through its recording), else now. */
  private run(op: Parameters<SandboxState['run']>[0], args: unknown, time?: number): void {
    try {
      const st = this.state();
      if (st.manualClock && time !== undefined) st.exec({ op, t: Math.max(time, st.now()), args } as never);
      else st.run(op, args as never);
      this.stats.commands++;
    } catch (err) {
      if (!(err instanceof SandboxError || err instanceof ExchangeError)) {
        this.stats.errors++;
        this.stats.lastError = (err as Error).message;
        this.opts.log?.(`sandbox: ${this.opts.label}: ${op} failed unexpectedly: ${(err as Error).message}`);
        return;
      }
      this.stats.errors++;
      this.stats.lastError = err.message;
      this.opts.log?.(`sandbox: ${this.opts.label}: ${op} refused: ${err.message}`);
    }
  }
}
