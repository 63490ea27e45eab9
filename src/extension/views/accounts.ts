/**
 * The Accounts view: per currency, its `main` and `trade` accounts with balance, available and
 * holds (GET /api/v1/accounts, spec "Account"), decimal strings shown exactly and aligned, and
 * an optional fiat value from GET /api/v1/prices computed with `src/api/decimal.ts`.
 */
import * as vscode from 'vscode';
import type { Account, FiatPrices } from '../../api/schemas';
import * as dec from '../../api/decimal';
import type { Services } from '../services';
import { PollingTree } from './pollingTree';
import type { WsBalance } from '../../api/streamSchemas';
import { applyBalance } from '../live/accountUpdates';
import { alignDecimals, fiatValue } from './format';

/** Data of one Accounts load. */
export interface AccountsData {
  accounts: Account[];
  /** Fiat prices keyed by currency (undefined when GET /api/v1/prices failed). */
  prices?: FiatPrices;
  fiat: string;
}

/** A currency row (collapsible) with the total over its accounts. */
export interface CurrencyNode {
  kind: 'currency';
  currency: string;
  total: string;
  /** Fiat value of `total` (2 fraction digits), if a price is known. */
  fiatValue?: string;
  accounts: AccountNode[];
}

/** One account row: `main` or `trade` of a currency; the `*Text` fields are aligned display strings. */
export interface AccountNode {
  kind: 'account';
  currency: string;
  account: Account;
  balanceText: string;
  availableText: string;
  holdsText: string;
}

type Node = CurrencyNode | AccountNode;

/** Tree data provider of the `spotdesk.accounts` view. */
export class AccountsTree extends PollingTree<AccountsData, Node> {
  constructor(services: Services) {
    super('spotdesk.accounts', services);
  }

  /** Whether zero balances are hidden (setting `spotdesk.accounts.hideZeroBalances`). */
  hideZero(): boolean {
    return vscode.workspace.getConfiguration('spotdesk').get<boolean>('accounts.hideZeroBalances') ?? false;
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
        this.services.log.debug(`fiat prices unavailable: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return { accounts, prices, fiat };
  }

  /** Currency nodes in display order (by currency code), zero balances filtered if asked. */
  nodes(data: AccountsData): CurrencyNode[] {
    const byCurrency = new Map<string, Account[]>();
    for (const a of data.accounts) {
      if (this.hideZero() && dec.isZero(a.balance)) continue;
      const list = byCurrency.get(a.currency) ?? [];
      list.push(a);
      byCurrency.set(a.currency, list);
    }
    const out: CurrencyNode[] = [];
    for (const [currency, list] of [...byCurrency].sort(([x], [y]) => x.localeCompare(y))) {
      list.sort((x, y) => (x.type === y.type ? 0 : x.type === 'main' ? -1 : 1));
      // Align each column (balance, available, holds) across the currency's main and trade rows.
      const col = (f: (a: Account) => string) => alignDecimals(list.map(f));
      const [bal, avail, holds] = [col((a) => a.balance), col((a) => a.available), col((a) => a.holds)];
      const total = list.reduce((s, a) => dec.add(s, a.balance), '0');
      out.push({
        kind: 'currency',
        currency,
        total,
        fiatValue: fiatValue(total, data.prices?.[currency]),
        accounts: list.map((account, i) => ({
          kind: 'account',
          currency,
          account,
          balanceText: bal[i],
          availableText: avail[i],
          holdsText: holds[i],
        })),
      });
    }
    return out;
  }

  protected rootNodes(data: AccountsData): Node[] {
    return this.nodes(data);
  }

  /**
   * Apply one `/account/balance` message (issue 22). Returns false when the account is unknown to
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

  protected item(node: Node): vscode.TreeItem {
    const fiat = this.state.data?.fiat ?? 'USD';
    if (node.kind === 'currency') {
      const it = new vscode.TreeItem(node.currency, vscode.TreeItemCollapsibleState.Expanded);
      it.id = `acc:${node.currency}`;
      it.description = node.fiatValue !== undefined ? `${node.total}  ≈ ${node.fiatValue} ${fiat}` : node.total;
      it.iconPath = new vscode.ThemeIcon('symbol-number');
      it.contextValue = 'spotdesk.currency';
      it.tooltip = new vscode.MarkdownString(
        `**${node.currency}** total ${node.total}` + (node.fiatValue !== undefined ? ` ≈ ${node.fiatValue} ${fiat}` : ''),
      );
      return it;
    }
    const a = node.account;
    const it = new vscode.TreeItem(a.type === 'main' ? 'main ' : 'trade', vscode.TreeItemCollapsibleState.None);
    it.id = `acc:${a.currency}:${a.type}`;
    it.description = `bal ${node.balanceText} · avail ${node.availableText} · hold ${node.holdsText}`;
    it.iconPath = new vscode.ThemeIcon(a.type === 'main' ? 'archive' : 'graph-line');
    it.contextValue = `spotdesk.account.${a.type}`;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${a.currency}** ${a.type === 'main' ? 'main (funding)' : 'trade (spot)'} account\n\n`);
    md.appendCodeblock(`balance   ${a.balance}\navailable ${a.available}\nholds     ${a.holds}\nid        ${a.id}`, 'text');
    it.tooltip = md;
    return it;
  }
}
