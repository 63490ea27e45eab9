/**
 * Argument normalisers of the commands that move money or place/cancel orders.
 *
 * A VS Code command is an API: any installed extension can run `spotdesk.withdraw` with any
 * arguments. So these commands take from their arguments ONLY what SpotDesk's own menus and tree
 * items pass — a currency, or the identity of a tree row — and drop everything else: no
 * confirmation function, no client, no pre-filled draft. Everything that decides what is sent
 * (amounts, destinations, chains, confirmations) is asked from the person, and a row's displayed
 * figures are re-read from the exchange rather than trusted. What each menu, tree and code lens passes:
 * docs/ARCHITECTURE.md "Command arguments (`src/host/commandArgs.ts`)".
 *
 * Pure: no `vscode` import (unit-tested in test/unit/extension/commandArgs.test.ts).
 */

/** A currency code as KuCoin writes them (letters and digits, at most 20), upper-cased. */
const CURRENCY_RE = /^[A-Za-z0-9]{1,20}$/;
/** A trading pair `BASE-QUOTE`. */
const SYMBOL_RE = /^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/;
/** An order id (KuCoin: 24 hex characters; accept any short token of safe characters). */
const ORDER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

function record(raw: unknown): Record<string, unknown> | undefined {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
}

function currencyOf(v: unknown): string | undefined {
  return typeof v === 'string' && CURRENCY_RE.test(v) ? v.toUpperCase() : undefined;
}

/**
 * Argument of `spotdesk.withdraw` and `spotdesk.createDepositAddress`: the currency of the Accounts
 * row the menu was opened on (a currency row or an account row), or a bare currency string.
 * @returns `{currency}` or `{}` (palette: the person picks the currency); never any other field.
 */
export function currencyArg(raw: unknown): { currency?: string } {
  if (typeof raw === 'string') {
    const c = currencyOf(raw);
    return c ? { currency: c } : {};
  }
  const o = record(raw);
  const c = currencyOf(o?.currency) ?? currencyOf(record(o?.account)?.currency);
  return c ? { currency: c } : {};
}

/**
 * Argument of `spotdesk.transfer`: the Accounts tree's account row (`{kind: 'account', account:
 * {currency, type}}`). Only the account's identity is kept; its balance is re-read from the exchange.
 * @returns `{currency, type}` or undefined when the argument is not an account row.
 */
export function accountArg(raw: unknown): { currency: string; type: 'main' | 'trade' } | undefined {
  const o = record(raw);
  const a = record(o?.account);
  if (o?.kind !== 'account' || !a) return undefined;
  const currency = currencyOf(a.currency);
  const type = a.type === 'main' || a.type === 'trade' ? a.type : undefined;
  return currency && type ? { currency, type } : undefined;
}

/**
 * Argument of `spotdesk.cancelOrder`: the Active Orders tree's order row (`{kind: 'order', symbol,
 * order: {id}}`). Only the order's identity is kept; what the confirmation shows is re-read from the
 * exchange (GET /api/v1/hf/orders/{orderId}).
 * @returns `{symbol, orderId}` or undefined when the argument is not an order row.
 */
export function orderArg(raw: unknown): { symbol: string; orderId: string } | undefined {
  const o = record(raw);
  const order = record(o?.order);
  if (o?.kind !== 'order' || !order) return undefined;
  const symbol = typeof o.symbol === 'string' && SYMBOL_RE.test(o.symbol) ? o.symbol.toUpperCase() : undefined;
  const orderId = typeof order.id === 'string' && ORDER_ID_RE.test(order.id) ? order.id : undefined;
  return symbol && orderId ? { symbol, orderId } : undefined;
}

/**
 * Argument of `spotdesk.cancelOrder` on a stop order or OCO row of the Active Orders tree (`{kind: 'stopOrder' |
 * 'ocoOrder', row: {id}}`). Only the id is kept; what the confirmation shows is re-read from the exchange (GET
 * /api/v1/stop-order/{orderId}, GET /api/v3/oco/order/details/{orderId}).
 * @returns `{kind: 'stop' | 'oco', orderId}` or undefined when the argument is not such a row.
 */
export function advancedOrderArg(raw: unknown): { kind: 'stop' | 'oco'; orderId: string } | undefined {
  const o = record(raw);
  const row = record(o?.row);
  if ((o?.kind !== 'stopOrder' && o?.kind !== 'ocoOrder') || !row) return undefined;
  const orderId = typeof row.id === 'string' && ORDER_ID_RE.test(row.id) ? row.id : undefined;
  return orderId ? { kind: o.kind === 'stopOrder' ? 'stop' : 'oco', orderId } : undefined;
}

/**
 * Argument of `spotdesk.cancelAllForSymbol`: the Active Orders tree's symbol row (`{kind: 'symbol',
 * symbol}`). The number of orders shown in the confirmation is re-read from the exchange.
 * @returns `{symbol}` or undefined when the argument is not a symbol row.
 */
