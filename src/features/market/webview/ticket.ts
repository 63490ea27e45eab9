/**
 * The Order Ticket of the market panel: buy/sell, the order type — limit, market, stop-limit,
 * stop-market or OCO —, price (with best bid, mid and best ask buttons), the trigger of a stop order
 * and an OCO's stop price and stop-leg limit price, size (with 25/50/75/100 % of the available balance),
 * and the figures a trader reads before sending — the notional in quote, the estimated fee at the user's
 * rate (maker or taker), the trigger, the available balance — with warnings when a limit order would
 * cross the spread (taker) or sits far from the market, or a trigger is already met. The figures come
 * from src/features/market/model/ticket.ts and the checks from the rules modules src/api/orderRules.ts and
 * src/api/advancedOrderRules.ts, the same the request builder and order documents use.
 *
 * Errors appear at the field at fault, and only once the person has typed in that field (or tried to
 * place). "Place" only asks the extension: it recomputes everything from the exchange and ALWAYS
 * asks the person in a modal before sending anything.
 */
import type { AccountInfo, SymbolMeta } from '../protocol';
import { quoteTicket, sizeForShare, ticketPrice, SIZE_SHARES, type TicketContext, type TicketInput, type TicketQuote, type TicketType } from '../model/ticket';
import type { BookLevel } from '../../../api/orderEstimate';
import { formatAmount } from '../../../api/numberFormat';
import { fractionDigits, normalize } from '../../../api/decimal';
import { refusalReason } from '../../../api/borrowedMarket';

/** What the ticket asks the controller for. */
export interface TicketEvents {
  place(order: { side: 'buy' | 'sell'; orderType: TicketType; price: string; size: string; stopPrice: string; limitPrice: string }): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, parent?: Element, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** A labelled input row (`mk-<id>`) with its line (for buttons) and its error line. */
function field(parent: Element, id: string) {
  const row = el('div', 'mk-field', parent);
  const l = el('label', undefined, row);
  l.htmlFor = `mk-${id}`;
  const label = document.createTextNode('');
  l.appendChild(label);
  const line = el('div', 'mk-inputline', row);
  const input = el('input', 'mk-input', line);
  input.id = `mk-${id}`;
  input.inputMode = 'decimal';
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('aria-describedby', `mk-${id}-error`);
  const error = el('div', 'mk-error', row);
  error.id = `mk-${id}-error`;
  error.setAttribute('role', 'status');
  return { row, label, line, input, error };
}

/** What each order type calls its price fields and its place button; empty: the field is hidden. */
const TYPES: Record<TicketType, [button: string, price: string, stop: string, limit: string, place: string]> = {
  limit: ['Limit', 'Price', '', '', ''],
  market: ['Market', '', '', '', ' at market'],
  oco: ['OCO', 'Take profit', 'Stop', 'Stop limit', ' OCO'],
  stopLimit: ['Stop limit', 'Price', 'Trigger', '', ' stop-limit'],
  stopMarket: ['Stop market', '', 'Trigger', '', ' stop-market'],
};

/** A two-way segmented control of buttons with `aria-pressed`. */
function segmented<V extends string>(parent: Element, label: string, values: readonly [V, string][], onPick: (v: V) => void): { set(v: V): void; buttons: HTMLButtonElement[] } {
  const box = el('div', 'mk-seg', parent);
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', label);
  const buttons = values.map(([v, text]) => {
    const b = el('button', `mk-seg-btn v-${v}`, box, text);
    b.type = 'button';
    b.dataset.value = v;
    b.addEventListener('click', () => onPick(v));
    return b;
  });
  return {
    buttons,
    set: (v) => {
      for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.value === v));
    },
  };
}

