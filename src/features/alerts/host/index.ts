/**
 * Price alerts: "SpotDesk: Add Price Alert…" (symbol, above/below, a price on the
 * symbol's tick), the **Alerts** view (edit, delete), and the watcher that fires each alert once
 * from the ticker stream with a notification. The rules (when an alert fires, the price check,
 * reading stored alerts) are in src/features/alerts/model/alerts.ts.
 *
 * Storage: the extension's global state (`spotdesk.priceAlerts`), so alerts survive reloads and
 * restarts; each alert belongs to the profile it was created on (prices differ per exchange) and
 * is watched only while that profile is active.
 *
 * Watching: the armed alerts' symbols are subscribed on the public stream (`/market/ticker:{symbol}`,
 * which sends the current ticker at once and then every change, at most every 100 ms); each
 * message's last price is checked. An alert crossed while VS Code was closed therefore fires on the
 * next start, from the first (current) price — SpotDesk activates `onStartupFinished` for that, doing
 * nothing when there is no armed alert. While the stream is down (the channel falls back to
 * `polling`), GET /api/v1/market/allTickers is read every 15 s instead.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../../../host/guardedCommand';
import { randomBytes } from 'crypto';
import * as D from '../../../api/decimal';
import { checkAlerts, describeAlert, isArmed, parseAlerts, validateAlertPrice, type PriceAlert } from '../model/alerts';
import { failureText } from '../../../api/failure';
import type { Services } from '../../../host/services';
import type { StreamChannel } from '../../live/feed';
import { COMMANDS } from '../../../host/commandIds';
import { alertArg, alertSymbolArg } from '../../../host/commandArgs';
import { hhmmss } from '../../../api/displayFormat';

/** Global-state key of the alerts. */
export const ALERTS_KEY = 'spotdesk.priceAlerts';
/** View id of the Alerts tree. */
export const ALERTS_VIEW = 'spotdesk.alerts';
/** Interval of the allTickers fallback while the stream is down, ms. */
export const ALERT_POLL_MS = 15_000;

/** A tree row of the Alerts view: an alert (`kind: 'alert'`), or the empty hint. */
export type AlertRow = { kind: 'alert'; alert: PriceAlert } | { kind: 'empty' };

/** A fired alert as notified (host tests read them). */
export interface FiredAlert {
  readonly alert: PriceAlert;
  readonly text: string;
}

