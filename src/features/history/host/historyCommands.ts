/**
 * Commands of the history views: refresh and "Load more" of Order History, Fills and Funding
 * History; "Export CSV" of Order History and Fills (every page, written where the person chooses);
 * and "Cancel Withdrawal…" on a processing withdrawal of Funding History.
 *
 * Cancel Withdrawal moves money (the held amount returns to the main account), so, like the other
 * money commands (../commands.ts, ../commandArgs.ts): it keeps only the withdrawal id from its
 * argument, re-reads the withdrawal from the exchange (GET /api/v1/withdrawals) and shows THAT in a
 * modal confirmation; nothing is sent without the person's answer, whatever the arguments.
 */
import { COMMANDS } from '../../../host/commandIds';
import { guardedRegistrar } from '../../../host/guardedCommand';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { WithdrawalItem } from '../../../api/schemas';
import { withdrawalArg } from '../../../host/commandArgs';
import type { Services } from '../../../host/services';
import { allFills, quoteDigits, type FillsTree } from './fills';
import type { FundingHistoryTree, MoreFundingNode } from './fundingHistory';
import { fillsCsv, ordersCsv } from '../model/historyRows';
import { historySymbols } from './historySymbols';
import type { MoreOrdersNode, OrderHistoryTree } from './orderHistory';

/** The history trees the commands act on. */
export interface HistoryTrees {
  orderHistory: OrderHistoryTree;
  fills: FillsTree;
  fundingHistory: FundingHistoryTree;
}

/** Where the save dialog starts: the first workspace folder, else the home directory. */
function exportUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(path.join(os.homedir(), name));
}

/** `spotdesk-<what>-YYYYMMDD-HHMMSS.csv` (UTC). */
function exportName(what: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `spotdesk-${what}-${stamp}.csv`;
}

/** The processing withdrawal `withdrawalId` as the exchange lists it, or undefined. */
async function processingWithdrawal(services: Services, withdrawalId: string): Promise<WithdrawalItem | undefined> {
  const client = await services.client();
  for await (const w of client.iterateWithdrawals({ status: 'PROCESSING', pageSize: 100 })) if (w.id === withdrawalId) return w;
  return undefined;
}

/** Register the history views' commands; returns their disposables. */
export function registerHistoryCommands(services: Services, trees: HistoryTrees, noted: () => string[]): vscode.Disposable[] {
  const reg = guardedRegistrar(services.log);

  /** Ask where, then write `text`; returns the file written or undefined when cancelled. */
  const save = async (what: string, title: string, text: string): Promise<vscode.Uri | undefined> => {
    const uri = await services.prompts.saveFile({ title, defaultUri: exportUri(exportName(what)), filters: { CSV: ['csv'] }, saveLabel: 'Export' });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    services.log.info(`exported ${what} to ${uri.toString()}`);
    void vscode.window.setStatusBarMessage(`SpotDesk: exported ${what} to ${path.basename(uri.path)}`, 5000);
    return uri;
  };

  return [
    reg(COMMANDS.orderHistoryRefresh, () => trees.orderHistory.refresh()),
    reg(COMMANDS.fillsRefresh, () => trees.fills.refresh()),
    reg(COMMANDS.fundingHistoryRefresh, () => trees.fundingHistory.refresh()),
    reg(COMMANDS.orderHistoryLoadMore, (node?: MoreOrdersNode) => {
      if (!node || node.kind !== 'moreOrders' || typeof node.symbol !== 'string') return undefined;
      return trees.orderHistory.loadMore(node.symbol);
    }),
    reg(COMMANDS.fundingHistoryLoadMore, (node?: MoreFundingNode) => {
      if (!node || node.kind !== 'moreFunding' || (node.group !== 'deposits' && node.group !== 'withdrawals')) return undefined;
      return trees.fundingHistory.loadMore(node.group);
    }),

    reg(COMMANDS.orderHistoryExportCsv, async () => {
      const client = await services.client();
      const symbols = await historySymbols(client, services, noted);
      const orders = [];
      for (const symbol of symbols) for await (const o of client.iterateDoneOrders({ symbol, limit: 100 })) orders.push(o);
      return save('order-history', `Export ${orders.length} done orders of ${symbols.length} symbols as CSV`, ordersCsv(orders));
    }),

    reg(COMMANDS.fillsExportCsv, async () => {
      const client = await services.client();
      const symbols = await historySymbols(client, services, noted);
      const infos = await trees.fills.symbolList(client);
      const bySymbol = new Map<string, Awaited<ReturnType<typeof allFills>>>();
      let n = 0;
      for (const symbol of symbols) {
        const fills = await allFills(client, symbol, Number.MAX_SAFE_INTEGER);
        if (fills.length) bySymbol.set(symbol, fills);
        n += fills.length;
      }
      return save('fills', `Export ${n} fills of ${bySymbol.size} symbols with realized P&L as CSV`, fillsCsv(bySymbol, (s) => quoteDigits(infos, s)));
    }),

    reg(COMMANDS.cancelWithdrawal, async (row?: unknown) => {
      const target = withdrawalArg(row);
      if (!target) throw new Error('Run "Cancel Withdrawal…" on a processing withdrawal of the Funding History view.');
      // What the person confirms is the withdrawal as the exchange lists it, not the row object.
      const w = await processingWithdrawal(services, target.withdrawalId);
      if (!w) {
        void vscode.window.showInformationMessage(`SpotDesk: withdrawal ${target.withdrawalId} is no longer processing and cannot be cancelled.`);
        await trees.fundingHistory.refresh();
        return false;
      }
      const ok = await services.prompts.confirm(
        `Cancel the withdrawal of ${w.amount} ${w.currency} to ${w.address}?`,
        `Chain ${w.chain || '—'}${w.memo ? `, memo ${w.memo}` : ''}, fee ${w.fee} ${w.currency}, requested ${new Date(w.createdAt).toISOString()}. ` +
          `The held amount returns to your main account. Withdrawal id ${w.id}.`,
        'Cancel Withdrawal',
      );
      if (!ok) return false;
      const client = await services.client();
      await client.cancelWithdrawal(target.withdrawalId);
      services.log.info(`cancelled withdrawal ${target.withdrawalId} (${w.amount} ${w.currency})`);
      services.refresh('accounts');
      await trees.fundingHistory.refresh();
      return true;
    }),
  ];
}
