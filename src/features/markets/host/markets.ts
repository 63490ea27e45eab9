/**
 * The Markets view. By default a flat list of every symbol (GET /api/v2/symbols, the shared symbol
 * list) sorted by 24 h volume in the quote currency (`volValue` of GET /api/v1/market/allTickers,
 * highest first), under a Favourites group holding the watchlist (setting `spotdesk.watchlist`, in
 * its order). KuCoin's categories (GET /api/v1/markets) are a grouping the person can switch on
 * (setting `spotdesk.markets.groupByCategory`, the view's title actions): then each market is a folder
 * of its symbols by volume — only markets with at least one symbol, so no folder ever opens empty —
 * and the folders the person expanded stay expanded across reloads and profile switches.
 *
 * Each symbol row shows its last price and 24 h change, decimal strings as received. All three
 * endpoints are public, so the view loads through `Services.publicClient()`: a user profile without
 * API credentials lists markets too (no "Set API Credentials" welcome here).
 */
import * as vscode from 'vscode';
import type { SymbolInfo, Ticker } from '../../../api/schemas';
import * as dec from '../../../api/decimal';
import type { Services } from '../../../host/services';
import { PollingTree } from '../../../host/pollingTree';
import { percent } from '../../../api/displayFormat';
import { COMMANDS } from '../../../host/commandIds';
import { formatAmount } from '../../../api/numberFormat';

/** Data of one Markets load. */
export interface MarketsData {
  markets: string[];
  /** Tickers keyed by symbol. */
  tickers: Map<string, Ticker>;
  /** Every listed symbol (GET /api/v2/symbols). */
  symbols: SymbolInfo[];
}

/** The Favourites group (the watchlist), on top in both modes. */
export interface FavouritesNode {
  kind: 'favourites';
}

/** A market row (collapsible, grouped mode only). */
export interface MarketNode {
  kind: 'market';
  market: string;
}

/**
 * A symbol row. `symbol` is the trading pair (e.g. BTC-USDT): context actions receive this node.
 * `group` is where the row sits: `'flat'` (top level), `'favourites'`, or its market's folder.
 */
export interface MarketSymbolNode {
  kind: 'marketSymbol';
  market: string;
  symbol: string;
  info: SymbolInfo;
  ticker?: Ticker;
  group: 'flat' | 'favourites' | 'market';
}

type Node = FavouritesNode | MarketNode | MarketSymbolNode;

/** Setting (boolean) of the grouping by KuCoin's categories; off = the flat list. */
export const GROUP_SETTING = 'markets.groupByCategory';

/**
 * Symbols by 24 h volume in the quote currency (`volValue`, exact compare), highest first; symbols
 * without a ticker or volume after, then by symbol.
 */
export function byVolume(symbols: readonly SymbolInfo[], tickers: ReadonlyMap<string, Ticker>): SymbolInfo[] {
  const vol = (s: SymbolInfo): string | undefined => {
    const v = tickers.get(s.symbol)?.volValue;
    return v && dec.isDecimal(v) ? v : undefined;
  };
  return [...symbols].sort((a, b) => {
    const va = vol(a);
    const vb = vol(b);
    if (va !== undefined && vb !== undefined) return dec.cmp(vb, va) || a.symbol.localeCompare(b.symbol);
    if (va !== undefined) return -1;
    if (vb !== undefined) return 1;
    return a.symbol.localeCompare(b.symbol);
  });
}

/** Tree data provider of the `spotdesk.markets` view. */
export class MarketsTree extends PollingTree<MarketsData, Node> {
  /** Public data: loads without credentials. */
  protected override readonly requiresCredentials = false;

  constructor(services: Services) {
    super('spotdesk.markets', services);
  }

  /** Whether the symbols are grouped by KuCoin's categories (setting `spotdesk.markets.groupByCategory`). */
  grouped(): boolean {
    return vscode.workspace.getConfiguration('spotdesk').get<boolean>(GROUP_SETTING) ?? false;
  }

  /** The watchlist (setting `spotdesk.watchlist`), upper-case, without duplicates, in its order. */
  favourites(): string[] {
    const list = vscode.workspace.getConfiguration('spotdesk').get<string[]>('watchlist') ?? [];
    return [...new Set(list.filter((s) => typeof s === 'string').map((s) => s.toUpperCase()))];
  }

  protected async load(): Promise<MarketsData> {
    const client = await this.services.publicClient();
    const [markets, all, symbols] = await Promise.all([client.getMarkets(), client.getAllTickers(), this.services.symbols()]);
    return { markets, tickers: new Map(all.ticker.map((t) => [t.symbol, t])), symbols: [...symbols] };
  }

  /** Symbols of one market by 24 h volume (the shared symbol list of `Services.symbols`). */
  async symbolsOf(market: string): Promise<SymbolInfo[]> {
    const data = this.state.data;
    const list = (data?.symbols ?? (await this.services.symbols())).filter((s) => s.market === market);
    return byVolume(list, data?.tickers ?? new Map());
  }

