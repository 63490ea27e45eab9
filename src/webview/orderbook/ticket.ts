/**
 * The Order Ticket of the market panel (issue 25): buy/sell, limit/market, price (with best bid,
 * mid and best ask buttons), size (with 25/50/75/100 % of the available balance), and the figures a
 * trader reads before sending — the notional in quote, the estimated fee at the user's rate (maker or
 * taker), the available balance — with warnings when a limit order would cross the spread (taker) or
 * sits far from the market. The figures come from src/shared/market/ticket.ts and the checks from
 * the rules module src/api/orderRules.ts, the same the request builder uses.
 *
 * Errors appear at the field at fault, and only once the person has typed in that field (or tried to
 * place). "Place" only asks the extension: it recomputes everything from the exchange and ALWAYS
 * asks the person in a modal before sending anything.
 */
import type { AccountInfo, SymbolMeta } from '../../shared/orderbook/protocol';
import { quoteTicket, sizeForShare, ticketPrice, SIZE_SHARES, type TicketContext, type TicketInput, type TicketQuote } from '../../shared/market/ticket';
import type { BookLevel } from '../../shared/orderEstimate';
import { formatAmount } from '../../shared/numberFormat';
import { fractionDigits, normalize } from '../../api/decimal';

/** What the ticket asks the controller for. */
export interface TicketEvents {
  place(order: { side: 'buy' | 'sell'; orderType: 'limit' | 'market'; price: string; size: string }): void;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, parent?: Element, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

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
  private type: 'limit' | 'market' = 'limit';
  private readonly sideSeg: ReturnType<typeof segmented<'buy' | 'sell'>>;
  private readonly typeSeg: ReturnType<typeof segmented<'limit' | 'market'>>;
  readonly priceInput: HTMLInputElement;
  readonly sizeInput: HTMLInputElement;
  private readonly priceRow: HTMLElement;
  private readonly priceLabel: Text;
  private readonly sizeLabel: Text;
  private readonly priceError: HTMLElement;
  private readonly sizeError: HTMLElement;
  private readonly figures: Record<'notional' | 'fee' | 'available', Text>;
  private readonly warnings: HTMLElement;
  private readonly placeBtn: HTMLButtonElement;
  private readonly result: HTMLElement;
  private readonly disabledNote: HTMLElement;
  private readonly touched = new Set<'price' | 'size'>();
  private attempted = false;
  private busy = false;
  private meta: SymbolMeta | null = null;
  private account: AccountInfo | null = null;
  private market: { bid: string | null; ask: string | null; last: string | null } = { bid: null, ask: null, last: null };
  /** The visible levels a market order walks (src/shared/orderEstimate.ts walkBook, through quoteTicket). */
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
    this.typeSeg = segmented(this.root, 'Order type', [['limit', 'Limit'], ['market', 'Market']], (v) => {
      this.type = v;
      this.render();
    });

    this.priceRow = el('div', 'mk-field', this.root);
    const pl = el('label', undefined, this.priceRow);
    pl.htmlFor = 'mk-price';
    this.priceLabel = document.createTextNode('Price');
    pl.appendChild(this.priceLabel);
    const pline = el('div', 'mk-inputline', this.priceRow);
    this.priceInput = el('input', 'mk-input', pline);
    this.priceInput.id = 'mk-price';
    this.priceInput.inputMode = 'decimal';
    this.priceInput.autocomplete = 'off';
    this.priceInput.spellcheck = false;
    this.priceInput.setAttribute('aria-describedby', 'mk-price-error');
    for (const [which, text] of [['bid', 'Bid'], ['mid', 'Mid'], ['ask', 'Ask']] as const) {
      const b = el('button', 'mk-mini', pline, text);
      b.type = 'button';
      b.title = which === 'mid' ? 'Mid price (rounded down to the tick)' : `Best ${which}`;
      b.setAttribute('aria-label', b.title);
      b.addEventListener('click', () => {
        const p = this.meta ? ticketPrice(which, { bestBid: this.market.bid, bestAsk: this.market.ask, last: this.market.last, rules: this.rules()!.rules }) : null;
        if (p !== null) this.setPrice(p);
      });
    }
    this.priceError = el('div', 'mk-error', this.priceRow);
    this.priceError.id = 'mk-price-error';
    this.priceError.setAttribute('role', 'status');

