/**
 * Stop orders and OCO orders in the Active Orders view, as pure functions (no `vscode`; unit-tested in
 * test/unit/extension/advancedRows.test.ts):
 *
 * - the rows: a waiting stop order (GET /api/v1/stop-order, KuCoin "Get Stop Orders List") as
 *   `SELL stop-limit 0.01 @ 29,000` · `trigger ≤ 29,500 (loss) · waiting`; an OCO order (GET /api/v3/oco/orders
 *   and /api/v3/oco/order/details/{orderId}) as ONE row with both legs:
 *   `SELL OCO 0.01` · `take profit ≥ 31,000 @ 31,000 · stop ≤ 29,500 @ 29,400 · waiting`;
 * - what a `/spotMarket/advancedOrders` message (`stopOrder`, KuCoin docs-new "Stop Order" push) does to them
 *   ({@link applyStopChange}): a plain stop `open`ed is added from the message, one `triggered` or `cancel`led
 *   leaves; an OCO leg's message removes its OCO row when the view knows the leg, and otherwise asks for a REST
 *   load (the message does not name the OCO order).
 *
 * Amounts stay the wire's decimal strings; grouping for display is done on the digits (src/api/numberFormat.ts).
 */
import { triggerSign } from '../../../api/advancedOrderRules';
import * as D from '../../../api/decimal';
import type { OcoOrderDetail, StopOrder } from '../../../api/schemas';
import type { WsStopOrder } from '../../../api/streamSchemas';
import { groupDigits, type Separators } from '../../../api/numberFormat';

/** A waiting stop order as the view keeps it. `stop` loss | entry; decimals as the API sends them; `createdAt` ms. */
export interface StopRow {
  id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price: string | null;
  size: string | null;
  funds: string | null;
  stop: string;
  stopPrice: string;
  status: string;
  clientOid: string | null;
  createdAt: number;
}

/** One leg of an OCO row: its stop order id, limit price, trigger price, size and status. */
export interface OcoLegRow {
  id: string;
  price: string;
  stopPrice: string;
  size: string;
  status: string;
}

/**
 * A waiting OCO order: its id, pair, side, clientOid, creation time (ms), status and its two legs — `takeProfit`
 * (the limit leg: fires at its price on the profitable side) and `stopLoss` (fires at `stopPrice`, at `price`).
 */
export interface OcoRow {
  id: string;
  symbol: string;
  side: 'buy' | 'sell';
  clientOid: string;
  createdAt: number;
  status: string;
  takeProfit: OcoLegRow;
  stopLoss: OcoLegRow;
}

/** The stop and OCO part of an Active Orders load: the rows, or why they could not be read. */
export interface AdvancedData {
  stops: StopRow[];
  ocos: OcoRow[];
  /** The stop-order list failed (e.g. a key without the permission): its rows are then unknown. */
  stopError?: string;
  /** The OCO list failed. */
  ocoError?: string;
}

/** A stop order of GET /api/v1/stop-order as a row. */
export function stopRowOf(o: StopOrder): StopRow {
  return { id: o.id, symbol: o.symbol, side: o.side, type: o.type, price: o.price, size: o.size, funds: o.funds, stop: o.stop, stopPrice: o.stopPrice, status: o.status, clientOid: o.clientOid, createdAt: o.createdAt };
}

/**
 * An OCO order with its legs (GET /api/v3/oco/order/details/{orderId}) as a row: the take-profit leg is the one
 * whose trigger is its own price on the profitable side (above the stop leg's trigger for a sell, below for a buy).
 * @returns undefined when the detail does not have two legs.
 */
export function ocoRowOf(d: OcoOrderDetail): OcoRow | undefined {
  if (d.orders.length !== 2) return undefined;
  const [a, b] = d.orders;
  const side = a.side;
  const above = (x: typeof a, y: typeof a) => D.cmp(x.stopPrice, y.stopPrice) > 0;
  // a sell takes profit above its stop, a buy below it (KuCoin "Add OCO Order")
  const aIsProfit = side === 'sell' ? above(a, b) : above(b, a);
  const leg = (x: typeof a): OcoLegRow => ({ id: x.id, price: x.price, stopPrice: x.stopPrice, size: x.size, status: x.status });
  return { id: d.orderId, symbol: d.symbol, side, clientOid: d.clientOid, createdAt: d.orderTime, status: d.status, takeProfit: leg(aIsProfit ? a : b), stopLoss: leg(aIsProfit ? b : a) };
}