  private favouriteInfos(data: MarketsData): SymbolInfo[] {
    const by = new Map(data.symbols.map((s) => [s.symbol, s]));
    return this.favourites()
      .map((s) => by.get(s))
      .filter((s): s is SymbolInfo => s !== undefined);
  }

  private symbolNode(info: SymbolInfo, data: MarketsData, group: MarketSymbolNode['group']): MarketSymbolNode {
    return { kind: 'marketSymbol', market: info.market, symbol: info.symbol, info, ticker: data.tickers.get(info.symbol), group };
  }

  protected rootNodes(data: MarketsData): Node[] {
    const favs = this.favouriteInfos(data);
    const top: Node[] = favs.length ? [{ kind: 'favourites' }] : [];
    if (this.grouped()) {
      // Only categories with a symbol: never a folder that expands to nothing.
      const used = new Set(data.symbols.map((s) => s.market));
      return [...top, ...data.markets.filter((m) => used.has(m)).map((market) => ({ kind: 'market' as const, market }))];
    }
    const fav = new Set(favs.map((s) => s.symbol));
    return [...top, ...byVolume(data.symbols.filter((s) => !fav.has(s.symbol)), data.tickers).map((s) => this.symbolNode(s, data, 'flat'))];
  }

  protected async childNodes(node: Node, data: MarketsData): Promise<Node[]> {
    if (node.kind === 'favourites') return this.favouriteInfos(data).map((s) => this.symbolNode(s, data, 'favourites'));
    if (node.kind !== 'market') return [];
    return (await this.symbolsOf(node.market)).map((info) => this.symbolNode(info, data, 'market'));
  }

  protected override parentNode(node: Node): Node | undefined {
    if (node.kind !== 'marketSymbol') return undefined;
    if (node.group === 'favourites') return { kind: 'favourites' };
    return node.group === 'market' ? { kind: 'market', market: node.market } : undefined;
  }

  protected emptyMessage(): string {
    return 'The exchange lists no symbols.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'favourites') {
      const it = new vscode.TreeItem('Favourites', vscode.TreeItemCollapsibleState.Expanded);
      it.id = 'mkt:favourites';
      it.iconPath = new vscode.ThemeIcon('star-full');
      it.contextValue = 'spotdesk.marketFavourites';
      it.tooltip = 'Your watchlist (setting spotdesk.watchlist): add a symbol with "Add to Watchlist" on its row.';
      return it;
    }
    if (node.kind === 'market') {
      const it = new vscode.TreeItem(node.market, vscode.TreeItemCollapsibleState.Collapsed);
      it.id = `mkt:${node.market}`;
      it.iconPath = new vscode.ThemeIcon('folder-library');
      it.contextValue = 'spotdesk.market';
      it.tooltip = `KuCoin's "${node.market}" category (GET /api/v1/markets): its symbols by 24 h volume.`;
      return it;
    }
    const t = node.ticker;
    const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.None);
    it.id = node.group === 'flat' ? `mkt:symbol:${node.symbol}` : node.group === 'favourites' ? `mkt:favourites:${node.symbol}` : `mkt:${node.market}:${node.symbol}`;
    const change = percent(t?.changeRate);
    it.description = t?.last ? `${t.last}${change ? `  ${change}` : ''}` : 'no trades';
    const rate = t?.changeRate;
    if (!rate || dec.isZero(rate)) {
      it.iconPath = new vscode.ThemeIcon('dash');
    } else {
      const up = !dec.isNegative(rate);
      it.iconPath = new vscode.ThemeIcon(
        up ? 'triangle-up' : 'triangle-down',
        new vscode.ThemeColor(up ? 'spotdesk.buyForeground' : 'spotdesk.sellForeground'),
      );
    }
    it.contextValue = 'spotdesk.marketSymbol';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${node.symbol}** (${node.market})\n\n`);
    const quoteVol = t?.volValue && dec.isDecimal(t.volValue) ? `${formatAmount(t.volValue, 2, vscode.env.language || 'en')} ${node.info.quoteCurrency}` : '—';
    md.appendCodeblock(
      [
        `last        ${t?.last ?? '—'}`,
        `24h change  ${t?.changePrice ?? '—'} (${change || '—'})`,
        `24h high    ${t?.high ?? '—'}`,
        `24h low     ${t?.low ?? '—'}`,
        `24h volume  ${t?.vol ?? '—'} ${node.info.baseCurrency}`,
        `24h value   ${quoteVol}`,
        `best bid    ${t?.buy ?? '—'}`,
        `best ask    ${t?.sell ?? '—'}`,
        `tick        ${node.info.priceIncrement}`,
        `lot         ${node.info.baseIncrement}`,
        `trading     ${node.info.enableTrading ? 'enabled' : 'disabled'}`,
      ].join('\n'),
      'text',
    );
    it.tooltip = md;
    it.command = { command: COMMANDS.openMarket, title: 'Open Market', arguments: [node.symbol] };
    return it;
  }
}