/** The alerts feature (see the module docstring). */
export class PriceAlerts implements vscode.TreeDataProvider<AlertRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AlertRow | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private subs = new Map<string, { dispose(): void }>();
  private channel: StreamChannel | undefined;
  private channelSub: { dispose(): void } | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  /** Last price seen per symbol (for the view's description). */
  private readonly lastPrice = new Map<string, string>();
  /** Alerts fired in this session, newest last (at most 50). */
  readonly fired: FiredAlert[] = [];
  /** Prices checked (ticker messages and polled tickers). */
  checks = 0;
  /**
   * Shows a notification with action buttons and resolves with the chosen one
   * (`vscode.window.showInformationMessage`). Reachable only through the test door, outside Production.
   */
  notify: (text: string, ...actions: string[]) => Thenable<string | undefined> = (text, ...actions) => vscode.window.showInformationMessage(text, ...actions);
  view: vscode.TreeView<AlertRow> | undefined;

  constructor(private readonly services: Services) {
    this.disposables.push(
      this.changed,
      services.onDidChangeProfile(() => {
        this.unwatchAll();
        this.changed.fire();
        void this.watch();
      }),
    );
  }

  /** Create the Alerts view. */
  attach(): vscode.TreeView<AlertRow> {
    this.view = vscode.window.createTreeView(ALERTS_VIEW, { treeDataProvider: this });
    this.disposables.push(this.view);
    this.updateDescription();
    return this.view;
  }

  /** Every stored alert (all profiles). */
  all(): PriceAlert[] {
    return parseAlerts(this.services.context.globalState.get<unknown>(ALERTS_KEY));
  }

  /** The active profile's alerts, armed first, then by symbol. */
  list(): PriceAlert[] {
    const id = this.services.profile().id;
    return this.all()
      .filter((a) => a.profileId === id)
      .sort((a, b) => Number(!isArmed(a)) - Number(!isArmed(b)) || a.symbol.localeCompare(b.symbol) || D.cmp(a.price, b.price));
  }

  private async save(alerts: PriceAlert[]): Promise<void> {
    await this.services.context.globalState.update(ALERTS_KEY, alerts);
    this.changed.fire();
    this.updateDescription();
  }

  private updateDescription(): void {
    if (!this.view) return;
    const mine = this.list();
    const armed = mine.filter(isArmed).length;
    this.view.description = mine.length ? `${armed} armed${this.channel?.live ? ' · live' : ''}` : '';
  }

  /**
   * Start watching the active profile's armed alerts (idempotent; subscribes what is missing,
   * unsubscribes symbols without armed alerts). Loads the stream only when there is one.
   */
  async watch(): Promise<void> {
    const symbols = new Set(this.list().filter(isArmed).map((a) => a.symbol));
    for (const [s, sub] of this.subs) {
      if (!symbols.has(s)) {
        sub.dispose();
        this.subs.delete(s);
      }
    }
    if (symbols.size === 0) {
      this.stopPolling();
      return;
    }
    let ch: StreamChannel;
    try {
      ch = (await this.services.live.feed()).public;
    } catch (err) {
      this.services.log.warn(`alerts: the stream could not load (${failureText(err)}); polling tickers`);
      this.startPolling();
      return;
    }
    if (ch !== this.channel) {
      this.unwatchAll();
      this.channel = ch;
      this.channelSub = ch.onStatus((st) => {
        if (st.state === 'polling') this.startPolling();
        else if (st.state === 'live') this.stopPolling();
        this.updateDescription();
      });
    }
    for (const s of symbols) {
      if (this.subs.has(s)) continue;
      this.subs.set(
        s,
        ch.subscribe(`/market/ticker:${s}`, (m) => {
          if (m.subject === 'trade.ticker' && m.data.price !== null) void this.check(s, m.data.price);
        }),
      );
    }
    if (ch.fallback) this.startPolling();
    this.updateDescription();
  }

  /** Check the armed alerts of `symbol` against its last price; fires (once) those it satisfies. */
  async check(symbol: string, last: string): Promise<PriceAlert[]> {
    this.checks++;
    const prev = this.lastPrice.get(symbol);
    this.lastPrice.set(symbol, last);
    const now = Date.now();
    const { next, fired: hit } = checkAlerts(this.all(), this.services.profile().id, symbol, last, now);
    if (hit.length === 0) {
      if (prev !== last) this.changed.fire();
      return hit;
    }
    await this.save([...next]);
    for (const a of hit) {
      const text = `SpotDesk alert: ${describeAlert(a)} — last price ${last} (${hhmmss(new Date(now))}).`;
      this.fired.push({ alert: a, text });
      if (this.fired.length > 50) this.fired.splice(0, this.fired.length - 50);
      this.services.log.info(text);
      void this.notify(text, 'Open Market').then((c) => {
        if (c === 'Open Market') void vscode.commands.executeCommand(COMMANDS.openMarket, symbol);
      });
    }
    await this.watch(); // symbols without armed alerts are unsubscribed
    return hit;
  }

  /** "SpotDesk: Add Price Alert…": symbol, direction, price (validated against the tick and the last price). */
  async add(arg?: unknown): Promise<PriceAlert | undefined> {
    const symbols = await this.services.symbols();
    let symbol = alertSymbolArg(arg).symbol;
    if (!symbol || !symbols.some((s) => s.symbol === symbol)) {
      const pick = await this.services.prompts.pick(
        symbols
          .filter((s) => s.enableTrading)
          .map((s) => ({ label: s.symbol, description: `${s.baseCurrency}/${s.quoteCurrency}`, detail: `tick ${s.priceIncrement}` }))
          .sort((a, b) => a.label.localeCompare(b.label)),
        { title: 'SpotDesk: Add Price Alert (1/3)', placeHolder: 'Symbol, e.g. BTC-USDT', matchOnDescription: true },
      );
      if (!pick) return undefined;
      symbol = pick.label;
    }
    return this.ask(symbol, undefined);
  }

  /** Edit an alert of the Alerts view (direction and price asked again; re-armed). */
  async edit(row?: unknown): Promise<PriceAlert | undefined> {
    const id = alertArg(row)?.alertId;
    const old = id ? this.all().find((a) => a.id === id) : undefined;
    if (!old) throw new Error('Run "Edit" on an alert of the Alerts view.');
    return this.ask(old.symbol, old);
  }

  /** Delete an alert of the Alerts view. */
  async delete(row?: unknown): Promise<boolean> {
    const id = alertArg(row)?.alertId;
    const all = this.all();
    if (!id || !all.some((a) => a.id === id)) throw new Error('Run "Delete" on an alert of the Alerts view.');
    await this.save(all.filter((a) => a.id !== id));
    await this.watch();
    return true;
  }

  private async ask(symbol: string, old: PriceAlert | undefined): Promise<PriceAlert | undefined> {
    const info = (await this.services.symbols()).find((s) => s.symbol === symbol);
    if (!info) throw new Error(`Unknown symbol ${symbol}.`);
    const last = await this.currentPrice(symbol);
    const step = old ? 'Edit Price Alert' : 'Add Price Alert';
    const dir = await this.services.prompts.pick(
      [
        { label: 'Above', description: `when the last price rises to or above your price${last ? ` (now ${last})` : ''}`, direction: 'above' as const },
        { label: 'Below', description: `when the last price falls to or below your price${last ? ` (now ${last})` : ''}`, direction: 'below' as const },
      ],
      { title: `SpotDesk: ${step} — ${symbol} (${old ? '1/2' : '2/3'})`, placeHolder: 'Alert when the price goes…' },
    );
    if (!dir) return undefined;
    const price = await this.services.prompts.input({
      title: `SpotDesk: ${step} — ${symbol} ${dir.direction} (${old ? '2/2' : '3/3'})`,
      prompt: `Price in ${info.quoteCurrency}, on the tick ${info.priceIncrement}${last ? `; last price ${last}` : ''}`,
      value: old?.price ?? '',
      validateInput: (v) => validateAlertPrice(v, info.priceIncrement, dir.direction, last),
    });
    if (price === undefined) return undefined;
    const err = validateAlertPrice(price, info.priceIncrement, dir.direction, last);
    if (err) throw new Error(err);
    const alert: PriceAlert = {
      id: old?.id ?? randomBytes(8).toString('hex'),
      profileId: this.services.profile().id,
      symbol,
      direction: dir.direction,
      price: D.normalize(price.trim()),
      createdAt: Date.now(),
    };
    const rest = this.all().filter((a) => a.id !== alert.id);
    await this.save([...rest, alert]);
    await this.watch();
    void vscode.window.setStatusBarMessage(`SpotDesk: alert set — ${describeAlert(alert)}`, 4000);
    return alert;
  }

  /** The last price of `symbol`: the one the stream last gave, else GET /api/v1/market/allTickers; null when unknown. */
  private async currentPrice(symbol: string): Promise<string | null> {
    const seen = this.lastPrice.get(symbol);
    if (seen) return seen;
    try {
      const t = (await (await this.services.publicClient()).getAllTickers()).ticker.find((x) => x.symbol === symbol);
      return t?.last ?? null;
    } catch {
      return null;
    }
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    const tick = async () => {
      const symbols = new Set(this.list().filter(isArmed).map((a) => a.symbol));
      if (!symbols.size) return this.stopPolling();
      try {
        const all = (await (await this.services.publicClient()).getAllTickers()).ticker;
        for (const t of all) if (symbols.has(t.symbol) && t.last) await this.check(t.symbol, t.last);
      } catch (err) {
        this.services.log.debug(`alerts: tickers unavailable: ${failureText(err)}`);
      }
    };
    this.pollTimer = setInterval(() => void tick(), ALERT_POLL_MS);
    void tick();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private unwatchAll(): void {
    for (const s of this.subs.values()) s.dispose();
    this.subs.clear();
    this.channelSub?.dispose();
    this.channelSub = undefined;
    this.channel = undefined;
    this.stopPolling();
  }

  getTreeItem(row: AlertRow): vscode.TreeItem {
    if (row.kind === 'empty') {
      const it = new vscode.TreeItem('No price alerts. Add one with "SpotDesk: Add Price Alert…".');
      it.iconPath = new vscode.ThemeIcon('info');
      return it;
    }
    const a = row.alert;
    const it = new vscode.TreeItem(describeAlert(a), vscode.TreeItemCollapsibleState.None);
    it.id = `alert:${a.id}`;
    const last = this.lastPrice.get(a.symbol);
    if (isArmed(a)) {
      it.description = last ? `armed · last ${last}` : 'armed';
      it.iconPath = new vscode.ThemeIcon(a.direction === 'above' ? 'arrow-up' : 'arrow-down', new vscode.ThemeColor(a.direction === 'above' ? 'spotdesk.buyForeground' : 'spotdesk.sellForeground'));
    } else {
      it.description = `fired ${hhmmss(new Date(a.firedAt ?? 0))} at ${a.firedPrice}`;
      it.iconPath = new vscode.ThemeIcon('bell-dot');
    }
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${a.symbol}** — alert when the last price is ${a.direction === 'above' ? 'at or above' : 'at or below'} **${a.price}**\n\n`);
    md.appendMarkdown(isArmed(a) ? `Armed since ${new Date(a.createdAt).toLocaleString()}${last ? `; last price ${last}` : ''}.` : `Fired ${new Date(a.firedAt ?? 0).toLocaleString()} at ${a.firedPrice}. Edit it to arm it again.`);
    it.tooltip = md;
    it.contextValue = isArmed(a) ? 'spotdesk.alert.armed' : 'spotdesk.alert.fired';
    it.command = { command: COMMANDS.openMarket, title: 'Open Market', arguments: [a.symbol] };
    return it;
  }

  getChildren(row?: AlertRow): AlertRow[] {
    if (row) return [];
    const list = this.list();
    return list.length ? list.map((alert) => ({ kind: 'alert' as const, alert })) : [{ kind: 'empty' }];
  }

  dispose(): void {
    this.unwatchAll();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Register the alerts view, commands and watcher; returns the feature (the test door exposes it). */
export function register(context: vscode.ExtensionContext, services: Services): PriceAlerts {
  const alerts = new PriceAlerts(services);
  const run = <T>(f: () => Promise<T>) => async () => {
    try {
      return await f();
    } catch (err) {
      void vscode.window.showErrorMessage(`SpotDesk: ${failureText(err)}`);
      return undefined;
    }
  };
  context.subscriptions.push(
    alerts,
    alerts.attach(),
    registerCommand(COMMANDS.addPriceAlert, (arg?: unknown) => run(() => alerts.add(arg))()),
    registerCommand(COMMANDS.editPriceAlert, (row?: unknown) => run(() => alerts.edit(row))()),
    registerCommand(COMMANDS.deletePriceAlert, (row?: unknown) => run(() => alerts.delete(row))()),
  );
  // Only when there are armed alerts does this load the stream (and, on the sandbox profile, start it).
  if (alerts.list().some(isArmed)) void alerts.watch();
  return alerts;
}
