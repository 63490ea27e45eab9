/**
 * Following withdrawals to their end ("A withdrawal that completes or fails notifies the
 * user"), the pure part: which watched withdrawals reached a final status in a page of
 * GET /api/v1/withdrawals, what the person is told, and how long to wait before looking again.
 * KuCoin's spot WebSocket has no withdrawal topic, so the extension looks at the history while (and
 * only while) a withdrawal is in flight. Pure: no `vscode`, no Node API.
 */
import type { WithdrawalItem } from '../../../api/schemas';

/** Statuses after which a withdrawal never changes (KuCoin: SUCCESS, FAILURE). */
export const FINAL_STATUSES: ReadonlySet<WithdrawalItem['status']> = new Set(['SUCCESS', 'FAILURE']);

/** Statuses of a withdrawal still in flight (REVIEW, PROCESSING, WALLET_PROCESSING). */
export const IN_FLIGHT_STATUSES = ['REVIEW', 'PROCESSING', 'WALLET_PROCESSING'] as const;

/** A withdrawal being watched: its withdrawalId and currency (the history is asked per currency). */
export interface WatchedWithdrawal {
  readonly id: string;
  readonly currency: string;
}

/**
 * The watched withdrawals that `records` (a page of GET /api/v1/withdrawals) show in a final status,
 * matched by `id` (a record without an id cannot be matched and is skipped).
 * @returns the settled records, in the order of `records`.
 */
export function settledWithdrawals(watched: ReadonlyMap<string, WatchedWithdrawal>, records: readonly WithdrawalItem[]): WithdrawalItem[] {
  return records.filter((r) => r.id !== undefined && watched.has(r.id) && FINAL_STATUSES.has(r.status));
}

/** `TJx9…abcd`: an address shortened for a notification (the full one is in Funding History). */
export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * What the person is told about a settled withdrawal: `info` for SUCCESS (amount, destination,
 * transaction id when the exchange gives one), `error` for FAILURE (the exchange's remark, and that
 * the held amount is back in the main account, as KuCoin releases the hold of a failed withdrawal).
 */
export function settledMessage(r: WithdrawalItem): { level: 'info' | 'error'; text: string } {
  const what = `withdrawal of ${r.amount} ${r.currency} to ${r.isInner ? 'KuCoin user ' : ''}${shortAddress(r.address)}`;
  if (r.status === 'SUCCESS') {
    const tx = r.walletTxId ? ` (transaction ${shortAddress(r.walletTxId)})` : r.isInner ? ' (internal transfer, no chain transaction)' : '';
    return { level: 'info', text: `Your ${what} completed${tx}.` };
  }
  const why = r.remark.trim() ? `: ${r.remark.trim()}` : '';
  return { level: 'error', text: `Your ${what} failed${why}. The held ${r.currency} is back in your main account.` };
}

/**
 * Delay before the next look at the history, in ms: 2 s, doubling per look without news, at most
 * 60 s (a withdrawal on a blockchain can take an hour; the first seconds matter most on the sandbox,
 * which settles after 5 s).
 */
export function nextLookDelayMs(looksWithoutNews: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.max(0, Math.min(looksWithoutNews, 5)));
}
