/**
 * The Order History view: done HF orders (GET /api/v1/hf/orders/done, KuCoin keeps the last
 * 3 × 24 h) of each watched or traded symbol (./historySymbols.ts), newest first, in pages of
 * {@link ORDER_PAGE_SIZE} followed through `lastId`. A symbol shows one page; its "Load more" row
 * adds a page (kept across polls, at most {@link MAX_ORDER_PAGES}). Polls only while visible
 * (PollingTree). "Export CSV" writes every done order of the listed symbols (all pages).
 */
import { COMMANDS } from '../commandIds';
import * as vscode from 'vscode';
import type { SpotClient } from '../../api/client';
import type { HfOrder } from '../../api/schemas';
import type { Services } from '../services';
import { describeError, PollingTree } from './pollingTree';
import { historyItem } from './historyItem';
import { historySymbols } from './historySymbols';
import { orderRow } from './historyRows';

/** Done orders per page (GET /api/v1/hf/orders/done `limit`). */
export const ORDER_PAGE_SIZE = 20;
/** Pages a symbol can show at most. */
export const MAX_ORDER_PAGES = 10;

/** One symbol's done orders (or the error loading them). */
export interface SymbolOrders {
  symbol: string;
  orders: HfOrder[];
  /** True when the last page was full: there may be older orders. */
  more: boolean;
  error?: string;
}

/** Data of one Order History load. */
export interface OrderHistoryData {
  symbols: string[];
  groups: SymbolOrders[];
}

/** A symbol row. */
export interface HistorySymbolNode {
  kind: 'historySymbol';
  symbol: string;
  group: SymbolOrders;
}
/** A done order row. */
export interface DoneOrderNode {
  kind: 'doneOrder';
  symbol: string;
  order: HfOrder;
}
/** The "Load more" row of a symbol. */
export interface MoreOrdersNode {
  kind: 'moreOrders';
  symbol: string;
}

type Node = HistorySymbolNode | DoneOrderNode | MoreOrdersNode;

/** Pages of done orders of `symbol`, newest first, following lastId (stops on a short page). */
export async function doneOrderPages(client: SpotClient, symbol: string, pages: number): Promise<{ orders: HfOrder[]; more: boolean }> {
  const orders: HfOrder[] = [];
  let lastId: string | undefined;
  for (let i = 0; i < pages; i++) {
    const page = await client.getDoneOrders({ symbol, limit: ORDER_PAGE_SIZE, ...(lastId !== undefined ? { lastId } : {}) });
    orders.push(...page.items);
    if (page.items.length < ORDER_PAGE_SIZE || page.lastId === null || page.lastId === lastId) return { orders, more: false };
    lastId = page.lastId;
  }
  return { orders, more: true };
}

/** Tree data provider of the `spotdesk.orderHistory` view. */
export class OrderHistoryTree extends PollingTree<OrderHistoryData, Node> {
  private pages = new Map<string, number>();
  private pagesProfile: string | undefined;

  constructor(
    services: Services,
    private readonly notedSymbols: () => string[],
  ) {
    super('spotdesk.orderHistory', services);
  }

  /** Show one more page of `symbol` (the "Load more" row) and reload. */
  async loadMore(symbol: string): Promise<void> {
    this.pages.set(symbol, Math.min(MAX_ORDER_PAGES, (this.pages.get(symbol) ?? 1) + 1));
    await this.refresh();
  }

  protected async load(): Promise<OrderHistoryData> {
    const client = await this.services.client();
    const profile = this.services.profile().id;
    if (this.pagesProfile !== profile) {
      this.pages = new Map();
      this.pagesProfile = profile;
    }
    const symbols = await historySymbols(client, this.services, this.notedSymbols);
    const groups: SymbolOrders[] = [];
    for (const symbol of symbols) {
      try {
        groups.push({ symbol, ...(await doneOrderPages(client, symbol, this.pages.get(symbol) ?? 1)) });
      } catch (err) {
        groups.push({ symbol, orders: [], more: false, error: describeError(err) });
      }
    }
    return { symbols, groups };
  }

  protected rootNodes(data: OrderHistoryData): Node[] {
    return data.groups.filter((g) => g.orders.length > 0 || g.error).map((group) => ({ kind: 'historySymbol' as const, symbol: group.symbol, group }));
  }

  protected childNodes(node: Node): Node[] {
    if (node.kind !== 'historySymbol') return [];
    const rows: Node[] = node.group.orders.map((order) => ({ kind: 'doneOrder' as const, symbol: node.symbol, order }));
    if (node.group.more && (this.pages.get(node.symbol) ?? 1) < MAX_ORDER_PAGES) rows.push({ kind: 'moreOrders', symbol: node.symbol });
    return rows;
  }

  protected emptyMessage(): string {
    const n = this.state.data?.symbols.length ?? 0;
    return n ? `No done orders in the last 3 days on ${n} watched or traded symbol${n === 1 ? '' : 's'}.` : 'No symbols: add one to the spotdesk.watchlist setting.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'historySymbol') {
      const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.Collapsed);
      it.id = `hist:${node.symbol}`;
      const n = node.group.orders.length;
      it.description = node.group.error ? `error: ${node.group.error}` : `${n}${node.group.more ? '+' : ''} done order${n === 1 ? '' : 's'}`;
      it.iconPath = new vscode.ThemeIcon(node.group.error ? 'error' : 'history');
      it.contextValue = 'spotdesk.historySymbol';
      return it;
    }
    if (node.kind === 'moreOrders') {
      const it = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      it.id = `hist:${node.symbol}:more`;
      it.iconPath = new vscode.ThemeIcon('ellipsis');
      it.command = { command: COMMANDS.orderHistoryLoadMore, title: 'Load more', arguments: [node] };
      return it;
    }
    return historyItem(orderRow(node.order), `hist:${node.symbol}:${node.order.id}`, node.order.side, 'spotdesk.doneOrder');
  }
}
