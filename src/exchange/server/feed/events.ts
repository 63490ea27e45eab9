/**
 * The core's events as the feed consumes them. The event types and the sink are the core's own
 * (src/exchange/core/events.ts, the contract of docs/events.md); the feed depends only on
 * {@link FeedEventSource}, the three methods of `Exchange` it calls, so its protocol layer can be
 * tested with a fake source.
 */
import type { CoreEventSink } from '../../core';

export type { AdvancedOrderEvent, BalanceEvent, CoreEventSink, LevelEvent, OrderEvent, TradeEvent } from '../../core';

/** What the feed needs from the core: the sink and the per-symbol / per-user watch flags (`Exchange` has them). */
export interface FeedEventSource {
  setEventSink(sink: CoreEventSink | null): void;
  watchSymbol(symbol: string, on: boolean): void;
  watchUser(uid: string, on: boolean): void;
}
