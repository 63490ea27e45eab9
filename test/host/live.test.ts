/**
 * Extension-host suite of SpotDesk live against sandboxes:
 * - Active Orders and Accounts follow the private WebSocket stream: they change within one second of a
 *   REST placement and of a fill, with no poll scheduled or made while the stream is up;
 * - the fill notification (symbol, side, size, price, fee as charged) with "Show Fills", and the setting
 *   `spotdesk.notifications.fills` that turns it off;
 * - price alerts: added, edited and deleted through the commands' own steps and tree rows, fired once
 *   from the ticker stream by a real cross, kept across a reload (global state), and an alert crossed
 *   while VS Code was closed fires on start from the current price;
 * - the stale state: a second sandbox process (a user profile) is stopped — the views keep their last
 *   data marked stale with its age and a Retry row, the status bar item goes reconnecting → polling with
 *   the reason, the views poll; when the sandbox is back everything is live again.
 * Every wait is a predicate with a deadline (no fixed sleeps); nothing is retried.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as dec from '../../src/api/decimal';
import type { SpotClient } from '../../src/api/client';
import type { SymbolInfo } from '../../src/api/schemas';
import { ALERTS_KEY, PriceAlerts, type AlertRow } from '../../src/features/alerts/host/index';
import type { PriceAlert } from '../../src/features/alerts/model/alerts';
import { signed, unrealizedPnl } from '../../src/api/pnl';
import { startSandboxProcess, type SandboxProcess } from '../../src/host/sandboxProcess';
import type { OrderNode, OrderSymbolNode } from '../../src/features/orders/host/orders';
import { EXTENSION_ID, children, labelOf, sandboxSuite, useSandboxProfile, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';
const cfg = () => vscode.workspace.getConfiguration('spotdesk');

/** Check `check` every 20 ms until it is truthy; fail at `deadline` (ms since the epoch), checking at least once. */
async function until<T>(what: string, check: () => T | Promise<T>, deadline: number): Promise<NonNullable<T>> {
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`${what}: not within the deadline (${Date.now() - deadline} ms late)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SpotDesk live', function () {
  this.timeout(120_000);
  const s = sandboxSuite();
  let client: SpotClient;
  let info: SymbolInfo;

  before(async () => {
    await cfg().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    client = await s.hooks.services.client();
    info = (await s.hooks.services.symbols()).find((x) => x.symbol === SYMBOL)!;
    // The views visible (they would poll every 2 s if the stream did not feed them).
    await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
    const { accounts, orders } = s.hooks.trees;
    await waitFor('Accounts and Active Orders visible', () => accounts.view?.visible && orders.view?.visible);
    await Promise.all([accounts.refresh(), orders.refresh()]);
    await waitFor('the private stream subscribed, both views reloaded and fed by it', () => s.hooks.live.privateSynced && accounts.isLive && orders.isLive, 30_000);
  });

  after(async () => {
    await cfg().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('notifications.fills', undefined, vscode.ConfigurationTarget.Global);
  });

  /** The default user's trade account of `currency` as the Accounts view holds it. */
  const viewTrade = (currency: string) => s.hooks.trees.accounts.state.data?.accounts.find((a) => a.currency === currency && a.type === 'trade');
  const figures = (a: { balance: string; available: string; holds: string } | undefined) => a && [a.balance, a.available, a.holds].map((v) => dec.normalize(v)).join(' ');
  /** Wait until the Accounts view's trade account of `currency` says what GET /api/v1/accounts says. */
  const sameAsRest = (currency: string, deadline: number) =>
    until(`Accounts ${currency} as the exchange says`, async () => figures(viewTrade(currency)) === figures((await client.getAccounts({ currency, type: 'trade' }))[0]), deadline);

  /** A resting limit buy of `size` at the best bid (behind what already rests there). */
  async function restingBestBid(size: string): Promise<{ orderId: string; price: string }> {
    const price = (await client.getLevel2(SYMBOL, 20)).bids[0][0];
    const r = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size, clientOid: `live-${Date.now()}-${Math.floor(Math.random() * 1e6)}` });
    return { orderId: r.orderId, price };
  }

  /**
   * Another user sells (IOC, limit `price`) everything bid at `price` or better, plus a margin: every bid
   * up to and including the default user's resting buy at `price` fills completely.
   */
  async function sellInto(price: string): Promise<void> {
    const depth = (await client.getFullOrderBook(SYMBOL)).bids.filter(([p]) => dec.cmp(p, price) >= 0).reduce((sum, [, q]) => dec.add(sum, q), '0');
    const size = dec.roundDown(dec.add(depth, '0.01'), info.baseIncrement);
    const { client: other } = await s.freshUser([{ currency: 'BTC', type: 'trade', amount: dec.add(size, '1') }]);
    await other.placeOrder({ symbol: SYMBOL, side: 'sell', type: 'limit', price, size, timeInForce: 'IOC', clientOid: `taker-${Date.now()}` });
  }

  it('Active Orders and Accounts change within one second of a REST placement and of a fill, without polling', async () => {
    const { accounts, orders } = s.hooks.trees;
    const polls = [accounts.counters.polls, orders.counters.polls];
    const updates = [accounts.counters.streamUpdates, orders.counters.streamUpdates];
    assert.deepStrictEqual([accounts.pollScheduled, orders.pollScheduled], [false, false], 'no poll timer while the stream is up');
    const usdtHold = viewTrade('USDT')!.holds;
    const btc = viewTrade('BTC')!.balance;

    // Placement: the order and its hold appear within 1 s of the acknowledgement.
    const placed = await restingBestBid('0.001');
    const deadline = Date.now() + 1000;
    await until('the order in Active Orders', () => orders.ordersOf(SYMBOL).some((o) => o.id === placed.orderId), deadline);
    await until('the USDT hold in Accounts', () => dec.cmp(viewTrade('USDT')!.holds, usdtHold) > 0, deadline);
    const group = ((await children(orders)) as OrderSymbolNode[]).find((g) => g.symbol === SYMBOL)!;
    const rows = (await children(orders, group)) as OrderNode[];
    const row = rows.find((n) => n.order.id === placed.orderId);
    assert.ok(row, 'the order row is rendered');
    assert.match(orders.getTreeItem(row).description as string, new RegExp(`^0\\.001 @ ${placed.price.replace('.', '\\.')}`));
    assert.strictEqual(orders.view!.description?.startsWith('live · '), true, `view description ${orders.view!.description}`);
    // The view holds what the exchange says.
    await sameAsRest('USDT', Date.now() + 1000);

    // Fill: the order leaves Active Orders and the BTC arrives in Accounts within 1 s of the taker's acknowledgement.
    await sellInto(placed.price);
    const filledBy = Date.now() + 1000;
    await until('the filled order gone from Active Orders', () => !orders.ordersOf(SYMBOL).some((o) => o.id === placed.orderId), filledBy);
    await until('the bought BTC in Accounts', () => dec.cmp(viewTrade('BTC')!.balance, btc) > 0, filledBy);
    const done = await client.getOrder(SYMBOL, placed.orderId);
    assert.deepStrictEqual([done.active, done.dealSize], [false, '0.001']);
    await sameAsRest('BTC', Date.now() + 1000);
    await sameAsRest('USDT', Date.now() + 1000);

    assert.deepStrictEqual([accounts.counters.polls, orders.counters.polls], polls, 'the poll counters stayed still');
    assert.deepStrictEqual([accounts.pollScheduled, orders.pollScheduled], [false, false]);
    assert.ok(accounts.counters.streamUpdates > updates[0] && orders.counters.streamUpdates > updates[1], 'the stream updated both views');
  });

  it('a fill shows a notification (symbol, side, size, price, fee) with Show Fills; the setting turns it off', async () => {
    const shown: Array<{ text: string; actions: string[] }> = [];
    const picked: string[] = [];
    const live = s.hooks.live;
    const original = live.notify;
    live.notify = async (text, ...actions) => {
      shown.push({ text, actions });
      return 'Show Fills';
    };
    s.hooks.prompts.pick = (async (items: readonly vscode.QuickPickItem[], o: { title?: string }) => {
      picked.push(`${o.title} | ${items.map((i) => `${i.label} · ${i.description}`).join(' | ')}`);
      return undefined;
    }) as typeof s.hooks.prompts.pick;
    try {
      await cfg().update('notifications.fills', true, vscode.ConfigurationTarget.Global);
      const a = await restingBestBid('0.002');
      await sellInto(a.price);
      const n = await waitFor('the fill notification', () => live.notifications.find((x) => x.summary.orderId === a.orderId), 10_000);
      const fills = (await client.getFills({ symbol: SYMBOL, orderId: a.orderId })).items;
      const fee = fills.reduce((sum, f) => dec.add(sum, f.fee), '0');
      assert.strictEqual(n.text, `SpotDesk: BUY ${SYMBOL} filled: 0.002 BTC at ${a.price} · fee ${fee} ${fills[0].feeCurrency} (maker)`);
      assert.strictEqual(n.shown, true);
      assert.deepStrictEqual(shown.filter((x) => x.text === n.text), [{ text: n.text, actions: ['Show Fills'] }]);
      // "Show Fills" lists the order's fills with their fees.
      const list = await waitFor('the fills of the order listed', () => picked.find((p) => p.startsWith(`Fills of order ${a.orderId} `)));
      assert.ok(list.startsWith(`Fills of order ${a.orderId} (${SYMBOL}) | BUY `), list);
      assert.ok(list.includes(` · maker · fee ${fee} ${fills[0].feeCurrency}`), list);

      await cfg().update('notifications.fills', false, vscode.ConfigurationTarget.Global);
      const b = await restingBestBid('0.001');
      await sellInto(b.price);
      const off = await waitFor('the second fill noted', () => live.notifications.find((x) => x.summary.orderId === b.orderId), 10_000);
      assert.strictEqual(off.shown, false);
      assert.ok(!shown.some((x) => x.text === off.text), 'not shown while the setting is off');
    } finally {
      live.notify = original;
      await cfg().update('notifications.fills', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the Accounts view shows the unrealized P&L of a holding from the fills, by the documented method', async () => {
    const { accounts } = s.hooks.trees;
    // The fills above noted BTC-USDT as traded; the holding's P&L follows them.
    await s.hooks.holdings.recompute();
    await waitFor('the BTC holding P&L', () => s.hooks.holdings.of('BTC')?.pairs.some((p) => p.symbol === SYMBOL), 20_000);
    const fills = [];
    for await (const f of client.iterateFills({ symbol: SYMBOL, limit: 100 })) fills.push(f);
    const digits = dec.fractionDigits(dec.normalize(info.quoteIncrement));
    // What the row shows now (prices move: the figures are read together with the item).
    const row = ((await children(accounts)) as Array<{ kind: string; currency?: string }>).find((r) => r.kind === 'currency' && r.currency === 'BTC')!;
    const it = accounts.getTreeItem(row as never);
    const top = s.hooks.holdings.of('BTC')!.pairs[0];
    assert.strictEqual(top.symbol, SYMBOL);
    const expected = unrealizedPnl(fills, 'BTC', 'USDT', top.last, digits);
    assert.deepStrictEqual([top.position, top.costBasis, top.unrealized, top.realized], [expected.position, expected.costBasis, expected.unrealized, expected.realized]);
    // Available, value, then the P&L (holds, when any, come last: a narrow side bar cuts the end).
    assert.match(String(it.description), new RegExp(` avail · ≈ [\\d,.]+ USD · uP&L ${signed(top.unrealized).replace(/[.+]/g, '\\$&')} USDT( · .* on hold)?$`), String(it.description));
    const md = (it.tooltip as vscode.MarkdownString).value;
    assert.ok(md.includes(`**${SYMBOL}**: unrealized **${signed(top.unrealized)} USDT** on ${top.position} BTC (average cost ${top.averageCost}, last ${top.last}`), md);
    assert.match(md, /Weighted average cost from your fills/);
  });

  it('one price: the BTC row, its tooltip, the Portfolio total and the status bar use the P&L\'s BTC-USDT last × USDT\'s price', async () => {
    const { accounts } = s.hooks.trees;
    await accounts.refresh();
    await s.hooks.holdings.recompute();
    // Read everything in one synchronous run (ticks move the last price between event-loop turns).
    const data = accounts.state.data!;
    const nodes = accounts.nodes(data);
    const last = s.hooks.holdings.lastPrice(SYMBOL);
    assert.ok(last, 'BTC-USDT followed');
    const usdtPrice = data.prices!.USDT;
    const btc = nodes.find((r) => r.currency === 'BTC')!;
    assert.strictEqual(btc.fiatValue, dec.mulDown(btc.total, dec.mul(last, usdtPrice), 2), 'the row: balance × last × USDT price');
    const md = (accounts.getTreeItem(btc as never).tooltip as vscode.MarkdownString).value;
    assert.ok(md.includes(`(the last ${SYMBOL} trade ${last} × ${dec.normalize(usdtPrice)} USD per USDT)`), md);
    const top = s.hooks.holdings.of('BTC')?.pairs[0];
    if (top?.symbol === SYMBOL) assert.strictEqual(top.last, last, 'the P&L is at the same last');
    const portfolio = accounts.portfolio(nodes, 'USD')!;
    assert.strictEqual(portfolio.total, nodes.filter((r) => r.fiatValue !== undefined).reduce((sum, r) => dec.add(sum, r.fiatValue!), '0'));
    s.hooks.liveItem.update();
    const text = s.hooks.liveItem.item.text;
    const shown = dec.roundDown(portfolio.total, '0.01');
    const [int, frac = ''] = shown.split('.');
    assert.ok(text.endsWith(` · ${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac.padEnd(2, '0')} USD`), `${text} vs the Portfolio row ${portfolio.total}`);
  });

  describe('price alerts', () => {
    const state = () => s.hooks.services.context.globalState;
    const stored = () => (state().get<PriceAlert[]>(ALERTS_KEY) ?? []).filter((a) => a.profileId === s.hooks.services.profile().id);
    let saved: unknown;
    const notified: string[] = [];
    let originalNotify: PriceAlerts['notify'] | undefined;

    before(async () => {
      saved = state().get(ALERTS_KEY);
      await state().update(ALERTS_KEY, []);
      const alerts = s.hooks.alerts();
      originalNotify = alerts.notify;
      alerts.notify = async (text) => {
        notified.push(text);
        return undefined;
      };
    });

    after(async () => {
      s.hooks.alerts().notify = originalNotify!;
      await state().update(ALERTS_KEY, saved);
      await s.hooks.alerts().watch();
    });

    /** Answer the command's steps: symbol (when asked), direction, price; records the price box's options. */
    function answer(direction: 'Above' | 'Below', price: string, boxes: vscode.InputBoxOptions[] = []): void {
      s.hooks.prompts.pick = (async (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label === SYMBOL) ?? items.find((i) => i.label === direction)) as typeof s.hooks.prompts.pick;
      s.hooks.prompts.input = async (o: vscode.InputBoxOptions) => {
        boxes.push(o);
        return price;
      };
    }

    /** The last traded price (a small market buy first makes one if the symbol has not traded yet). */
    async function last(): Promise<string> {
      const t = (await client.getAllTickers()).ticker.find((x) => x.symbol === SYMBOL)!;
      if (t.last) return t.last;
      await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'market', size: '0.0001', clientOid: `last-${Date.now()}` });
      return (await client.getAllTickers()).ticker.find((x) => x.symbol === SYMBOL)!.last!;
    }

    it('"Add Price Alert…" asks symbol, direction and a price on the tick; the Alerts tree edits and deletes with its rows only', async () => {
      const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: Array<{ command: string; title: string }>; views: Record<string, Array<{ id: string }>> } };
      assert.ok(pkg.contributes.commands.some((c) => c.command === 'spotdesk.addPriceAlert' && c.title === 'Add Price Alert…'));
      assert.ok(pkg.contributes.views.spotdesk.some((v) => v.id === 'spotdesk.alerts'));
      const now = await last();
      const high = dec.roundDown(dec.mul(now, '3'), info.priceIncrement);
      const boxes: vscode.InputBoxOptions[] = [];
      answer('Above', high, boxes);
      const added = await vscode.commands.executeCommand<PriceAlert>('spotdesk.addPriceAlert');
      assert.ok(added);
      assert.deepStrictEqual([added.symbol, added.direction, added.price, added.firedAt], [SYMBOL, 'above', high, undefined]);
      // the price box checks the tick and the side of the current price
      const validate = boxes[0].validateInput!;
      assert.match(String(validate(dec.add(high, '0.05'))), /is not on the tick 0\.1: use/);
      assert.match(String(validate(dec.roundDown(dec.mul(now, '0.5'), info.priceIncrement))), /would fire at once/);
      assert.strictEqual(validate(high), undefined);
      assert.deepStrictEqual(stored().map((a) => a.id), [added.id], 'kept in global state');
      const rows = s.hooks.alerts().getChildren() as AlertRow[];
      assert.deepStrictEqual(rows.map((r) => (r.kind === 'alert' ? labelOf(s.hooks.alerts().getTreeItem(r)) : r.kind)), [`${SYMBOL} above ${high}`]);

      // Edit through the row: asked again, same id, re-armed.
      const low = dec.roundDown(dec.mul(now, '0.3'), info.priceIncrement);
      answer('Below', low);
      const edited = await vscode.commands.executeCommand<PriceAlert>('spotdesk.editPriceAlert', rows[0]);
      assert.deepStrictEqual([edited.id, edited.direction, edited.price], [added.id, 'below', low]);
      // A forged argument (not a tree row) edits and deletes nothing.
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.editPriceAlert', { alert: { id: added.id } }), undefined);
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.deletePriceAlert', { id: added.id }), undefined);
      assert.deepStrictEqual(stored().map((a) => [a.id, a.price]), [[added.id, low]]);
      const row = (s.hooks.alerts().getChildren() as AlertRow[])[0];
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.deletePriceAlert', row), true);
      assert.deepStrictEqual(stored(), []);
    });

    it('fires once from the ticker stream when the price crosses, and survives a reload; a cross missed while closed fires on start', async function () {
      this.timeout(90_000);
      const alerts = s.hooks.alerts();
      // A level just above the market; an alert far above keeps the symbol subscribed after the first fires.
      const book = await client.getLevel2(SYMBOL, 20);
      const level = dec.roundUp(dec.mul(dec.max(book.asks[0][0], await last()), '1.002'), info.priceIncrement);
      answer('Above', level);
      const a = await vscode.commands.executeCommand<PriceAlert>('spotdesk.addPriceAlert', SYMBOL);
      answer('Above', dec.roundDown(dec.mul(level, '10'), info.priceIncrement));
      const keep = await vscode.commands.executeCommand<PriceAlert>('spotdesk.addPriceAlert', SYMBOL);
      assert.ok(a && keep);
      assert.strictEqual(alerts.fired.filter((f) => f.alert.id === a.id).length, 0);

      // A real cross: a sell rests at the level, a buy sweeps every ask up to it and rests its remainder there,
      // so the last trade is at the level and later trades at or above it.
      const { client: seller } = await s.freshUser([{ currency: 'BTC', type: 'trade', amount: '1' }]);
      const { client: buyer } = await s.freshUser([{ currency: 'USDT', type: 'trade', amount: '1000000000' }]);
      await seller.placeOrder({ symbol: SYMBOL, side: 'sell', type: 'limit', price: level, size: '0.01', clientOid: `alert-s-${Date.now()}` });
      const depth = (await client.getFullOrderBook(SYMBOL)).asks.filter(([p]) => dec.cmp(p, level) <= 0).reduce((sum, [, q]) => dec.add(sum, q), '0');
      await buyer.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price: level, size: dec.roundDown(dec.add(depth, '0.5'), info.baseIncrement), clientOid: `alert-b-${Date.now()}` });
      const fired = await waitFor('the alert fired from the ticker stream', () => alerts.fired.find((f) => f.alert.id === a.id), 30_000);
      assert.ok(dec.cmp(fired.alert.firedPrice!, level) >= 0, `fired at ${fired.alert.firedPrice}`);
      assert.strictEqual(fired.text, `SpotDesk alert: ${SYMBOL} above ${level} — last price ${fired.alert.firedPrice} (${fired.text.match(/\((\d\d:\d\d:\d\d)\)\.$/)![1]}).`);
      assert.ok(notified.includes(fired.text), 'notified');
      // More ticker prices at or above the level: it does not fire again.
      const checks = alerts.checks;
      await waitFor('more ticker prices checked', () => alerts.checks >= checks + 3, 60_000);
      assert.strictEqual(alerts.fired.filter((f) => f.alert.id === a.id).length, 1, 'fired once');
      assert.strictEqual(notified.filter((t) => t === fired.text).length, 1);

      // A missed cross on ETH-USDT: stored armed "below" a level the price has since fallen under (as if
      // VS Code was closed meanwhile).
      const ethTicker = (await client.getAllTickers()).ticker.find((t) => t.symbol === 'ETH-USDT')!;
      const eth = ethTicker.last ?? ethTicker.sell!;
      const missed: PriceAlert = { id: 'feedfacefeedface', profileId: s.hooks.services.profile().id, symbol: 'ETH-USDT', direction: 'below', price: dec.mul(eth, '2'), createdAt: Date.now() - 3_600_000 };
      await state().update(ALERTS_KEY, [...(state().get<PriceAlert[]>(ALERTS_KEY) ?? []), missed]);

      // A reload: a new instance reads the global state and starts watching as activation does.
      const reloaded = new PriceAlerts(s.hooks.services);
      const notifiedAfterReload: string[] = [];
      reloaded.notify = async (text) => {
        notifiedAfterReload.push(text);
        return undefined;
      };
      try {
        const kept = reloaded.list();
        assert.deepStrictEqual(
          kept.map((x) => [x.id, x.firedAt ?? null]).sort(),
          [[a.id, stored().find((x) => x.id === a.id)!.firedAt!], [keep.id, null], [missed.id, null]].sort(),
          'every alert kept, the fired one still fired',
        );
        await reloaded.watch();
        const onStart = await waitFor('the missed cross fired on start', () => reloaded.fired.find((f) => f.alert.id === missed.id), 30_000);
        assert.ok(dec.cmp(onStart.alert.firedPrice!, missed.price) <= 0, `fired from the current price ${onStart.alert.firedPrice}`);
        assert.deepStrictEqual(notifiedAfterReload, [onStart.text]);
        assert.ok(!reloaded.fired.some((f) => f.alert.id === a.id), 'the alert fired before the reload does not fire again');
      } finally {
        reloaded.dispose();
      }
    });
  });

  describe('a sandbox that stops (stale state and the status bar)', () => {
    const PROFILE = 'Live Stale';
    let proc: SandboxProcess | undefined;
    let stateDir: string;
    let entry: string;

    before(async () => {
      entry = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'sandbox-cli.js');
      stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-live-'));
      proc = await startSandboxProcess({ entry, stateDir, port: 0, log: () => undefined, market: 'quiet' });
      const c = proc.credentials;
      await cfg().update('profiles', [{ name: PROFILE, baseUrl: proc.baseUrl }], vscode.ConfigurationTarget.Global);
      await s.hooks.connection.storeCredentials({ id: `user:${PROFILE}`, name: PROFILE, baseUrl: proc.baseUrl, sandbox: false }, { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: c.keyVersion });
      await cfg().update('activeProfile', PROFILE, vscode.ConfigurationTarget.Global);
      await waitFor('the user profile active', () => s.hooks.services.profile().id === `user:${PROFILE}`);
    });

    after(async () => {
      await s.hooks.connection.clearCredentials({ id: `user:${PROFILE}`, name: PROFILE, sandbox: false });
      await useSandboxProfile();
      await proc?.stop();
      fs.rmSync(stateDir, { recursive: true, force: true });
    });

    it('keeps the last data marked stale with its age and a Retry row; the status bar says reconnecting, then polling and why; live again when it is back', async function () {
      this.timeout(120_000);
      const { accounts, orders } = s.hooks.trees;
      const item = s.hooks.liveItem.item;
      const tooltip = () => (item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? ''));
      await Promise.all([accounts.refresh(), orders.refresh()]);
      await waitFor('the new profile live', () => s.hooks.live.privateSynced && accounts.isLive && orders.isLive && accounts.state.data !== undefined, 30_000);
      await waitFor('the status bar: live and the portfolio value in USD', () => /^\$\(radio-tower\) live · [\d,]+\.\d\d USD$/.test(item.text), 20_000);
      assert.match(tooltip(), /Portfolio: \*\*[\d,]+\.\d\d USD\*\*/);
      const data = accounts.state.data!;
      const polls = orders.counters.polls;

      // Every state the item shows, as it changes.
      const shown: Array<{ text: string; tooltip: string }> = [];
      const sub = s.hooks.live.onDidChangeStatus(() => shown.push({ text: item.text, tooltip: tooltip() }));
      try {
        await proc!.stop();
        // The two streams fall back independently (the market stream may poll first): wait for the account stream's polling.
        const accountPolling = /Account stream \(orders, balances\): down, \*\*polling\*\*/;
        const polling = await waitFor('the account stream polling', () => shown.findIndex((x) => /^\$\(warning\) polling/.test(x.text) && accountPolling.test(x.tooltip)) + 1, 30_000);
        // the account stream reconnects before it polls (the market stream may close first: its state can come before)
        const accountReconnecting = /Account stream \(orders, balances\): \*\*reconnecting\*\* — the connection closed/;
        const reconnecting = shown.slice(0, polling - 1).find((x) => /reconnecting/.test(x.text) && accountReconnecting.test(x.tooltip));
        assert.ok(reconnecting, `the account stream reconnecting first: ${JSON.stringify(shown.map((x) => x.tooltip))}`);
        assert.match(shown[polling - 1].tooltip, /Account stream \(orders, balances\): down, \*\*polling\*\* REST instead — private stream: Unreachable: connection refused/);
      } finally {
        sub.dispose();
      }

      // The views poll again and keep their last data, marked stale with its age, under a Retry row.
      await waitFor('Accounts stale', () => accounts.state.error !== undefined, 30_000);
      // a refresh may have landed while the sandbox was going down (its balances read, its price request refused):
      // the kept data is then that load's, with the last prices kept, equal to what was shown
      assert.deepStrictEqual(accounts.state.data, data, 'the last good data is kept, prices included');
      const staleData = accounts.state.data;
      for (const tree of [accounts, orders] as const) {
        await waitFor(`${tree.viewId} stale`, () => tree.state.error !== undefined, 30_000);
        const [first] = (await (tree as vscode.TreeDataProvider<unknown>).getChildren()) as Array<{ kind: string }>;
        assert.strictEqual(first.kind, 'stale');
        const it = (tree as vscode.TreeDataProvider<unknown>).getTreeItem(first) as vscode.TreeItem;
        assert.match(labelOf(it), /^Stale: \d+ s old — Unreachable: connection refused/);
        assert.strictEqual(it.description, 'click to retry');
        assert.deepStrictEqual(it.command && [it.command.command, it.command.arguments], ['spotdesk.retry', [tree.viewId]]);
        assert.match(tree.view!.description ?? '', /^stale · \d+ s old$/);
      }
      assert.ok((await children(accounts)).length > 1, 'the data rows are still listed under the Stale row');
      await waitFor('Active Orders polls while the stream is down', () => orders.counters.polls > polls, 30_000);
      const loads = accounts.state.loads;
      await vscode.commands.executeCommand('spotdesk.retry', 'spotdesk.accounts');
      await waitFor('the retry loaded', () => accounts.state.loads > loads);
      assert.ok(accounts.state.error !== undefined && accounts.state.data === staleData, 'still stale after a failed retry');

      // Back on the same port: live again, the views resync and are no longer stale.
      proc = await startSandboxProcess({ entry, stateDir, port: Number(new URL(proc!.baseUrl).port), log: () => undefined, market: 'quiet' });
      await waitFor('live again', () => /^\$\(radio-tower\) live/.test(item.text) && s.hooks.live.privateLive, 60_000);
      await waitFor('views fresh again', () => accounts.state.error === undefined && orders.state.error === undefined && accounts.isLive && orders.isLive, 30_000);
      assert.notStrictEqual((await children(accounts))[0] && ((await children(accounts))[0] as { kind: string }).kind, 'stale');
    });
  });
});
