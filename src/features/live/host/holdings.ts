/**
 * Unrealized P&L per holding for the Accounts view: for each currency held, its average
 * cost from the user's fills and the unrealized P&L at the current price — the ONE method of
 * src/api/pnl.ts (weighted average cost, fees as KuCoin reports them; the Fills view's realized
 * P&L uses the same walk).
 *
 * Which pairs: the currency as base and a pair the user trades — the watchlist, the symbols traded
 * from SpotDesk (and filled: fill notifications note their symbol) and those with active orders
 * (src/features/history/host/historySymbols.ts) — with fills (GET /api/v1/hf/fills, up to 1000 per pair,
 * reused until a new fill of that pair arrives). A currency traded against several quotes gets one
 * figure per quote (the largest position first). The current price is the pair's last trade: GET
 * /api/v1/market/allTickers once, then the ticker stream (`/market/ticker:{symbol}`), re-rendered at
 * most every 2 s. The P&L covers only what the fills explain: coins deposited, or bought before the
 * exchange's fill history, have no cost here — the tooltip says how much of the balance that is.
 *
 * The same last prices are the ONE live price source the Accounts view values holdings at
 * (src/api/valuation.ts): every held currency's `C-USDT` pair is followed too, so the row's value,
 * its tooltip, the Portfolio total, the status bar and the P&L all use the same last trade.
 */
import * as vscode from 'vscode';
import * as D from '../../../api/decimal';
import type { HfFill, SymbolInfo } from '../../../api/schemas';
import { unrealizedPnl, type HoldingPnl } from '../../../api/pnl';
import { valuationPair } from '../../../api/valuation';
import { failureText } from '../../../api/failure';
import type { Services } from '../../../host/services';
import type { AccountsTree } from '../../accounts/host/accounts';
import { historySymbols } from '../../history/host/historySymbols';
import { allFills, quoteDigits } from '../../history/host/fills';

/** Pairs whose fills are read per recompute, at most. */
const MAX_PAIRS = 10;
/** Held currencies whose `C-USDT` last price is followed for their value, at most. */
const MAX_VALUED = 30;
/** Shortest interval between two re-renders caused by price ticks, ms. */
const TICK_RENDER_MS = 2000;

/** What the Accounts view shows for one currency. */
export interface CurrencyPnl {
  /** One figure per pair, the largest position first. */
  readonly pairs: readonly (HoldingPnl & { symbol: string })[];
}

/** The tracker (see the module docstring). */
export class HoldingsPnl implements vscode.Disposable {
  private readonly fills = new Map<string, HfFill[]>();
  private readonly last = new Map<string, string>();
  /** The last prices as of the latest compute: what the P&L figures AND the valuation use (they agree). */
  private priced: ReadonlyMap<string, string> = new Map();
  private readonly byCurrency = new Map<string, CurrencyPnl>();
  private readonly tickerSubs = new Map<string, { dispose(): void }>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private renderTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private symbols: readonly SymbolInfo[] = [];
  /** The pairs whose P&L is computed (a subset of the followed prices). */
  private pnlPairs: readonly string[] = [];
  /** Fires when a figure changed (the Accounts view re-renders). */
  readonly onDidChange = this.changed.event;
  /** Recomputes done (tests). */
  computations = 0;

  constructor(
    private readonly services: Services,
    private readonly accounts: AccountsTree,
    private readonly noted: () => string[],
  ) {
    this.disposables.push(
      this.changed,
      accounts.onDidLoad((st) => {
        if (st.error === undefined && st.data !== undefined) void this.recompute();
      }),
      services.onDidChangeProfile(() => this.clear()),
    );
  }

  /** The P&L of `currency`, if it has fills in a traded pair. */
  of(currency: string): CurrencyPnl | undefined {
    return this.byCurrency.get(currency);
  }

  /**
   * The last trade price of `symbol` (decimal string) as of the latest P&L figures — not a newer tick,
   * so a value computed with it agrees with the P&L shown beside it; undefined when not followed.
   */
  lastPrice(symbol: string): string | undefined {
    return this.priced.get(symbol);
  }

  /** A new fill of `symbol`: its fills are read again. */
  invalidate(symbol: string): void {
    this.fills.delete(symbol);
    void this.recompute();
  }

