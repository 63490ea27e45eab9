/**
 * Extension-host suite: the Order History, Fills and Funding History views against the embedded
 * sandbox with real data — a FRESH sandbox user (admin API) whose client is set through the one
 * test door (`setClient`), orders placed, filled and cancelled through the API, a deposit by the
 * admin API and a withdrawal by the API. What the views show is compared with what the exchange
 * answers; the CSV exports are written through the door's `prompts.saveFile` and read back; the
 * withdrawal is cancelled with the view's command behind its modal confirmation (answered through
 * `prompts.confirm`: dismissed first — nothing happens —, then accepted).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import type { HfFill, HfOrder } from '../../src/api/schemas';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { FillNode, FillSymbolNode } from '../../src/features/history/host/fills';
import type { DepositNode, FundingGroupNode, WithdrawalNode } from '../../src/features/history/host/fundingHistory';
import type { DoneOrderNode, HistorySymbolNode, MoreOrdersNode } from '../../src/features/history/host/orderHistory';
import { children, isError, item, labelOf, spotdesk, useSandboxProfile, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';
const TRON = 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz';

/** A minimal RFC 4180 reader for the exported files. */
function readCsv(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((l) => l.length)
    .map((l) => l.split(','));
}

describe('SpotDesk history views on the sandbox', function () {
  this.timeout(120_000);
  let api: SpotDeskTestHooks;
  let sb: { baseUrl: string; adminToken: string };
  let client: SpotClient;
  let uid: string;

  async function admin<T>(method: string, p: string, body?: unknown): Promise<T> {
    const res = await fetch(`${sb.baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${sb.adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const env = (await res.json()) as { code: string; data?: T; msg?: string };
    if (env.code !== '200000') throw new Error(`admin ${method} ${p}: ${env.code} ${env.msg ?? ''}`);
    return env.data as T;
  }

  before(async () => {
    await useSandboxProfile();
    api = await spotdesk();
    const s = await api.services.sandbox();
    if (!s) throw new Error('no embedded sandbox');
    sb = s;
    const u = await admin<{ uid: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: '2' }>('POST', '/sandbox/v1/users', {
      balances: [
        { currency: 'USDT', type: 'trade', amount: '20000' },
        { currency: 'USDT', type: 'main', amount: '500' },
        { currency: 'BTC', type: 'trade', amount: '0.5' },
      ],
      takerFeeRate: '0.002',
      makerFeeRate: '0.001',
    });
    uid = u.uid;
    client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u });
    api.setClient(client);
  });

  after(() => {
    api.setClient(undefined);
    api.resetPrompts();
    client?.close();
  });

  afterEach(() => api.resetPrompts());

  /** Place and cancel `n` resting buys far below the market: `n` done orders. */
  async function doneOrders(n: number): Promise<string[]> {
    const [info] = (await client.getSymbols()).filter((x) => x.symbol === SYMBOL);
    const bid = (await client.getLevel2(SYMBOL)).bids[0][0];
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const price = dec.roundDown(dec.mul(bid, dec.add('0.5', dec.mul(String(i), '0.001'))), info.priceIncrement);
      const o = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size: '0.001', clientOid: `hist-${uid}-${i}` });
      await client.cancelOrder(SYMBOL, o.orderId);
      ids.push(o.orderId);
    }
    return ids;
  }

  it('Order History loads when its view becomes visible, lists done orders newest first in pages, and exports them all as CSV', async () => {
    const tree = api.trees.orderHistory;
    assert.strictEqual(tree.state.loads, 0, 'a collapsed view has not loaded');
    const ids = await doneOrders(23);
    const market = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.001' });
    // showing the view starts its polling (no refresh() call here)
    await vscode.commands.executeCommand('spotdesk.orderHistory.focus');
    await waitFor('Order History loaded by visibility', () => tree.state.loads > 0 && tree.state.data);
    await tree.refresh();
    const roots = (await children(tree)) as HistorySymbolNode[];
    assert.ok(!roots.some((r) => isError(r)), 'no error item');
    const btc = roots.find((r) => r.symbol === SYMBOL);
    assert.ok(btc, 'BTC-USDT row');
    const expected = (await client.getDoneOrders({ symbol: SYMBOL, limit: 20 })).items;
    let rows = (await children(tree, btc)) as Array<DoneOrderNode | MoreOrdersNode>;
    assert.deepStrictEqual(rows.filter((r): r is DoneOrderNode => r.kind === 'doneOrder').map((r) => r.order.id), expected.map((o) => o.id));
    assert.strictEqual(expected[0].id, market.orderId);
    assert.strictEqual(rows[rows.length - 1].kind, 'moreOrders');
    const first = await item(tree, rows[0]);
    assert.strictEqual(labelOf(first), 'BUY market');
    assert.match(String(first.description), /· filled 0\.001 · filled · \d{4}-/);
    assert.match(String((await item(tree, btc)).description), /^20\+ done orders$/);

    // Load more: the next page through lastId
    await vscode.commands.executeCommand('spotdesk.orderHistory.loadMore', rows[rows.length - 1]);
    const again = ((await children(tree)) as HistorySymbolNode[]).find((r) => r.symbol === SYMBOL)!;
    rows = (await children(tree, again)) as Array<DoneOrderNode | MoreOrdersNode>;
    const all: HfOrder[] = [];
    for await (const o of client.iterateDoneOrders({ symbol: SYMBOL })) all.push(o);
    assert.deepStrictEqual(rows.filter((r): r is DoneOrderNode => r.kind === 'doneOrder').map((r) => r.order.id), all.slice(0, 40).map((o) => o.id));
    for (const id of ids) assert.ok(all.some((o) => o.id === id), `done order ${id} listed`);

    // CSV export of every page
    const file = path.join(os.tmpdir(), `spotdesk-host-orders-${Date.now()}.csv`);
    api.prompts.saveFile = async () => vscode.Uri.file(file);
    await vscode.commands.executeCommand('spotdesk.orderHistory.exportCsv');
    const csv = readCsv(fs.readFileSync(file, 'utf8'));
    const col = (name: string) => csv[0].indexOf(name);
    const btcRows = csv.slice(1).filter((r) => r[col('symbol')] === SYMBOL);
    assert.deepStrictEqual(btcRows.map((r) => r[col('orderId')]), all.map((o) => o.id));
    const m = btcRows[0];
    const mo = all[0];
    assert.deepStrictEqual([m[col('dealSize')], m[col('dealFunds')], m[col('fee')], m[col('outcome')]], [mo.dealSize, mo.dealFunds, mo.fee, 'filled']);
    fs.unlinkSync(file);
  });

  it('Fills lists price, size, fee, liquidity and time, shows the realized P&L by average cost, and exports it as CSV', async () => {
    // buy 0.004 in two fills' worth, sell 0.003: realized P&L by weighted average cost
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.002' });
    await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.002' });
    await client.placeOrder({ symbol: SYMBOL, side: 'sell', type: 'market', size: '0.003' });
    const tree = api.trees.fills;
    await tree.refresh();
    const roots = (await children(tree)) as FillSymbolNode[];
    assert.ok(!roots.some((r) => isError(r)), 'no error item');
    const btc = roots.find((r) => r.symbol === SYMBOL);
    assert.ok(btc, 'BTC-USDT row');
    const fills: HfFill[] = [];
    for await (const f of client.iterateFills({ symbol: SYMBOL })) fills.push(f);
    const rows = (await children(tree, btc)) as FillNode[];
    assert.deepStrictEqual(rows.map((r) => r.fill.id), fills.map((f) => f.id));
    const r0 = await item(tree, rows[0]);
    const f0 = fills[0];
    assert.strictEqual(labelOf(r0), `${f0.side.toUpperCase()} ${f0.size} @ ${f0.price}`);
    assert.ok(String(r0.description).startsWith(`${f0.liquidity} · fee ${f0.fee} ${f0.feeCurrency} · ${new Date(f0.createdAt).toISOString()}`), String(r0.description));

    // independent computation of the weighted-average-cost P&L (every fill of this user is a market order of this test)
    const oldest = [...fills].reverse();
    let qty = '0';
    let cost = '0';
    let realized = '0';
    for (const f of oldest) {
      if (f.side === 'buy') {
        qty = dec.add(qty, f.size);
        cost = dec.add(cost, dec.add(f.funds, f.fee));
      } else {
        // cost × size / qty with 30 digits: exact enough to round to the USDT precision below
        const share = dec.divDown(dec.mul(cost, f.size), qty, 30);
        realized = dec.add(realized, dec.sub(dec.sub(f.funds, f.fee), share));
        cost = dec.sub(cost, share);
        qty = dec.sub(qty, f.size);
      }
    }
    const digits = dec.fractionDigits(dec.normalize((await client.getSymbols()).find((x) => x.symbol === SYMBOL)!.quoteIncrement));
    // half away from zero at the quote precision
    const half = dec.mul('0.5', dec.precisionIncrement(digits));
    const abs = dec.isNegative(realized) ? dec.sub('0', realized) : realized;
    const absRounded = dec.roundDown(dec.add(abs, half), dec.precisionIncrement(digits));
    const rounded = dec.isNegative(realized) && !dec.isZero(absRounded) ? dec.normalize(dec.sub('0', absRounded)) : dec.normalize(absRounded);
    assert.strictEqual(btc.group.pnl?.realized, rounded);
    assert.strictEqual(btc.group.pnl?.position, qty);
    assert.match(String((await item(tree, btc)).description), new RegExp(`^P&L ${rounded.replace('.', '\\.')} USDT · position ${qty.replace('.', '\\.')} BTC · ${fills.length} fills`));

    const file = path.join(os.tmpdir(), `spotdesk-host-fills-${Date.now()}.csv`);
    api.prompts.saveFile = async () => vscode.Uri.file(file);
    await vscode.commands.executeCommand('spotdesk.fills.exportCsv');
    const csv = readCsv(fs.readFileSync(file, 'utf8'));
    const col = (name: string) => csv[0].indexOf(name);
    const btcRows = csv.slice(1).filter((r) => r[col('symbol')] === SYMBOL);
    assert.deepStrictEqual(btcRows.map((r) => r[col('fillId')]), oldest.map((f) => f.id));
    assert.deepStrictEqual(btcRows.map((r) => [r[col('price')], r[col('size')], r[col('fee')], r[col('liquidity')]]), oldest.map((f) => [f.price, f.size, f.fee, f.liquidity]));
    const sells = btcRows.filter((r) => r[col('side')] === 'sell');
    assert.ok(sells.length > 0 && sells.every((r) => dec.isDecimal(r[col('realizedPnl')])));
    fs.unlinkSync(file);
  });

  it('Funding History shows deposits and withdrawals with status; a processing withdrawal is cancelled only behind the modal', async () => {
    await admin('POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '42.5' });
    const tree = api.trees.fundingHistory;
    const before = (await client.getAccounts({ currency: 'USDT', type: 'main' }))[0];
    const w = await client.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' });
    await tree.refresh();
    const groups = (await children(tree)) as FundingGroupNode[];
    assert.deepStrictEqual(groups.map((g) => g.group), ['withdrawals', 'deposits']);
    const deposits = (await children(tree, groups[1])) as DepositNode[];
    const wire = (await client.getDeposits()).items;
    assert.deepStrictEqual(deposits.map((d) => [d.deposit.amount, d.deposit.status]), wire.map((d) => [d.amount, d.status]));
    assert.strictEqual(labelOf(await item(tree, deposits[0])), '+42.5 USDT');
    const withdrawals = (await children(tree, groups[0])) as WithdrawalNode[];
    const row = withdrawals.find((x) => x.withdrawal.id === w.withdrawalId);
    assert.ok(row, 'the withdrawal is listed');
    const ti = await item(tree, row);
    assert.strictEqual(ti.contextValue, 'spotdesk.withdrawal.processing');
    assert.match(String(ti.description), /^PROCESSING · fee /);

    // dismissed: nothing is cancelled
    const asked: string[] = [];
    api.prompts.confirm = async (message) => {
      asked.push(message);
      return false;
    };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelWithdrawal', row), false);
    assert.deepStrictEqual(asked, [`Cancel the withdrawal of 20 USDT to ${TRON}?`]);
    assert.strictEqual((await client.getWithdrawals({ status: 'PROCESSING' })).items.some((x) => x.id === w.withdrawalId), true);

    // accepted: cancelled, the hold is released
    api.prompts.confirm = async () => true;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelWithdrawal', row), true);
    const after = (await client.getAccounts({ currency: 'USDT', type: 'main' }))[0];
    assert.deepStrictEqual([after.balance, after.holds], [before.balance, before.holds]);
    assert.strictEqual((await client.getWithdrawals({ status: 'FAILURE' })).items[0].id, w.withdrawalId);
    const refreshed = (await children(tree, ((await children(tree)) as FundingGroupNode[])[0])) as WithdrawalNode[];
    const cancelled = refreshed.find((x) => x.withdrawal.id === w.withdrawalId)!;
    assert.strictEqual((await item(tree, cancelled)).contextValue, 'spotdesk.withdrawal');
    assert.match(String((await item(tree, cancelled)).description), /^FAILURE · /);
  });
});