/** The ticket's DOM and state (see the module docstring). */
export class TicketView {
  readonly root: HTMLElement;
  private side: 'buy' | 'sell' = 'buy';
  private type: TicketType = 'limit';
  private readonly sideSeg: ReturnType<typeof segmented<'buy' | 'sell'>>;
  private readonly typeSeg: ReturnType<typeof segmented<TicketType>>;
  /** The input rows: the price, an OCO's or stop order's trigger (`stopPrice`), an OCO stop leg's price (`limitPrice`), the size. */
  private readonly f: Record<'price' | 'stopPrice' | 'limitPrice' | 'size', ReturnType<typeof field>>;
  readonly priceInput: HTMLInputElement;
  readonly sizeInput: HTMLInputElement;
  private readonly figures: Record<'notional' | 'fee' | 'trigger' | 'available', Text>;
  private readonly warnings: HTMLElement;
  private readonly placeBtn: HTMLButtonElement;
  private readonly result: HTMLElement;
  private readonly disabledNote: HTMLElement;
  private readonly touched = new Set<string>();
  private attempted = false;
  private busy = false;
  private meta: SymbolMeta | null = null;
  private account: AccountInfo | null = null;
  /** Why the exchange refuses new orders now (its status), or null. */
  private refusal: string | null = null;
  private market: { bid: string | null; ask: string | null; last: string | null } = { bid: null, ask: null, last: null };
  /** The visible levels a market order walks (src/api/orderEstimate.ts walkBook, through quoteTicket). */
  private book: { readonly bids: readonly BookLevel[]; readonly asks: readonly BookLevel[] } | null = null;
  /** The figures of the current input (tests read them). */
  quote: TicketQuote | null = null;

  constructor(host: HTMLElement, private readonly events: TicketEvents) {
    this.root = el('form', 'mk-ticket-form', host);
    this.root.setAttribute('aria-label', 'Order ticket');
    this.root.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.sideSeg = segmented(this.root, 'Side', [['buy', 'Buy'], ['sell', 'Sell']], (v) => this.setSide(v));
    this.typeSeg = segmented(this.root, 'Order type', (Object.keys(TYPES) as TicketType[]).map((t) => [t, TYPES[t][0]]), (v) => {
      this.type = v;
      this.typeSeg.set(v);
      this.render();
    });
    this.typeSeg.buttons[0].parentElement!.classList.add('mk-types');

    this.f = { price: field(this.root, 'price'), stopPrice: field(this.root, 'stop'), limitPrice: field(this.root, 'limit'), size: field(this.root, 'size') };
    this.priceInput = this.f.price.input;
    this.sizeInput = this.f.size.input;
    for (const [which, text] of [['bid', 'Bid'], ['mid', 'Mid'], ['ask', 'Ask']] as const) {
      const b = el('button', 'mk-mini', this.f.price.line, text);
      b.type = 'button';
      b.title = which === 'mid' ? 'Mid price (rounded down to the tick)' : `Best ${which}`;
      b.setAttribute('aria-label', b.title);
      b.addEventListener('click', () => {
        const p = this.meta ? ticketPrice(which, { bestBid: this.market.bid, bestAsk: this.market.ask, last: this.market.last, rules: this.rules()!.rules }) : null;
        if (p !== null) this.setPrice(p);
      });
    }
    const shares = el('div', 'mk-shares');
    this.f.size.row.insertBefore(shares, this.f.size.error);
    for (const pct of SIZE_SHARES) {
      const b = el('button', 'mk-mini', shares, `${pct}%`);
      b.type = 'button';
      b.setAttribute('aria-label', `${pct} % of the available balance`);
      b.addEventListener('click', () => {
        const r = this.rules();
        if (!r) return;
        const size = sizeForShare(pct, this.input(), r);
        if (size !== null) {
          this.sizeInput.value = size;
          this.touched.add('size');
          this.render();
        }
      });
    }

    const figs = el('dl', 'mk-figures', this.root);
    const fig = (label: string) => {
      el('dt', undefined, figs, label);
      const dd = el('dd', undefined, figs);
      const t = document.createTextNode('—');
      dd.appendChild(t);
      return t;
    };
    this.figures = { notional: fig('Notional'), fee: fig('Fee (est.)'), trigger: fig('Trigger'), available: fig('Available') };
    this.warnings = el('ul', 'mk-warnings', this.root);
    this.warnings.setAttribute('role', 'status');
    this.disabledNote = el('div', 'mk-note', this.root);
    this.placeBtn = el('button', 'mk-place', this.root, 'Buy');
    this.placeBtn.type = 'submit';
    this.result = el('div', 'mk-result', this.root);
    this.result.setAttribute('role', 'alert');

    for (const [name, { input }] of Object.entries(this.f)) {
      input.addEventListener('input', () => {
        this.touched.add(name);
        this.render();
      });
    }
    this.setSide('buy');
    this.typeSeg.set('limit');
  }

