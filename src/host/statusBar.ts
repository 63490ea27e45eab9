/**
 * Status bar item: active profile name + service status (GET /api/v1/status: open, close,
 * cancelonly; public, fetched through `Connection.publicClient()` so a profile without API
 * credentials shows it too) with the rate-limit budget left per weight pool in the tooltip. It never starts a
 * network request by itself at activation: the status is fetched after a view loaded (the client
 * exists then) and every minute while a client exists.
 *
 * On the Paper and Replay profiles (a borrowed market, src/api/borrowedMarket.ts) it says `paper · live`,
 * `paper · unreachable`, `replay ×10 · 14:03:07`, `replay ×10 · finished`…: the status is read every
 * {@link BORROWED_POLL_MS} (the sandbox sets `cancelonly` with the upstream's state in `msg`), and a replay's
 * position is pushed by its process (connection.ts `onDidChangeReplay`). The market panels show the same words
 * ({@link StatusBar.onDidChangeSource}).
 */
import * as vscode from 'vscode';
import type { Connection } from './connection';
import { describeError } from './pollingTree';
import { hhmmss } from '../api/displayFormat';
import { COMMANDS } from './commandIds';
import { sourceWords, type SourceWords } from '../api/borrowedMarket';

/** How often the status of a borrowed market (Paper, Replay) is read, ms: its upstream can drop at any time. */
export const BORROWED_POLL_MS = 5_000;

/** Budget of one weight pool as reported by the client (`remaining`/`limit` in weight units). */
export interface PoolBudget {
  pool: string;
  remaining?: number;
  limit?: number;
  resetMs?: number;
}

