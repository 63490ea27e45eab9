/**
 * Sandbox exchange core: deterministic matching engine + ledger (no I/O, injected clock). `Exchange` is its
 * API (exchange.ts), a facade over the parts it owns; the other modules of this folder are those parts and
 * their records. The rules: docs/engine.md (the naive model test/unit/exchange/model.ts is their readable
 * statement).
 */
export * from './errors';
export * from './types';
export { Exchange, HISTORY_WINDOW_MS, LEDGER_SCALE, ORDER_ID_PREFIX, RATE_SCALE, type BestBidAsk, type LimitTicksOptions } from './exchange';
export type { AdvancedOrderEvent, BalanceEvent, CoreEventSink, LevelEvent, OrderEvent, OrderEventType, TradeEvent } from './events';
export { SNAPSHOT_VERSION, type SnapshotRecord } from './snapshot';
export type { CoreOptions } from './state';
export { OCO_ID_PREFIX, STOP_ID_PREFIX, type StopListFilter, type StopBook } from './stops';
