/**
 * Pure parts of the history views (Order History, Fills, Funding History): the text of their rows
 * and the CSV exports. No `vscode` import (unit-tested in test/unit/extension/historyRows.test.ts).
 * Amounts stay the API's decimal strings; times are ms and shown/exported as ISO 8601 UTC.
 */
import type { DepositItem, HfFill, HfOrder, OcoOrder, OcoOrderDetail, StopOrder, WithdrawalItem } from '../../../api/schemas';
import type { ClassicOrder } from '../../../api/schemas/classicOrders';
import { triggerSign } from '../../../api/advancedOrderRules';
import * as dec from '../../../api/decimal';
import { isoTime, toCsv } from './csv';
import { fillOrder, realizedPnl, type PairPnl } from '../../../api/pnl';
import { trimToPrecision } from '../../../api/numberFormat';

/** Text of one tree row. */
export interface RowText {
  label: string;
  description: string;
  /** Plain-text tooltip lines. */
  tooltip: string[];
}

/** Why a done order ended: "filled", "partially filled, cancelled" or "cancelled". */
export function doneOrderOutcome(o: Pick<HfOrder, 'dealSize' | 'dealFunds' | 'cancelledSize' | 'cancelledFunds' | 'cancelExist'>): string {
  const dealt = !dec.isZero(o.dealSize) || !dec.isZero(o.dealFunds);
  const cancelled = o.cancelExist || !dec.isZero(o.cancelledSize) || !dec.isZero(o.cancelledFunds);
  if (dealt && cancelled) return 'partially filled, cancelled';
  if (cancelled) return 'cancelled';
  return 'filled';
}

/** Row of a done order: `BUY limit` · `0.01 @ 50000 · filled 0.004 · cancelled · 2024-…Z`. */
export function orderRow(o: HfOrder): RowText {
  const price = o.type === 'market' ? 'market' : o.price;
  const size = dec.isZero(o.size) ? `funds ${o.funds}` : o.size;
  return {
    label: `${o.side.toUpperCase()} ${o.type}`,
    description: `${size} @ ${price} · filled ${o.dealSize} · ${doneOrderOutcome(o)} · ${isoTime(o.lastUpdatedAt)}`,
    tooltip: [
      `order ${o.id}${o.clientOid ? ` (clientOid ${o.clientOid})` : ''}`,
      `${o.symbol} ${o.side} ${o.type} ${o.timeInForce}`,
      `size ${o.size} · price ${o.price} · funds ${o.funds}`,
      `filled ${o.dealSize} for ${o.dealFunds} · fee ${o.fee} ${o.feeCurrency}`,
      `cancelled ${o.cancelledSize} (funds ${o.cancelledFunds})`,
      `created ${isoTime(o.createdAt)} · done ${isoTime(o.lastUpdatedAt)}`,
    ],
  };
}

/**
 * Row of a done order of the classic API (GET /api/v1/orders?status=done): `BUY limit` · `0.01 @ 50000 · filled
 * 0.004 · cancelled · created 2024-…Z · classic` (the classic list has no done time; a stop order that fired shows
 * its trigger).
 */
export function classicOrderRow(o: ClassicOrder): RowText {
  const price = o.type === 'market' ? 'market' : o.price;
  const size = dec.isZero(o.size) ? `funds ${o.funds}` : o.size;
  const dealt = !dec.isZero(o.dealSize) || !dec.isZero(o.dealFunds);
  const full = !dec.isZero(o.size) ? dec.cmp(o.dealSize, o.size) >= 0 : dec.cmp(o.dealFunds, o.funds) >= 0;
  const outcome = full ? 'filled' : dealt ? 'partially filled, cancelled' : 'cancelled';
  const stop = o.stop ? ` · stop ${triggerSign(o.stop)} ${o.stopPrice ?? '?'}${o.stopTriggered ? ' (fired)' : ''}` : '';
  return {
    label: `${o.side.toUpperCase()} ${o.type}`,
    description: `${size} @ ${price} · filled ${o.dealSize} · ${outcome}${stop} · created ${isoTime(o.createdAt)} · classic`,
    tooltip: [
      `order ${o.id}${o.clientOid ? ` (clientOid ${o.clientOid})` : ''} · classic order API (GET /api/v1/orders)`,
      `${o.symbol} ${o.side} ${o.type} ${o.timeInForce}`,
      `size ${o.size} · price ${o.price} · funds ${o.funds}`,
      `filled ${o.dealSize} for ${o.dealFunds} · fee ${o.fee} ${o.feeCurrency}`,
      `created ${isoTime(o.createdAt)}`,
    ],
  };
}

/**
 * Row of a stop order that is no longer waiting (GET /api/v1/stop-order/{orderId}): `SELL stop-limit` ·
 * `0.01 @ 29000 · trigger ≤ 29500 (loss) · triggered 2024-…Z`.
 */
