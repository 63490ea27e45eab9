/**
 * One receiver of the exchange core's events (docs/events.md: `setEventSink`, `watchSymbol`,
 * `watchUser`) shared by several consumers of the sandbox: the account ledgers (ledger.ts) and the
 * WebSocket feed. The core has ONE sink and ONE watch flag per symbol and per user; the hub is that
 * sink and hands each consumer a {@link EventSource} of its own — the same three methods — with its
 * own watch set:
 * - a symbol or user is watched in the core while at least one consumer watches it (reference
 *   counts), so one consumer turning its watch off never silences another;
 * - each consumer receives only the events of what IT watches (level/trade by symbol, order/balance
 *   by uid), in the core's order, synchronously inside the command.
 * Nothing is watched and no event is built while nobody asks (the core's zero-cost guarantee holds).
 */
import type { AdvancedOrderEvent, BalanceEvent, CoreEventSink, LevelEvent, OrderEvent, TradeEvent } from '../core';

/** What the core offers (and what each consumer gets from the hub): one sink, watch flags (docs/events.md). */
export interface EventSource {
  setEventSink(sink: CoreEventSink | null): void;
  watchSymbol(symbol: string, on: boolean): void;
  watchUser(uid: string, on: boolean): void;
}

interface Consumer {
  sink: CoreEventSink | null;
  symbols: Set<string>;
  users: Set<string>;
}

/** The shared sink (see module docstring). */
export class EventHub implements CoreEventSink {
  private readonly consumers: Consumer[] = [];
  private readonly symbolRefs = new Map<string, number>();
  private readonly userRefs = new Map<string, number>();

  constructor(private readonly core: EventSource) {
    core.setEventSink(this);
  }

  /** A new consumer's own source: its sink receives what it watches. */
  source(): EventSource {
    const c: Consumer = { sink: null, symbols: new Set(), users: new Set() };
    this.consumers.push(c);
    return {
      setEventSink: (sink) => {
        c.sink = sink;
      },
      watchSymbol: (symbol, on) => {
        if (on === c.symbols.has(symbol)) return;
        if (on) c.symbols.add(symbol);
        else c.symbols.delete(symbol);
        this.bump(this.symbolRefs, symbol, on, (v) => this.core.watchSymbol(symbol, v));
      },
      watchUser: (uid, on) => {
        if (on === c.users.has(uid)) return;
        if (on) c.users.add(uid);
        else c.users.delete(uid);
        this.bump(this.userRefs, uid, on, (v) => this.core.watchUser(uid, v));
      },
    };
  }

  private bump(refs: Map<string, number>, key: string, on: boolean, flip: (on: boolean) => void): void {
    const n = (refs.get(key) ?? 0) + (on ? 1 : -1);
    if (n <= 0) refs.delete(key);
    else refs.set(key, n);
    if (on && n === 1) flip(true);
    if (!on && n <= 0) flip(false);
  }

  level(e: LevelEvent): void {
    for (const c of this.consumers) if (c.sink !== null && c.symbols.has(e.symbol)) c.sink.level(e);
  }
  trade(e: TradeEvent): void {
    for (const c of this.consumers) if (c.sink !== null && c.symbols.has(e.symbol)) c.sink.trade(e);
  }
  order(e: OrderEvent): void {
    for (const c of this.consumers) if (c.sink !== null && c.users.has(e.uid)) c.sink.order(e);
  }
  balance(e: BalanceEvent): void {
    for (const c of this.consumers) if (c.sink !== null && c.users.has(e.uid)) c.sink.balance(e);
  }
  advanced(e: AdvancedOrderEvent): void {
    for (const c of this.consumers) if (c.sink !== null && c.sink.advanced !== undefined && c.users.has(e.uid)) c.sink.advanced(e);
  }
}