/** A stop's or OCO's status in words: NEW → waiting, TRIGGERED → triggered, CANCELLED → cancelled. */
export function statusText(status: string): string {
  return status === 'NEW' ? 'waiting' : status.toLowerCase();
}

/** `SELL stop-limit` / `BUY stop-market`. */
export function stopLabel(r: Pick<StopRow, 'side' | 'type'>): string {
  return `${r.side.toUpperCase()} stop-${r.type}`;
}

/**
 * The text of a stop order row: `label` `SELL stop-limit 0.01 @ 29,000` (a stop-market: `… 0.01 @ market`, by funds:
 * `funds 100 @ market`) and `description` `trigger ≤ 29,500 (loss) · waiting`. Prices grouped with `seps`.
 */
export function stopRowText(r: StopRow, seps: Separators): { label: string; description: string } {
  const g = (v: string) => groupDigits(v, seps);
  const amount = r.size !== null ? r.size : `funds ${r.funds ?? '?'}`;
  const price = r.type === 'limit' && r.price !== null ? g(r.price) : 'market';
  return { label: `${stopLabel(r)} ${amount} @ ${price}`, description: `trigger ${triggerSign(r.stop)} ${g(r.stopPrice)} (${r.stop}) · ${statusText(r.status)}` };
}

/**
 * The text of an OCO row, both legs on it: `label` `SELL OCO 0.01` and `description`
 * `take profit ≥ 31,000 @ 31,000 · stop ≤ 29,500 @ 29,400 · waiting` (a sell takes profit at or above its price and
 * stops at or below its stop price; a buy the other way round).
 */
export function ocoRowText(r: OcoRow, seps: Separators): { label: string; description: string } {
  const g = (v: string) => groupDigits(v, seps);
  const up = r.side === 'sell' ? '≥' : '≤';
  const down = r.side === 'sell' ? '≤' : '≥';
  return {
    label: `${r.side.toUpperCase()} OCO ${r.takeProfit.size}`,
    description: `take profit ${up} ${g(r.takeProfit.stopPrice)} @ ${g(r.takeProfit.price)} · stop ${down} ${g(r.stopLoss.stopPrice)} @ ${g(r.stopLoss.price)} · ${statusText(r.status)}`,
  };
}

/** What {@link applyStopChange} did: whether the rows changed, and whether a REST load must tell the rest. */
export interface StopChangeResult {
  changed: boolean;
  reload: boolean;
}

/** Whether a `stop` value is an OCO leg's kind (`l_l_o`, `l_s_o`, `e_l_o`, `e_s_o`). */
function isOcoLeg(stop: string | undefined): boolean {
  return typeof stop === 'string' && stop.endsWith('_o');
}

/**
 * Apply one `/spotMarket/advancedOrders` message to the rows (in place): see the module docs. A plain stop's
 * `open` adds a row built from the message (status NEW) unless it is there; its `triggered` / `cancel` removes it.
 * An OCO leg's `triggered` / `cancel` removes the OCO row that has that leg (the other leg goes with it on the
 * exchange); an OCO leg's `open`, or a leg of an OCO row the view does not have, asks for a reload.
 */
export function applyStopChange(data: AdvancedData, m: WsStopOrder): StopChangeResult {
  if (isOcoLeg(m.stop)) {
    if (m.type === 'open') return { changed: false, reload: !data.ocos.some((o) => o.takeProfit.id === m.orderId || o.stopLoss.id === m.orderId) };
    const i = data.ocos.findIndex((o) => o.takeProfit.id === m.orderId || o.stopLoss.id === m.orderId);
    if (i < 0) return { changed: false, reload: false };
    data.ocos.splice(i, 1);
    return { changed: true, reload: false };
  }
  const i = data.stops.findIndex((s) => s.id === m.orderId);
  if (m.type === 'open') {
    if (i >= 0) return { changed: false, reload: false };
    const limit = m.orderPrice !== undefined;
    data.stops.unshift({
      id: m.orderId,
      symbol: m.symbol,
      side: m.side,
      type: limit ? 'limit' : 'market',
      price: m.orderPrice ?? null,
      size: m.size ?? null,
      funds: m.funds ?? null,
      stop: m.stop ?? 'loss',
      stopPrice: m.stopPrice ?? '0',
      status: 'NEW',
      clientOid: null,
      createdAt: m.createdAt,
    });
    return { changed: true, reload: false };
  }
  if (i < 0) return { changed: false, reload: false };
  data.stops.splice(i, 1);
  return { changed: true, reload: false };
}