export function stopOrderRow(o: StopOrder): RowText {
  const amount = o.size ?? `funds ${o.funds ?? '?'}`;
  const price = o.type === 'limit' ? (o.price ?? '?') : 'market';
  const state = o.status === 'TRIGGERED' ? 'triggered' : o.status === 'NEW' ? 'waiting' : 'cancelled';
  const when = o.stopTriggerTime ?? o.createdAt;
  return {
    label: `${o.side.toUpperCase()} stop-${o.type}`,
    description: `${amount} @ ${price} · trigger ${triggerSign(o.stop)} ${o.stopPrice} (${o.stop}) · ${state} ${isoTime(when)}`,
    tooltip: [
      `stop order ${o.id}${o.clientOid ? ` (clientOid ${o.clientOid})` : ''}`,
      `${o.symbol} ${o.side} ${o.type}: the last trade price ${triggerSign(o.stop) === '≤' ? 'at or below' : 'at or above'} ${o.stopPrice} places a ${o.type} order`,
      `status ${o.status}${o.stopTriggerTime ? ` · fired ${isoTime(o.stopTriggerTime)}` : ''}`,
      `created ${isoTime(o.createdAt)}`,
    ],
  };
}

/**
 * Row of an OCO order that is no longer waiting (GET /api/v3/oco/orders, with its legs when read): `SELL OCO` ·
 * `0.01 · take profit 31000 · stop 29500 → 29400 · triggered · 2024-…Z`.
 */
export function ocoOrderRow(o: OcoOrder | OcoOrderDetail): RowText {
  const legs = 'orders' in o ? o.orders : [];
  const side = legs[0]?.side;
  const sorted = [...legs].sort((a, b) => dec.cmp(b.stopPrice, a.stopPrice));
  const [profit, stop] = side === 'buy' ? [sorted[1], sorted[0]] : [sorted[0], sorted[1]];
  const state = o.status === 'NEW' ? 'waiting' : o.status.toLowerCase();
  return {
    label: `${side ? `${side.toUpperCase()} ` : ''}OCO`,
    description: `${profit && stop ? `${profit.size} · take profit ${profit.price} · stop ${stop.stopPrice} → ${stop.price} · ` : ''}${state} · ${isoTime(o.orderTime)}`,
    tooltip: [`OCO order ${o.orderId} (clientOid ${o.clientOid})`, `${o.symbol} · status ${o.status}`, ...legs.map((l) => `leg ${l.id}: ${l.size} @ ${l.price} when the price reaches ${l.stopPrice} · ${l.status}`), `created ${isoTime(o.orderTime)}`],
  };
}


/**
 * Row of a fill: `BUY 0.01 @ 50000` · `taker · fee 0.5 USDT · 2024-…Z`; its funds in the tooltip to
 * the quote increment's `quoteDigits` (rounded down; the exact figure beside it when it differs).
 */
export function fillRow(f: HfFill, realized?: string, quoteDigits?: number): RowText {
  const funds = quoteDigits === undefined ? f.funds : trimToPrecision(f.funds, quoteDigits);
  const quote = f.symbol.slice(f.symbol.indexOf('-') + 1);
  return {
    label: `${f.side.toUpperCase()} ${f.size} @ ${f.price}`,
    description: `${f.liquidity} · fee ${f.fee} ${f.feeCurrency} · ${isoTime(f.createdAt)}${realized !== undefined && f.side === 'sell' ? ` · P&L ${realized}` : ''}`,
    tooltip: [
      `fill ${f.id} · trade ${f.tradeId}`,
      `order ${f.orderId} (counter order ${f.counterOrderId})`,
      `${f.symbol} ${f.side} ${f.type} · ${f.liquidity}${f.forceTaker ? ' (charged as taker)' : ''}`,
      `price ${f.price} · size ${f.size} · funds ${funds} ${quote}${dec.isDecimal(f.funds) && funds !== dec.normalize(f.funds) ? ` (exactly ${f.funds})` : ''}`,
      `fee ${f.fee} ${f.feeCurrency} (rate ${f.feeRate})`,
      `time ${isoTime(f.createdAt)}`,
    ],
  };
}

/** The base and quote currencies of a `BASE-QUOTE` symbol. */
export function pairOf(symbol: string): { base: string; quote: string } {
  const i = symbol.indexOf('-');
  return { base: symbol.slice(0, i), quote: symbol.slice(i + 1) };
}

/** Realized P&L of a symbol's fills (weighted average cost; src/api/pnl.ts) at `digits` fraction digits. */
export function symbolPnl(symbol: string, fills: readonly HfFill[], digits: number): PairPnl {
  const { base, quote } = pairOf(symbol);
  return realizedPnl(
    fills.map((f) => ({ id: f.id, side: f.side, size: f.size, funds: f.funds, fee: f.fee, feeCurrency: f.feeCurrency, createdAt: f.createdAt })),
    base,
    quote,
    digits,
  );
}