    const sizeRow = el('div', 'mk-field', this.root);
    const sl = el('label', undefined, sizeRow);
    sl.htmlFor = 'mk-size';
    this.sizeLabel = document.createTextNode('Size');
    sl.appendChild(this.sizeLabel);
    const sline = el('div', 'mk-inputline', sizeRow);
    this.sizeInput = el('input', 'mk-input', sline);
    this.sizeInput.id = 'mk-size';
    this.sizeInput.inputMode = 'decimal';
    this.sizeInput.autocomplete = 'off';
    this.sizeInput.spellcheck = false;
    this.sizeInput.setAttribute('aria-describedby', 'mk-size-error');
    const shares = el('div', 'mk-shares', sizeRow);
    for (const pct of SIZE_SHARES) {
      const b = el('button', 'mk-mini', shares, `${pct}%`);
      b.type = 'button';
      b.setAttribute('aria-label', `${pct} % of the available balance`);
      b.addEventListener('click', () => {
        const r = this.rules();
        if (!r) return;
        const size = sizeForShare(pct, { side: this.side, type: this.type, price: this.priceInput.value }, r);
        if (size !== null) {
          this.sizeInput.value = size;
          this.touched.add('size');
          this.render();
        }
      });
    }
    this.sizeError = el('div', 'mk-error', sizeRow);
    this.sizeError.id = 'mk-size-error';
    this.sizeError.setAttribute('role', 'status');

    const figs = el('dl', 'mk-figures', this.root);
    const fig = (label: string) => {
      el('dt', undefined, figs, label);
      const dd = el('dd', undefined, figs);
      const t = document.createTextNode('—');
      dd.appendChild(t);
      return t;
    };
    this.figures = { notional: fig('Notional'), fee: fig('Fee (est.)'), available: fig('Available') };
    this.warnings = el('ul', 'mk-warnings', this.root);
    this.warnings.setAttribute('role', 'status');
    this.disabledNote = el('div', 'mk-note', this.root);
    this.placeBtn = el('button', 'mk-place', this.root, 'Buy');
    this.placeBtn.type = 'submit';
    this.result = el('div', 'mk-result', this.root);
    this.result.setAttribute('role', 'alert');

    for (const [input, name] of [[this.priceInput, 'price'], [this.sizeInput, 'size']] as const) {
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
    this.priceLabel.data = meta ? `Price (${meta.quoteCurrency})` : 'Price';
    this.sizeLabel.data = meta ? `Size (${meta.baseCurrency})` : 'Size';
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
    if (this.type !== 'limit') {
      this.type = 'limit';
      this.typeSeg.set('limit');
    }
    this.priceInput.value = price;
    this.touched.add('price');
    this.render();
  }

  /** Focus the ticket (keyboard shortcut): the side if given, then the size field (price for an empty limit). */
  focus(side: 'buy' | 'sell' | null): void {
    if (side) this.setSide(side);
    const target = this.type === 'limit' && this.priceInput.value.trim() === '' ? this.priceInput : this.sizeInput;
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
    return { side: this.side, type: this.type, price: this.priceInput.value, size: this.sizeInput.value };
  }

  private render(): void {
    const ctx = this.rules();
    const base = this.meta?.baseCurrency ?? '';
    const quote = this.meta?.quoteCurrency ?? '';
    this.priceRow.hidden = this.type === 'market';
    this.placeBtn.textContent = `${this.side === 'buy' ? 'Buy' : 'Sell'}${base ? ` ${base}` : ''}${this.type === 'market' ? ' at market' : ''}`;
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
    // Grouped and to the lot / quote increment, as elsewhere ("95,991.71 USDT"); rounded down (never more than there is).
    const inc = q.available.currency === quote ? this.meta?.quoteIncrement : this.meta?.baseIncrement;
    this.figures.available.data = q.available.amount !== null ? `${formatAmount(q.available.amount, inc ? fractionDigits(normalize(inc)) : undefined, navigator.language || 'en')} ${q.available.currency}` : '—';
    // Errors at their field, once the person typed there (or tried to place).
    const show = (f: 'price' | 'size') => this.attempted || this.touched.has(f);
    const errorsOf = (f: 'price' | 'size') =>
      q.issues.filter((i) => i.severity === 'error' && (i.field === f || (f === 'price' && i.code === 'limit-missing-price') || (f === 'size' && (i.code === 'limit-missing-size' || i.code === 'market-missing-amount'))));
    const pe = show('price') && this.type === 'limit' ? errorsOf('price') : [];
    const se = show('size') ? errorsOf('size') : [];
    this.priceError.textContent = pe[0]?.message ?? '';
    this.sizeError.textContent = se[0]?.message ?? '';
    this.priceInput.setAttribute('aria-invalid', String(pe.length > 0));
    this.sizeInput.setAttribute('aria-invalid', String(se.length > 0));
    this.warnings.textContent = '';
    for (const w of q.warnings) {
      const li = el('li', `mk-warning w-${w.code}`, this.warnings, w.message);
      li.dataset.code = w.code;
    }
    const other = this.attempted ? q.issues.find((i) => i.severity === 'error' && !errorsOf('price').includes(i) && !errorsOf('size').includes(i)) : undefined;
    const cannot = this.account && !this.account.canTrade ? (this.account.reason ?? 'Trading is not available.') : this.meta?.enableTrading === false ? `Trading is disabled for ${this.meta.symbol}.` : null;
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
    this.events.place({ side: this.side, orderType: this.type, price: this.type === 'limit' ? this.priceInput.value.trim() : '', size: this.sizeInput.value.trim() });
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
