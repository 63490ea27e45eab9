/**
 * The "Test order" and "Place order…" lenses of an order document on a STOP order or an OCO order (the request
 * builder's panel is an HF order form, so these run here; loaded on first use by ./index.ts).
 *
 * - **Test order**: KuCoin has no test endpoint for stop or OCO orders, so the test is that of the limit or market
 *   order(s) the order becomes — POST /api/v1/hf/orders/test of the stop order without `stop`/`stopPrice`, of each
 *   OCO leg (`price`, and `limitPrice` as the stop leg's price) — sent as they are (the exchange's own answer, even
 *   for an order the local rules reject), and the local rules of src/api/advancedOrderRules.ts (the trigger, the
 *   OCO's sides). Nothing is placed.
 * - **Place order…**: the local rules first (an error: nothing is sent), then the money gate's modal naming the
 *   profile, with the trigger, the notional, the fee estimate and the warnings of the market panel's ticket
 *   (src/features/market/model/ticket.ts, from the book, the last price, the user's fee rates and the trade account), then
 *   POST /api/v1/stop-order or POST /api/v3/oco/order with the order as the document holds it.
 *
 * Both resolve to plain data and never throw: a failure is shown to the person and returned as `error`.
 */
import * as vscode from 'vscode';
import { orderKind, triggerSign, validateAnyOrder } from '../../../api/advancedOrderRules';
import { symbolRules, type SymbolRules } from '../../../api/orderRules';
import { failureText } from '../../../api/failure';
import { quoteTicket, type TicketType } from '../../market/model/ticket';
import { fundsPhrase } from '../../../api/moneyWords';
import { symbolFeeRates } from '../../../api/orderEstimate';
import type { Services } from '../../../host/services';

