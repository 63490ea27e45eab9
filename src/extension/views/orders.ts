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
 */
import * as vscode from 'vscode';
import type { HfOrder, SymbolInfo, Ticker } from '../../api/schemas';
import type { SpotClient } from '../../api/client';
import * as dec from '../../api/decimal';
import type { Services } from '../services';
import { PollingTree, describeError } from './pollingTree';
import { orderRows } from './orderText';
import { discoveryCandidates, explainedHolds, MAX_DISCOVERY_PER_REFRESH, unexplainedCurrencies, type RankedCandidate } from './orderDiscovery';

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

/** Data of one Active Orders load. */
export interface OrdersData {
  symbols: string[];
  groups: OrderGroup[];
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

type Node = OrderSymbolNode | OrderNode;

/** Tree data provider of the `spotdesk.orders` view. */
export class OrdersTree extends PollingTree<OrdersData, Node> {
  private tickerCache: { profile: string; at: number; tickers: Map<string, Ticker> } | undefined;
  /** Discovery state of the active profile: symbols found with orders, rotation cursor per quote currency. */
  private discovery: { profile: string; found: Set<string>; cursors: Map<string, number> } | undefined;

  constructor(
    services: Services,
    private readonly notedSymbols: () => string[],
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
    try {
      const accounts = await client.getAccounts({ type: 'trade' });
      for (const a of accounts) if (a.type === 'trade' && !dec.isZero(a.holds)) held.set(a.currency, dec.add(held.get(a.currency) ?? '0', a.holds));
      if (held.size) symbols = await this.services.symbols();
    } catch (err) {
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
    for (const g of groups) if (!g.error && !g.orders.length) state.found.delete(g.symbol);
    return { symbols: [...polled], groups };
  }

  protected rootNodes(data: OrdersData): Node[] {
    return data.groups
      .filter((g) => g.orders.length > 0 || g.error)
      .map((group) => ({ kind: 'symbol' as const, symbol: group.symbol, group }));
  }

  protected childNodes(node: Node): Node[] {
    if (node.kind !== 'symbol') return [];
    return node.group.orders.map((order) => ({ kind: 'order' as const, symbol: node.symbol, order }));
  }

  protected override parentNode(node: Node): Node | undefined {
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
}

/** A value for a Markdown table cell (pipes and markup characters escaped). */
function escapeCell(v: string): string {
  return v.replace(/[\\|*_`[\]<>]/g, (c) => `\\${c}`);
}
