/**
 * The feed's publishing side: subscriptions by topic, the core's event sink, and delivery.
 *
 * Events reach only the topics someone subscribes to, go out after the command was journaled (never for
 * a failed command), are serialized once per topic (a symbol's level changes of one flush are ONE
 * `trade.l2update`), and a client that stops reading is dropped. Subscriptions, flushing, bounds and the
 * throttled topics: docs/sandbox.md, "Feed publishing".
 */
import * as D from '../../../api/decimal';
import type { SandboxState } from '../state';
import type { AdvancedOrderEvent, BalanceEvent, CoreEventSink, FeedEventSource, LevelEvent, OrderEvent, TradeEvent } from './events';
import { CANDLE_SECONDS } from '../../../api/candleIntervals';
import {
  NanoClock,
  advancedOrderMessage,
  balanceMessage,
  candleMessage,
  depthMessage,
  level1Message,
  l2Change,
  l2UpdateMessage,
  matchMessage,
  orderMessage,
  snapshotMessage,
  tickerMessage,
  type TickerState,
  type WindowStats,
} from './payloads';
import { CHANNELS, symbolOfKey, type Channel, type TopicKey } from './topics';
import { candleStats } from '../marketStats';

/** A subscriber as the publisher sees it. */
export interface Subscriber {
  /** Queue one pre-framed message for this flush. */
  queue(frame: Buffer): void;
  /** Write the queued frames (one socket write); returns the socket's unsent bytes afterwards. */
  drain(): number;
  /** Send one message to this subscriber only (initial state after subscribing). */
  sendNow(frame: Buffer): void;
}

/** Counters of the publisher. */
export interface PublisherStats {
  /** Distinct messages built (each serialized once). */
  messagesBuilt: number;
  /** Messages written to sockets (one per subscriber per message). */
  deliveries: number;
  /** Level changes published (inside `trade.l2update` messages). */
  levelChanges: number;
  /** Connections disconnected because their send buffer passed the bound. */
  slowDisconnects: number;
  /** Throttled topics (depth, ticker, snapshot) recomputed after a change of their symbol. */
  throttleChecks: number;
}

/** Options of {@link Publisher}. */
export interface PublisherOptions {
  sendBufferLimitBytes: number;
  fastIntervalMs: number;
  /** Period of level1 pushes (at most, only on change), ms. Default 10 (KuCoin: "once every 10ms"). */
  level1IntervalMs?: number;
  snapshotIntervalMs: number;
  /** Called for a subscriber whose unsent bytes passed the bound (the feed disconnects it). */
  onSlow: (s: Subscriber) => void;
  /** Log sink for unexpected errors (a bug in the feed never reaches the core's command or the process). */
  log: (line: string) => void;
}

/** Changes of at most this many levels go into one `trade.l2update`; more start another message. */
const MAX_CHANGES_PER_MESSAGE = 1000;

interface L2Batch {
  symbol: string;
  asks: string[];
  bids: string[];
  start: number;
  end: number;
  time: number;
}

/** One message waiting for the flush: its topic key and text, or a level-2 batch, a balance event or a candle (text built at the flush). */
interface Pending {
  channel: Channel;
  key: string;
  text?: string;
  batch?: L2Batch;
  balance?: BalanceEvent;
  /** Candles: the time (ms) of the last trade of the flush. */
  candleAt?: number;
}

/** KuCoin's candle intervals, finest first. */
const CANDLE_TYPES = Object.keys(CANDLE_SECONDS) as (keyof typeof CANDLE_SECONDS)[];

/**
 * Frame `payload` as one unmasked, final WebSocket text frame (RFC 6455 §5.2; server to client).
 * The same Buffer is written to every subscriber.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const f = Buffer.allocUnsafe(head + n);
  f[0] = 0x81;
  if (n < 126) f[1] = n;
  else if (n < 65536) {
    f[1] = 126;
    f.writeUInt16BE(n, 2);
  } else {
    f[1] = 127;
    f.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    f.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(f, head);
  return f;
}

/** {@link textFrame} of a string. */
export function frameOf(text: string): Buffer {
  return textFrame(Buffer.from(text, 'utf8'));
}

const DAY_MS = 24 * 3600 * 1000;

