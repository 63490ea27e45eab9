/**
 * The Accounts view ("numbers a trader can read"): per currency, its `main` and `trade`
 * accounts (GET /api/v1/accounts, spec "Account"), with
 *
 * - the figure that matters first: what is available, then its fiat value (src/api/valuation.ts:
 *   the live last trade of the `C-USDT` pair × USDT's fiat price, else GET /api/v1/prices — the one
 *   price the tooltip, the Portfolio total, the status bar and the P&L use too),
 *   then what is on hold — each trimmed to the currency's precision (GET /api/v3/currencies) and
 *   grouped for the display language;
 * - currencies sorted by value (unpriced ones after, by code), zero balances hidden as the setting
 *   `spotdesk.accounts.hideZeroBalances` says, and a portfolio total on top;
 * - the exact decimal strings of every account (balance, available, holds) in the tooltips.
 *
 * All arithmetic is exact (src/api/decimal.ts); formatting is src/api/numberFormat.ts.
 */
import * as vscode from 'vscode';
import type { Account, FiatPrices } from '../../../api/schemas';
import * as dec from '../../../api/decimal';
import { CachedFetch } from '../../../api/cachedFetch';
import { displayPrecision, formatAmount, formatFiat } from '../../../api/numberFormat';
import type { Services } from '../../../host/services';
import { PollingTree } from '../../../host/pollingTree';
import type { WsBalance } from '../../../api/streamSchemas';
import { applyBalance } from '../../live/accountUpdates';
import { fiatValue } from '../../../api/displayFormat';
import { fundsKind, fundsLabel, fundsPhrase } from '../../../api/moneyWords';
import { currencyPrice, currencyPrices, priceSource, type CurrencyPrice } from '../../../api/valuation';

/** Data of one Accounts load. */
export interface AccountsData {
  accounts: Account[];
  /** Fiat prices keyed by currency (undefined when GET /api/v1/prices failed). */
  prices?: FiatPrices;
  fiat: string;
  /** Display precision (fraction digits) per currency; a currency without one is shown exactly. */
  precisions?: ReadonlyMap<string, number>;
}

/** The portfolio row: the sum of the priced currencies' values. */
export interface PortfolioNode {
  kind: 'portfolio';
  /** Sum of the fiat values (2 fraction digits), exact. */
  total: string;
  fiat: string;
  /** Currencies without a price (not in the total). */
  unpriced: string[];
}

/** A currency row (collapsible) with the sums over its accounts. */
export interface CurrencyNode {
  kind: 'currency';
  currency: string;
  /** Sum of the accounts' balances, exact. */
  total: string;
  /** Sum of the accounts' available amounts, exact. */
  available: string;
  /** Sum of the accounts' holds, exact. */
  holds: string;
  /** Fiat value of `total` (2 fraction digits), if a price is known. */
  fiatValue?: string;
  accounts: AccountNode[];
}

/** One account row: `main` or `trade` of a currency. */
export interface AccountNode {
  kind: 'account';
  currency: string;
  account: Account;
}

type Node = PortfolioNode | CurrencyNode | AccountNode;

/** Currencies of GET /api/v3/currencies as display precisions, reused for an hour per profile. */
const PRECISION_TTL_MS = 3_600_000;

/** Tree data provider of the `spotdesk.accounts` view. */
export class AccountsTree extends PollingTree<AccountsData, Node> {
  private readonly precisions: CachedFetch<ReadonlyMap<string, number>>;
  /**
   * Unrealized P&L of a currency's holding (src/features/live/host/holdings.ts): a suffix for
   * the currency row's description and markdown for its tooltip; undefined when unknown.
   */
  pnl: ((currency: string, total: string) => { description: string; tooltip: string } | undefined) | undefined;

  /**
   * The live last trade price of a symbol (src/features/live/host/holdings.ts follows the held
   * currencies' USDT pairs), undefined when unknown; unset = GET /api/v1/prices only.
   */
  market: ((symbol: string) => string | undefined) | undefined;

  constructor(services: Services) {
    super('spotdesk.accounts', services);
    this.precisions = new CachedFetch(
      async () => new Map((await (await services.publicClient()).getCurrencies()).map((c) => [c.currency, c.precision])),
      { key: () => services.profile().id, ttlMs: PRECISION_TTL_MS },
    );
  }

  /** Whether zero balances are hidden (setting `spotdesk.accounts.hideZeroBalances`). */
  hideZero(): boolean {
    return vscode.workspace.getConfiguration('spotdesk').get<boolean>('accounts.hideZeroBalances') ?? false;
  }

  /** The display language (`vscode.env.language`, e.g. "en", "de"): digit grouping and decimal mark. */
  locale(): string {
    return vscode.env.language || 'en';
  }

