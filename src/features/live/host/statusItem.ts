/**
 * The live status bar item: the state of SpotDesk's streams — `live`, `reconnecting`
 * (with the jittered backoff's next attempt) or `polling` (the reason in the tooltip) — and the total
 * portfolio value in `spotdesk.fiatCurrency` (main + trade balances × the Accounts view's prices —
 * src/api/valuation.ts, the same the Portfolio row uses — exact decimals rounded to cents). Click: the SpotDesk log.
 */
import * as vscode from 'vscode';
import type { Account, FiatPrices } from '../../../api/schemas';
import * as D from '../../../api/decimal';
import type { FeedStatus, LiveStatus } from '../feed';
import { COMMANDS } from '../../../host/commandIds';
import { fiatValue, hhmmss } from '../../../api/displayFormat';

/**
 * Total value of `accounts` in the fiat of `prices`, computed as the Accounts view's Portfolio row does
 * (src/features/accounts/host/accounts.ts): per currency, its balances summed and valued at its price
 * truncated to cents (`fiatValue`), then the currencies' values summed — so the status bar and the
 * Portfolio row never differ by a cent. `missing` lists currencies with a balance but no price (left
 * out of the total).
 */
export function portfolioValue(accounts: readonly Account[], prices: FiatPrices | undefined): { total: string; missing: string[] } {
  const byCurrency = new Map<string, string>();
  for (const a of accounts) byCurrency.set(a.currency, D.add(byCurrency.get(a.currency) ?? '0', a.balance));
  let total = '0';
  const missing: string[] = [];
  for (const [currency, balance] of byCurrency) {
    if (D.isZero(balance)) continue;
    const v = fiatValue(balance, prices?.[currency]);
    if (v === undefined) missing.push(currency);
    else total = D.add(total, v);
  }
  return { total: D.roundDown(total, '0.01'), missing };
}

/** Group the integer digits of a plain decimal with thin separators for display ("12345.6" → "12,345.60"). */
export function money(v: string): string {
  const neg = v.startsWith('-');
  const [int, frac = ''] = (neg ? v.slice(1) : v).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '−' : ''}${grouped}.${frac.padEnd(2, '0').slice(0, 2)}`;
}

/** What the item shows: the streams' state and the account data. */
export interface LiveItemInput {
  readonly status: LiveStatus;
  readonly accounts?: readonly Account[];
  readonly prices?: FiatPrices;
  readonly fiat: string;
  readonly pricesAt?: Date;
  readonly now: number;
}

function describe(name: string, s: FeedStatus, now: number): string {
  switch (s.state) {
    case 'idle':
      return `${name}: not connected (nothing needs it)`;
    case 'connecting':
      return `${name}: connecting…`;
    case 'live':
      return `${name}: **live**`;
    case 'reconnecting':
    case 'polling': {
      const next = s.nextAttemptAt !== null ? ` — next attempt in ${Math.max(0, Math.round((s.nextAttemptAt - now) / 1000))} s (attempt ${s.attempt}, jittered backoff)` : '';
      const mode = s.state === 'polling' ? 'down, **polling** REST instead' : '**reconnecting**';
      return `${name}: ${mode}${s.reason ? ` — ${s.reason}` : ''}${next}`;
    }
  }
}

/** The text, tooltip (markdown) and warning flag for {@link LiveItemInput}. */
export function liveItemView(input: LiveItemInput): { text: string; tooltip: string; warning: boolean } {
  const { status, now } = input;
  const states = [status.private.state, status.public.state];
  const active = states.filter((s) => s !== 'idle');
  let icon = '$(circle-outline)';
  let word = 'offline';
  let warning = false;
  if (active.includes('polling')) {
    icon = '$(warning)';
    word = 'polling';
    warning = true;
  } else if (active.includes('reconnecting') || active.includes('connecting')) {
    icon = '$(sync~spin)';
    const s = status.private.state === 'reconnecting' ? status.private : status.public;
    const secs = s.nextAttemptAt !== null ? Math.max(0, Math.round((s.nextAttemptAt - now) / 1000)) : null;
    word = active.includes('reconnecting') ? `reconnecting${secs !== null ? ` in ${secs} s` : ''}` : 'connecting';
  } else if (active.length > 0) {
    icon = '$(radio-tower)';
    word = 'live';
  }
  let value = '';
  let valueLine = '';
  if (input.accounts) {
    const v = portfolioValue(input.accounts, input.prices);
    value = ` · ${money(v.total)} ${input.fiat}`;
    valueLine = `Portfolio: **${money(v.total)} ${input.fiat}** (main + trade accounts at the Accounts view's prices: each USDT pair's last trade × USDT's price of GET /api/v1/prices${input.pricesAt ? ` (${hhmmss(input.pricesAt)})` : ''})${v.missing.length ? `; without a ${input.fiat} price: ${v.missing.join(', ')}` : ''}`;
  }
  const lines = [
    `**SpotDesk live** — ${word}`,
    '',
    `- ${describe('Account stream (orders, balances)', status.private, now)}`,
    `- ${describe('Market stream (books, trades, tickers)', status.public, now)}`,
    '',
    ...(valueLine ? [valueLine, ''] : []),
    'Reconnects back off with jitter (250 ms doubling to 15 s); while a stream is down, the views it feeds poll REST instead. Click for the SpotDesk log.',
  ];
  return { text: `${icon} ${word}${value}`, tooltip: lines.join('\n'), warning };
}

/** The status bar item (see the module docstring). */
export class LiveStatusItem implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly input: () => LiveItemInput) {
    this.item = vscode.window.createStatusBarItem('spotdesk.live', vscode.StatusBarAlignment.Left, 49);
    this.item.name = 'SpotDesk Live';
    this.item.command = COMMANDS.showLog;
    this.update();
  }

  /** Re-render (and tick every second while a reconnect countdown is shown). */
  update(): void {
    const i = this.input();
    const anyActive = i.status.private.state !== 'idle' || i.status.public.state !== 'idle';
    if (!anyActive && !i.accounts) {
      this.item.hide();
      return;
    }
    const v = liveItemView(i);
    this.item.text = v.text;
    const md = new vscode.MarkdownString(v.tooltip, true);
    this.item.tooltip = md;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    const counting = [i.status.private, i.status.public].some((s) => s.nextAttemptAt !== null && s.nextAttemptAt > i.now);
    if (counting && !this.timer) {
      this.timer = setInterval(() => this.update(), 1000);
      this.timer.unref?.();
    } else if (!counting && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** The text shown (tests). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.item.dispose();
  }
}
