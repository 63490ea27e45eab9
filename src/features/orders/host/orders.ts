/**
 * The Active Orders view: HF orders from GET /api/v1/hf/orders/active (spec "HF order"), grouped
 * by symbol. The endpoint needs a symbol, so the polled symbols are:
 * 1. the `spotdesk.watchlist` setting, symbols traded from SpotDesk (`Services.noteSymbol`,
 *    remembered per profile), symbols discovered by step 2 on earlier refreshes (while they still
 *    have orders), and symbols whose BASE currency has funds on hold in the trade account (sells);
 * 2. discovery (./orderDiscovery.ts): when a currency's trade hold is not explained by the orders
 *    found (e.g. USDT held by a BUY on a pair nobody watches), that currency's symbols — watched or
 *    noted first, then by 24 h volume from GET /api/v1/market/allTickers, rotating across
 *    refreshes — at most {@link MAX_DISCOVERY_PER_REFRESH} per refresh, stopping as soon as the
 *    holds are explained.
 * Requests are sequential (one in flight) and go through the client's rate-limit budget.
 *
 * Stop orders and OCO orders (KuCoin's "advanced" orders) wait for a trigger and hold nothing, so they are
 * listed apart, each under its own group ("Stop orders", "OCO orders"): the waiting stop orders of GET
 * /api/v1/stop-order (`stop=stop`, every pair at once) and the waiting OCO orders of GET /api/v3/oco/orders with
 * their two legs (GET /api/v3/oco/order/details/{orderId}, read once per OCO order and kept while it waits),
 * labelled by ./advancedRows.ts. While the private stream is up, `/spotMarket/advancedOrders` keeps them
 * current ({@link OrdersTree.applyStopChange}).
 */
import * as vscode from 'vscode';
import type { HfOrder, SymbolInfo, Ticker } from '../../../api/schemas';
import type { SpotClient } from '../../../api/client';
import * as dec from '../../../api/decimal';
import type { Services } from '../../../host/services';
import { PollingTree, describeError } from '../../../host/pollingTree';
import { orderRows } from '../model/orderText';
import { discoveryCandidates, explainedHolds, MAX_DISCOVERY_PER_REFRESH, unexplainedCurrencies, type RankedCandidate } from '../model/orderDiscovery';
import type { WsOrderChange, WsStopOrder } from '../../../api/streamSchemas';
import { applyOrderChange } from '../../live/accountUpdates';
import { applyStopChange, ocoRowOf, ocoRowText, stopRowOf, stopRowText, statusText, type AdvancedData, type OcoRow, type StopRow } from '../model/advancedRows';
import { separatorsFor } from '../../../api/numberFormat';
import type { StopMemory } from './stopMemory';

/** At most this many symbols are polled per load before discovery (each costs weight 2 in the Spot pool). */
export const MAX_POLLED_SYMBOLS = 20;

/** How long the 24 h volumes used to rank discovery candidates are reused, ms. */
const TICKER_CACHE_MS = 5 * 60_000;

/** One symbol's active orders (or the error loading them). */
export interface OrderGroup {
  symbol: string;
  orders: HfOrder[];
  error?: string;
}

/** Waiting stop and OCO orders read per load (one page of each list, newest first). */
export const MAX_ADVANCED_ROWS = 100;
/** OCO orders whose legs are read per load (one GET /api/v3/oco/order/details each, weight 2); the rest next time. */
export const MAX_OCO_DETAILS = 20;

/** Data of one Active Orders load. */
export interface OrdersData {
  symbols: string[];
  groups: OrderGroup[];
  /** The waiting stop and OCO orders (absent before they were first read). */
  advanced?: AdvancedData;
}

/** The "Stop orders" or "OCO orders" group row. */
export interface AdvancedGroupNode {
  kind: 'advancedGroup';
  group: 'stops' | 'ocos';
}

/** A waiting stop order (`row.id` its id, `vs…`). */
export interface StopOrderNode {
  kind: 'stopOrder';
  symbol: string;
  row: StopRow;
}

/** A waiting OCO order with both legs (`row.id` the OCO order's id). */
export interface OcoOrderNode {
  kind: 'ocoOrder';
  symbol: string;
  row: OcoRow;
}

/** A symbol row with its orders as children. `symbol` is the trading pair (e.g. BTC-USDT). */
export interface OrderSymbolNode {
  kind: 'symbol';
  symbol: string;
  group: OrderGroup;
}

/** One active order. `order.id` is the order id; `symbol` the trading pair. */
export interface OrderNode {
  kind: 'order';
  symbol: string;
  order: HfOrder;
}

