/**
 * The Markets view: markets from GET /api/v1/markets → their symbols (the shared symbol list,
 * GET /api/v2/symbols, filtered by market when a market is expanded) with last price and 24 h
 * change from GET /api/v1/market/allTickers (decimal strings shown as received). All three endpoints are
 * public, so the view loads through `Services.publicClient()`: a user profile without API
 * credentials lists markets too (no "Set API Credentials" welcome here).
 */
import * as vscode from 'vscode';
import type { SymbolInfo, Ticker } from '../../api/schemas';
import * as dec from '../../api/decimal';
import type { Services } from '../services';
import { PollingTree } from './pollingTree';
import { percent } from './format';
import { COMMANDS } from '../commandIds';

/** Data of one Markets load. */
export interface MarketsData {
  markets: string[];
  /** Tickers keyed by symbol. */
  tickers: Map<string, Ticker>;
}

/** A market row (collapsible); its symbols load when expanded. */
export interface MarketNode {
  kind: 'market';
  market: string;
}

/** A symbol row. `symbol` is the trading pair (e.g. BTC-USDT): context actions receive this node. */
export interface MarketSymbolNode {
  kind: 'marketSymbol';
  market: string;
  symbol: string;
  info: SymbolInfo;
  ticker?: Ticker;
}

type Node = MarketNode | MarketSymbolNode;

/** Tree data provider of the `spotdesk.markets` view. */
export class MarketsTree extends PollingTree<MarketsData, Node> {
  /** Public data: loads without credentials. */
  protected override readonly requiresCredentials = false;

  constructor(services: Services) {
    super('spotdesk.markets', services);
  }

  protected async load(): Promise<MarketsData> {
    const client = await this.services.publicClient();
    const markets = await client.getMarkets();
    const all = await client.getAllTickers();
    return { markets, tickers: new Map(all.ticker.map((t) => [t.symbol, t])) };
  }

  /** Symbols of one market, by symbol (the shared symbol list of `Services.symbols`). */
  async symbolsOf(market: string): Promise<SymbolInfo[]> {
    return (await this.services.symbols()).filter((s) => s.market === market).sort((a, b) => a.symbol.localeCompare(b.symbol));
  }

  protected rootNodes(data: MarketsData): Node[] {
    return data.markets.map((market) => ({ kind: 'market' as const, market }));
  }

  protected async childNodes(node: Node, data: MarketsData): Promise<Node[]> {
    if (node.kind !== 'market') return [];
    const list = await this.symbolsOf(node.market);
    return list.map((info) => ({ kind: 'marketSymbol' as const, market: node.market, symbol: info.symbol, info, ticker: data.tickers.get(info.symbol) }));
  }

  protected override parentNode(node: Node): Node | undefined {
    return node.kind === 'marketSymbol' ? { kind: 'market', market: node.market } : undefined;
  }

  protected emptyMessage(): string {
    return 'The exchange lists no markets.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'market') {
      const it = new vscode.TreeItem(node.market, vscode.TreeItemCollapsibleState.Collapsed);
      it.id = `mkt:${node.market}`;
      it.iconPath = new vscode.ThemeIcon('folder-library');
      it.contextValue = 'spotdesk.market';
      return it;
    }
    const t = node.ticker;
    const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.None);
    it.id = `mkt:${node.market}:${node.symbol}`;
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
    md.appendCodeblock(
      [
        `last        ${t?.last ?? '—'}`,
        `24h change  ${t?.changePrice ?? '—'} (${change || '—'})`,
        `24h high    ${t?.high ?? '—'}`,
        `24h low     ${t?.low ?? '—'}`,
        `24h volume  ${t?.vol ?? '—'} ${node.info.baseCurrency}`,
        `best bid    ${t?.buy ?? '—'}`,
        `best ask    ${t?.sell ?? '—'}`,
        `tick        ${node.info.priceIncrement}`,
        `lot         ${node.info.baseIncrement}`,
        `trading     ${node.info.enableTrading ? 'enabled' : 'disabled'}`,
      ].join('\n'),
      'text',
    );
    it.tooltip = md;
    it.command = { command: COMMANDS.openOrderBook, title: 'Open Order Book', arguments: [node.symbol] };
    return it;
  }
}
