/**
 * Extension-host suite: KuCoin's fuller order API in SpotDesk against the embedded sandbox —
 * - a stop-limit order and an OCO order placed from the market panel's Order Ticket (its placement message, the
 *   money gate's modal answered through the prompts) appear in Active Orders under their own groups, are cancelled
 *   from their rows, and the stop order then shows in Order History;
 * - Edit Order… (POST /api/v1/hf/orders/alter) on an Active Orders row changes the price, and the row shows the new
 *   order id;
 * - Cancel All Orders (Every Symbol)… names the profile and the count of orders in its confirmation, cancels nothing
 *   when declined and every active order when accepted.
 * Every result is checked against the sandbox's own answers (GET of the orders), not only the command's.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as dec from '../../src/api/decimal';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { AdvancedGroupNode, OcoOrderNode, OrderNode, OrderSymbolNode, StopOrderNode } from '../../src/features/orders/host/orders';
import type { AdvancedHistoryNode, DoneStopNode } from '../../src/features/history/host/orderHistory';
import { children, item, labelOf, openMarketPanel, spotdesk, useSandboxProfile, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';

describe('SpotDesk: stop and OCO orders, Edit Order, Cancel All (sandbox)', function () {
  this.timeout(120_000);
  let api: SpotDeskTestHooks;

  before(async () => {
    await useSandboxProfile();
    api = await spotdesk();
    await api.services.sandbox();
  });

  afterEach(() => api.resetPrompts());

  /** The best bid of BTC-USDT and its tick. */
  async function market(): Promise<{ bid: string; tick: string }> {
    const client = await api.services.client();
    const [info] = (await client.getSymbols()).filter((s) => s.symbol === SYMBOL);
    const book = await client.getLevel2(SYMBOL);
    return { bid: book.bids[0][0], tick: info.priceIncrement };
  }

  /** The children of the root row of kind `kind` (and group), after a reload. */
  async function rowsOf<T>(kind: string, group?: string): Promise<T[]> {
    await api.trees.orders.refresh();
    const roots = (await children(api.trees.orders)) as Array<{ kind: string; group?: string }>;
    const g = roots.find((r) => r.kind === kind && (group === undefined || r.group === group));
    return g ? ((await children(api.trees.orders, g as never)) as T[]) : [];
  }

  it('a stop-limit order from the Order Ticket: confirmed in the modal, listed under "Stop orders" with its trigger, cancelled from the row, then in Order History', async () => {
    const { bid, tick } = await market();
    const price = dec.normalize(dec.roundDown(dec.mul(bid, '0.5'), tick));
    const stopPrice = dec.normalize(dec.roundDown(dec.mul(bid, '0.6'), tick));
    const panel = await openMarketPanel(SYMBOL);
    await waitFor('the ticket can trade', () => panel.posted.some((m) => m.type === 'account' && m.account.canTrade));
    const asked: Array<[string, string, string]> = [];
    api.prompts.confirm = async (message, detail, action) => {
      asked.push([message, detail, action]);
      return true;
    };
    await panel.handle({ type: 'place', side: 'sell', orderType: 'stopLimit', price, size: '0.001', stopPrice });
    const placed = (panel as unknown as { lastPlacement?: { orderId?: string; error?: string } }).lastPlacement;
    assert.ok(placed?.orderId, `placed: ${JSON.stringify(placed)}`);
    const id = placed.orderId;
    // the modal: what, the trigger, the profile, the endpoint
    assert.strictEqual(asked.length, 1);
    const [message, detail, action] = asked[0];
    assert.strictEqual(message, `Sell 0.001 BTC at ${price} (stop-limit) on ${SYMBOL}?`);
    assert.strictEqual(action, 'Place Sell Stop-limit Order');
    assert.ok(detail.includes(`Trigger: the last trade price ≤ ${stopPrice} (loss).`), detail);
    assert.ok(detail.includes(`Profile: the sandbox profile "${api.services.profile().name}"`), detail);
    assert.ok(detail.includes('This sends POST /api/v1/stop-order'), detail);
    assert.ok(panel.posted.some((m) => m.type === 'placed' && m.ok && m.message.includes(id)));
    // the sandbox has it, waiting, as sent
    const client = await api.services.client();
    const onExchange = await client.getStopOrder(id);
    assert.deepStrictEqual([onExchange.status, onExchange.stop, onExchange.stopPrice, onExchange.price, onExchange.size, onExchange.side], ['NEW', 'loss', stopPrice, price, '0.001', 'sell']);

    // Active Orders: the "Stop orders" group with the row and its trigger
    const rows = await rowsOf<StopOrderNode>('advancedGroup', 'stops');
    const node = rows.find((r) => r.row.id === id);
    assert.ok(node, `stop order ${id} listed under Stop orders`);
    const group = ((await children(api.trees.orders)) as AdvancedGroupNode[]).find((r) => r.kind === 'advancedGroup' && r.group === 'stops')!;
    assert.strictEqual(labelOf(await item(api.trees.orders, group)), 'Stop orders');
    const ti = await item(api.trees.orders, node);
    assert.match(labelOf(ti), /^SELL stop-limit 0\.001 @ [\d,.]+$/);
    assert.match(String(ti.description), new RegExp(`^${SYMBOL} · trigger ≤ [\\d,.]+ \\(loss\\) · waiting$`));
    assert.strictEqual(ti.contextValue, 'spotdesk.stopOrder');

    // cancel from the row: declined keeps it, accepted cancels it on the exchange
    api.prompts.confirm = async () => false;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), false);
    assert.strictEqual((await client.getStopOrder(id)).status, 'NEW');
    const cancelAsk: string[] = [];
    api.prompts.confirm = async (m, d, a, c) => {
      cancelAsk.push(m, d, a, c ?? '');
      return true;
    };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), true);
    assert.deepStrictEqual([cancelAsk[0], cancelAsk[2], cancelAsk[3]], [`Cancel sell stop-limit order on ${SYMBOL}?`, 'Cancel Order', 'Keep Order']);
    assert.ok(cancelAsk[1].includes(`trigger ≤ ${stopPrice} (loss)`) && cancelAsk[1].includes(id), cancelAsk[1]);
    assert.strictEqual((await client.getStopOrder(id)).status, 'CANCELLED');
    assert.ok(!(await rowsOf<StopOrderNode>('advancedGroup', 'stops')).some((r) => r.row.id === id), 'gone from Active Orders');

    // Order History: the stop order SpotDesk saw waiting, now cancelled
    await api.trees.orderHistory.refresh();
    const hroots = (await children(api.trees.orderHistory)) as Array<{ kind: string }>;
    const adv = hroots.find((r): r is AdvancedHistoryNode => r.kind === 'advancedHistory');
    assert.ok(adv, 'Order History has its Stop & OCO orders group');
    const done = ((await children(api.trees.orderHistory, adv as never)) as DoneStopNode[]).find((n) => n.kind === 'doneStop' && n.order.id === id);
    assert.ok(done, 'the cancelled stop order is in Order History');
    assert.match(String((await item(api.trees.orderHistory, done as never)).description), /trigger ≤ .* \(loss\) · cancelled/);
  });

  it('an OCO order from the Order Ticket: one row with both legs under "OCO orders", cancelled from the row (both legs)', async () => {
    const { bid, tick } = await market();
    const price = dec.normalize(dec.roundDown(dec.mul(bid, '1.5'), tick));
    const stopPrice = dec.normalize(dec.roundDown(dec.mul(bid, '0.6'), tick));
    const limitPrice = dec.normalize(dec.roundDown(dec.mul(bid, '0.59'), tick));
    const panel = await openMarketPanel(SYMBOL);
    await waitFor('the ticket can trade', () => panel.posted.some((m) => m.type === 'account' && m.account.canTrade));
    let detail = '';
    api.prompts.confirm = async (_m, d) => ((detail = d), true);
    await panel.handle({ type: 'place', side: 'sell', orderType: 'oco', price, size: '0.001', stopPrice, limitPrice });
    const id = (panel as unknown as { lastPlacement?: { orderId?: string } }).lastPlacement?.orderId;
    assert.ok(id, 'placed');
    assert.ok(detail.includes(`Trigger: the last trade price ≥ ${price} / ≤ ${stopPrice}.`) && detail.includes('POST /api/v3/oco/order'), detail);
    const client = await api.services.client();
    const d = await client.getOcoOrderDetail(id);
    assert.deepStrictEqual([d.status, d.orders.length, d.orders.map((l) => l.price).sort()], ['NEW', 2, [limitPrice, price].sort()]);

    const rows = await rowsOf<OcoOrderNode>('advancedGroup', 'ocos');
    const node = rows.find((r) => r.row.id === id);
    assert.ok(node, 'one OCO row');
    const ti = await item(api.trees.orders, node);
    assert.strictEqual(labelOf(ti), 'SELL OCO 0.001');
    assert.match(String(ti.description), /· take profit ≥ [\d,.]+ @ [\d,.]+ · stop ≤ [\d,.]+ @ [\d,.]+ · waiting$/);
    api.prompts.confirm = async () => true;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), true);
    const after = await client.getOcoOrderDetail(id);
    assert.strictEqual(after.status, 'CANCELLED');
    assert.ok(after.orders.every((l) => l.status === 'CANCELLED'), 'both legs cancelled');
    assert.ok(!(await rowsOf<OcoOrderNode>('advancedGroup', 'ocos')).some((r) => r.row.id === id));
  });

  it('while the private stream is up, a stop order placed elsewhere appears under "Stop orders" and leaves when cancelled, without a REST load (/spotMarket/advancedOrders)', async () => {
    const { orders } = api.trees;
    await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
    await waitFor('Active Orders visible', () => orders.view?.visible);
    // A stream of this profile's own user: another suite may have left one open for a client it set through the
    // test door (which changes no profile, so the feed is not reset by itself).
    api.live.current?.reset();
    await orders.refresh();
    await waitFor('the private stream live and synced', () => api.live.privateSynced && orders.isLive, 30_000);
    await orders.refresh(); // after the resync of the (re)connection, if it is still loading
    const { bid, tick } = await market();
    const client = await api.services.client();
    const loads = orders.state.loads;
    const updates = orders.counters.streamUpdates;
    // placed by another program (a bot): SpotDesk learns it from the stream only
    const { orderId } = await client.placeStopOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.001', stopPrice: dec.normalize(dec.roundDown(dec.mul(bid, '2'), tick)), stop: 'entry', clientOid: `live-${Date.now()}` });
    const ch = api.live.current?.private;
    const seen = () => `stream topics ${JSON.stringify(ch?.topics)}, messages ${ch?.stats.messages}, state ${ch?.status.state}; view loads ${orders.state.loads}, stream updates ${orders.counters.streamUpdates}, live ${orders.isLive}`;
    const row = await waitFor('the stop order in the view', () => orders.stopRows().find((r) => r.id === orderId)).catch((err: unknown) => {
      throw new Error(`${String(err)} (${seen()})`);
    });
    assert.deepStrictEqual([row.side, row.type, row.stop, row.status], ['buy', 'market', 'entry', 'NEW']);
    await client.cancelStopOrder(orderId);
    await waitFor('the stop order gone from the view', () => !orders.stopRows().some((r) => r.id === orderId));
    assert.strictEqual(orders.state.loads, loads, 'no REST load: the stream did it');
    assert.ok(orders.counters.streamUpdates >= updates + 2, `two stream updates (${orders.counters.streamUpdates - updates})`);
  });

  it('Edit Order… changes the price (validated against the tick, confirmed as a placement) and the row shows the new order id', async () => {
    api.services.noteSymbol(SYMBOL);
    const { bid, tick } = await market();
    const client = await api.services.client();
    const price = dec.normalize(dec.roundDown(dec.mul(bid, '0.5'), tick));
    const placed = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size: '0.001', clientOid: `edit-${Date.now()}` });
    const symbolRows = async () => {
      await api.trees.orders.refresh();
      const g = ((await children(api.trees.orders)) as OrderSymbolNode[]).find((r) => r.kind === 'symbol' && r.symbol === SYMBOL);
      return g ? ((await children(api.trees.orders, g)) as OrderNode[]) : [];
    };
    const node = (await symbolRows()).find((n) => n.order.id === placed.orderId);
    assert.ok(node, 'listed');
    const newPrice = dec.normalize(dec.add(price, tick));
    const inputs: Array<{ title: string; value: string; refused: string | undefined; offTick: string | undefined }> = [];
    api.prompts.input = async (o) => {
      const title = o.title ?? '';
      const answer = title.endsWith('(1/2)') ? newPrice : '0.001';
      inputs.push({ title, value: o.value ?? '', refused: o.validateInput?.(answer) as string | undefined, offTick: o.validateInput?.(title.endsWith('(1/2)') ? dec.add(price, dec.mul(tick, '0.5')) : '0.0010000001') as string | undefined });
      return answer;
    };
    let asked: string[] = [];
    api.prompts.confirm = async (m, d, a) => ((asked = [m, d, a]), true);
    const r = (await vscode.commands.executeCommand('spotdesk.editOrder', node)) as { orderId: string; newOrderId: string; newPrice?: string; newSize?: string };
    assert.deepStrictEqual(
      inputs.map((i) => [i.title, i.value, i.refused]),
      [
        [`Edit BUY ${SYMBOL} order (1/2)`, price, undefined],
        [`Edit BUY ${SYMBOL} order (2/2)`, '0.001', undefined],
      ],
    );
    assert.match(inputs[0].offTick ?? '', /multiple of/);
    assert.match(inputs[1].offTick ?? '', /multiple of/);
    assert.strictEqual(asked[0], `Modify buy order on ${SYMBOL}: 0.001 @ ${price} → 0.001 @ ${newPrice}?`);
    assert.ok(asked[1].includes('POST /api/v1/hf/orders/alter') && asked[1].includes(`Profile: the sandbox profile "${api.services.profile().name}"`), asked[1]);
    assert.strictEqual(asked[2], 'Modify Order');
    assert.strictEqual(r.orderId, placed.orderId);
    assert.deepStrictEqual(r.newPrice, newPrice);
    assert.ok(r.newOrderId && r.newOrderId !== placed.orderId, 'a new order id');
    // the exchange: the old order is gone, the new one rests at the new price
    assert.strictEqual((await client.getOrder(SYMBOL, placed.orderId)).active, false);
    const fresh = await client.getOrder(SYMBOL, r.newOrderId);
    assert.deepStrictEqual([fresh.active, fresh.price, fresh.size, fresh.side], [true, newPrice, '0.001', 'buy']);
    // the view: the row now carries the new id
    const rows = await symbolRows();
    assert.ok(rows.some((n) => n.order.id === r.newOrderId && n.order.price === newPrice), 'the new order id is listed');
    assert.ok(!rows.some((n) => n.order.id === placed.orderId), 'the old id is gone');
    await client.cancelOrder(SYMBOL, r.newOrderId);
  });

  it('Cancel All Orders (Every Symbol)… names the profile and the count; declined: nothing; accepted: every active order of every symbol cancelled', async () => {
    const client = await api.services.client();
    const { bid, tick } = await market();
    const price = dec.normalize(dec.roundDown(dec.mul(bid, '0.5'), tick));
    const eth = (await client.getLevel2('ETH-USDT')).bids[0][0];
    const ethTick = (await client.getSymbols()).find((s) => s.symbol === 'ETH-USDT')!.priceIncrement;
    const ids = [
      (await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size: '0.001', clientOid: `all-1-${Date.now()}` })).orderId,
      (await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size: '0.002', clientOid: `all-2-${Date.now()}` })).orderId,
      (await client.placeOrder({ symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: dec.roundDown(dec.mul(eth, '0.5'), ethTick), size: '0.01', clientOid: `all-3-${Date.now()}` })).orderId,
    ];
    // the count the exchange has (other suites may have left orders of their own)
    let n = 0;
    for (const s of await client.getActiveOrderSymbols()) n += (await client.getActiveOrders(s)).length;
    assert.ok(n >= 3);
    const profile = api.services.profile().name;
    let asked: string[] = [];
    api.prompts.confirm = async (m, d, a, c) => ((asked = [m, d, a, c ?? '']), false);
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelAllOrders'), false);
    assert.match(asked[0], new RegExp(`^Cancel all ${n} active orders of profile "${profile.replace(/[()]/g, '\\$&')}" on \\d+ symbols\\?$`));
    assert.ok(asked[1].includes('BTC-USDT (') && asked[1].includes('ETH-USDT (') && asked[1].includes('DELETE /api/v1/hf/orders/cancelAll'), asked[1]);
    assert.deepStrictEqual(asked.slice(2), ['Cancel All Orders', 'Keep Orders']);
    for (const id of ids.slice(0, 2)) assert.strictEqual((await client.getOrder(SYMBOL, id)).active, true, 'declined: still active');

    api.prompts.confirm = async () => true;
    const r = (await vscode.commands.executeCommand('spotdesk.cancelAllOrders')) as { cancelled: number; symbols: string[] };
    assert.strictEqual(r.cancelled, n);
    assert.ok(r.symbols.includes(SYMBOL) && r.symbols.includes('ETH-USDT'));
    assert.deepStrictEqual(await client.getActiveOrderSymbols(), []);
    assert.strictEqual((await client.getOrder('ETH-USDT', ids[2])).active, false);
  });
});