/** What a lens run resolves to (plain data). */
export interface AdvancedRunResult {
  kind: 'stop' | 'oco';
  action: 'test' | 'place';
  /** Local rule errors (messages). */
  localErrors: string[];
  /** Test: the exchange's answer per order tested. */
  tests?: Array<{ order: string; status: number; code: string | null; msg: string | null }>;
  /** Place: the id of the order placed (undefined when declined). */
  orderId?: string;
  error?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The limit or market orders a stop or OCO order becomes, with a name each (what "Test order" tests). */
export function ordersItBecomes(order: Record<string, unknown>): Array<{ name: string; order: Record<string, unknown> }> {
  if (orderKind(order) === 'oco') {
    const leg = (price: unknown) => ({ symbol: order.symbol, side: order.side, type: 'limit', price, size: order.size, ...(order.remark !== undefined ? { remark: order.remark } : {}) });
    return [
      { name: 'take-profit leg', order: leg(order.price) },
      { name: 'stop leg', order: leg(order.limitPrice) },
    ];
  }
  const rest: Record<string, unknown> = { ...order };
  delete rest.stop;
  delete rest.stopPrice;
  delete rest.tradeType;
  return [{ name: 'the order it places', order: rest }];
}

/** Run a lens action on a stop or OCO `order` of a document (see the module docs). */
export async function runAdvancedDocumentOrder(services: Services, action: 'test' | 'place', order: Record<string, unknown>): Promise<AdvancedRunResult> {
  const kind = orderKind(order) === 'oco' ? 'oco' : 'stop';
  const out: AdvancedRunResult = { kind, action, localErrors: [] };
  try {
    const symbols = await services.symbols().catch(() => undefined);
    const map = symbols ? new Map<string, SymbolRules>(symbols.map((s) => [s.symbol, symbolRules(s)])) : undefined;
    out.localErrors = validateAnyOrder(order, map ? { symbols: map } : {})
      .filter((i) => i.severity === 'error')
      .map((i) => i.message);
    const what = kind === 'oco' ? 'OCO order' : 'stop order';
    const client = await services.client();
    if (action === 'test') {
      out.tests = [];
      for (const o of ordersItBecomes(order)) {
        const send = await client.send(client.prepare('testOrder', o.order as never, { validate: false, rawBody: JSON.stringify(o.order) }));
        let msg: string | null = null;
        try {
          const parsed = JSON.parse(send.bodyText) as { msg?: unknown };
          msg = typeof parsed.msg === 'string' ? parsed.msg : null;
        } catch {
          msg = null;
        }
        out.tests.push({ order: o.name, status: send.status, code: send.code ?? null, msg });
      }
      const ok = out.tests.every((t) => t.code === '200000') && out.localErrors.length === 0;
      const lines = out.tests.map((t) => `${t.order}: ${t.code === '200000' ? 'accepted' : `refused (${t.code ?? `HTTP ${t.status}`}${t.msg ? ` ${t.msg}` : ''})`}`);
      const local = out.localErrors.length ? ` Local rules: ${out.localErrors.length} error${out.localErrors.length > 1 ? 's' : ''}, first: ${out.localErrors[0]}` : ' Local rules (trigger, sides): ok.';
      const text = `SpotDesk: test of the ${what} (POST /api/v1/hf/orders/test of what it becomes; nothing placed): ${lines.join('; ')}.${local}`;
      services.log.info(text.replace(/^SpotDesk: /, 'order document: '));
      void (ok ? vscode.window.showInformationMessage(text) : vscode.window.showWarningMessage(text));
      return out;
    }
    if (out.localErrors.length) throw new Error(`The ${what} is not valid: ${out.localErrors[0]}`);
    const symbol = str(order.symbol);
    const info = symbols?.find((s) => s.symbol === symbol);
    if (!info) throw new Error(`${symbol} is not listed by the exchange (GET /api/v2/symbols).`);
    const [book, base, accounts, stats] = await Promise.all([
      services.publicClient().then((c) => c.getLevel2(symbol, 20)).catch(() => undefined),
      client.getBaseFee().catch(() => undefined),
      client.getAccounts({ type: 'trade' }).catch(() => undefined),
      services.publicClient().then((c) => c.getStats(symbol)).catch(() => undefined),
    ]);
    const fees = base ? symbolFeeRates(base, info) : undefined;
    const avail = (c: string) => (accounts ? (accounts.find((a) => a.currency === c)?.available ?? '0') : null);
    const type: TicketType = kind === 'oco' ? 'oco' : order.type === 'market' ? 'stopMarket' : 'stopLimit';
    const q = quoteTicket(
      { side: order.side === 'buy' ? 'buy' : 'sell', type, price: str(order.price), size: str(order.size), stopPrice: str(order.stopPrice), limitPrice: str(order.limitPrice) },
      {
        rules: symbolRules(info) as SymbolRules & { baseCurrency: string; quoteCurrency: string },
        bestBid: book?.bids[0]?.[0] ?? null,
        bestAsk: book?.asks[0]?.[0] ?? null,
        last: stats?.last ?? null,
        availableBase: avail(info.baseCurrency),
        availableQuote: avail(info.quoteCurrency),
        makerFeeRate: fees?.makerFeeRate ?? null,
        takerFeeRate: fees?.takerFeeRate ?? null,
      },
    );
    const trigger = kind === 'oco' ? q.trigger : `${triggerSign(str(order.stop) || 'loss')} ${str(order.stopPrice)} (${str(order.stop) || 'loss'})`;
    const head =
      kind === 'oco'
        ? `Place ${str(order.side)} OCO order on ${symbol}: ${str(order.size)} ${info.baseCurrency}, take profit ${str(order.price)}, stop ${str(order.stopPrice)} → ${str(order.limitPrice)}?`
        : `Place ${str(order.side)} stop-${str(order.type)} order on ${symbol}: ${str(order.size) || `funds ${str(order.funds)}`} ${order.type === 'limit' ? `at ${str(order.price)}` : 'at market'} when the price is ${trigger}?`;
    const detail = [
      `Profile: ${fundsPhrase(services.profile())}.`,
      `Trigger: the last trade price ${trigger}${stats?.last ? ` (last price now ${stats.last})` : ''}.`,
      q.notional !== null ? `Notional: ${q.notional} ${info.quoteCurrency}.` : 'Notional: unknown.',
      q.fee !== null ? `Estimated fee: ${q.fee} ${info.quoteCurrency} (taker rate ${q.feeRate}: the liquidity is decided when it fires).` : 'Estimated fee: unknown.',
      ...q.warnings.map((w) => `⚠ ${w.message}`),
      '',
      `This sends POST ${kind === 'oco' ? '/api/v3/oco/order' : '/api/v1/stop-order'}: the order waits for its trigger; nothing is held until it fires.`,
    ].join('\n');
    const confirmation = await services.gate.confirm('place', head, detail, 'Place Order', { cancel: "Don't Place" });
    if (!confirmation) return out;
    const r = await services.gate.run(confirmation, () => (kind === 'oco' ? client.placeOcoOrder(order as never) : client.placeStopOrder(order as never)));
    out.orderId = r.orderId;
    services.log.info(`order document: placed ${what} ${r.orderId} on ${symbol}`);
    services.noteSymbol(symbol);
    services.refresh('orders');
    void vscode.window.showInformationMessage(`SpotDesk: ${what} placed on ${symbol} (id ${r.orderId}); it waits for its trigger in Active Orders.`);
    return out;
  } catch (err) {
    out.error = failureText(err);
    void vscode.window.showErrorMessage(`SpotDesk: ${out.error}`);
    return out;
  }
}