  /** Read fills and prices as needed and compute every held currency's P&L (one run at a time). */
  recompute(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.recompute();
      }
    });
    return this.running;
  }

  private async run(): Promise<void> {
    const data = this.accounts.state.data;
    if (!data || !(await this.services.credentialsPresent())) return;
    try {
      const client = await this.services.client();
      this.symbols = await this.services.symbols();
      const held = new Set(data.accounts.filter((a) => !D.isZero(a.balance)).map((a) => a.currency));
      const traded = await historySymbols(client, this.services, this.noted);
      const pairs = traded.filter((s) => held.has(this.symbols.find((x) => x.symbol === s)?.baseCurrency ?? '')).slice(0, MAX_PAIRS);
      for (const s of pairs) if (!this.fills.has(s)) this.fills.set(s, await allFills(client, s));
      const listed = new Set(this.symbols.map((x) => x.symbol));
      const valued = [...held].map(valuationPair).filter((s): s is string => s !== undefined && listed.has(s)).slice(0, MAX_VALUED);
      const followed = [...new Set([...pairs, ...valued])];
      const missing = followed.filter((s) => !this.last.has(s));
      if (missing.length) {
        const all = (await (await this.services.publicClient()).getAllTickers()).ticker;
        for (const t of all) if (missing.includes(t.symbol) && t.last) this.last.set(t.symbol, t.last);
      }
      await this.watchPrices(followed);
      this.pnlPairs = pairs;
      this.compute(pairs);
    } catch (err) {
      this.services.log.debug(`holdings P&L unavailable: ${failureText(err)}`);
    }
  }

  private compute(pairs: readonly string[]): void {
    this.computations++;
    this.priced = new Map(this.last);
    const next = new Map<string, Array<HoldingPnl & { symbol: string }>>();
    for (const symbol of pairs) {
      const info = this.symbols.find((x) => x.symbol === symbol);
      const fills = this.fills.get(symbol);
      const last = this.last.get(symbol);
      if (!info || !fills?.length || !last) continue;
      const h = unrealizedPnl(
        fills.map((f) => ({ id: f.id, side: f.side, size: f.size, funds: f.funds, fee: f.fee, feeCurrency: f.feeCurrency, createdAt: f.createdAt })),
        info.baseCurrency,
        info.quoteCurrency,
        last,
        quoteDigits(this.symbols, symbol),
      );
      if (D.isZero(h.position) && D.isZero(h.realized)) continue;
      const list = next.get(info.baseCurrency) ?? [];
      list.push({ ...h, symbol });
      next.set(info.baseCurrency, list);
    }
    this.byCurrency.clear();
    for (const [c, list] of next) this.byCurrency.set(c, { pairs: list.sort((a, b) => D.cmp(b.position, a.position)) });
    this.changed.fire();
  }

  /** Follow the last price of `pairs` (P&L and valuation pairs) on the ticker stream (re-render at most every 2 s). */
  private async watchPrices(pairs: readonly string[]): Promise<void> {
    for (const [s, sub] of this.tickerSubs) {
      if (!pairs.includes(s)) {
        sub.dispose();
        this.tickerSubs.delete(s);
      }
    }
    let ch;
    try {
      ch = (await this.services.live.feed()).public;
    } catch {
      return;
    }
    for (const s of pairs) {
      if (this.tickerSubs.has(s)) continue;
      this.tickerSubs.set(
        s,
        ch.subscribe(`/market/ticker:${s}`, (m) => {
          if (m.subject !== 'trade.ticker' || m.data.price === null || m.data.price === this.last.get(s)) return;
          this.last.set(s, m.data.price);
          this.scheduleRender();
        }),
      );
    }
  }

  private scheduleRender(): void {
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      this.compute(this.pnlPairs);
    }, TICK_RENDER_MS);
  }

  private clear(): void {
    for (const s of this.tickerSubs.values()) s.dispose();
    this.tickerSubs.clear();
    this.fills.clear();
    this.last.clear();
    this.priced = new Map();
    this.byCurrency.clear();
    this.pnlPairs = [];
  }

  dispose(): void {
    this.clear();
    if (this.renderTimer) clearTimeout(this.renderTimer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