/** The symbol row's summary: `P&L -1.25 USDT · position 0.5 BTC · 12 fills`. */
export function pnlSummary(p: PairPnl, fills: number): string {
  const parts = [`P&L ${p.realized} ${p.quote}`, `position ${p.position} ${p.base}`, `${fills} fill${fills === 1 ? '' : 's'}`];
  if (!dec.isZero(p.unmatchedSellSize)) parts.push(`${p.unmatchedSellSize} ${p.base} sold beyond the history`);
  return parts.join(' · ');
}

/** The documented method, shown in the Fills view's tooltips. */
export const PNL_METHOD =
  'Realized P&L by weighted average cost over the fills shown: buys add their funds (plus a quote-currency fee) to the cost basis, ' +
  'a sell realises its funds minus its fee minus the average cost of what it sold; fees as the exchange reports them ' +
  '(base-currency fees change the position, fees in other currencies are listed apart); exact arithmetic, results rounded half away from zero.';

/** CSV of done orders (one row per order, exact decimals, ISO times). */
export function ordersCsv(orders: readonly HfOrder[]): string {
  return toCsv(
    ['symbol', 'orderId', 'clientOid', 'side', 'type', 'timeInForce', 'price', 'size', 'funds', 'dealSize', 'dealFunds', 'cancelledSize', 'cancelledFunds', 'fee', 'feeCurrency', 'outcome', 'createdAt', 'doneAt', 'remark', 'tags'],
    orders.map((o) => [o.symbol, o.id, o.clientOid, o.side, o.type, o.timeInForce, o.price, o.size, o.funds, o.dealSize, o.dealFunds, o.cancelledSize, o.cancelledFunds, o.fee, o.feeCurrency, doneOrderOutcome(o), isoTime(o.createdAt), isoTime(o.lastUpdatedAt), o.remark, o.tags]),
  );
}

/**
 * CSV of fills with the P&L each fill realised (column `realizedPnl`, in the quote currency, by
 * weighted average cost over the exported fills of its symbol), oldest first per symbol.
 */
export function fillsCsv(bySymbol: ReadonlyMap<string, readonly HfFill[]>, digitsOf: (symbol: string) => number): string {
  const rows: (string | number)[][] = [];
  for (const [symbol, fills] of bySymbol) {
    const pnl = symbolPnl(symbol, fills, digitsOf(symbol));
    const sorted = [...fills].sort(fillOrder);
    for (const f of sorted) {
      rows.push([f.symbol, f.id, f.tradeId, f.orderId, f.side, f.type, f.liquidity, f.price, f.size, f.funds, f.fee, f.feeCurrency, f.feeRate, isoTime(f.createdAt), pnl.perFill[f.id] ?? '', pnl.quote]);
    }
  }
  return toCsv(['symbol', 'fillId', 'tradeId', 'orderId', 'side', 'type', 'liquidity', 'price', 'size', 'funds', 'fee', 'feeCurrency', 'feeRate', 'time', 'realizedPnl', 'pnlCurrency'], rows);
}

/** Row of a deposit: `+12.5 USDT` · `SUCCESS · trx · 2024-…Z`. */
export function depositRow(d: DepositItem): RowText {
  return {
    label: `+${d.amount} ${d.currency}`,
    description: `${d.status} · ${d.chain || 'internal'} · ${isoTime(d.createdAt)}`,
    tooltip: [`deposit of ${d.amount} ${d.currency} (${d.status})`, `chain ${d.chain || '—'} · address ${d.address || '—'}${d.memo ? ` · memo ${d.memo}` : ''}`, `fee ${d.fee} · tx ${d.walletTxId ?? '—'}`, `time ${isoTime(d.createdAt)}`],
  };
}

/** Row of a withdrawal: `−20 USDT` · `PROCESSING · fee 1 · trx → Tabc… · 2024-…Z`. */
export function withdrawalRow(w: WithdrawalItem): RowText {
  return {
    label: `−${w.amount} ${w.currency}`,
    description: `${w.status} · fee ${w.fee} · ${w.chain || 'internal'} → ${w.address} · ${isoTime(w.createdAt)}`,
    tooltip: [
      `withdrawal ${w.id ?? ''} of ${w.amount} ${w.currency} (${w.status})`,
      `to ${w.address}${w.memo ? ` (memo ${w.memo})` : ''} on ${w.chain || '—'}${w.isInner ? ' · internal' : ''}`,
      `fee ${w.fee} · tx ${w.walletTxId ?? '—'}`,
      `created ${isoTime(w.createdAt)} · updated ${isoTime(w.updatedAt)}`,
      ...(w.remark ? [`remark ${w.remark}`] : []),
      ...(w.status === 'PROCESSING' ? ['Still processing: it can be cancelled (its hold is released).'] : []),
    ],
  };
}
