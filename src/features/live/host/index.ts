/**
 * SpotDesk live, the extension side: the live feed of the active profile
 * (./feed.ts, loaded on first need by ./runtime.ts), the live account and the fill notifications.
 *
 * - **Accounts and Active Orders** follow the private stream (`/account/balance`,
 *   `/spotMarket/tradeOrdersV2`, and for stop and OCO orders `/spotMarket/advancedOrders`). The private connection starts after the first successful load of
 *   either view (activation does no network I/O) or when a market panel opens, on a profile that can
 *   sign. On each (re)connection both views reload once from REST (`resync`) so nothing is missed;
 *   while the stream is up they do not poll (`PollingTree.setLive`); when it is down they poll again.
 * - **Fill notifications**: an order that fills or partly fills shows one notification per order
 *   (fills within 250 ms are grouped: ./accountUpdates.ts `FillAggregator`) with symbol, side, size,
 *   average price and the fee as the exchange charged it (GET /api/v1/hf/fills of that order), and
 *   "Show Fills". The setting `spotdesk.notifications.fills` turns them off.
 * - For the market panels: the account figures of the order ticket (available balances of the
 *   trade account, the user's fee rates on the symbol, the user's resting orders) and a change event.
 */
import * as vscode from 'vscode';
import type { WsBalance, WsOrderChange } from '../../../api/streamSchemas';
import type { AccountInfo, OwnOrder } from '../../market/protocol';
import * as D from '../../../api/decimal';
import { failureText } from '../../../api/failure';
import type { Services } from '../../../host/services';
import type { AccountsTree } from '../../accounts/host/accounts';
import type { OrdersTree } from '../../orders/host/orders';
import { COMMANDS } from '../../../host/commandIds';
import { FillAggregator, type FillSummary } from '../accountUpdates';
import type { LiveFeed } from '../feed';
import { symbolFeeRates } from '../../../api/orderEstimate';
import { ownStopOrders } from '../../market/model/ownOrders';

/** Setting that turns fill notifications on (default) or off. */
export const FILL_NOTIFICATIONS_SETTING = 'notifications.fills';

/** A fill notification as made (host tests read them). */
export interface ShownNotification {
  readonly text: string;
  readonly summary: FillSummary;
  readonly fee: string | null;
  /** False when the setting `spotdesk.notifications.fills` is off (logged, not shown). */
  readonly shown: boolean;
}

/** Fee rates of one symbol for the ticket (decimal strings). */
interface FeeRates {
  maker: string;
  taker: string;
}

/** How long fee rates are reused, ms. */
const FEE_TTL_MS = 10 * 60_000;

/** The live part of SpotDesk (see the module docstring). One per activation. */
export class Live implements vscode.Disposable {
  private feedP: Promise<LiveFeed> | undefined;
  private feedValue: LiveFeed | undefined;
  private privateEpoch = -1;
  private privateSubs: Array<{ dispose(): void }> = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly accountChanged = new vscode.EventEmitter<void>();
  private readonly statusChanged = new vscode.EventEmitter<void>();
  private readonly filled = new vscode.EventEmitter<string>();
  /** Fires with the symbol of each fill summary (the holdings' P&L reads that pair's fills again). */
  readonly onFill = this.filled.event;
  private readonly fills: FillAggregator;
  private fees = new Map<string, { at: number; rates: FeeRates | null }>();
  private resyncTimer: NodeJS.Timeout | undefined;
  /** Set when the private channel's topics are subscribed and the views reloaded; cleared when it is not live. */
  private synced = false;
  /** Fires when balances or the user's orders change (stream message or REST load). */
  readonly onDidChangeAccount = this.accountChanged.event;
  /** Fires when a stream's state changes. */
  readonly onDidChangeStatus = this.statusChanged.event;
  /** Fill notifications made, newest last (at most 50; host tests read them). */
  readonly notifications: ShownNotification[] = [];
  /**
   * Shows a notification with action buttons and resolves with the chosen one
   * (`vscode.window.showInformationMessage`). Reachable only through the test door, outside Production.
   */
  notify: (text: string, ...actions: string[]) => Thenable<string | undefined> = (text, ...actions) => vscode.window.showInformationMessage(text, ...actions);

  constructor(
    private readonly services: Services,
    private readonly trees: { accounts: AccountsTree; orders: OrdersTree },
  ) {
    this.fills = new FillAggregator((s) => void this.notifyFill(s));
    this.disposables.push(
      this.accountChanged,
      this.statusChanged,
      this.filled,
      services.onDidChangeProfile(() => this.profileChanged()),
      trees.accounts.onDidLoad((st) => {
        this.accountChanged.fire();
        if (st.error === undefined && st.data !== undefined) void this.ensurePrivate();
      }),
      trees.orders.onDidLoad((st) => {
        this.accountChanged.fire();
        if (st.error === undefined && st.data !== undefined) void this.ensurePrivate();
      }),
    );
  }

