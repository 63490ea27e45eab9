/**
 * The Active Orders view: HF orders from GET /api/v1/hf/orders/active (spec "HF order"), grouped
 * by symbol. The endpoint needs a symbol, so the polled symbols are: the `spotdesk.watchlist`
 * setting, symbols traded from SpotDesk (`Services.noteSymbol`, remembered per profile), and
 * symbols whose base currency has funds on hold in the trade account (sell orders).
 */
import * as vscode from 'vscode';
import type { HfOrder, SymbolInfo } from '../../api/schemas';
import * as dec from '../../api/decimal';
import type { Services } from '../services';
import { PollingTree, describeError } from './pollingTree';

/** At most this many symbols are polled per load (each costs weight 2 in the Spot pool). */
export const MAX_POLLED_SYMBOLS = 20;

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
  private symbolCache: { profile: string; symbols: SymbolInfo[] } | undefined;

  constructor(
    services: Services,
    private readonly notedSymbols: () => string[],
  ) {
    super('spotdesk.orders', services);
  }

  /** The symbols polled on the next load, watchlist first (deduplicated, capped). */
  async symbolsToPoll(): Promise<string[]> {
    const watch = vscode.workspace.getConfiguration('spotdesk').get<string[]>('watchlist') ?? [];
    const out = new Set<string>();
    for (const s of [...watch, ...this.notedSymbols()]) if (typeof s === 'string' && s) out.add(s.toUpperCase());
    try {
      for (const s of await this.symbolsWithHolds()) out.add(s);
    } catch (err) {
      this.services.log.debug(`holds-based symbol discovery skipped: ${describeError(err)}`);
    }
    return [...out].slice(0, MAX_POLLED_SYMBOLS);
  }

  /** Symbols whose base currency has funds on hold in the trade account (open sell orders). */
  private async symbolsWithHolds(): Promise<string[]> {
    const client = await this.services.client();
    const accounts = await client.getAccounts({ type: 'trade' });
    const held = new Set(accounts.filter((a) => a.type === 'trade' && !dec.isZero(a.holds)).map((a) => a.currency));
    if (!held.size) return [];
    const profile = this.services.profile().id;
    if (!this.symbolCache || this.symbolCache.profile !== profile) {
      this.symbolCache = { profile, symbols: await client.getSymbols() };
    }
    return this.symbolCache.symbols.filter((s) => held.has(s.baseCurrency)).map((s) => s.symbol);
  }

  protected async load(): Promise<OrdersData> {
    const client = await this.services.client();
    const symbols = await this.symbolsToPoll();
    const groups: OrderGroup[] = [];
    for (const symbol of symbols) {
      try {
        const orders = await client.getActiveOrders(symbol);
        groups.push({ symbol, orders });
      } catch (err) {
        groups.push({ symbol, orders: [], error: describeError(err) });
      }
    }
    return { symbols, groups };
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
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${o.symbol}** ${label} order\n\n`);
    md.appendCodeblock(
      Object.entries(o)
        .map(([k, v]) => `${k.padEnd(15)} ${k === 'createdAt' || k === 'lastUpdatedAt' ? `${v} (${new Date(v as number).toISOString()})` : String(v)}`)
        .join('\n'),
      'text',
    );
    it.tooltip = md;
    return it;
  }
}