export function symbolArg(raw: unknown): { symbol: string } | undefined {
  const o = record(raw);
  if (o?.kind !== 'symbol' || typeof o.symbol !== 'string' || !SYMBOL_RE.test(o.symbol)) return undefined;
  return { symbol: o.symbol.toUpperCase() };
}

/**
 * Argument of `spotdesk.addToWatchlist`: a symbol string or a Markets tree row (`{symbol}`), with
 * the shape of a trading pair (`BASE-QUOTE`). The command then accepts it only when the exchange
 * lists it. @returns `{symbol}` (upper case) or undefined for anything else.
 */
export function watchlistArg(raw: unknown): { symbol: string } | undefined {
  const s = typeof raw === 'string' ? raw : record(raw)?.symbol;
  return typeof s === 'string' && SYMBOL_RE.test(s) ? { symbol: s.toUpperCase() } : undefined;
}

/**
 * Arguments of the order-document lenses (`spotdesk.orderDocument.testOrder` / `.showSignature` /
 * `.placeOrder`): the document URI (a `*.spotorder.json` file) and the order's index in it. These
 * commands open the request builder on the order as the document holds it (re-read, never taken
 * from the arguments) and run the order TEST, which places nothing, or — `.placeOrder` — the
 * builder's guarded placement: the local rules, then always a modal confirmation.
 * @returns `{uri, index}` or undefined for anything else.
 */
export function orderDocumentArgs(uri: unknown, index: unknown): { uri: string; index: number } | undefined {
  if (typeof uri !== 'string' || typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 10_000) return undefined;
  const path = uri.split(/[?#]/)[0].toLowerCase();
  return path.endsWith('.spotorder.json') ? { uri, index } : undefined;
}

/** A positive plain decimal price (at most 40 + 40 digits). */
const PRICE_RE = /^\d{1,40}(?:\.\d{1,40})?$/;

/**
 * Arguments of `spotdesk.requestBuilder.prefill` (a market panel's price level → the request
 * builder): `(symbol, side, price)`. Only these three are taken; the builder opens a limit draft
 * and sends nothing (placing from it stays behind its confirmation).
 * @returns `{symbol, side, price}` or undefined for anything else.
 */
export function prefillArgs(symbol: unknown, side: unknown, price: unknown): { symbol: string; side: 'buy' | 'sell'; price: string } | undefined {
  if (typeof symbol !== 'string' || !SYMBOL_RE.test(symbol)) return undefined;
  if (side !== 'buy' && side !== 'sell') return undefined;
  if (typeof price !== 'string' || !PRICE_RE.test(price)) return undefined;
  return { symbol: symbol.toUpperCase(), side, price };
}

/** A withdrawal id (KuCoin: 24 hex characters; accept letters and digits up to 64). */
const WITHDRAWAL_ID_RE = /^[A-Za-z0-9]{1,64}$/;

/**
 * Argument of `spotdesk.cancelWithdrawal`: the Funding History tree's withdrawal row (`{kind:
 * 'withdrawal', withdrawal: {id}}`). Only the withdrawal's id is kept; what the confirmation shows
 * (amount, fee, destination, status) is re-read from the exchange (GET /api/v1/withdrawals).
 * @returns `{withdrawalId}` or undefined when the argument is not a withdrawal row.
 */
export function withdrawalArg(raw: unknown): { withdrawalId: string } | undefined {
  const o = record(raw);
  const w = record(o?.withdrawal);
  if (o?.kind !== 'withdrawal' || !w) return undefined;
  return typeof w.id === 'string' && WITHDRAWAL_ID_RE.test(w.id) ? { withdrawalId: w.id } : undefined;
}

/** A price alert's id (random hex, src/features/alerts/host/index.ts). */
const ALERT_ID_RE = /^[a-f0-9]{8,64}$/;

/**
 * Argument of `spotdesk.editPriceAlert` / `spotdesk.deletePriceAlert`: the Price Alerts tree's alert
 * row (`{kind: 'alert', alert: {id}}`). Only the id is kept; the alert is re-read from storage and
 * its new direction and price are asked from the person.
 * @returns `{alertId}` or undefined when the argument is not an alert row.
 */
export function alertArg(raw: unknown): { alertId: string } | undefined {
  const o = record(raw);
  const a = record(o?.alert);
  if (o?.kind !== 'alert' || !a) return undefined;
  return typeof a.id === 'string' && ALERT_ID_RE.test(a.id) ? { alertId: a.id } : undefined;
}

/**
 * Argument of `spotdesk.addPriceAlert`: the Markets tree's symbol row (`{kind: 'marketSymbol',
 * symbol}`) or a bare symbol string. Only the symbol is kept (direction and price are always asked).
 * @returns `{symbol}` or `{}` (palette: the person picks the symbol).
 */
export function alertSymbolArg(raw: unknown): { symbol?: string } {
  const s = typeof raw === 'string' ? raw : record(raw)?.kind === 'marketSymbol' ? record(raw)?.symbol : undefined;
  return typeof s === 'string' && SYMBOL_RE.test(s) ? { symbol: s.toUpperCase() } : {};
}