  /** Symbol rules (from the `init` message). */
  setMeta(meta: SymbolMeta | null): void {
    this.meta = meta;
    this.render();
  }

  /**
   * The service status (GET /api/v1/status): while it is not `open` the ticket refuses to place and says why
   * (src/api/borrowedMarket.ts `refusalReason`: the upstream unreachable or resyncing, a closed exchange…).
   */
  setServiceStatus(status: string, msg: string): void {
    this.refusal = refusalReason({ status, msg });
    this.render();
  }

  /** Account figures (balances, fee rates). */
  setAccount(a: AccountInfo): void {
    this.account = a;
    this.render();
  }

  /** Best bid/ask and last price (the book and the tape). Re-renders only the figures that depend on them. */
  setMarket(bid: string | null, ask: string | null, last: string | null, book?: { readonly bids: readonly BookLevel[]; readonly asks: readonly BookLevel[] }): void {
    const levelsMatter = book !== undefined && book !== this.book && this.type === 'market';
    if (book !== undefined) this.book = book;
    if (!levelsMatter && bid === this.market.bid && ask === this.market.ask && last === this.market.last) return;
    this.market = { bid, ask, last };
    this.render();
  }

  /** Side, as the buttons and the shortcuts choose it. */
  setSide(side: 'buy' | 'sell'): void {
    this.side = side;
    this.sideSeg.set(side);
    this.root.dataset.side = side;
    this.render();
  }

  /** A price from the book (click on a level) or a button. */
  setPrice(price: string): void {
    if (!TYPES[this.type][1]) {
      this.type = this.type === 'market' ? 'limit' : 'stopLimit';
      this.typeSeg.set(this.type);
    }
    this.priceInput.value = price;
    this.touched.add('price');
    this.render();
  }

  /** Focus the ticket (keyboard shortcut): the side if given, then the size field (price for an empty limit). */
  focus(side: 'buy' | 'sell' | null): void {
    if (side) this.setSide(side);
    const target = TYPES[this.type][1] && this.priceInput.value.trim() === '' ? this.priceInput : this.sizeInput;
    target.focus();
    target.select();
  }

  /** The outcome of a placement. */
  placed(ok: boolean, message: string): void {
    this.busy = false;
    this.result.textContent = message;
    this.result.dataset.ok = String(ok);
    if (ok) {
      this.sizeInput.value = '';
      this.touched.delete('size');
      this.attempted = false;
    }
    this.render();
  }

  private rules(): TicketContext | null {
    const m = this.meta;
    if (!m || !m.quoteIncrement || !m.baseMinSize || !m.quoteMinSize || !m.baseMaxSize || !m.quoteMaxSize) return null;
    return {
      rules: { ...m, quoteIncrement: m.quoteIncrement, baseMinSize: m.baseMinSize, quoteMinSize: m.quoteMinSize, baseMaxSize: m.baseMaxSize, quoteMaxSize: m.quoteMaxSize, minFunds: m.minFunds ?? null },
      bestBid: this.market.bid,
      bestAsk: this.market.ask,
      bids: this.book?.bids ?? null,
      asks: this.book?.asks ?? null,
      last: this.market.last,
      availableBase: this.account?.availableBase ?? null,
      availableQuote: this.account?.availableQuote ?? null,
      makerFeeRate: this.account?.makerFeeRate ?? null,
      takerFeeRate: this.account?.takerFeeRate ?? null,
    };
  }

  private input(): TicketInput {
    const v = (k: keyof TicketView['f']) => this.f[k].input.value;
    return { side: this.side, type: this.type, price: v('price'), size: v('size'), stopPrice: v('stopPrice'), limitPrice: v('limitPrice') };
  }