/** The publisher (see the module docstring). */
export class Publisher implements CoreEventSink {
  readonly stats: PublisherStats = { messagesBuilt: 0, deliveries: 0, levelChanges: 0, slowDisconnects: 0, throttleChecks: 0 };
  private readonly subs = {} as Record<Channel, Map<string, Set<Subscriber>>>;
  private readonly symbolRefs = new Map<string, number>();
  private readonly userRefs = new Map<string, number>();
  private pending: Pending[] = [];
  private openBatches = new Map<string, L2Batch>();
  private flushScheduled = false;
  private readonly nanos = new NanoClock();
  private readonly lastTrade = new Map<string, { price: string; size: string } | null>();
  private readonly lastSent = new Map<string, string>();
  private readonly dirtyFast = new Set<string>();
  private readonly dirtySlow = new Set<string>();
  private readonly dirtyL1 = new Set<string>();
  /** Candle keys with a message already waiting for the flush (its `candleAt` is updated instead). */
  private readonly pendingCandles = new Map<string, Pending>();
  private fastTimer: NodeJS.Timeout | undefined;
  private slowTimer: NodeJS.Timeout | undefined;
  private l1Timer: NodeJS.Timeout | undefined;
  private throttledSubs = { fast: 0, slow: 0, l1: 0 };
  private closed = false;
  /** Balance events of the running command still without a relationEventId. */
  private unnamed: BalanceEvent[] = [];
  private readonly offCommand: () => void;

  constructor(
    private readonly state: SandboxState,
    private readonly source: FeedEventSource | undefined,
    private readonly opts: PublisherOptions,
  ) {
    for (const c of Object.keys(CHANNELS) as Channel[]) this.subs[c] = new Map();
    source?.setEventSink(this);
    // Called after each command was journaled, before the flush: name the deposits and transfers.
    this.offCommand = state.onCommand((cmd, result) => {
      if (this.unnamed.length === 0) return;
      const id = cmd.op === 'deposit' ? cmd.args.depositId : cmd.op === 'transfer' ? (result as { orderId?: string } | null)?.orderId : undefined;
      if (id !== undefined) for (const e of this.unnamed) e.relationEventId = id;
      this.unnamed = [];
    });
  }