  /** The live feed of the active profile (loads the stream client on first call). */
  feed(): Promise<LiveFeed> {
    this.feedP ??= import('../runtime').then(({ createLiveFeed }) => {
      const f = createLiveFeed({
        publicToken: async () => (await this.services.publicClient()).getBulletPublic(),
        privateToken: async () => (await this.services.client()).getBulletPrivate(),
        log: (level, line) => this.services.log[level](line),
      });
      f.onStatus(() => {
        this.applyPrivateStatus();
        this.statusChanged.fire();
      });
      this.feedValue = f;
      return f;
    });
    return this.feedP;
  }

  /** The feed if it was loaded (no I/O). */
  get current(): LiveFeed | undefined {
    return this.feedValue;
  }

  /**
   * Start the private stream of the active profile if it can sign and it is not started yet:
   * subscribes `/spotMarket/tradeOrdersV2`, `/account/balance` and `/spotMarket/advancedOrders`.
   */
  async ensurePrivate(): Promise<void> {
    if (!(await this.services.credentialsPresent())) return;
    const feed = await this.feed();
    if (this.privateEpoch === feed.epoch) return;
    this.privateEpoch = feed.epoch;
    const ch = feed.private;
    this.privateSubs.push(
      ch.subscribe('/spotMarket/tradeOrdersV2', (m) => {
        if (m.subject === 'orderChange') this.onOrderChange(m.data);
      }),
      ch.subscribe('/account/balance', (m) => {
        if (m.subject === 'account.balance') this.onBalance(m.data);
      }),
      // stop and OCO orders (Active Orders' own groups): opened, triggered, cancelled
      ch.subscribe('/spotMarket/advancedOrders', (m) => {
        if (m.subject === 'stopOrder') this.trees.orders.applyStopChange(m.data);
      }),
      ch.onSynced(() => {
        // (Re)connected: reload both views once, whatever happened while the stream was down.
        this.synced = true;
        void Promise.all([this.trees.accounts.resync(), this.trees.orders.resync()]).finally(() => this.statusChanged.fire());
      }),
    );
  }

  /** Whether the private stream is up (the views are not polling). */
  get privateLive(): boolean {
    return this.feedValue?.status.private.state === 'live';
  }

  /**
   * Whether the private stream is up, its topics are subscribed and the views were reloaded from REST
   * since it (re)connected: from then on every change reaches the views through the stream.
   */
  get privateSynced(): boolean {
    return this.privateLive && this.synced;
  }

  /**
   * The ticket's account figures for `symbol` (base/quote currencies): trade-account available
   * balances, fee rates (cached), resting orders. Loads the Accounts view's data once if it has none.
   */
  async accountInfo(symbol: string, base: string, quote: string): Promise<AccountInfo> {
    if (!(await this.services.credentialsPresent())) {
      return { canTrade: false, reason: 'The profile has no API credentials: set them to trade from the ticket.', availableBase: null, availableQuote: null, makerFeeRate: null, takerFeeRate: null, orders: [] };
    }
    void this.ensurePrivate();
    const acc = this.trees.accounts;
    if (acc.state.data === undefined && acc.state.error === undefined) await acc.refresh();
    const accounts = acc.state.data?.accounts;
    const avail = (c: string): string | null => {
      if (!accounts) return null;
      const a = accounts.find((x) => x.currency === c && x.type === 'trade');
      return a ? a.available : '0';
    };
    const [rates, stops] = await Promise.all([this.feeRates(symbol), this.stopOrders(symbol)]);
    const orders: OwnOrder[] = this.trees.orders
      .ordersOf(symbol)
      .filter((o) => o.type === 'limit' && !D.isZero(o.remainSize))
      .slice(0, 500)
      .map((o): OwnOrder => ({ id: o.id, side: o.side, price: o.price, remain: o.remainSize }))
      .concat(stops)
      .slice(0, 500);
    return {
      canTrade: accounts !== undefined,
      reason: accounts === undefined ? `The trade account could not be read: ${acc.state.error ?? 'not loaded'}` : null,
      availableBase: avail(base),
      availableQuote: avail(quote),
      makerFeeRate: rates?.maker ?? null,
      takerFeeRate: rates?.taker ?? null,
      orders,
    };
  }

  /**
   * The user's waiting stop orders on `symbol` (GET /api/v1/stop-order, first 50), for the market
   * panel's chart lines at their triggers; none when they cannot be read (logged).
   */
  private async stopOrders(symbol: string): Promise<OwnOrder[]> {
    try {
      const client = await this.services.client();
      return ownStopOrders((await client.getStopOrders({ symbol, pageSize: 50 })).items);
    } catch (err) {
      this.services.log.debug(`stop orders of ${symbol} unavailable: ${failureText(err)}`);
      return [];
    }
  }