  private render(): void {
    const ctx = this.rules();
    const base = this.meta?.baseCurrency ?? '';
    const quote = this.meta?.quoteCurrency ?? '';
    const names = TYPES[this.type];
    const f = this.f;
    (['price', 'stopPrice', 'limitPrice'] as const).forEach((k, i) => {
      f[k].row.hidden = !names[i + 1];
      f[k].label.data = `${names[i + 1]}${quote && ` (${quote})`}`;
    });
    f.size.label.data = `Size${base && ` (${base})`}`;
    this.placeBtn.textContent = `${this.side === 'buy' ? 'Buy' : 'Sell'}${base && ` ${base}`}${names[4]}`;
    if (!ctx) {
      this.quote = null;
      this.placeBtn.disabled = true;
      this.disabledNote.textContent = 'Loading the symbol rules…';
      return;
    }
    const q = quoteTicket(this.input(), ctx);
    this.quote = q;
    const walked = q.walk && q.walk.averagePrice !== null ? ` · avg ${q.walk.averagePrice}${q.walk.slippageBps !== null && q.walk.slippageBps !== '0' ? `, ${q.walk.slippageBps} bps` : ''}` : '';
    this.figures.notional.data = q.notional !== null ? `${q.notional} ${quote}${this.type === 'market' ? ` (est.${walked})` : ''}` : '—';
    this.figures.fee.data = q.fee !== null ? `${q.fee} ${quote} · ${q.liquidity} ${pct(q.feeRate)}` : q.liquidity ? `— (${q.liquidity})` : '—';
    this.figures.trigger.data = q.trigger ?? '—';
    // Grouped and to the lot / quote increment, as elsewhere ("95,991.71 USDT"); rounded down (never more than there is).
    const inc = q.available.currency === quote ? this.meta?.quoteIncrement : this.meta?.baseIncrement;
    this.figures.available.data = q.available.amount !== null ? `${formatAmount(q.available.amount, inc ? fractionDigits(normalize(inc)) : undefined, navigator.language || 'en')} ${q.available.currency}` : '—';
    // Errors at their field, once the person typed there (or tried to place).
    const errorsOf = (k: string) =>
      q.issues.filter((i) => i.severity === 'error' && (i.field === k || (k === 'price' && i.code === 'limit-missing-price') || (k === 'size' && (i.code === 'limit-missing-size' || i.code === 'market-missing-amount'))));
    for (const [k, x] of Object.entries(f)) {
      const e = !x.row.hidden && (this.attempted || this.touched.has(k)) ? errorsOf(k) : [];
      x.error.textContent = e[0]?.message ?? '';
      x.input.setAttribute('aria-invalid', String(e.length > 0));
    }
    this.warnings.textContent = '';
    for (const w of q.warnings) {
      const li = el('li', `mk-warning w-${w.code}`, this.warnings, w.message);
      li.dataset.code = w.code;
    }
    const other = this.attempted ? q.issues.find((i) => i.severity === 'error' && !Object.keys(f).some((k) => errorsOf(k).includes(i))) : undefined;
    const cannot =
      this.account && !this.account.canTrade
        ? (this.account.reason ?? 'Trading is not available.')
        : this.meta?.enableTrading === false
          ? `Trading is disabled for ${this.meta.symbol}.`
          : this.refusal;
    this.disabledNote.textContent = cannot ?? other?.message ?? '';
    this.placeBtn.disabled = this.busy || cannot !== null;
  }

  private submit(): void {
    this.attempted = true;
    this.render();
    const q = this.quote;
    if (!q || !q.ok || this.placeBtn.disabled) return;
    this.busy = true;
    this.placeBtn.disabled = true;
    this.result.textContent = 'Waiting for your confirmation in VS Code…';
    this.result.dataset.ok = '';
    const i = this.input();
    const v = (k: 'price' | 'stopPrice' | 'limitPrice') => (this.f[k].row.hidden ? '' : (i[k] ?? '').trim());
    this.events.place({ side: this.side, orderType: this.type, price: v('price'), size: i.size.trim(), stopPrice: v('stopPrice'), limitPrice: v('limitPrice') });
  }
}

/** A fee rate as a percentage ("0.001" → "0.1 %"), by string arithmetic. */
function pct(rate: string | null): string {
  if (rate === null) return '';
  const neg = rate.startsWith('-');
  const [i, f = ''] = (neg ? rate.slice(1) : rate).split('.');
  const digits = `${i}${f.padEnd(2, '0')}`;
  const point = i.length + 2;
  let s = (digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0') + (digits.length > point ? `.${digits.slice(point)}` : '');
  if (s.includes('.')) s = s.replace(/\.?0+$/, '');
  return `${neg ? '−' : ''}${s} %`;
}
