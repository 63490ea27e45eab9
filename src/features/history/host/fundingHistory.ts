/**
 * The Funding History view: deposits (GET /api/v1/deposits) and withdrawals (GET /api/v1/withdrawals)
 * with their status, newest first, in pages of {@link FUNDING_PAGE_SIZE} ("Load more" adds a page,
 * at most {@link MAX_FUNDING_PAGES}). A withdrawal that is still PROCESSING carries the context value
 * `spotdesk.withdrawal.processing`, which offers "Cancel Withdrawal…" (a modal confirmation of what
 * the exchange says about it; ./historyCommands.ts). Polls only while visible (PollingTree).
 */
import { COMMANDS } from '../../../host/commandIds';
import * as vscode from 'vscode';
import type { SpotClient } from '../../../api/client';
import type { DepositItem, WithdrawalItem } from '../../../api/schemas';
import type { Services } from '../../../host/services';
import { PollingTree } from '../../../host/pollingTree';
import { depositRow, withdrawalRow } from '../model/historyRows';

/** Records per page. */
export const FUNDING_PAGE_SIZE = 50;
/** Pages a group can show at most. */
export const MAX_FUNDING_PAGES = 10;

/** Which list. */
export type FundingKind = 'deposits' | 'withdrawals';

/** Data of one Funding History load. */
export interface FundingData {
  deposits: DepositItem[];
  withdrawals: WithdrawalItem[];
  /** Total counts the exchange reports. */
  totals: Record<FundingKind, number>;
  more: Record<FundingKind, boolean>;
}

/** A group row ("Deposits" / "Withdrawals"). */
export interface FundingGroupNode {
  kind: 'fundingGroup';
  group: FundingKind;
}
/** A deposit row. */
export interface DepositNode {
  kind: 'deposit';
  deposit: DepositItem;
}
/** A withdrawal row; `withdrawal.id` is the withdrawalId (what "Cancel Withdrawal…" acts on). */
export interface WithdrawalNode {
  kind: 'withdrawal';
  withdrawal: WithdrawalItem;
}
/** The "Load more" row of a group. */
export interface MoreFundingNode {
  kind: 'moreFunding';
  group: FundingKind;
}

type Node = FundingGroupNode | DepositNode | WithdrawalNode | MoreFundingNode;

/** `pages` pages of a paged funding list (stops at the last page). */
async function pagesOf<T>(get: (currentPage: number) => Promise<{ totalNum: number; totalPage: number; items: T[] }>, pages: number): Promise<{ items: T[]; total: number; more: boolean }> {
  const items: T[] = [];
  let total = 0;
  for (let p = 1; p <= pages; p++) {
    const page = await get(p);
    items.push(...page.items);
    total = page.totalNum;
    if (page.items.length === 0 || p >= page.totalPage) return { items, total, more: false };
  }
  return { items, total, more: true };
}

/** Tree data provider of the `spotdesk.fundingHistory` view. */
export class FundingHistoryTree extends PollingTree<FundingData, Node> {
  private pages: Record<FundingKind, number> = { deposits: 1, withdrawals: 1 };
  private pagesProfile: string | undefined;

  constructor(services: Services) {
    super('spotdesk.fundingHistory', services);
  }

  /** Show one more page of a group and reload. */
  async loadMore(group: FundingKind): Promise<void> {
    this.pages[group] = Math.min(MAX_FUNDING_PAGES, this.pages[group] + 1);
    await this.refresh();
  }

  protected async load(): Promise<FundingData> {
    const client: SpotClient = await this.services.client();
    const profile = this.services.profile().id;
    if (this.pagesProfile !== profile) {
      this.pages = { deposits: 1, withdrawals: 1 };
      this.pagesProfile = profile;
    }
    const d = await pagesOf((currentPage) => client.getDeposits({ currentPage, pageSize: FUNDING_PAGE_SIZE }), this.pages.deposits);
    const w = await pagesOf((currentPage) => client.getWithdrawals({ currentPage, pageSize: FUNDING_PAGE_SIZE }), this.pages.withdrawals);
    return { deposits: d.items, withdrawals: w.items, totals: { deposits: d.total, withdrawals: w.total }, more: { deposits: d.more, withdrawals: w.more } };
  }

  protected rootNodes(data: FundingData): Node[] {
    if (!data.deposits.length && !data.withdrawals.length) return [];
    return [
      { kind: 'fundingGroup', group: 'withdrawals' },
      { kind: 'fundingGroup', group: 'deposits' },
    ];
  }

  protected childNodes(node: Node, data: FundingData): Node[] {
    if (node.kind !== 'fundingGroup') return [];
    const rows: Node[] =
      node.group === 'deposits' ? data.deposits.map((deposit) => ({ kind: 'deposit' as const, deposit })) : data.withdrawals.map((withdrawal) => ({ kind: 'withdrawal' as const, withdrawal }));
    if (data.more[node.group] && this.pages[node.group] < MAX_FUNDING_PAGES) rows.push({ kind: 'moreFunding', group: node.group });
    return rows;
  }

  protected emptyMessage(): string {
    return 'No deposits or withdrawals yet.';
  }

  protected item(node: Node): vscode.TreeItem {
    if (node.kind === 'fundingGroup') {
      const data = this.state.data;
      const n = data ? data.totals[node.group] : 0;
      const processing = data && node.group === 'withdrawals' ? data.withdrawals.filter((w) => w.status === 'PROCESSING').length : 0;
      const it = new vscode.TreeItem(node.group === 'deposits' ? 'Deposits' : 'Withdrawals', vscode.TreeItemCollapsibleState.Expanded);
      it.id = `funding:${node.group}`;
      it.description = `${n}${processing ? ` · ${processing} processing` : ''}`;
      it.iconPath = new vscode.ThemeIcon(node.group === 'deposits' ? 'arrow-down' : 'arrow-up');
      return it;
    }
    if (node.kind === 'moreFunding') {
      const it = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      it.id = `funding:${node.group}:more`;
      it.iconPath = new vscode.ThemeIcon('ellipsis');
      it.command = { command: COMMANDS.fundingHistoryLoadMore, title: 'Load more', arguments: [node] };
      return it;
    }
    const r = node.kind === 'deposit' ? depositRow(node.deposit) : withdrawalRow(node.withdrawal);
    const status = node.kind === 'deposit' ? node.deposit.status : node.withdrawal.status;
    const it = new vscode.TreeItem(r.label, vscode.TreeItemCollapsibleState.None);
    it.description = r.description;
    it.tooltip = r.tooltip.join('\n');
    it.iconPath = new vscode.ThemeIcon(
      status === 'SUCCESS' ? 'pass' : status === 'FAILURE' ? 'error' : 'sync',
      status === 'FAILURE' ? new vscode.ThemeColor('errorForeground') : undefined,
    );
    // deposits carry no id on the wire: their rows get none (VS Code keys them by position)
    if (node.kind === 'withdrawal') {
      if (node.withdrawal.id) it.id = `funding:w:${node.withdrawal.id}`;
      it.contextValue = node.withdrawal.status === 'PROCESSING' && node.withdrawal.id ? 'spotdesk.withdrawal.processing' : 'spotdesk.withdrawal';
    } else {
      it.contextValue = 'spotdesk.deposit';
    }
    return it;
  }
}