  /**
   * The user's fee rates on `symbol`: the base fee rates (GET /api/v1/base-fee) × the symbol's
   * fee coefficients (GET /api/v2/symbols `makerFeeCoefficient`/`takerFeeCoefficient`), KuCoin's
   * rule; cached 10 minutes per profile. Null when unavailable.
   */
  async feeRates(symbol: string): Promise<FeeRates | null> {
    const key = `${this.services.profile().id} ${symbol}`;
    const c = this.fees.get(key);
    if (c && Date.now() - c.at < FEE_TTL_MS) return c.rates;
    let rates: FeeRates | null = null;
    try {
      const [client, symbols] = await Promise.all([this.services.client(), this.services.symbols()]);
      const base = await client.getBaseFee();
      const s = symbols.find((x) => x.symbol === symbol);
      const r = symbolFeeRates(base, s);
      rates = { maker: r.makerFeeRate, taker: r.takerFeeRate };
    } catch (err) {
      this.services.log.debug(`fee rates of ${symbol} unavailable: ${failureText(err)}`);
    }
    this.fees.set(key, { at: Date.now(), rates });
    return rates;
  }

  private applyPrivateStatus(): void {
    const live = this.privateLive;
    if (!live) this.synced = false;
    this.trees.accounts.setLive(live);
    this.trees.orders.setLive(live);
  }

  private onOrderChange(c: WsOrderChange): void {
    this.trees.orders.applyOrderChange(c);
    this.fills.add(c);
    this.accountChanged.fire();
  }

  private onBalance(b: WsBalance): void {
    const r = this.trees.accounts.applyBalanceChange(b);
    if (r === 'unknown' && this.resyncTimer === undefined) {
      // A new account (first deposit or trade in a currency): one REST load for all such messages.
      this.resyncTimer = setTimeout(() => {
        this.resyncTimer = undefined;
        void this.trees.accounts.resync();
      }, 200);
    }
    if (r !== 'unchanged') this.accountChanged.fire();
  }

  private async notifyFill(s: FillSummary): Promise<void> {
    this.filled.fire(s.symbol);
    // The fee as the exchange charged it: the fills of this order (GET /api/v1/hf/fills).
    let fee: string | null = null;
    try {
      const page = await (await this.services.client()).getFills({ symbol: s.symbol, orderId: s.orderId });
      const mine = page.items.filter((f) => s.tradeIds.includes(f.tradeId));
      if (mine.length) {
        const byCurrency = new Map<string, string>();
        for (const f of mine) byCurrency.set(f.feeCurrency, D.add(byCurrency.get(f.feeCurrency) ?? '0', f.fee));
        fee = [...byCurrency].map(([cur, amt]) => `${amt} ${cur}`).join(' + ');
      }
    } catch (err) {
      this.services.log.debug(`fills of order ${s.orderId} unavailable: ${failureText(err)}`);
    }
    const [base] = s.symbol.split('-');
    const what = s.complete ? 'filled' : 'partly filled';
    const of = !s.complete && s.filledSize && s.orderSize ? ` (${s.filledSize} of ${s.orderSize} ${base})` : '';
    const text = `SpotDesk: ${s.side.toUpperCase()} ${s.symbol} ${what}: ${s.size} ${base} at ${s.fills > 1 ? 'avg ' : ''}${s.price}${of} · fee ${fee ?? 'see Show Fills'}${s.liquidity ? ` (${s.liquidity})` : ''}`;
    const shown = vscode.workspace.getConfiguration('spotdesk').get<boolean>(FILL_NOTIFICATIONS_SETTING, true);
    this.notifications.push({ text, summary: s, fee, shown });
    if (this.notifications.length > 50) this.notifications.splice(0, this.notifications.length - 50);
    this.services.log.info(text.replace(/^SpotDesk: /, 'fill: '));
    if (!shown) return;
    const choice = await this.notify(text, 'Show Fills');
    if (choice === 'Show Fills') await vscode.commands.executeCommand(COMMANDS.showFills, { kind: 'order', symbol: s.symbol, order: { id: s.orderId } });
  }

  private profileChanged(): void {
    for (const s of this.privateSubs.splice(0)) s.dispose();
    this.fills.clear();
    this.fees.clear();
    this.privateEpoch = -1;
    this.trees.accounts.setLive(false);
    this.trees.orders.setLive(false);
    this.feedValue?.reset();
    this.statusChanged.fire();
  }

  dispose(): void {
    for (const s of this.privateSubs.splice(0)) s.dispose();
    this.fills.clear();
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.feedValue?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