type Node = OrderSymbolNode | OrderNode | AdvancedGroupNode | StopOrderNode | OcoOrderNode;

/** Tree data provider of the `spotdesk.orders` view. */
export class OrdersTree extends PollingTree<OrdersData, Node> {
  private tickerCache: { profile: string; at: number; tickers: Map<string, Ticker> } | undefined;
  /** Discovery state of the active profile: symbols found with orders, rotation cursor per quote currency. */
  private discovery: { profile: string; found: Set<string>; cursors: Map<string, number> } | undefined;
  /** The OCO rows already read (their legs do not change while they wait), per profile. */
  private ocoCache: { profile: string; rows: Map<string, OcoRow> } | undefined;

  constructor(
    services: Services,
    private readonly notedSymbols: () => string[],
    /** Where the waiting stop orders seen are remembered for Order History (./stopMemory.ts). */
    private readonly stopMemory?: StopMemory,
  ) {
    super('spotdesk.orders', services);
  }

  /** Watchlist then noted symbols (upper-case, deduplicated). */
  private watched(): string[] {
    const watch = vscode.workspace.getConfiguration('spotdesk').get<string[]>('watchlist') ?? [];
    const out = new Set<string>();
    for (const s of [...watch, ...this.notedSymbols()]) if (typeof s === 'string' && s) out.add(s.toUpperCase());
    return [...out];
  }

  /** Symbols found by discovery that still had orders at their last poll (active profile). */
  discoveredSymbols(): string[] {
    return [...(this.discoveryState().found)];
  }

  private discoveryState(): { profile: string; found: Set<string>; cursors: Map<string, number> } {
    const profile = this.services.profile().id;
    if (!this.discovery || this.discovery.profile !== profile) this.discovery = { profile, found: new Set(), cursors: new Map() };
    return this.discovery;
  }


  /** Tickers of GET /api/v1/market/allTickers keyed by symbol, cached 5 min; empty on failure. */
  private async tickers(client: SpotClient): Promise<Map<string, Ticker>> {
    const profile = this.services.profile().id;
    const c = this.tickerCache;
    if (c && c.profile === profile && Date.now() - c.at < TICKER_CACHE_MS) return c.tickers;
    try {
      const all = await client.getAllTickers();
      this.tickerCache = { profile, at: Date.now(), tickers: new Map(all.ticker.map((t) => [t.symbol, t])) };
      return this.tickerCache.tickers;
    } catch (err) {
      this.services.log.debug(`allTickers unavailable for order discovery: ${describeError(err)}`);
      return new Map();
    }
  }

  protected async load(): Promise<OrdersData> {
    const client = await this.services.client();
    const state = this.discoveryState();
    const watched = this.watched();

    // Trade-account holds per currency (GET /api/v1/accounts?type=trade).
    const held = new Map<string, string>();
    let symbols: readonly SymbolInfo[] = [];
    /** Why the holds could not be read (then, if no symbol could be read either, the load fails). */
    let failure: unknown;
    try {
      const accounts = await client.getAccounts({ type: 'trade' });
      for (const a of accounts) if (a.type === 'trade' && !dec.isZero(a.holds)) held.set(a.currency, dec.add(held.get(a.currency) ?? '0', a.holds));
      if (held.size) symbols = await this.services.symbols();
    } catch (err) {
      failure = err;
      this.services.log.debug(`holds-based symbol discovery skipped: ${describeError(err)}`);
    }

    const initial = new Set<string>([...watched, ...state.found]);
    for (const s of symbols) if (held.has(s.baseCurrency)) initial.add(s.symbol);
    const polled = new Set<string>([...initial].slice(0, MAX_POLLED_SYMBOLS));

    const groups: OrderGroup[] = [];
    const poll = async (symbol: string): Promise<OrderGroup> => {
      let g: OrderGroup;
      try {
        g = { symbol, orders: await client.getActiveOrders(symbol) };
      } catch (err) {
        g = { symbol, orders: [], error: describeError(err) };
      }
      groups.push(g);
      return g;
    };
    for (const symbol of polled) await poll(symbol);

    // Discovery: holds not explained by the orders found → poll that currency's symbols.
    if (held.size && symbols.length) {
      const pairs = new Map(symbols.map((s) => [s.symbol, s]));
      const unexplained = (currency: string) =>
        unexplainedCurrencies(new Map([[currency, held.get(currency)!]]), explainedHolds(groups.flatMap((g) => g.orders), pairs)).length > 0;
      let budget = MAX_DISCOVERY_PER_REFRESH;
      for (const currency of unexplainedCurrencies(held, explainedHolds(groups.flatMap((g) => g.orders), pairs))) {
        if (budget <= 0) break;
        if (!symbols.some((s) => s.quoteCurrency === currency)) continue;
        const c = discoveryCandidates({
          quote: currency,
          symbols,
          tickers: await this.tickers(client),
          preferred: watched,
          exclude: polled,
          cursor: state.cursors.get(currency) ?? 0,
        });
        const queue: Array<{ symbol: string; rank?: number }> = [...c.preferred.map((symbol) => ({ symbol })), ...c.byVolume];
        for (const cand of queue as Array<Partial<RankedCandidate> & { symbol: string }>) {
          if (budget <= 0 || !unexplained(currency)) break;
          budget--;
          polled.add(cand.symbol);
          const g = await poll(cand.symbol);
          if (cand.rank !== undefined) state.cursors.set(currency, cand.rank + 1);
          if (g.orders.length) {
            state.found.add(cand.symbol);
            this.services.log.info(`Active Orders: found ${g.orders.length} order(s) on ${cand.symbol} (not watched) from the ${currency} hold`);
          }
        }
      }
    }
    // Nothing could be read (the exchange unreachable, a proxy down…): fail the load, so that the view keeps
    // the orders it last read, marked stale with their age, instead of replacing them with error rows.
    // (When the holds were read, the exchange answers: a symbol's own error stays on its row.)
    if (failure !== undefined && groups.every((g) => g.error !== undefined)) throw failure;
    for (const g of groups) if (!g.error && !g.orders.length) state.found.delete(g.symbol);
    return { symbols: [...polled], groups, advanced: await this.loadAdvanced(client) };
  }

