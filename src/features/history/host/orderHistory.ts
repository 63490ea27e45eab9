/**
 * The Order History view: done HF orders (GET /api/v1/hf/orders/done, KuCoin keeps the last
 * 3 × 24 h) of each watched or traded symbol (./historySymbols.ts), newest first, in pages of
 * {@link ORDER_PAGE_SIZE} followed through `lastId`. A symbol shows one page; its "Load more" row
 * adds a page (kept across polls, at most {@link MAX_ORDER_PAGES}). Polls only while visible
 * (PollingTree). "Export CSV" writes every done order of the listed symbols (all pages).
 *
 * Also the orders of KuCoin's other order APIs:
 * - on an account that is not high-frequency (GET /api/v1/hf/accounts/opened false), done orders of the classic (low-frequency) API, every pair at once (GET /api/v1/orders?status=done, the newest
 *   {@link CLASSIC_PAGE_SIZE}), under their symbol, marked "classic" — those the HF list already shows (the same
 *   order seen through both APIs) once only;
 * - a "Stop & OCO orders" group: the stop orders SpotDesk saw waiting (./stopMemory.ts) that fired or were
 *   cancelled (GET /api/v1/stop-order/{orderId}, at most {@link MAX_STOP_READS} per load), and the OCO orders no
 *   longer waiting (GET /api/v3/oco/orders, their legs for the newest {@link MAX_OCO_DETAILS_READ}).
 */
import { COMMANDS } from '../../../host/commandIds';
import * as vscode from 'vscode';
import type { SpotClient } from '../../../api/client';
import type { HfOrder, OcoOrder, OcoOrderDetail, StopOrder } from '../../../api/schemas';
import type { ClassicOrder } from '../../../api/schemas/classicOrders';
import { ApiError } from '../../../api/errors';
import type { StopMemory } from '../../orders/host/stopMemory';
import type { Services } from '../../../host/services';
import { describeError, PollingTree } from '../../../host/pollingTree';
import { historyItem } from './historyItem';
import { historySymbols } from './historySymbols';
import { classicOrderRow, ocoOrderRow, orderRow, stopOrderRow } from '../model/historyRows';

/** Done orders per page (GET /api/v1/hf/orders/done `limit`). */
export const ORDER_PAGE_SIZE = 20;
/** Pages a symbol can show at most. */
export const MAX_ORDER_PAGES = 10;
/** Done classic orders read per load (GET /api/v1/orders `pageSize`, every pair). */
export const CLASSIC_PAGE_SIZE = 50;
/** Remembered stop orders read per load (GET /api/v1/stop-order/{orderId}, weight 3 each). */
export const MAX_STOP_READS = 20;
/** Done OCO orders whose legs are read per load (GET /api/v3/oco/order/details/{orderId}, weight 2 each). */
export const MAX_OCO_DETAILS_READ = 10;

/** One symbol's done orders (or the error loading them). */
export interface SymbolOrders {
  symbol: string;
  orders: HfOrder[];
  /** Done orders of the classic API that the HF list does not show. */
  classic?: ClassicOrder[];
  /** True when the last page was full: there may be older orders. */
  more: boolean;
  error?: string;
}

/** Stop and OCO orders no longer waiting (or why they could not be read). */
export interface AdvancedHistory {
  stops: StopOrder[];
  ocos: Array<OcoOrder | OcoOrderDetail>;
  error?: string;
}