  /** Stop: the sink is removed, every watch flag turned off, timers stopped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.offCommand();
    if (this.source) {
      this.source.setEventSink(null);
      for (const s of this.symbolRefs.keys()) this.source.watchSymbol(s, false);
      for (const u of this.userRefs.keys()) this.source.watchUser(u, false);
    }
    this.symbolRefs.clear();
    this.userRefs.clear();
    if (this.fastTimer) clearInterval(this.fastTimer);
    if (this.slowTimer) clearInterval(this.slowTimer);
    if (this.l1Timer) clearInterval(this.l1Timer);
    this.pending = [];
    this.pendingCandles.clear();
    this.openBatches.clear();
  }

  /** Subscribers of one key (tests, stats). */
  subscribers(channel: Channel, key: string): number {
    return this.subs[channel].get(key)?.size ?? 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Subscriptions
  // ---------------------------------------------------------------------------------------------

  /** Add `s` to `k` (the caller checked limits and that it is not subscribed yet). */
  add(s: Subscriber, k: TopicKey): void {
    let set = this.subs[k.channel].get(k.key);
    if (!set) this.subs[k.channel].set(k.key, (set = new Set()));
    set.add(s);
    this.ref(k, +1);
  }

  /** Remove `s` from `k` (no-op when absent). */
  remove(s: Subscriber, k: TopicKey): void {
    const set = this.subs[k.channel].get(k.key);
    if (!set || !set.delete(s)) return;
    if (set.size === 0) this.subs[k.channel].delete(k.key);
    this.ref(k, -1);
  }

  private ref(k: TopicKey, d: 1 | -1): void {
    if (k.channel === 'depth5' || k.channel === 'depth50' || k.channel === 'ticker') this.throttle('fast', d);
    if (k.channel === 'snapshot') this.throttle('slow', d);
    if (k.channel === 'level1') this.throttle('l1', d);
    if (CHANNELS[k.channel].private) {
      this.bump(this.userRefs, k.key, d, (on) => this.source?.watchUser(k.key, on));
      return;
    }
    const symbols = k.key === 'all' ? this.state.world.symbols.map((s) => s.symbol) : [symbolOfKey(k)];
    for (const sym of symbols)
      this.bump(this.symbolRefs, sym, d, (on) => {
        if (!on) this.lastTrade.delete(sym); // trades of an unwatched symbol are not seen: forget the cache
        this.source?.watchSymbol(sym, on);
      });
  }

  private bump(m: Map<string, number>, key: string, d: 1 | -1, toggle: (on: boolean) => void): void {
    const n = (m.get(key) ?? 0) + d;
    if (n <= 0) {
      m.delete(key);
      toggle(false);
    } else {
      m.set(key, n);
      if (n === 1 && d === 1) toggle(true);
    }
  }

  private throttle(which: 'fast' | 'slow' | 'l1', d: 1 | -1): void {
    this.throttledSubs[which] += d;
    const n = this.throttledSubs[which];
    if (which === 'l1') {
      if (n > 0 && !this.l1Timer) {
        this.l1Timer = setInterval(() => this.guard('level1 tick', () => this.tickL1()), this.opts.level1IntervalMs ?? 10);
        this.l1Timer.unref();
      } else if (n === 0 && this.l1Timer) {
        clearInterval(this.l1Timer);
        this.l1Timer = undefined;
      }
      return;
    }
    if (which === 'fast') {
      if (n > 0 && !this.fastTimer) {
        this.fastTimer = setInterval(() => this.guard('depth/ticker tick', () => this.tickFast()), this.opts.fastIntervalMs);
        this.fastTimer.unref();
      } else if (n === 0 && this.fastTimer) {
        clearInterval(this.fastTimer);
        this.fastTimer = undefined;
      }
    } else if (n > 0 && !this.slowTimer) {
      this.slowTimer = setInterval(() => this.guard('snapshot tick', () => this.tickSlow()), this.opts.snapshotIntervalMs);
      this.slowTimer.unref();
    } else if (n === 0 && this.slowTimer) {
      clearInterval(this.slowTimer);
      this.slowTimer = undefined;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The core's events (called synchronously inside commands; only buffered here)
  // ---------------------------------------------------------------------------------------------

  // Each entry point catches: a bug here must never abort the core's command that emitted the event,
  // nor escape from a microtask or timer and take the sandbox down.

  /** A visible level changed: appended to the symbol's open `trade.l2update` batch. */
  level(e: LevelEvent): void {
    this.handle('level event', this.onLevel, e);
  }

  /** A trade: a `trade.l3match` message; remembered as the symbol's last trade for the tickers. */
  trade(e: TradeEvent): void {
    this.handle('trade event', this.onTrade, e);
  }

  /** An order change: `orderChange` on tradeOrdersV2, and on tradeOrders (v1) except `received`. */
  order(e: OrderEvent): void {
    this.handle('order event', this.onOrder, e);
  }

  /** A balance change: `account.balance`. */
  balance(e: BalanceEvent): void {
    this.handle('balance event', this.onBalance, e);
  }

  /** A stop order or OCO leg placed, triggered or cancelled: `stopOrder` on /spotMarket/advancedOrders. */
  advanced(e: AdvancedOrderEvent): void {
    this.handle('advanced order event', this.onAdvanced, e);
  }

  private onAdvanced(e: AdvancedOrderEvent): void {
    if (!this.subs.advanced.has(e.uid)) return;
    this.enqueue({ channel: 'advanced', key: e.uid, text: advancedOrderMessage(e, this.nanos.next(e.time)) });
  }

  /**
   * Run the handler `on` of one core event: a throw is logged as a fault of `where` and goes no
   * further. Takes the method and its event (no closure per event: this runs inside core commands).
   */
  private handle<E>(where: string, on: (this: this, e: E) => void, e: E): void {
    try {
      on.call(this, e);
    } catch (err) {
      this.fault(where, err);
    }
  }

  private guard(where: string, f: () => void): void {
    try {
      f();
    } catch (err) {
      this.fault(where, err);
    }
  }

  private fault(where: string, err: unknown): void {
    try {
      this.opts.log(`feed: internal error in the ${where}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } catch {
      // a failing log sink must not matter either
    }
  }

  private onBalance(e: BalanceEvent): void {
    if (!this.subs.balance.has(e.uid)) return;
    // Deposits and transfers come without an id from the core: the command's own record names it (see onCommand).
    if (e.relationEventId === '') this.unnamed.push(e);
    this.enqueue({ channel: 'balance', key: e.uid, balance: e });
  }

  private onLevel(e: LevelEvent): void {
    this.dirtyFast.add(e.symbol);
    this.dirtySlow.add(e.symbol);
    this.dirtyL1.add(e.symbol);
    if (!this.subs.l2.has(e.symbol)) return;
    let b = this.openBatches.get(e.symbol);
    if (b === undefined || b.asks.length + b.bids.length >= MAX_CHANGES_PER_MESSAGE) {
      b = { symbol: e.symbol, asks: [], bids: [], start: e.sequence, end: e.sequence, time: e.time };
      this.openBatches.set(e.symbol, b);
      this.enqueue({ channel: 'l2', key: e.symbol, batch: b });
    }
    (e.side === 'sell' ? b.asks : b.bids).push(l2Change(e.price, e.size, e.sequence));
    b.end = e.sequence;
    b.time = e.time;
  }

  private onTrade(e: TradeEvent): void {
    this.lastTrade.set(e.symbol, { price: e.price, size: e.size });
    this.dirtyFast.add(e.symbol);
    this.dirtySlow.add(e.symbol);
    if (this.subs.match.has(e.symbol)) this.enqueue({ channel: 'match', key: e.symbol, text: matchMessage(e, this.nanos.next(e.time)) });
    if (this.subs.candles.size > 0) {
      for (const type of CANDLE_TYPES) {
        const key = `${e.symbol}_${type}`;
        if (!this.subs.candles.has(key)) continue;
        const waiting = this.pendingCandles.get(key);
        if (waiting) waiting.candleAt = e.time;
        else {
          const p: Pending = { channel: 'candles', key, candleAt: e.time };
          this.pendingCandles.set(key, p);
          this.enqueue(p);
        }
      }
    }
  }

  private onOrder(e: OrderEvent): void {
    const v2 = this.subs.orderV2.has(e.uid);
    const v1 = e.type !== 'received' && this.subs.orderV1.has(e.uid);
    if (!v1 && !v2) return;
    const ts = this.nanos.next(e.time);
    if (v2) this.enqueue({ channel: 'orderV2', key: e.uid, text: orderMessage('/spotMarket/tradeOrdersV2', e, ts) });
    if (v1) this.enqueue({ channel: 'orderV1', key: e.uid, text: orderMessage('/spotMarket/tradeOrders', e, ts) });
  }

  private enqueue(p: Pending): void {
    this.pending.push(p);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => {
        try {
          this.flush();
        } catch (err) {
          this.fault('flush', err);
        }
      });
    }
  }

  /** Write everything buffered since the last flush (see the module docstring). */
  flush(): void {
    this.flushScheduled = false;
    this.unnamed = [];
    const pending = this.pending;
    if (pending.length === 0 || this.closed) return;
    this.pending = [];
    this.openBatches = new Map();
    this.pendingCandles.clear();
    const touched = new Set<Subscriber>();
    for (const p of pending) {
      const set = this.subs[p.channel].get(p.key);
      if (set === undefined || set.size === 0) continue;
      let text = p.text;
      if (p.candleAt !== undefined) {
        text = this.candleText(p.key, p.candleAt);
        if (text === undefined) continue;
      } else if (p.balance) text = balanceMessage(p.balance);
      else if (p.batch) {
        const b = p.batch;
        text = l2UpdateMessage(b.symbol, b.asks, b.bids, b.start, b.end, b.time);
        this.stats.levelChanges += b.asks.length + b.bids.length;
      }
      const frame = frameOf(text as string);
      this.stats.messagesBuilt++;
      this.stats.deliveries += set.size;
      for (const s of set) {
        s.queue(frame);
        touched.add(s);
      }
    }
    for (const s of touched) this.drainOne(s);
  }

  private drainOne(s: Subscriber): void {
    if (s.drain() > this.opts.sendBufferLimitBytes) {
      this.stats.slowDisconnects++;
      this.opts.onSlow(s);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Throttled topics
  // ---------------------------------------------------------------------------------------------

  /**
   * Send the current state of throttled `k` to `s` only (right after its subscription). When `s` is
   * the topic's only subscriber, that state becomes the "last sent" one, so the next tick sends only a change.
   */
  sendInitial(s: Subscriber, k: TopicKey): void {
    const now = this.state.now();
    const all = k.key === 'all';
    const symbols = all ? this.state.world.symbols.map((x) => x.symbol) : [k.key];
    const sole = this.subs[k.channel].get(k.key)?.size === 1;
    for (const sym of symbols) {
      // ticker:all: a pair whose trading is disabled has nothing to show (null prices), so it is left out
      if (all && !this.tradable(sym)) continue;
      const text = this.throttledText(k.channel, sym, all, now);
      if (text === undefined) continue;
      if (sole) this.lastSent.set(throttleKey(k.channel, sym, all), contentOf(text));
      s.sendNow(frameOf(text));
    }
    if (s.drain() > this.opts.sendBufferLimitBytes) this.opts.onSlow(s);
  }

  /**
   * The `trade.candles.update` of candle key `{symbol}_{type}` at trade time `at` (ms): the tape's
   * candle of the interval holding `at` (undefined when the tape has none, e.g. pruned).
   */
  private candleText(key: string, at: number): string | undefined {
    const under = key.lastIndexOf('_');
    const symbol = key.slice(0, under);
    const type = key.slice(under + 1) as keyof typeof CANDLE_SECONDS;
    const len = CANDLE_SECONDS[type];
    const start = Math.floor(at / 1000 / len) * len;
    const row = this.state.tape.candles(symbol, type, start, start)[0];
    if (row === undefined || row[0] !== String(start)) return undefined;
    return candleMessage(symbol, type, row, this.nanos.next(at));
  }

  /** Level1 pushes of the symbols whose book changed since the last level1 tick. */
  private tickL1(): void {
    this.tick(this.dirtyL1, (sym, now, touched) => {
      const set = this.subs.level1.get(sym);
      if (set?.size) this.publishIfChanged('level1', sym, false, now, set, touched);
    });
  }

  /** Depth5/50 and ticker pushes of the symbols changed since the last fast tick. */
  private tickFast(): void {
    const allSubs = this.subs.ticker.get('all');
    this.tick(this.dirtyFast, (sym, now, touched) => {
      for (const ch of ['depth5', 'depth50', 'ticker'] as const) {
        const set = this.subs[ch].get(sym);
        const all = ch === 'ticker' ? allSubs : undefined;
        if (!set?.size && !all?.size) continue;
        if (set?.size) this.publishIfChanged(ch, sym, false, now, set, touched);
        if (all?.size && this.tradable(sym)) this.publishIfChanged(ch, sym, true, now, all, touched);
      }
    });
  }

  /** Snapshot pushes of the symbols changed since the last slow tick. */
  private tickSlow(): void {
    this.tick(this.dirtySlow, (sym, now, touched) => {
      const set = this.subs.snapshot.get(sym);
      if (set?.size) this.publishIfChanged('snapshot', sym, false, now, set, touched);
    });
  }

  /**
   * One throttled tick: takes (and empties) the `dirty` symbols, runs `publish` for each at one
   * sandbox time `now`, collecting in `touched` the subscribers sent something, then drains each of
   * them once. Nothing when no symbol changed.
   */
  private tick(dirty: Set<string>, publish: (sym: string, now: number, touched: Set<Subscriber>) => void): void {
    if (dirty.size === 0) return;
    const now = this.state.now();
    const symbols = [...dirty];
    dirty.clear();
    const touched = new Set<Subscriber>();
    for (const sym of symbols) publish(sym, now, touched);
    for (const s of touched) this.drainOne(s);
  }

  private publishIfChanged(ch: Channel, sym: string, all: boolean, now: number, set: Set<Subscriber>, touched: Set<Subscriber>): void {
    const text = this.throttledText(ch, sym, all, now);
    this.stats.throttleChecks++;
    if (text === undefined) return;
    // "Only on change": compare without the time fields.
    const key = throttleKey(ch, sym, all);
    const content = contentOf(text);
    if (this.lastSent.get(key) === content) return;
    this.lastSent.set(key, content);
    const frame = frameOf(text);
    this.stats.messagesBuilt++;
    this.stats.deliveries += set.size;
    for (const s of set) {
      s.queue(frame);
      touched.add(s);
    }
  }

  private throttledText(ch: Channel, sym: string, all: boolean, now: number): string | undefined {
    const ex = this.state.exchange;
    switch (ch) {
      case 'depth5':
      case 'depth50': {
        const b = ex.level2(sym, ch === 'depth5' ? 5 : 50);
        return depthMessage(CHANNELS[ch].prefix, sym, b.asks, b.bids, now);
      }
      case 'level1': {
        const b = ex.bestBidAsk(sym);
        return level1Message(sym, b.bestAsk, b.bestAskSize, b.bestBid, b.bestBidSize, now);
      }
      case 'ticker':
        return tickerMessage(sym, this.tickerState(sym, now), all);
      case 'snapshot':
        return this.snapshotText(sym, now);
      default:
        return undefined;
    }
  }

  /** Whether `sym` is a pair whose trading is enabled (GET /api/v2/symbols `enableTrading`). */
  private tradable(sym: string): boolean {
    return this.state.world.symbolMap.get(sym)?.enableTrading === true;
  }

  private tickerState(sym: string, now: number): TickerState {
    const ex = this.state.exchange;
    const bba = ex.bestBidAsk(sym);
    let last = this.lastTrade.get(sym);
    if (last === undefined) {
      const tape = ex.trades(sym);
      const t = tape.length ? tape[tape.length - 1] : undefined;
      last = t ? { price: t.price, size: t.size } : null;
      if (this.symbolRefs.has(sym)) this.lastTrade.set(sym, last);
    }
    return { sequence: ex.sequence(sym), price: last?.price ?? null, size: last?.size ?? null, ...bba, time: now };
  }

  private snapshotText(sym: string, now: number): string | undefined {
    const info = this.state.world.symbolMap.get(sym);
    if (!info) return undefined;
    const t = this.tickerState(sym, now);
    const trades = this.state.exchange.trades(sym);
    // the candles where the engine's trades do not reach back (marketStats.ts)
    const w = (since: number): WindowStats => candleStats(this.state, sym, since, info.quoteIncrement, trades) ?? windowStats(trades, since, info.quoteIncrement);
    return snapshotMessage(
      {
        symbol: sym,
        baseCurrency: info.baseCurrency,
        quoteCurrency: info.quoteCurrency,
        market: info.market,
        trading: info.enableTrading,
        makerFeeCoefficient: info.makerFeeCoefficient,
        takerFeeCoefficient: info.takerFeeCoefficient,
      },
      t,
      w(now - DAY_MS),
      w(now - 4 * 3600 * 1000),
      w(now - 3600 * 1000),
    );
  }
}

/** The key of a throttled topic's "last sent" content. */
function throttleKey(ch: Channel, sym: string, all: boolean): string {
  return `${ch}${all ? ' all' : ''} ${sym}`;
}

/** A throttled message without its time fields (what "changed" compares). */
function contentOf(text: string): string {
  return text.replace(/"(?:time|timestamp|datetime)":\d+/g, '');
}

/**
 * Open/high/low/last, volume, value, change and average price of the trades with `time > since`
 * (oldest first; decimal strings, exact; value rounded down to `quoteIncrement`, change rate and
 * average to 4 and 8 digits like GET /api/v1/market/allTickers).
 */
export function windowStats(trades: readonly { price: string; size: string; time: number }[], since: number, quoteIncrement: string): WindowStats {
  let open: string | null = null;
  let high: string | null = null;
  let low: string | null = null;
  let last: string | null = null;
  let vol = '0';
  let value = '0';
  for (const t of trades) {
    if (t.time <= since) continue;
    if (open === null) open = t.price;
    if (high === null || D.cmp(t.price, high) > 0) high = t.price;
    if (low === null || D.cmp(t.price, low) < 0) low = t.price;
    last = t.price;
    vol = D.add(vol, t.size);
    value = D.add(value, D.mul(t.price, t.size));
  }
  const changePrice = open !== null && last !== null ? D.sub(last, open) : null;
  return {
    open,
    high,
    low,
    last,
    vol,
    volValue: D.roundDown(value, quoteIncrement),
    changePrice,
    changeRate: changePrice !== null && open !== null ? D.divDown(changePrice, open, 4) : null,
    averagePrice: D.isZero(vol) ? null : D.divDown(value, vol, 8),
  };
}
