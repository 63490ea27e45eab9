/**
 * The records of the stop book (stops.ts): stop orders and OCO legs, OCO orders, the per-symbol waiting lists,
 * their snapshot forms, their ids and their wire views (KuCoin "Get Stop Order", "Get OCO Order").
 */
import type { z } from 'zod';
import type * as A from '../../api/schemas';
import type { Sym } from './book';
import type { PlaceOrderRequest } from './types';

/** Prefix of stop order ids: 24 characters of KuCoin's `vs…` alphabet (0-9a-v), never an order id. */
export const STOP_ID_PREFIX = 'vs5d0c';
/** Prefix of OCO order ids: 24 lowercase hex digits, outside the id space of orders (ORDER_ID_PREFIX). */
export const OCO_ID_PREFIX = '6a5d0c0f';

/** The id of the `seq`-th stop order (leg): STOP_ID_PREFIX + 18 base-32 digits. */
export function stopIdString(seq: number): string {
  return STOP_ID_PREFIX + seq.toString(32).padStart(18, '0');
}

/** The id of the `seq`-th OCO order: OCO_ID_PREFIX + 16 hex digits. */
export function ocoIdString(seq: number): string {
  return OCO_ID_PREFIX + seq.toString(16).padStart(16, '0');
}

/** The status of a stop order: waiting, its order entered matching, or cancelled. */
export type StopStatus = 'NEW' | 'TRIGGERED' | 'CANCELLED';

/** What a stop order or OCO leg holds both in memory ({@link StopRec}) and in a snapshot ({@link StopSnapRec}). */
export interface StopFields {
  seq: number;
  uid: string;
  /** the order it becomes when it fires (no clientOid: that is `clientOid`) */
  order: PlaceOrderRequest;
  clientOid: string;
  kind: A.StopKind;
  stopTicks: number;
  createdAt: number;
  status: StopStatus;
  /** ms it was triggered or cancelled, -1 while waiting */
  doneAt: number;
  /** ms it was triggered, -1 when not */
  triggeredAt: number;
  /** the id of the order it became ('' when none) */
  orderId: string;
  /** why its order was refused when it fired ('' when it was not) */
  error: string;
  takerFeeRate: string;
  makerFeeRate: string;
}

/** A stop order or OCO leg. `down` = fires at or below `stopTicks` (loss side). */
export interface StopRec extends StopFields {
  id: string;
  sym: Sym;
  down: boolean;
  oco: OcoRec | null;
  /** in its symbol's waiting list */
  indexed: boolean;
}

/** What an OCO order holds both in memory ({@link OcoRec}) and in a snapshot ({@link OcoSnapRec}). */
export interface OcoFields {
  seq: number;
  uid: string;
  clientOid: string;
  createdAt: number;
  status: A.OcoOrder['status'];
  doneAt: number;
}

/** An OCO order: its two legs (limit leg first). */
export interface OcoRec extends OcoFields {
  id: string;
  sym: Sym;
  legs: [StopRec, StopRec];
}

/** The waiting stops of one symbol: those firing at or below, highest first; at or above, lowest first (ties by seq). */
export interface SymStops {
  down: StopRec[];
  up: StopRec[];
}

/** A stop record in a snapshot (StopBook.exportData): the symbol by name, the OCO by its seq. */
export interface StopSnapRec extends StopFields {
  symbol: string;
  /** its OCO's seq, 0 for a plain stop order */
  oco: number;
}

/** An OCO record in a snapshot: the symbol by name, the legs by their seqs. */
export interface OcoSnapRec extends OcoFields {
  symbol: string;
  legs: [number, number];
}

/** The stop book's part of a core snapshot (snapshot.ts record `stops`). */
export interface StopsSnapshot {
  stopSeq: number;
  ocoSeq: number;
  stops: StopSnapRec[];
  ocos: OcoSnapRec[];
}

/** Filters of {@link StopBook.stopOrders}. */
export interface StopListFilter {
  symbol?: string;
  side?: 'buy' | 'sell';
  type?: 'limit' | 'market';
  startAt?: number;
  endAt?: number;
  orderIds?: string[];
  /** 'stop': plain stop orders only, 'oco': OCO legs only */
  stop?: 'stop' | 'oco';
}

/** The wire view of a stop order or OCO leg (GET /api/v1/stop-order/{orderId}). */
export function stopView(r: StopRec): z.input<typeof A.StopOrder> {
  const o = r.order;
  const market = o.type === 'market';
  return {
    id: r.id,
    symbol: r.sym.rules.symbol,
    userId: r.uid,
    status: r.status,
    type: o.type,
    side: o.side,
    price: market ? '0' : (o.price as string),
    size: o.size ?? null,
    funds: o.funds ?? null,
    stp: o.stp !== undefined && o.stp !== '' ? o.stp : null,
    timeInForce: o.timeInForce ?? 'GTC',
    cancelAfter: o.cancelAfter ?? -1,
    postOnly: o.postOnly === true,
    hidden: o.hidden === true,
    iceberg: o.iceberg === true,
    visibleSize: o.visibleSize ?? null,
    channel: 'API',
    clientOid: r.clientOid !== '' ? r.clientOid : null,
    remark: o.remark ?? null,
    tags: o.tags ?? null,
    // ns (above 2^53): ms × 10^6 prints as the ms digits followed by six zeros
    orderTime: r.createdAt * 1_000_000,
    domainId: 'kucoin',
    tradeSource: 'USER',
    tradeType: 'TRADE',
    feeCurrency: r.sym.rules.feeCurrency ?? r.sym.rules.quoteCurrency,
    takerFeeRate: r.takerFeeRate,
    makerFeeRate: r.makerFeeRate,
    createdAt: r.createdAt,
    stop: r.kind,
    stopTriggerTime: r.triggeredAt >= 0 ? r.triggeredAt : null,
    stopPrice: r.sym.priceStr(r.stopTicks),
  };
}

/** The wire view of an OCO order (GET /api/v3/oco/order/{orderId}). */
export function ocoView(o: OcoRec): A.OcoOrder {
  return { orderId: o.id, symbol: o.sym.rules.symbol, clientOid: o.clientOid, orderTime: o.createdAt, status: o.status };
}
