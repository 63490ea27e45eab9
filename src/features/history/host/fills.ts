/**
 * The Fills view: HF fills (GET /api/v1/hf/fills, followed through `lastId`) of each watched or
 * traded symbol (./historySymbols.ts) — price, size, fee, liquidity, time — and on each symbol row
 * the realized P&L of those fills by weighted average cost (src/api/pnl.ts, method in
 * {@link PNL_METHOD}), in the quote currency at its precision. At most {@link MAX_FILLS_PER_SYMBOL}
 * fills are read per symbol and {@link SHOWN_FILLS} shown; "Export CSV" writes every fill read with
 * the P&L each sell realised. Polls only while visible (PollingTree).
 */
import * as vscode from 'vscode';
import type { SpotClient } from '../../../api/client';
import type { HfFill, SymbolInfo } from '../../../api/schemas';
import * as dec from '../../../api/decimal';
import type { PairPnl } from '../../../api/pnl';
import type { Services } from '../../../host/services';
import { describeError, PollingTree } from '../../../host/pollingTree';
import { historyItem } from './historyItem';
import { historySymbols } from './historySymbols';
import { fillRow, PNL_METHOD, pnlSummary, symbolPnl } from '../model/historyRows';

/** Fills read per symbol at most (10 pages of 100). */
export const MAX_FILLS_PER_SYMBOL = 1000;
/** Fills shown under a symbol (newest first). */
export const SHOWN_FILLS = 200;

/** One symbol's fills and their P&L (or the error loading them). */
export interface SymbolFills {
  symbol: string;
  /** Newest first. */
  fills: HfFill[];
  pnl?: PairPnl;
  error?: string;
}

/** Data of one Fills load. */
export interface FillsData {
  symbols: string[];
  groups: SymbolFills[];
}

/** A symbol row (its description is the P&L summary). */
export interface FillSymbolNode {
  kind: 'fillSymbol';
  symbol: string;
  group: SymbolFills;
}
/** A fill row. */
export interface FillNode {
  kind: 'fill';
  symbol: string;
  fill: HfFill;
  /** P&L this fill realised (sells), rounded. */
  realized?: string;
}
/** "N older fills" note under a symbol. */
export interface FillsNoteNode {
  kind: 'fillsNote';
  symbol: string;
  text: string;
}

type Node = FillSymbolNode | FillNode | FillsNoteNode;

/** Every fill of `symbol` the endpoint returns, newest first, at most `max`. */
export async function allFills(client: SpotClient, symbol: string, max = MAX_FILLS_PER_SYMBOL): Promise<HfFill[]> {
  const out: HfFill[] = [];
  for await (const f of client.iterateFills({ symbol, limit: 100 })) {
    out.push(f);
    if (out.length >= max) break;
  }
  return out;
}

/** Fraction digits of a symbol's quote amounts (its quoteIncrement), 8 when unknown. */
export function quoteDigits(symbols: readonly SymbolInfo[], symbol: string): number {
  const s = symbols.find((x) => x.symbol === symbol);
  return s ? dec.fractionDigits(dec.normalize(s.quoteIncrement)) : 8;
}

/** Tree data provider of the `spotdesk.fills` view. */
export class FillsTree extends PollingTree<FillsData, Node> {
  private symbolCache: { profile: string; symbols: SymbolInfo[] } | undefined;

  constructor(
    services: Services,
    private readonly notedSymbols: () => string[],
  ) {
    super('spotdesk.fills', services);
  }

  /** GET /api/v2/symbols, cached per profile (for the quote precision of P&L). */
  async symbolList(client: SpotClient): Promise<SymbolInfo[]> {
    const profile = this.services.profile().id;
    if (!this.symbolCache || this.symbolCache.profile !== profile) this.symbolCache = { profile, symbols: await client.getSymbols() };
    return this.symbolCache.symbols;
  }

  /** Fraction digits of `symbol`'s quote increment (fill funds are shown to it), from the cached symbol list. */
  quoteDigitsOf(symbol: string): number | undefined {
    const list = this.symbolCache?.symbols;
    return list?.some((s) => s.symbol === symbol) ? quoteDigits(list, symbol) : undefined;
  }

  protected async load(): Promise<FillsData> {
    const client = await this.services.client();
    const symbols = await historySymbols(client, this.services, this.notedSymbols);
    const infos = await this.symbolList(client);
    const groups: SymbolFills[] = [];
    for (const symbol of symbols) {
      try {
        const fills = await allFills(client, symbol);
        groups.push({ symbol, fills, pnl: symbolPnl(symbol, fills, quoteDigits(infos, symbol)) });
      } catch (err) {
        groups.push({ symbol, fills: [], error: describeError(err) });
      }
    }
    return { symbols, groups };
  }

  protected rootNodes(data: FillsData): Node[] {
    return data.groups.filter((g) => g.fills.length > 0 || g.error).map((group) => ({ kind: 'fillSymbol' as const, symbol: group.symbol, group }));
  }

  protected childNodes(node: Node): Node[] {
    if (node.kind !== 'fillSymbol') return [];
    const { fills, pnl } = node.group;
    const rows: Node[] = fills.slice(0, SHOWN_FILLS).map((fill) => ({ kind: 'fill' as const, symbol: node.symbol, fill, realized: pnl?.perFill[fill.id] }));
    if (fills.length > SHOWN_FILLS) rows.push({ kind: 'fillsNote', symbol: node.symbol, text: `${fills.length - SHOWN_FILLS} older fills (Export CSV lists them all)` });
    return rows;
  }

  protected emptyMessage(): string {
    const n = this.state.data?.symbols.length ?? 0;
    return n ? `No fills in the exchange's fill history on ${n} watched or traded symbol${n === 1 ? '' : 's'}.` : 'No symbols: add one to the spotdesk.watchlist setting.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'fillSymbol') {
      const it = new vscode.TreeItem(node.symbol, vscode.TreeItemCollapsibleState.Collapsed);
      it.id = `fills:${node.symbol}`;
      const g = node.group;
      it.description = g.error ? `error: ${g.error}` : g.pnl ? pnlSummary(g.pnl, g.fills.length) : '';
      it.iconPath = new vscode.ThemeIcon(g.error ? 'error' : 'symbol-number');
      it.contextValue = 'spotdesk.fillSymbol';
      if (g.pnl) {
        const p = g.pnl;
        const other = Object.entries(p.otherFees).map(([c, v]) => `${v} ${c}`);
        it.tooltip = [
          `${node.symbol}: realized P&L ${p.realized} ${p.quote} over ${g.fills.length} fills (${p.buys} buys, ${p.sells} sells)`,
          `position ${p.position} ${p.base} · cost basis ${p.costBasis} ${p.quote}${p.averageCost ? ` · average cost ${p.averageCost}` : ''}`,
          ...(dec.isZero(p.unmatchedSellSize) ? [] : [`${p.unmatchedSellSize} ${p.base} sold beyond the fills available (no cost known, not in the P&L)`]),
          ...(other.length ? [`fees not in the P&L: ${other.join(', ')}`] : []),
          '',
          PNL_METHOD,
        ].join('\n');
      }
      return it;
    }
    if (node.kind === 'fillsNote') {
      const it = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      it.iconPath = new vscode.ThemeIcon('info');
      return it;
    }
    return historyItem(fillRow(node.fill, node.realized, this.quoteDigitsOf(node.symbol)), `fills:${node.symbol}:${node.fill.id}`, node.fill.side, 'spotdesk.fill');
  }
}