  /** The waiting stop orders and OCO orders (see the module docs); a list that fails says so in its group. */
  private async loadAdvanced(client: SpotClient): Promise<AdvancedData> {
    const out: AdvancedData = { stops: [], ocos: [] };
    try {
      out.stops = (await client.getStopOrders({ stop: 'stop', pageSize: MAX_ADVANCED_ROWS })).items.filter((o) => o.status === 'NEW').map(stopRowOf);
      this.stopMemory?.note(out.stops);
    } catch (err) {
      out.stopError = describeError(err);
    }
    const profile = this.services.profile().id;
    if (this.ocoCache?.profile !== profile) this.ocoCache = { profile, rows: new Map() };
    const cache = this.ocoCache.rows;
    try {
      const waiting = (await client.getOcoOrders({ pageSize: MAX_ADVANCED_ROWS })).items.filter((o) => o.status === 'NEW');
      let reads = 0;
      for (const o of waiting) {
        let row = cache.get(o.orderId);
        if (!row && reads++ < MAX_OCO_DETAILS) {
          row = ocoRowOf(await client.getOcoOrderDetail(o.orderId));
          if (row) cache.set(o.orderId, row);
        }
        if (row) out.ocos.push(row);
      }
      for (const id of [...cache.keys()]) if (!waiting.some((o) => o.orderId === id)) cache.delete(id);
    } catch (err) {
      out.ocoError = describeError(err);
    }
    return out;
  }

  /**
   * Apply one `/spotMarket/advancedOrders` message (./advancedRows.ts `applyStopChange`): a stop order appears or
   * leaves at once; an OCO order the view cannot place from the message is read again from REST.
   */
  applyStopChange(m: WsStopOrder): boolean {
    let reload = false;
    const changed = this.applyLive((data) => {
      if (!data.advanced) return false;
      const r = applyStopChange(data.advanced, m);
      reload = r.reload;
      if (r.changed && m.type === 'open') this.stopMemory?.note([{ id: m.orderId, symbol: m.symbol }]);
      return r.changed;
    });
    if (reload) void this.refresh();
    return changed;
  }

  /** The waiting stop orders the view holds (empty before the first load). */
  stopRows(): StopRow[] {
    return this.state.data?.advanced?.stops ?? [];
  }

  /** The waiting OCO orders the view holds (empty before the first load). */
  ocoRows(): OcoRow[] {
    return this.state.data?.advanced?.ocos ?? [];
  }

