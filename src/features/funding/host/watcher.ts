/**
 * Withdrawal watcher ("A withdrawal that completes or fails notifies the user, and the
 * Funding History view shows it"). KuCoin's spot WebSocket has no withdrawal topic, so while — and
 * only while — a withdrawal of the active profile is in flight, the watcher looks at
 * GET /api/v1/withdrawals (per currency, first page) after 2 s, doubling to at most 60 s
 * (src/features/funding/model/withdrawalWatch.ts). When one reaches SUCCESS or FAILURE it notifies the person
 * (with "Show Funding History") and refreshes Accounts and Funding History.
 *
 * What it watches: withdrawals submitted from SpotDesk ({@link WithdrawalWatcher.track}), and those
 * found in flight (REVIEW, PROCESSING, WALLET_PROCESSING) when the profile becomes active — e.g.
 * submitted before a reload or by a bot with the same key. A profile switch forgets the previous
 * profile's withdrawals. Failures to read the history are logged and retried on the same schedule.
 */
import * as vscode from 'vscode';
import type { WithdrawalItem } from '../../../api/schemas';
import { IN_FLIGHT_STATUSES, nextLookDelayMs, settledMessage, settledWithdrawals, type WatchedWithdrawal } from '../model/withdrawalWatch';
import { COMMANDS } from '../../../host/commandIds';
import type { Services } from '../../../host/services';

/** The Funding History view (its `.focus` command is VS Code's). */
const FUNDING_HISTORY_VIEW = 'spotdesk.fundingHistory';

/** A notification the watcher showed (kept for the test door; the last 20). */
export interface WithdrawalNotice {
  id: string;
  status: WithdrawalItem['status'];
  level: 'info' | 'error';
  text: string;
}

/** Follows the active profile's withdrawals in flight to their final status. */
export class WithdrawalWatcher implements vscode.Disposable {
  private watched = new Map<string, WatchedWithdrawal>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private looksWithoutNews = 0;
  private generation = 0;
  private readonly subscription: vscode.Disposable;
  /** The notifications shown, newest last (at most 20). */
  readonly notices: WithdrawalNotice[] = [];

  constructor(private readonly services: Services) {
    this.subscription = services.onDidChangeProfile(() => {
      this.generation++;
      this.watched.clear();
      this.stop();
      void this.resume();
    });
  }

  /** Watch withdrawal `id` of `currency` (just submitted by the active profile). */
  track(id: string, currency: string): void {
    this.watched.set(id, { id, currency });
    this.looksWithoutNews = 0;
    this.schedule();
  }

  /** The withdrawalIds being watched. */
  watching(): string[] {
    return [...this.watched.keys()];
  }

  /**
   * Find the active profile's withdrawals in flight and watch them (at activation and after a
   * profile switch). Does nothing without credentials; a failure is logged.
   */
  async resume(): Promise<void> {
    const gen = this.generation;
    try {
      if (!(await this.services.credentialsPresent())) return;
      const client = await this.services.client();
      for (const status of IN_FLIGHT_STATUSES) {
        const page = await client.getWithdrawals({ status, pageSize: 50 });
        if (gen !== this.generation) return;
        for (const r of page.items) if (r.id) this.watched.set(r.id, { id: r.id, currency: r.currency });
      }
      if (this.watched.size) {
        this.services.log.info(`watching ${this.watched.size} withdrawal(s) in flight`);
        this.schedule();
      }
    } catch (err) {
      this.services.log.warn(`withdrawals in flight could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private schedule(): void {
    if (this.timer || !this.watched.size) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.look();
    }, nextLookDelayMs(this.looksWithoutNews));
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One look at the history of each watched currency. */
  private async look(): Promise<void> {
    const gen = this.generation;
    let news = false;
    try {
      const client = await this.services.client();
      for (const currency of new Set([...this.watched.values()].map((w) => w.currency))) {
        const page = await client.getWithdrawals({ currency, pageSize: 50 });
        if (gen !== this.generation) return;
        for (const r of settledWithdrawals(this.watched, page.items)) {
          this.watched.delete(r.id!);
          news = true;
          this.notify(r);
        }
      }
    } catch (err) {
      this.services.log.warn(`withdrawal status could not be read (will look again): ${err instanceof Error ? err.message : String(err)}`);
    }
    if (gen !== this.generation) return;
    this.looksWithoutNews = news ? 0 : this.looksWithoutNews + 1;
    if (news) {
      this.services.refresh('accounts');
      void vscode.commands.executeCommand(COMMANDS.fundingHistoryRefresh).then(undefined, () => undefined);
    }
    this.schedule();
  }

  private notify(r: WithdrawalItem): void {
    const m = settledMessage(r);
    this.notices.push({ id: r.id!, status: r.status, level: m.level, text: m.text });
    if (this.notices.length > 20) this.notices.shift();
    this.services.log.info(`withdrawal ${r.id} ${r.status}`);
    const show = 'Show Funding History';
    const shown = m.level === 'info' ? vscode.window.showInformationMessage(`SpotDesk: ${m.text}`, show) : vscode.window.showWarningMessage(`SpotDesk: ${m.text}`, show);
    void shown.then((choice) => {
      if (choice !== show) return;
      void vscode.commands.executeCommand(`${FUNDING_HISTORY_VIEW}.focus`).then(() => vscode.commands.executeCommand(COMMANDS.fundingHistoryRefresh));
    });
  }

  dispose(): void {
    this.stop();
    this.subscription.dispose();
    this.watched.clear();
  }
}
