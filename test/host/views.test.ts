/**
 * Extension-host suite: the Accounts, Active Orders and Markets tree views against the embedded
 * sandbox (orders are placed through the API, seen in Active Orders, cancelled by the view's
 * commands; a transfer is made with the Accounts view's Transfer… command).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as dec from '../../src/api/decimal';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { AccountNode, CurrencyNode, PortfolioNode } from '../../src/features/accounts/host/accounts';
import type { OrderNode, OrderSymbolNode } from '../../src/features/orders/host/orders';
import type { FavouritesNode, MarketNode, MarketSymbolNode } from '../../src/features/markets/host/markets';
import type { ErrorNode } from '../../src/host/pollingTree';
import { percent } from '../../src/api/displayFormat';
import { displayPrecision, formatAmount, formatFiat } from '../../src/api/numberFormat';
import { children, isError, item, labelOf, spotdesk, useSandboxProfile, waitFor } from './helpers';

const SYMBOL = 'BTC-USDT';

describe('SpotDesk tree views on the sandbox', function () {
  this.timeout(90_000);
  let api: SpotDeskTestHooks;

  before(async () => {
    await useSandboxProfile();
    api = await spotdesk();
    await api.services.sandbox();
  });

  afterEach(() => api.resetPrompts());

  /** A resting buy far below the market (never fills) at a price on the tick grid. */
  async function placeRestingBuy(size = '0.001'): Promise<{ orderId: string; price: string; size: string }> {
    const client = await api.services.client();
    const [info] = (await client.getSymbols()).filter((s) => s.symbol === SYMBOL);
    const book = await client.getLevel2(SYMBOL);
    const price = dec.roundDown(dec.mul(book.bids[0][0], '0.5'), info.priceIncrement);
    const r = await client.placeOrder({ symbol: SYMBOL, side: 'buy', type: 'limit', price, size, clientOid: `host-${Date.now()}-${Math.floor(Math.random() * 1e6)}` });
    return { orderId: r.orderId, price, size };
  }

  async function orderNodes(): Promise<OrderNode[]> {
    await api.trees.orders.refresh();
    const roots = (await children(api.trees.orders)) as Array<OrderSymbolNode | ErrorNode>;
    assert.ok(!roots.some((r) => isError(r)), 'no error item');
    const group = roots.find((r): r is OrderSymbolNode => !isError(r) && (r as OrderSymbolNode).symbol === SYMBOL);
    if (!group) return [];
    return (await children(api.trees.orders, group)) as OrderNode[];
  }

  it('Accounts: the portfolio total first, then currencies by value, available first, trimmed to the precision and grouped; exact figures in the tooltip', async () => {
    await vscode.workspace.getConfiguration('spotdesk').update('accounts.hideZeroBalances', false, vscode.ConfigurationTarget.Global);
    await api.trees.accounts.refresh();
    const client = await api.services.client();
    const accounts = await client.getAccounts();
    const data = api.trees.accounts.state.data!;
    const roots = (await children(api.trees.accounts)) as Array<PortfolioNode | CurrencyNode>;
    const [portfolio, ...currencies] = roots as [PortfolioNode, ...CurrencyNode[]];
    assert.strictEqual(portfolio.kind, 'portfolio');
    assert.deepStrictEqual(new Set(currencies.map((r) => r.currency)), new Set(accounts.map((a) => a.currency)));
    // By value, highest first; unpriced currencies after, by code.
    const priced = currencies.filter((c) => c.fiatValue !== undefined);
    assert.ok(priced.length > 2);
    for (let i = 1; i < priced.length; i++) assert.ok(dec.cmp(priced[i - 1].fiatValue!, priced[i].fiatValue!) >= 0, `${priced[i - 1].currency} before ${priced[i].currency}`);
    assert.deepStrictEqual(currencies.slice(0, priced.length), priced, 'priced currencies first');
    assert.strictEqual(portfolio.total, priced.reduce((sum, c) => dec.add(sum, c.fiatValue!), '0'));
    const pi = await item(api.trees.accounts, portfolio);
    assert.strictEqual(pi.description, `≈ ${formatFiat(portfolio.total, 'en')} USD · Sandbox · play money`, 'the sandbox portfolio says it is play money');

    const usdt = currencies.find((r) => r.currency === 'USDT')!;
    const rows = (await children(api.trees.accounts, usdt)) as AccountNode[];
    assert.deepStrictEqual(rows.map((r) => r.account.type), ['main', 'trade']);
    const wire = (t: string) => accounts.find((a) => a.currency === 'USDT' && a.type === t)!;
    assert.strictEqual(usdt.total, dec.add(wire('main').balance, wire('trade').balance));
    assert.strictEqual(usdt.available, dec.add(wire('main').available, wire('trade').available));
    const precision = data.precisions!.get('USDT')!;
    assert.strictEqual(typeof precision, 'number', 'GET /api/v3/currencies gives the precision');
    const cur = await item(api.trees.accounts, usdt);
    const value = `≈ ${formatFiat(usdt.fiatValue!, 'en')} USD`;
    // To the digits that matter: a last digit worth at most two cents (USDT ≈ 1 USD → 2), within the precision.
    const shown = displayPrecision(precision, api.trees.accounts.priceOf('USDT')?.price);
    assert.strictEqual(shown, 2);
    assert.strictEqual(String(cur.description).split(' · ').slice(0, 2).join(' · '), `${formatAmount(usdt.available, shown, 'en')} avail · ${value}`);
    assert.doesNotMatch(String(cur.description).split(' · ')[0], /\.\d*0 /, 'no trailing zeros in the amount');
    const tip = (cur.tooltip as vscode.MarkdownString).value;
    for (const a of [wire('main'), wire('trade')]) for (const v of [a.balance, a.available, a.holds]) assert.ok(tip.includes(v), `tooltip has the exact ${v}`);
    for (const row of rows) {
      const ti = await item(api.trees.accounts, row);
      assert.strictEqual(ti.contextValue, `spotdesk.account.${row.account.type}`);
      assert.match(String(ti.description), new RegExp(`^${formatAmount(row.account.available, shown, 'en').replace(/[.,]/g, '\\$&')} avail`));
    }
    assert.match(api.trees.accounts.view!.description ?? '', /^updated \d\d:\d\d:\d\d$/);
  });

  it('Accounts trims to each currency\'s precision, groups digits, values in fiat, sorts by value and hides zero balances when asked', async () => {
    const acc = (currency: string, type: 'main' | 'trade', balance: string, available: string, holds: string) => ({
      id: `${currency}-${type}`,
      currency,
      type,
      balance,
      available,
      holds,
    });
    const data = {
      accounts: [
        acc('USDT', 'trade', '99989.000000000', '99989.000000000', '0'),
        acc('BTC', 'trade', '0.5', '0.25', '0.25'),
        acc('BTC', 'main', '12.00000001', '12.00000001', '0'),
        acc('DOGE', 'main', '0', '0', '0'),
        acc('ZZZ', 'main', '5', '5', '0'),
      ],
      prices: { BTC: '67193.1', USDT: '1.0003', DOGE: '0.1' },
      fiat: 'USD',
      precisions: new Map([['BTC', 8], ['USDT', 6], ['DOGE', 8]]),
    };
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    await cfg().update('accounts.hideZeroBalances', false, vscode.ConfigurationTarget.Global);
    // These figures are valued at the data's GET /api/v1/prices only: no live USDT-pair price here.
    const market = api.trees.accounts.market;
    api.trees.accounts.market = undefined;
    try {
    let nodes = api.trees.accounts.nodes(data);
    assert.deepStrictEqual(nodes.map((n) => n.currency), ['BTC', 'USDT', 'DOGE', 'ZZZ'], 'by value; unpriced ZZZ last');
    const [btc, usdt] = nodes;
    assert.deepStrictEqual([btc.total, btc.available, btc.holds, btc.fiatValue], ['12.50000001', '12.25000001', '0.25', '839913.75']);
    assert.strictEqual(usdt.fiatValue, '100018.99');
    assert.deepStrictEqual(api.trees.accounts.portfolio(nodes, 'USD'), { kind: 'portfolio', total: '939932.74', fiat: 'USD', unpriced: ['ZZZ'] });
    // The display: what the trader reads, trimmed and grouped (the precisions come with the data).
    const before = api.trees.accounts.state.data;
    api.trees.accounts.state.data = data;
    try {
      // BTC at 67193.1: 7 digits matter (12.25000001 → 12.25); the tooltip keeps the exact figures.
      assert.strictEqual((await item(api.trees.accounts, btc)).description, '12.25 avail · ≈ 839,913.75 USD · 0.25 on hold');
      assert.ok(((await item(api.trees.accounts, btc)).tooltip as vscode.MarkdownString).value.includes('12.00000001'));
      assert.strictEqual((await item(api.trees.accounts, usdt)).description, '99,989 avail · ≈ 100,018.99 USD');
      assert.strictEqual((await item(api.trees.accounts, nodes[3])).description, '5 avail');
      assert.strictEqual((await item(api.trees.accounts, btc.accounts[1])).description, '0.25 avail · 0.25 on hold');
    } finally {
      api.trees.accounts.state.data = before;
    }
    await cfg().update('accounts.hideZeroBalances', true, vscode.ConfigurationTarget.Global);
    nodes = api.trees.accounts.nodes(data);
    assert.deepStrictEqual(nodes.map((n) => n.currency), ['BTC', 'USDT', 'ZZZ']);
    } finally {
      api.trees.accounts.market = market;
      await cfg().update('accounts.hideZeroBalances', false, vscode.ConfigurationTarget.Global);
    }
  });

  it('Transfer… moves exactly the typed amount from main to trade', async () => {
    await api.trees.accounts.refresh();
    const usdt = ((await children(api.trees.accounts)) as CurrencyNode[]).find((r) => r.currency === 'USDT')!;
    const [main, trade] = (await children(api.trees.accounts, usdt)) as AccountNode[];
    api.prompts.input = async (o) => {
      assert.strictEqual(o.validateInput?.('abc'), 'Enter a plain decimal number such as 12.5 (no exponent, no thousands separators).');
      assert.strictEqual(o.validateInput?.(dec.add(main.account.available, '1')), `Only ${main.account.available} USDT is available.`);
      // USDT's precision (8, from GET /api/v3/currencies/USDT) bounds the amount
      assert.match(String(o.validateInput?.('0.000000001')), /^USDT amounts have at most 8 decimals/);
      return '12.345';
    };
    const moved = await vscode.commands.executeCommand('spotdesk.transfer', main);
    assert.strictEqual(moved, '12.345');
    const client = await api.services.client();
    const after = await client.getAccounts({ currency: 'USDT' });
    assert.strictEqual(after.find((a) => a.type === 'main')!.balance, dec.sub(main.account.balance, '12.345'));
    assert.strictEqual(after.find((a) => a.type === 'trade')!.balance, dec.add(trade.account.balance, '12.345'));
  });

  it('Active Orders shows an order placed through the API and cancels it from the view (after confirmation)', async () => {
    api.services.noteSymbol(SYMBOL);
    const placed = await placeRestingBuy();
    let nodes = await orderNodes();
    const node = nodes.find((n) => n.order.id === placed.orderId);
    assert.ok(node, `order ${placed.orderId} listed`);
    assert.strictEqual(node.order.price, placed.price);
    assert.strictEqual(node.order.size, placed.size);
    const ti = await item(api.trees.orders, node);
    assert.strictEqual(labelOf(ti), 'BUY limit');
    assert.strictEqual(ti.description, `${placed.size} @ ${placed.price} · filled 0`);
    assert.strictEqual(ti.contextValue, 'spotdesk.order');
    assert.ok((ti.tooltip as vscode.MarkdownString).value.includes(placed.orderId));

    // Declining the modal confirmation keeps the order.
    api.prompts.confirm = async () => false;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), false);
    nodes = await orderNodes();
    assert.ok(nodes.some((n) => n.order.id === placed.orderId), 'still active after declining');

    let asked: string[] = [];
    api.prompts.confirm = async (message, _detail, action, cancel) => {
      asked = [message, action, cancel ?? ''];
      return true;
    };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), true);
    // Buttons that cannot be misread: "Keep Order" declines, "Cancel Order" cancels.
    assert.deepStrictEqual(asked, [`Cancel buy limit order on ${SYMBOL}?`, 'Cancel Order', 'Keep Order']);
    nodes = await orderNodes();
    assert.ok(!nodes.some((n) => n.order.id === placed.orderId), 'gone from the view');
    const client = await api.services.client();
    assert.ok(!(await client.getActiveOrders(SYMBOL)).some((o) => o.id === placed.orderId), 'cancelled on the exchange');
  });

  it('Delete in Active Orders (spotdesk.cancelOrder without a row) cancels the selected order, after asking', async () => {
    const placed = await placeRestingBuy();
    const node = (await orderNodes()).find((n) => n.order.id === placed.orderId)!;
    await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
    await api.trees.orders.view!.reveal(node, { select: true, focus: true });
    await waitFor('the order selected', () => api.trees.orders.view!.selection.some((n) => (n as OrderNode).order?.id === placed.orderId));
    const asked: string[] = [];
    api.prompts.confirm = async (message) => {
      asked.push(message);
      return true;
    };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder'), true);
    assert.deepStrictEqual(asked, [`Cancel buy limit order on ${SYMBOL}?`]);
    const client = await api.services.client();
    assert.ok(!(await client.getActiveOrders(SYMBOL)).some((o) => o.id === placed.orderId), 'cancelled on the exchange');
  });

  it('with spotdesk.confirm.cancelOrder off, Cancel Order cancels at once; Cancel All still asks', async () => {
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    const pkg = vscode.extensions.getExtension('spotdesk.spotdesk')!.packageJSON as { contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } } };
    const setting = pkg.contributes.configuration.properties['spotdesk.confirm.cancelOrder'];
    assert.deepStrictEqual([setting.scope, setting.default], ['application', true], 'asks by default; a workspace cannot turn it off');
    const placed = await placeRestingBuy();
    const modals: string[] = [];
    api.prompts.confirm = async (message) => {
      modals.push(message);
      return false;
    };
    await cfg().update('confirm.cancelOrder', false, vscode.ConfigurationTarget.Global);
    try {
      const node = (await orderNodes()).find((n) => n.order.id === placed.orderId)!;
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', node), true);
      assert.deepStrictEqual(modals, [], 'not asked');
      const client = await api.services.client();
      assert.ok(!(await client.getActiveOrders(SYMBOL)).some((o) => o.id === placed.orderId), 'cancelled on the exchange');
      const other = await placeRestingBuy();
      await api.trees.orders.refresh();
      const group = ((await children(api.trees.orders)) as OrderSymbolNode[]).find((r) => r.symbol === SYMBOL);
      assert.ok(group, 'the symbol row');
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelAllForSymbol', group), false);
      assert.strictEqual(modals.length, 1, 'Cancel All asked');
      await client.cancelOrder(SYMBOL, other.orderId);
    } finally {
      await cfg().update('confirm.cancelOrder', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Cancel Order and Cancel All confirm what the exchange has, not what a forged row says; declining cancels nothing', async () => {
    const placed = await placeRestingBuy();
    const modals: Array<{ message: string; detail: string }> = [];
    api.prompts.confirm = async (message, detail) => {
      modals.push({ message, detail });
      return false;
    };
    let argConfirm = 0;
    // A row object as another extension could pass it: the real order id, made-up figures, a confirm hook.
    const forged = {
      kind: 'order',
      symbol: SYMBOL,
      order: { id: placed.orderId, symbol: SYMBOL, side: 'sell', type: 'market', size: '999', price: '1', dealSize: '0' },
      confirm: () => {
        argConfirm++;
        return true;
      },
    };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelOrder', forged), false);
    assert.deepStrictEqual(modals[0], { message: `Cancel buy limit order on ${SYMBOL}?`, detail: `${placed.size} @ ${placed.price}, filled 0. Order id ${placed.orderId}.` });
    const forgedGroup = { kind: 'symbol', symbol: SYMBOL, group: { symbol: SYMBOL, orders: [] }, confirm: () => true };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelAllForSymbol', forgedGroup), false);
    const client = await api.services.client();
    const active = await client.getActiveOrders(SYMBOL);
    assert.strictEqual(modals[1].message, `Cancel all ${active.length} active order${active.length === 1 ? '' : 's'} on ${SYMBOL}?`, 'the count comes from the exchange');
    assert.strictEqual(argConfirm, 0);
    assert.ok(active.some((o) => o.id === placed.orderId), 'still active on the exchange');
    await client.cancelOrder(SYMBOL, placed.orderId);
  });

  it('Transfer… reads the balance from the exchange: a forged row cannot raise what may be moved', async () => {
    const client = await api.services.client();
    const real = (await client.getAccounts({ currency: 'USDT', type: 'main' }))[0];
    let prompt = '';
    let refusal: unknown;
    api.prompts.input = async (o) => {
      prompt = o.prompt ?? '';
      refusal = o.validateInput?.(dec.add(real.available, '1000000'));
      return undefined; // the person cancels
    };
    const forged = { kind: 'account', currency: 'USDT', account: { currency: 'USDT', type: 'main', available: '999999999', balance: '999999999', holds: '0' }, amount: '5' };
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.transfer', forged), undefined);
    assert.ok(prompt.includes(`available ${real.available}`), prompt);
    assert.strictEqual(refusal, `Only ${real.available} USDT is available.`);
    assert.strictEqual((await client.getAccounts({ currency: 'USDT', type: 'main' }))[0].balance, real.balance, 'nothing moved');
  });

  it('Copy Order Id puts the id on the clipboard; Show Fills reports no fills for a resting order', async () => {
    const placed = await placeRestingBuy();
    const node = (await orderNodes()).find((n) => n.order.id === placed.orderId)!;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.copyOrderId', node), placed.orderId);
    assert.strictEqual(await vscode.env.clipboard.readText(), placed.orderId);
    const fills = (await vscode.commands.executeCommand('spotdesk.showFills', node)) as unknown[];
    assert.deepStrictEqual(fills, []);
  });

  it('the order tooltip shows what a trader reads; Copy Order JSON copies every field as the exchange has it', async () => {
    const placed = await placeRestingBuy('0.002');
    const node = (await orderNodes()).find((n) => n.order.id === placed.orderId)!;
    const tip = ((await item(api.trees.orders, node)).tooltip as vscode.MarkdownString).value;
    const rows = [...tip.matchAll(/^\| ([^|]+) \| (.+) \|$/gm)].map((m) => m[1]).filter((k) => k !== ' ');
    assert.deepStrictEqual(rows, ['Side', 'Type', 'Price', 'Size', 'Filled', 'Remaining', 'Time in force', 'Flags', 'Age']);
    assert.ok(tip.includes(`| Price | ${placed.price} USDT |`), tip);
    assert.ok(tip.includes('| Size | 0.002 BTC |'), tip);
    assert.ok(tip.includes(placed.orderId), 'the order id');
    assert.ok(!/opType|cancelExist|inOrderBook/.test(tip), 'no raw API fields');
    const text = (await vscode.commands.executeCommand('spotdesk.copyOrderJson', node)) as string;
    assert.strictEqual(await vscode.env.clipboard.readText(), text);
    const json = JSON.parse(text) as Record<string, unknown>;
    assert.strictEqual(json.id, placed.orderId);
    assert.strictEqual(json.price, placed.price);
    for (const k of ['opType', 'cancelExist', 'inOrderBook', 'remainSize', 'createdAt']) assert.ok(k in json, `raw field ${k}`);
    const client = await api.services.client();
    await client.cancelOrder(SYMBOL, placed.orderId);
  });

  it('Cancel All for a symbol cancels every active order of that symbol', async () => {
    await placeRestingBuy('0.001');
    await placeRestingBuy('0.002');
    await api.trees.orders.refresh();
    const roots = (await children(api.trees.orders)) as OrderSymbolNode[];
    const group = roots.find((r) => r.symbol === SYMBOL)!;
    assert.ok(group.group.orders.length >= 2);
    const gi = await item(api.trees.orders, group);
    assert.strictEqual(gi.contextValue, 'spotdesk.orderSymbol');
    api.prompts.confirm = async () => true;
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.cancelAllForSymbol', group), true);
    assert.deepStrictEqual(await orderNodes(), []);
    const client = await api.services.client();
    assert.deepStrictEqual(await client.getActiveOrders(SYMBOL), []);
  });

  it('Markets: by default the watchlist as Favourites on top, then every other symbol by 24 h volume (volValue), with last price and 24 h change', async () => {
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    const watch = cfg().get<string[]>('watchlist');
    await cfg().update('markets.groupByCategory', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('watchlist', ['ETH-USDT', 'NOPE-USDT'], vscode.ConfigurationTarget.Global);
    try {
      await api.trees.markets.refresh();
      const client = await api.services.client();
      const roots = (await children(api.trees.markets)) as Array<FavouritesNode | MarketSymbolNode>;
      assert.deepStrictEqual(roots[0], { kind: 'favourites' }, 'Favourites first');
      const fav = (await children(api.trees.markets, roots[0])) as MarketSymbolNode[];
      assert.deepStrictEqual(fav.map((s) => s.symbol), ['ETH-USDT'], 'the watchlist, listed symbols only');
      assert.strictEqual((await item(api.trees.markets, roots[0])).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
      const flat = roots.slice(1) as MarketSymbolNode[];
      assert.ok(flat.every((r) => r.kind === 'marketSymbol'), 'no folders by default');
      // Every listed symbol once: the favourites in their group, the rest at the top level.
      const listed = (await client.getSymbols()).map((x) => x.symbol).sort();
      assert.deepStrictEqual([...fav, ...flat].map((x) => x.symbol).sort(), listed);
      // By volValue of the data the rows were built from, highest first (exact compare).
      const tickers = api.trees.markets.state.data!.tickers;
      const vol = (r: MarketSymbolNode) => tickers.get(r.symbol)?.volValue ?? '0';
      for (let i = 1; i < flat.length; i++) assert.ok(dec.cmp(vol(flat[i - 1]), vol(flat[i])) >= 0, `${flat[i - 1].symbol} (${vol(flat[i - 1])}) before ${flat[i].symbol} (${vol(flat[i])})`);
      const btc = flat.find((s) => s.symbol === SYMBOL)!;
      const ti = await item(api.trees.markets, btc);
      assert.ok(btc.ticker, 'the node carries the ticker of its symbol');
      if (btc.ticker.last) {
        // "<last>  <±change %>" exactly as received (the sim may have moved the price since).
        assert.strictEqual(ti.description, `${btc.ticker.last}  ${percent(btc.ticker.changeRate)}`.trimEnd());
      } else {
        assert.strictEqual(ti.description, 'no trades');
      }
      assert.strictEqual(ti.contextValue, 'spotdesk.marketSymbol');
      assert.deepStrictEqual(ti.command?.command, 'spotdesk.openMarket');
      assert.deepStrictEqual(ti.command?.arguments, [SYMBOL]);
      // An empty watchlist: no Favourites group.
      await cfg().update('watchlist', [], vscode.ConfigurationTarget.Global);
      const none = (await children(api.trees.markets)) as MarketSymbolNode[];
      assert.ok(none.every((r) => r.kind === 'marketSymbol'));
      assert.strictEqual(none.length, listed.length);
    } finally {
      await cfg().update('watchlist', watch, vscode.ConfigurationTarget.Global);
    }
  });

  it('Markets grouped by KuCoin\'s categories (the title action): only categories with symbols, each by volume; never an empty folder', async () => {
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    await vscode.commands.executeCommand('spotdesk.markets.showCategories');
    try {
      assert.strictEqual(cfg().get('markets.groupByCategory'), true);
      await api.trees.markets.refresh();
      const client = await api.services.client();
      const markets = await client.getMarkets();
      const symbols = await client.getSymbols();
      const roots = ((await children(api.trees.markets)) as Array<FavouritesNode | MarketNode>).filter((r): r is MarketNode => r.kind === 'market');
      assert.deepStrictEqual(roots.map((r) => r.market), markets.filter((m) => symbols.some((x) => x.market === m)), 'the exchange\'s order, without empty ones');
      assert.ok(markets.some((m) => !symbols.some((x) => x.market === m)), 'the sandbox does list empty categories (e.g. AI)');
      for (const r of roots) {
        const syms = (await children(api.trees.markets, r)) as MarketSymbolNode[];
        assert.ok(syms.length > 0, `${r.market} is not empty`);
        assert.deepStrictEqual(syms.map((x) => x.symbol).sort(), symbols.filter((x) => x.market === r.market).map((x) => x.symbol).sort());
      }
    } finally {
      await vscode.commands.executeCommand('spotdesk.markets.showFlat');
    }
    assert.strictEqual(cfg().get('markets.groupByCategory'), false);
    assert.ok(((await children(api.trees.markets)) as Array<{ kind: string }>).every((r) => r.kind !== 'market'), 'flat again');
  });

  it('Markets (grouped) keeps the markets the person expanded across a profile switch', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await cfg.update('markets.groupByCategory', true, vscode.ConfigurationTarget.Global);
    await api.trees.markets.refresh();
    const client = await api.services.client();
    const market = (await client.getSymbols()).find((s) => s.symbol === SYMBOL)!.market;
    const node: MarketNode = { kind: 'market', market };
    await api.trees.markets.view!.reveal(node, { expand: true });
    await waitFor('the market expanded', () => api.trees.markets.expandedState(`mkt:${market}`) === true);
    try {
      // Another profile (public data of the same sandbox, no credentials needed for Markets).
      await cfg.update('profiles', [{ name: 'Same sandbox', baseUrl: client.baseUrl }], vscode.ConfigurationTarget.Global);
      await cfg.update('activeProfile', 'Same sandbox', vscode.ConfigurationTarget.Global);
      await waitFor('the profile switch', () => api.services.profile().name === 'Same sandbox');
      await api.trees.markets.refresh();
      const roots = ((await children(api.trees.markets)) as Array<FavouritesNode | MarketNode>).filter((r): r is MarketNode => r.kind === 'market');
      const after = await item(api.trees.markets, roots.find((r) => r.market === market)!);
      assert.strictEqual(after.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'still expanded');
      const other = roots.find((r) => r.market !== market && api.trees.markets.expandedState(`mkt:${r.market}`) === undefined)!;
      assert.strictEqual((await item(api.trees.markets, other)).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'the others as they were');
    } finally {
      await cfg.update('markets.groupByCategory', undefined, vscode.ConfigurationTarget.Global);
      await useSandboxProfile();
    }
  });

  it('Active Orders finds a BUY on a symbol that is neither watched nor noted (from the unexplained USDT hold)', async () => {
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    await cfg().update('watchlist', [], vscode.ConfigurationTarget.Global);
    const client = await api.services.client();
    const noted = new Set(api.notedSymbols());
    const tickers = new Map((await client.getAllTickers()).ticker.map((t) => [t.symbol, t]));
    const holdsOf = async (currency: string) => (await client.getAccounts({ currency, type: 'trade' }))[0]?.holds ?? '0';
    // The least-traded USDT pair that nobody watches (last in the discovery order), whose base
    // currency has no hold, so that only the USDT (quote) hold can reveal the order.
    const candidates = (await client.getSymbols())
      .filter((s) => s.quoteCurrency === 'USDT' && s.enableTrading && s.symbol !== SYMBOL && !noted.has(s.symbol))
      .sort((a, b) => dec.cmp(tickers.get(a.symbol)?.volValue ?? '0', tickers.get(b.symbol)?.volValue ?? '0') || a.symbol.localeCompare(b.symbol));
    let info: (typeof candidates)[number] | undefined;
    for (const c of candidates) {
      if (dec.isZero(await holdsOf(c.baseCurrency))) {
        info = c;
        break;
      }
    }
    assert.ok(info, 'an unwatched USDT symbol whose base currency has no hold');
    // Far below the market (never fills): half the best bid / last / best ask, else 100 ticks.
    const book = await client.getLevel2(info.symbol);
    const ref = book.bids[0]?.[0] ?? tickers.get(info.symbol)?.last ?? book.asks[0]?.[0];
    const price = ref ? dec.roundDown(dec.mul(ref, '0.5'), info.priceIncrement) : dec.mul(info.priceIncrement, '100');
    assert.ok(!dec.isZero(price), `price ${price} > 0`);
    const minSize = dec.roundUp(dec.divDown(dec.mul(info.minFunds ?? '1', '2'), price, 18), info.baseIncrement);
    const size = dec.max(minSize, info.baseMinSize);
    const placed = await client.placeOrder({ symbol: info.symbol, side: 'buy', type: 'limit', price, size, clientOid: `host-disc-${Date.now()}` });
    try {
      assert.ok(!api.notedSymbols().includes(info.symbol) && !(cfg().get<string[]>('watchlist') ?? []).includes(info.symbol), 'neither noted nor watched');
      await api.trees.orders.refresh();
      const roots = (await children(api.trees.orders)) as OrderSymbolNode[];
      const group = roots.find((r) => r.symbol === info.symbol);
      assert.ok(group, `${info!.symbol} listed after one refresh (roots: ${roots.map((r) => r.symbol).join(', ')})`);
      const nodes = (await children(api.trees.orders, group)) as OrderNode[];
      assert.deepStrictEqual(nodes.map((n) => [n.order.id, n.order.side, n.order.price, n.order.size]), [[placed.orderId, 'buy', price, size]]);
      assert.ok(api.trees.orders.discoveredSymbols().includes(info.symbol), 'remembered for the next refreshes');
    } finally {
      await client.cancelOrder(info.symbol, placed.orderId);
    }
    await api.trees.orders.refresh();
    assert.ok(!((await children(api.trees.orders)) as OrderSymbolNode[]).some((r) => r.symbol === info.symbol), 'gone after the cancel');
    assert.ok(!api.trees.orders.discoveredSymbols().includes(info.symbol), 'forgotten once it has no orders');
    await cfg().update('watchlist', undefined, vscode.ConfigurationTarget.Global);
  });

  it('polls the views only while the SpotDesk container is visible', async function () {
    this.timeout(120_000);
    const VIEW_PATHS = /^\/api\/(v1\/accounts|v1\/hf\/orders\/active|v1\/markets|v1\/market\/allTickers|v2\/symbols|v1\/prices)/;
    const seen: string[] = [];
    const conn = api.connection;
    const original = conn.logRequest;
    conn.logRequest = function (e) {
      if (VIEW_PATHS.test(e.path)) seen.push(`${e.method} ${e.path}`);
      return original.call(this, e);
    };
    const trees = Object.values(api.trees);
    const intervalMs = (vscode.workspace.getConfiguration('spotdesk').get<number>('pollIntervalSeconds') ?? 10) * 1000;
    try {
      await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
      await waitFor('a visible SpotDesk view', () => trees.some((t) => t.view?.visible));
      // Visible: after the load that showing triggered, the poll timer loads again by itself — except in
      // the views the private stream feeds while it is up (Accounts, Active Orders), which
      // schedule no poll at all.
      await Promise.all(trees.filter((t) => t.view?.visible).map((t) => t.refresh()));
      const fed = trees.filter((t) => t.view?.visible && t.isLive);
      assert.ok(fed.every((t) => !t.pollScheduled), 'no poll scheduled in a view the stream feeds');
      const visible = trees.filter((t) => t.view?.visible && !t.isLive);
      assert.ok(visible.length > 0, 'a visible polled view (Markets)');
      const loadsBefore = visible.map((t) => t.state.loads);
      seen.length = 0;
      await waitFor('a timer-driven poll while visible', () => visible.every((t, i) => t.state.loads > loadsBefore[i]), intervalMs * 3);
      assert.ok(seen.length > 0, 'requests while visible');

      // Hidden: another container replaces SpotDesk in the side bar; no view request for 2 intervals.
      await vscode.commands.executeCommand('workbench.view.explorer');
      await waitFor('SpotDesk views hidden', () => trees.every((t) => !t.view?.visible));
      await new Promise((r) => setTimeout(r, 1000)); // let a load already in flight finish
      const hiddenLoads = trees.map((t) => t.state.loads);
      seen.length = 0;
      await new Promise((r) => setTimeout(r, intervalMs * 2 + 1000));
      assert.deepStrictEqual(seen, [], 'no view requests while hidden');
      assert.deepStrictEqual(trees.map((t) => t.state.loads), hiddenLoads, 'no loads while hidden');

      // Visible again: loads resume at once.
      await vscode.commands.executeCommand('workbench.view.extension.spotdesk');
      await waitFor('requests after showing again', () => seen.length > 0, intervalMs * 2);
    } finally {
      conn.logRequest = original;
    }
  });

  it('Add to Watchlist appends the symbol to spotdesk.watchlist', async () => {
    const cfg = () => vscode.workspace.getConfiguration('spotdesk');
    await cfg().update('watchlist', ['BTC-USDT'], vscode.ConfigurationTarget.Global);
    const r = await vscode.commands.executeCommand('spotdesk.addToWatchlist', { kind: 'marketSymbol', symbol: 'ETH-USDT' });
    assert.strictEqual(r, 'ETH-USDT');
    assert.deepStrictEqual(cfg().get('watchlist'), ['BTC-USDT', 'ETH-USDT']);
    // Only a symbol the exchange lists: anything else any caller passes is refused and writes nothing.
    for (const arg of ['NOPE-USDT', { symbol: 'x'.repeat(5000) }, '<img src=x>', { kind: 'marketSymbol', symbol: 'ZZZ-ZZZ' }]) {
      assert.strictEqual(await vscode.commands.executeCommand('spotdesk.addToWatchlist', arg), undefined);
    }
    assert.strictEqual(await vscode.commands.executeCommand('spotdesk.addToWatchlist', 'eth-btc'), 'ETH-BTC', 'a listed symbol in any case, stored as listed');
    assert.deepStrictEqual(cfg().get('watchlist'), ['BTC-USDT', 'ETH-USDT', 'ETH-BTC']);
    await cfg().update('watchlist', undefined, vscode.ConfigurationTarget.Global);
  });
});
