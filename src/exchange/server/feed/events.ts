/**
 * The core's events as the feed consumes them: the interface agreed in EVENTS.md (the exchange core
 * implements `setEventSink`, `watchSymbol` and `watchUser`; see /work/wt/EVENTS.md). The feed only
 * depends on {@link FeedEventSource}, so its protocol layer is tested with a fake source.
 */

/** A visible price level changed; `size` is the level's new aggregated visible size ("0" = removed). */
export interface LevelEvent {
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  /** The symbol's book sequence consumed by this change. */
  sequence: number;
  /** ms */
  time: number;
}

/** One trade (maker/taker fill pair); `side` is the taker's. */
export interface TradeEvent {
  symbol: string;
  tradeId: number;
  sequence: number;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  takerOrderId: string;
  makerOrderId: string;
  takerUid: string;
  makerUid: string;
  /** ms */
  time: number;
}

/** An order of a watched user changed. */
export interface OrderEvent {
  uid: string;
  symbol: string;
  orderId: string;
  clientOid: string;
  type: 'received' | 'open' | 'match' | 'update' | 'filled' | 'canceled';
  side: 'buy' | 'sell';
  orderType: 'limit' | 'market';
  price: string;
  size: string;
  funds: string;
  filledSize: string;
  remainSize: string;
  canceledSize: string;
  remainFunds: string;
  /** 'update' (STP DC decrease): the size before. */
  oldSize?: string;
  match?: { price: string; size: string; tradeId: number; liquidity: 'maker' | 'taker'; fee: string; feeCurrency: string };
  /** createdAt, ms */
  orderTime: number;
  /** ms of this change */
  time: number;
}

/** A ledger account of a watched user changed. */
export interface BalanceEvent {
  uid: string;
  accountId: string;
  currency: string;
  accountType: 'main' | 'trade';
  total: string;
  available: string;
  hold: string;
  availableChange: string;
  holdChange: string;
  relationEvent: string;
  relationEventId: string;
  relationContext?: { symbol?: string; orderId?: string; tradeId?: string };
  /** ms */
  time: number;
}

/** Receiver of the core's events (EVENTS.md `CoreEventSink`). */
export interface CoreEventSink {
  level(e: LevelEvent): void;
  trade(e: TradeEvent): void;
  order(e: OrderEvent): void;
  balance(e: BalanceEvent): void;
}

/** What the feed needs from the core: the sink and the per-symbol / per-user watch flags. */
export interface FeedEventSource {
  setEventSink(sink: CoreEventSink | null): void;
  watchSymbol(symbol: string, on: boolean): void;
  watchUser(uid: string, on: boolean): void;
}

/** The exchange as a {@link FeedEventSource}, or undefined when its core does not emit events yet. */
export function eventSourceOf(exchange: unknown): FeedEventSource | undefined {
  const x = exchange as Partial<FeedEventSource> | null;
  if (x && typeof x.setEventSink === 'function' && typeof x.watchSymbol === 'function' && typeof x.watchUser === 'function') return x as FeedEventSource;
  return undefined;
}