/** Data of one Order History load. */
export interface OrderHistoryData {
  symbols: string[];
  groups: SymbolOrders[];
  advanced?: AdvancedHistory;
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
/** A done order of the classic API. */
export interface ClassicOrderNode {
  kind: 'classicOrder';
  symbol: string;
  order: ClassicOrder;
}
/** The "Stop & OCO orders" group. */
export interface AdvancedHistoryNode {
  kind: 'advancedHistory';
}
/** A stop order that fired or was cancelled. */
export interface DoneStopNode {
  kind: 'doneStop';
  symbol: string;
  order: StopOrder;
}
/** An OCO order no longer waiting. */
export interface DoneOcoNode {
  kind: 'doneOco';
  symbol: string;
  order: OcoOrder | OcoOrderDetail;
}

type Node = HistorySymbolNode | DoneOrderNode | MoreOrdersNode | ClassicOrderNode | AdvancedHistoryNode | DoneStopNode | DoneOcoNode;

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
    private readonly stopMemory?: StopMemory,
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
    // the classic API lists every pair at once; a failure (an exchange without it) only hides those orders.
    // On a high-frequency account (KuCoin's migrated accounts, the sandbox) the classic API is a second door to
    // the same orders, which the HF list already pages through: reading it too would show older HF orders twice.
    let classic: ClassicOrder[] = [];
    try {
      if (!(await client.isHfAccount())) classic = (await client.getClassicOrders({ status: 'done', pageSize: CLASSIC_PAGE_SIZE })).items;
    } catch (err) {
      this.services.log.debug(`Order History: classic done orders unavailable: ${describeError(err)}`);
    }
    const groups: SymbolOrders[] = [];
    const all = [...symbols, ...new Set(classic.map((o) => o.symbol).filter((s) => !symbols.includes(s)))];
    for (const symbol of all) {
      let g: SymbolOrders;
      try {
        g = symbols.includes(symbol) ? { symbol, ...(await doneOrderPages(client, symbol, this.pages.get(symbol) ?? 1)) } : { symbol, orders: [], more: false };
      } catch (err) {
        g = { symbol, orders: [], more: false, error: describeError(err) };
      }
      const seen = new Set(g.orders.map((o) => o.id));
      const mine = classic.filter((o) => o.symbol === symbol && !seen.has(o.id));
      if (mine.length) g.classic = mine;
      groups.push(g);
    }
    return { symbols, groups, advanced: await this.loadAdvanced(client) };
  }

  /** Stop orders that fired or were cancelled, OCO orders no longer waiting (see the module docs). */
  private async loadAdvanced(client: SpotClient): Promise<AdvancedHistory> {
    const out: AdvancedHistory = { stops: [], ocos: [] };
    const gone: string[] = [];
    const errors: string[] = [];
    for (const s of (this.stopMemory?.list() ?? []).slice(0, MAX_STOP_READS)) {
      try {
        const o = await client.getStopOrder(s.id);
        if (o.status !== 'NEW') out.stops.push(o);
      } catch (err) {
        // 400100 "order not exists": past the exchange's window, forget it
        if (err instanceof ApiError && err.code === '400100') gone.push(s.id);
        else errors.push(describeError(err));
      }
    }
    this.stopMemory?.forget(gone);
    try {
      const done = (await client.getOcoOrders({ pageSize: CLASSIC_PAGE_SIZE })).items.filter((o) => o.status !== 'NEW');
      for (const [i, o] of done.entries()) out.ocos.push(i < MAX_OCO_DETAILS_READ ? await client.getOcoOrderDetail(o.orderId).catch(() => o) : o);
    } catch (err) {
      errors.push(describeError(err));
    }
    out.stops.sort((a, b) => (b.stopTriggerTime ?? b.createdAt) - (a.stopTriggerTime ?? a.createdAt));
    if (errors.length) out.error = errors[0];
    return out;
  }

  protected rootNodes(data: OrderHistoryData): Node[] {
    const nodes: Node[] = data.groups.filter((g) => g.orders.length > 0 || g.classic?.length || g.error).map((group) => ({ kind: 'historySymbol' as const, symbol: group.symbol, group }));
    const a = data.advanced;
    if (a && (a.stops.length || a.ocos.length || a.error)) nodes.push({ kind: 'advancedHistory' });
    return nodes;
  }

  protected childNodes(node: Node, data: OrderHistoryData): Node[] {
    if (node.kind === 'advancedHistory') {
      const a = data.advanced;
      return a ? [...a.stops.map((order) => ({ kind: 'doneStop' as const, symbol: order.symbol, order })), ...a.ocos.map((order) => ({ kind: 'doneOco' as const, symbol: order.symbol, order }))] : [];
    }
    if (node.kind !== 'historySymbol') return [];
    const rows: Node[] = node.group.orders.map((order) => ({ kind: 'doneOrder' as const, symbol: node.symbol, order }));
    for (const order of node.group.classic ?? []) rows.push({ kind: 'classicOrder', symbol: node.symbol, order });
    if (node.group.more && (this.pages.get(node.symbol) ?? 1) < MAX_ORDER_PAGES) rows.push({ kind: 'moreOrders', symbol: node.symbol });
    return rows;
  }

  protected emptyMessage(): string {
    const n = this.state.data?.symbols.length ?? 0;
    return n ? `No done orders in the last 3 days on ${n} watched or traded symbol${n === 1 ? '' : 's'}.` : 'No symbols: add one to the spotdesk.watchlist setting.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'advancedHistory') {
      const a = this.state.data?.advanced;
      const it = new vscode.TreeItem('Stop & OCO orders', vscode.TreeItemCollapsibleState.Collapsed);
      it.id = 'hist:advanced';
      it.description = a?.error && !a.stops.length && !a.ocos.length ? `error: ${a.error}` : `${a?.stops.length ?? 0} stop · ${a?.ocos.length ?? 0} OCO`;
      it.iconPath = new vscode.ThemeIcon('history');
      it.tooltip = 'Stop orders SpotDesk saw waiting that fired or were cancelled, and OCO orders no longer waiting (the exchange keeps them 3 days).';
      it.contextValue = 'spotdesk.historyAdvanced';
      return it;
    }
    if (node.kind === 'classicOrder') return historyItem(classicOrderRow(node.order), `hist:${node.symbol}:${node.order.id}`, node.order.side, 'spotdesk.doneOrder');
    if (node.kind === 'doneStop') {
      const it = historyItem(stopOrderRow(node.order), `hist:stop:${node.order.id}`, node.order.side, 'spotdesk.doneStopOrder');
      it.description = `${node.symbol} · ${String(it.description)}`;
      return it;
    }
    if (node.kind === 'doneOco') {
      const side = 'orders' in node.order ? (node.order.orders[0]?.side ?? 'sell') : 'sell';
      const it = historyItem(ocoOrderRow(node.order), `hist:oco:${node.order.orderId}`, side, 'spotdesk.doneOcoOrder');
      it.description = `${node.symbol} · ${String(it.description)}`;
      return it;
    }
    if (node.kind === 'historySymbol') {
      const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.Collapsed);
      it.id = `hist:${node.symbol}`;
      const n = node.group.orders.length + (node.group.classic?.length ?? 0);
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