  /**
   * Apply one `/spotMarket/tradeOrdersV2` message: the order appears, changes or leaves
   * at once. An order new to the view is then read once by id (GET /api/v1/hf/orders/{orderId}) for
   * the fields the message does not carry; a symbol new to the view is remembered like a discovered one.
   */
  applyOrderChange(c: WsOrderChange): boolean {
    let needsDetail = false;
    const changed = this.applyLive((data) => {
      const r = applyOrderChange(data.groups, c);
      needsDetail = r.needsDetail;
      if (r.changed && !data.symbols.includes(c.symbol)) {
        data.symbols.push(c.symbol);
        this.discoveryState().found.add(c.symbol);
      }
      return r.changed;
    });
    if (needsDetail) void this.readDetail(c.symbol, c.orderId);
    return changed;
  }

  private async readDetail(symbol: string, orderId: string): Promise<void> {
    try {
      const o = await (await this.services.client()).getOrder(symbol, orderId);
      this.applyLive((data) => {
        const g = data.groups.find((x) => x.symbol === symbol);
        const i = g ? g.orders.findIndex((x) => x.id === orderId) : -1;
        if (!g || i < 0) return false;
        if (!o.active) g.orders.splice(i, 1);
        else g.orders[i] = o;
        return true;
      });
    } catch (err) {
      this.services.log.debug(`Active Orders: order ${orderId} details unavailable: ${describeError(err)}`);
    }
  }

  /** The active orders of `symbol` the view holds (empty before the first load). */
  ordersOf(symbol: string): HfOrder[] {
    return this.state.data?.groups.find((g) => g.symbol === symbol)?.orders ?? [];
  }

  protected rootNodes(data: OrdersData): Node[] {
    const nodes: Node[] = data.groups
      .filter((g) => g.orders.length > 0 || g.error)
      .map((group) => ({ kind: 'symbol' as const, symbol: group.symbol, group }));
    const a = data.advanced;
    if (a && (a.stops.length || a.stopError)) nodes.push({ kind: 'advancedGroup', group: 'stops' });
    if (a && (a.ocos.length || a.ocoError)) nodes.push({ kind: 'advancedGroup', group: 'ocos' });
    return nodes;
  }

  protected childNodes(node: Node, data: OrdersData): Node[] {
    if (node.kind === 'advancedGroup') {
      const a = data.advanced;
      if (!a) return [];
      return node.group === 'stops' ? a.stops.map((row) => ({ kind: 'stopOrder' as const, symbol: row.symbol, row })) : a.ocos.map((row) => ({ kind: 'ocoOrder' as const, symbol: row.symbol, row }));
    }
    if (node.kind !== 'symbol') return [];
    return node.group.orders.map((order) => ({ kind: 'order' as const, symbol: node.symbol, order }));
  }

  protected override parentNode(node: Node): Node | undefined {
    if (node.kind === 'stopOrder' || node.kind === 'ocoOrder') return { kind: 'advancedGroup', group: node.kind === 'stopOrder' ? 'stops' : 'ocos' };
    const group = node.kind === 'order' ? this.state.data?.groups.find((g) => g.symbol === node.symbol) : undefined;
    return group ? { kind: 'symbol', symbol: group.symbol, group } : undefined;
  }