/** Shows profile + service status; click → Select Profile. */
export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  /** Last service status seen (`open`, `close`, `cancelonly`), or undefined. */
  status: string | undefined;
  private statusMsg = '';
  private needsCredentials = false;
  private error: string | undefined;
  private checkedAt: Date | undefined;
  private inFlight = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly fastTimer: NodeJS.Timeout;
  private readonly sourceChanged = new vscode.EventEmitter<void>();
  /** Fires when the borrowed market's words ({@link source}) change. */
  readonly onDidChangeSource = this.sourceChanged.event;
  private lastSource = '';
  private readonly replaySub: vscode.Disposable;

  constructor(private readonly connection: Connection) {
    this.item = vscode.window.createStatusBarItem('spotdesk.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'SpotDesk';
    this.item.command = COMMANDS.selectProfile;
    this.render();
    this.item.show();
    this.timer = setInterval(() => {
      if (this.connection.currentClient()) void this.update();
    }, 60_000);
    this.timer.unref?.();
    this.fastTimer = setInterval(() => {
      if (this.connection.mode() && this.connection.currentClient()) void this.update();
    }, BORROWED_POLL_MS);
    this.fastTimer.unref?.();
    this.replaySub = connection.onDidChangeReplay(() => this.render());
  }

  /** The borrowed market's words on the Paper and Replay profiles (undefined elsewhere). */
  source(): SourceWords | undefined {
    const mode = this.connection.mode();
    if (!mode) return undefined;
    return sourceWords(mode, this.status ? { status: this.status, msg: this.statusMsg } : undefined, this.connection.replayPosition());
  }

  /** Profile changed: forget the old status. */
  reset(): void {
    this.status = undefined;
    this.error = undefined;
    this.checkedAt = undefined;
    this.needsCredentials = false;
    this.render();
    void this.connection.credentialsPresent().then((ok) => {
      this.needsCredentials = !ok;
      this.render();
    });
  }

  /** Fetch the service status now (no-op while a fetch is in flight). */
  async update(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      this.needsCredentials = !(await this.connection.credentialsPresent());
      const client = await this.connection.publicClient();
      const s = await client.getStatus();
      this.status = s.status;
      this.statusMsg = s.msg;
      this.error = undefined;
    } catch (err) {
      this.error = describeError(err);
    } finally {
      this.checkedAt = new Date();
      this.inFlight = false;
      this.render();
    }
  }

  /** Fetch the status unless it was fetched within the last `maxAgeMs`. */
  updateIfStale(maxAgeMs = 30_000): void {
    if (!this.checkedAt || Date.now() - this.checkedAt.getTime() > maxAgeMs) void this.update();
  }

  /** Re-render text and tooltip (also refreshes the budget figures). */
  render(): void {
    const profile = this.connection.profile();
    const icon = this.needsCredentials
      ? '$(key)'
      : this.error
        ? '$(warning)'
        : this.status === 'open'
          ? '$(pulse)'
          : this.status
            ? '$(debug-pause)'
            : '$(plug)';
    const service = this.error ? 'error' : this.status;
    // Without credentials the public service status is still shown, after the credentials hint.
    const state = this.needsCredentials ? ['no credentials', service].filter(Boolean).join(' · ') : service;
    const source = this.source();
    if (source) {
      // a borrowed market: "paper · live", "replay ×10 · 14:03:07" (the profile's name is in the tooltip)
      const sourceIcon = this.error ? '$(warning)' : source.state === 'live' ? '$(pulse)' : source.state === 'finished' ? '$(debug-stop)' : source.state === 'resyncing' ? '$(sync)' : source.state === 'unknown' ? '$(plug)' : '$(debug-disconnect)';
      this.item.text = `${sourceIcon} ${source.short}${this.error ? ' · error' : ''}`;
    } else {
      this.item.text = `${icon} ${profile.name}${state ? ` · ${state}` : ''}`;
    }
    this.item.backgroundColor =
      this.needsCredentials || this.error || (this.status && this.status !== 'open')
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**SpotDesk** — profile **${escapeMd(profile.name)}**${profile.baseUrl ? ` (${escapeMd(profile.baseUrl)})` : ''}\n\n`);
    if (source) md.appendMarkdown(`**${escapeMd(source.short)}** — ${escapeMd(source.detail)}\n\n`);
    const key = source ? `${source.short}\n${source.detail}` : '';
    if (key !== this.lastSource) {
      this.lastSource = key;
      this.sourceChanged.fire();
    }
    if (this.needsCredentials) md.appendMarkdown('$(key) No API credentials for this profile: run **SpotDesk: Set API Credentials**.\n\n');
    if (this.error) md.appendMarkdown(`$(warning) ${escapeMd(this.error)}\n\n`);
    else if (this.status) md.appendMarkdown(`Service status: **${this.status}**${this.statusMsg ? ` — ${escapeMd(this.statusMsg)}` : ''}\n\n`);
    else md.appendMarkdown('Service status: not checked yet (open a SpotDesk view).\n\n');
    const budgets = this.budgets();
    if (budgets.length) {
      md.appendMarkdown('Rate-limit budget left:\n\n| pool | left | of |\n|---|---:|---:|\n');
      for (const b of budgets) md.appendMarkdown(`| ${b.pool} | ${b.remaining ?? '?'} | ${b.limit ?? '?'} |\n`);
      md.appendMarkdown('\n');
    }
    if (this.checkedAt) md.appendMarkdown(`Checked ${hhmmss(this.checkedAt)}. Click to select a profile.`);
    else md.appendMarkdown('Click to select a profile.');
    this.item.tooltip = md;
  }

  /** Budget per pool from the current client (no I/O); tolerant of the client's exact shape. */
  budgets(): PoolBudget[] {
    const client = this.connection.currentClient() as unknown as { budget?: (pool?: string) => unknown } | undefined;
    if (!client || typeof client.budget !== 'function') return [];
    return normalizeBudgets(safeCall(() => client.budget!()));
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    clearInterval(this.fastTimer);
    this.replaySub.dispose();
    this.sourceChanged.dispose();
    this.item.dispose();
  }
}

function safeCall(f: () => unknown): unknown {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/**
 * Accepts `[{pool, remaining, limit}]`, `{pool: {remaining, limit}}` or `{pool: number}` and
 * returns `[{pool, remaining, limit}]` sorted by pool name.
 */
export function normalizeBudgets(raw: unknown): PoolBudget[] {
  const out: PoolBudget[] = [];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const fromObj = (pool: string, v: unknown) => {
    if (typeof v === 'number') return out.push({ pool, remaining: v });
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      out.push({
        pool: typeof o.pool === 'string' ? o.pool : pool,
        remaining: num(o.remaining) ?? num(o.left) ?? num(o.available),
        limit: num(o.limit) ?? num(o.quota) ?? num(o.capacity),
        resetMs: num(o.resetMs) ?? num(o.resetInMs),
      });
    }
  };
  if (Array.isArray(raw)) raw.forEach((v, i) => fromObj(String(i), v));
  else if (raw instanceof Map) raw.forEach((v, k) => fromObj(String(k), v));
  else if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) fromObj(k, v);
  return out.sort((a, b) => a.pool.localeCompare(b.pool));
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