  protected async load(): Promise<AccountsData> {
    const client = await this.services.client();
    const fiat = vscode.workspace.getConfiguration('spotdesk').get<string>('fiatCurrency') || 'USD';
    const accounts = await client.getAccounts();
    let prices: FiatPrices | undefined;
    const currencies = [...new Set(accounts.map((a) => a.currency))];
    if (currencies.length) {
      try {
        prices = await client.getPrices({ base: fiat, currencies: currencies.join(',') });
      } catch (err) {
        // a price request that fails (the exchange going away mid-refresh) keeps the last prices of the same fiat:
        // the balances just loaded are still valued, and the portfolio figure does not blank out
        const last = this.state.data;
        if (last?.fiat === fiat) prices = last.prices;
        this.services.log.debug(`fiat prices unavailable${prices ? ' (the last ones kept)' : ''}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const precisions = await this.precisions.get().catch((err: unknown) => {
      this.services.log.debug(`currency precisions unavailable (amounts shown exactly): ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    return { accounts, prices, fiat, precisions };
  }

  /** The price `currency` is valued at (src/api/valuation.ts), from `data` (default: the view's). */
  priceOf(currency: string, data: AccountsData | undefined = this.state.data): CurrencyPrice | undefined {
    return currencyPrice(currency, data?.prices, (s) => this.market?.(s));
  }

  /**
   * Every account currency's price by the same rule (the status bar item values the portfolio with
   * these, so it agrees with the Portfolio row); undefined without data or without any fiat price.
   */
  valuationPrices(): FiatPrices | undefined {
    const data = this.state.data;
    if (!data?.prices) return undefined;
    return currencyPrices(new Set(data.accounts.map((a) => a.currency)), data.prices, (s) => this.market?.(s));
  }

  /** Currency nodes by value (highest first; unpriced ones after, by code), zero balances filtered if asked. */
  nodes(data: AccountsData): CurrencyNode[] {
    const byCurrency = new Map<string, Account[]>();
    for (const a of data.accounts) {
      if (this.hideZero() && dec.isZero(a.balance)) continue;
      const list = byCurrency.get(a.currency) ?? [];
      list.push(a);
      byCurrency.set(a.currency, list);
    }
    const out: CurrencyNode[] = [];
    for (const [currency, list] of byCurrency) {
      list.sort((x, y) => (x.type === y.type ? 0 : x.type === 'main' ? -1 : 1));
      const sum = (f: (a: Account) => string) => list.reduce((s, a) => dec.add(s, f(a)), '0');
      const total = sum((a) => a.balance);
      out.push({
        kind: 'currency',
        currency,
        total,
        available: sum((a) => a.available),
        holds: sum((a) => a.holds),
        fiatValue: fiatValue(total, this.priceOf(currency, data)?.price),
        accounts: list.map((account) => ({ kind: 'account', currency, account })),
      });
    }
    return out.sort((x, y) => {
      if (x.fiatValue !== undefined && y.fiatValue !== undefined) return dec.cmp(y.fiatValue, x.fiatValue) || x.currency.localeCompare(y.currency);
      if (x.fiatValue !== undefined) return -1;
      if (y.fiatValue !== undefined) return 1;
      return x.currency.localeCompare(y.currency);
    });
  }

  /** The portfolio total over `nodes` (undefined when no currency has a price). */
  portfolio(nodes: readonly CurrencyNode[], fiat: string): PortfolioNode | undefined {
    const priced = nodes.filter((n) => n.fiatValue !== undefined);
    if (!priced.length) return undefined;
    return {
      kind: 'portfolio',
      total: priced.reduce((s, n) => dec.add(s, n.fiatValue!), '0'),
      fiat,
      unpriced: nodes.filter((n) => n.fiatValue === undefined).map((n) => n.currency),
    };
  }

  protected rootNodes(data: AccountsData): Node[] {
    const nodes = this.nodes(data);
    const total = this.portfolio(nodes, data.fiat);
    return total ? [total, ...nodes] : nodes;
  }

  /**
   * Apply one `/account/balance` message. Returns false when the account is unknown to
   * the view (a new account: the caller resyncs from REST) or nothing changed.
   */
  applyBalanceChange(b: WsBalance): 'updated' | 'unchanged' | 'unknown' {
    let r: 'updated' | 'unchanged' | 'unknown' = 'unknown';
    this.applyLive((data) => (r = applyBalance(data.accounts, b)) === 'updated');
    return r;
  }

  protected childNodes(node: Node): Node[] {
    return node.kind === 'currency' ? node.accounts : [];
  }

  protected emptyMessage(): string {
    return this.hideZero() ? 'No non-zero balances (zero balances are hidden).' : 'No accounts yet.';
  }

  /**
   * `v` of `currency` for display: to the digits that matter (src/api/numberFormat.ts
   * `displayPrecision`: a last digit worth at most two cents at the holding's price, never beyond the
   * currency's precision), rounded down, trailing zeros trimmed, grouped. The tooltip has it exactly.
   */
  amount(v: string, currency: string): string {
    return formatAmount(v, displayPrecision(this.state.data?.precisions?.get(currency), this.priceOf(currency)?.price), this.locale());
  }

  protected item(node: Node): vscode.TreeItem {
    const fiat = this.state.data?.fiat ?? 'USD';
    const loc = this.locale();
    if (node.kind === 'portfolio') {
      const it = new vscode.TreeItem('Portfolio', vscode.TreeItemCollapsibleState.None);
      it.id = 'acc:portfolio';
      // What the money is, where the profile is not a real exchange ("Sandbox · play money", "Local server").
      const funds = fundsKind(this.services.profile()) === 'real' ? '' : ` · ${fundsLabel(this.services.profile())}`;
      it.description = `≈ ${formatFiat(node.total, loc)} ${node.fiat}${funds}`;
      it.iconPath = new vscode.ThemeIcon('pie-chart');
      it.contextValue = 'spotdesk.portfolio';
      it.tooltip = new vscode.MarkdownString(
        `**Portfolio** ≈ ${formatFiat(node.total, loc)} ${node.fiat}: the balances of every priced currency, each at the last trade of its USDT pair × USDT's price (GET /api/v1/prices), or at GET /api/v1/prices without one.` +
          (funds ? `\n\nProfile: ${fundsPhrase(this.services.profile())}.` : '') +
          (node.unpriced.length ? `\n\nNot counted (no ${node.fiat} price): ${node.unpriced.join(', ')}.` : ''),
      );
      return it;
    }
    if (node.kind === 'currency') {
      const it = new vscode.TreeItem(node.currency, vscode.TreeItemCollapsibleState.Expanded);
      it.id = `acc:${node.currency}`;
      // Shortest useful text first (a narrow side bar cuts the end): available, value, P&L, then holds;
      // everything, exactly, in the tooltip.
      const parts = [`${this.amount(node.available, node.currency)} avail`];
      if (node.fiatValue !== undefined) parts.push(`≈ ${formatFiat(node.fiatValue, loc)} ${fiat}`);
      const tooltip = this.breakdown(node.currency, node.accounts.map((a) => a.account), node.fiatValue, fiat);
      const pnl = this.pnl?.(node.currency, node.total);
      if (pnl) {
        parts.push(pnl.description);
        tooltip.appendMarkdown(`\n\n${pnl.tooltip}`);
      }
      if (!dec.isZero(node.holds)) parts.push(`${this.amount(node.holds, node.currency)} on hold`);
      it.description = parts.join(' · ');
      it.iconPath = new vscode.ThemeIcon('symbol-number');
      it.contextValue = 'spotdesk.currency';
      it.tooltip = tooltip;
      return it;
    }
    const a = node.account;
    const it = new vscode.TreeItem(a.type === 'main' ? 'main' : 'trade', vscode.TreeItemCollapsibleState.None);
    it.id = `acc:${a.currency}:${a.type}`;
    it.description = `${this.amount(a.available, a.currency)} avail${dec.isZero(a.holds) ? '' : ` · ${this.amount(a.holds, a.currency)} on hold`}`;
    it.iconPath = new vscode.ThemeIcon(a.type === 'main' ? 'archive' : 'graph-line');
    it.contextValue = `spotdesk.account.${a.type}`;
    it.tooltip = this.breakdown(a.currency, [a], undefined, fiat);
    return it;
  }

  /** The full breakdown, exact: per account available, on hold and balance; price and value. */
  private breakdown(currency: string, accounts: readonly Account[], value: string | undefined, fiat: string): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    const name = accounts.length === 1 ? `${currency} ${accounts[0].type === 'main' ? 'main (funding)' : 'trade (spot)'} account` : currency;
    md.appendMarkdown(`**${name}**\n\n`);
    const rows = accounts.map((a) => `${a.type.padEnd(6)} ${a.available.padStart(24)} ${a.holds.padStart(24)} ${a.balance.padStart(24)}`);
    md.appendCodeblock([`${'account'.padEnd(6)} ${'available'.padStart(24)} ${'on hold'.padStart(24)} ${'balance'.padStart(24)}`, ...rows].join('\n'), 'text');
    const price = this.priceOf(currency);
    if (price !== undefined) {
      md.appendMarkdown(`\n\n1 ${currency} ≈ ${dec.normalize(price.price)} ${fiat}${value !== undefined ? ` · value ≈ ${formatFiat(value, this.locale())} ${fiat}` : ''}`);
      md.appendMarkdown(` (${priceSource(price, fiat)})`);
    }
    const precision = this.state.data?.precisions?.get(currency);
    const shown = displayPrecision(precision, price?.price);
    md.appendMarkdown(`\n\nShown ${shown !== undefined ? `to ${shown} decimals (${shown !== precision ? `a last digit worth at most two cents; ${currency}'s precision is ${precision ?? 'unknown'}` : `${currency}'s precision`})` : 'exactly'}; the figures above are exact.${accounts.length === 1 ? ` Account id ${accounts[0].id}.` : ''}`);
    return md;
  }
}