  protected emptyMessage(): string {
    const n = this.state.data?.symbols.length ?? 0;
    return n
      ? `No active orders on ${n} watched symbol${n === 1 ? '' : 's'}.`
      : 'No symbols to watch: add one from Markets ("Add to Watchlist") or the spotdesk.watchlist setting.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'advancedGroup' || node.kind === 'stopOrder' || node.kind === 'ocoOrder') return this.advancedItem(node);
    if (node.kind === 'symbol') {
      const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.Expanded);
      it.id = `ord:${node.symbol}`;
      const n = node.group.orders.length;
      it.description = node.group.error ? `error: ${node.group.error}` : `${n} order${n === 1 ? '' : 's'}`;
      it.iconPath = new vscode.ThemeIcon(node.group.error ? 'error' : 'list-unordered');
      it.contextValue = 'spotdesk.orderSymbol';
      it.tooltip = node.group.error ?? `${n} active order${n === 1 ? '' : 's'} on ${node.symbol}`;
      return it;
    }
    const o = node.order;
    const label = `${o.side.toUpperCase()} ${o.type}`;
    const it = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    it.id = `ord:${o.symbol}:${o.id}`;
    const price = o.type === 'market' ? 'market' : o.price;
    const size = o.size !== '0' ? o.size : `funds ${o.funds}`;
    it.description = `${size} @ ${price} · filled ${o.dealSize}`;
    it.iconPath = new vscode.ThemeIcon(
      o.side === 'buy' ? 'arrow-up' : 'arrow-down',
      new vscode.ThemeColor(o.side === 'buy' ? 'spotdesk.buyForeground' : 'spotdesk.sellForeground'),
    );
    it.contextValue = 'spotdesk.order';
    // What a trader reads; every raw field is behind "Copy Order JSON" (context menu).
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${o.symbol}** ${label} order\n\n| | |\n|:--|:--|\n`);
    for (const [k, v] of orderRows(o, Date.now())) md.appendMarkdown(`| ${k} | ${escapeCell(v)} |\n`);
    md.appendMarkdown(`\nOrder id \`${o.id}\` · right-click → **Copy Order JSON** for every field.`);
    it.tooltip = md;
    return it;
  }

  /** The rows of the stop and OCO groups (texts: ./advancedRows.ts). */
  private advancedItem(node: AdvancedGroupNode | StopOrderNode | OcoOrderNode): vscode.TreeItem {
    const a = this.state.data?.advanced ?? { stops: [], ocos: [] };
    if (node.kind === 'advancedGroup') {
      const stops = node.group === 'stops';
      const n = stops ? a.stops.length : a.ocos.length;
      const error = stops ? a.stopError : a.ocoError;
      const it = new vscode.TreeItem(stops ? 'Stop orders' : 'OCO orders', vscode.TreeItemCollapsibleState.Expanded);
      it.id = `ord:${node.group}`;
      it.description = error ? `error: ${error}` : `${n} waiting`;
      it.iconPath = new vscode.ThemeIcon(error ? 'error' : stops ? 'debug-breakpoint-conditional-unverified' : 'arrow-swap');
      it.contextValue = 'spotdesk.advancedGroup';
      it.tooltip = error ?? (stops ? `${n} stop order${n === 1 ? '' : 's'} waiting for their trigger (GET /api/v1/stop-order). Nothing is held until one fires.` : `${n} OCO order${n === 1 ? '' : 's'} waiting (GET /api/v3/oco/orders): when one leg fires, the other is cancelled.`);
      return it;
    }
    const seps = separatorsFor(vscode.env.language);
    const r = node.row;
    const text = node.kind === 'stopOrder' ? stopRowText(node.row, seps) : ocoRowText(node.row, seps);
    const it = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    it.id = `ord:${node.kind}:${r.id}`;
    it.description = `${node.symbol} · ${text.description}`;
    it.iconPath = new vscode.ThemeIcon(
      r.side === 'buy' ? 'arrow-up' : 'arrow-down',
      new vscode.ThemeColor(r.side === 'buy' ? 'spotdesk.buyForeground' : 'spotdesk.sellForeground'),
    );
    it.contextValue = node.kind === 'stopOrder' ? 'spotdesk.stopOrder' : 'spotdesk.ocoOrder';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${node.symbol}** ${escapeCell(text.label)}\n\n| | |\n|:--|:--|\n`);
    const rows: Array<[string, string]> =
      node.kind === 'stopOrder'
        ? [
            ['Trigger', `the last trade price ${node.row.stop === 'entry' ? 'at or above' : 'at or below'} ${node.row.stopPrice} (${node.row.stop})`],
            ['Then', node.row.type === 'limit' ? `a limit order at ${node.row.price}` : 'a market order'],
            [node.row.size !== null ? 'Size' : 'Funds', node.row.size ?? node.row.funds ?? '?'],
            ['State', `${statusText(node.row.status)} (nothing is held until it fires)`],
            ['Placed', new Date(r.createdAt).toISOString().replace('T', ' ').slice(0, 19) + ' UTC'],
          ]
        : [
            ['Take profit', `at ${node.row.takeProfit.stopPrice}: a limit order at ${node.row.takeProfit.price} (leg ${node.row.takeProfit.id})`],
            ['Stop loss', `at ${node.row.stopLoss.stopPrice}: a limit order at ${node.row.stopLoss.price} (leg ${node.row.stopLoss.id})`],
            ['Size', node.row.takeProfit.size],
            ['State', `${statusText(node.row.status)}: the first leg to fire cancels the other`],
            ['Placed', new Date(r.createdAt).toISOString().replace('T', ' ').slice(0, 19) + ' UTC'],
          ];
    for (const [k, v] of rows) md.appendMarkdown(`| ${k} | ${escapeCell(v)} |\n`);
    md.appendMarkdown(`\n${node.kind === 'stopOrder' ? 'Stop order' : 'OCO order'} id \`${r.id}\` · right-click → **Cancel Order**.`);
    it.tooltip = md;
    return it;
  }
}

/** A value for a Markdown table cell (pipes and markup characters escaped). */
function escapeCell(v: string): string {
  return v.replace(/[\\|*_`[\]<>]/g, (c) => `\\${c}`);
}
