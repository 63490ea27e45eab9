/**
 * The trade tape of the market panel: the most recent trades of the symbol (from
 * `/market/match`; GET /api/v1/market/histories when the panel opens), newest on top — time, price
 * (in the taker side's colour) and size. A fixed pool of rows is rewritten once per animation frame
 * with the latest trades (text nodes only, never markup), so a burst of trades costs one write.
 * Part of the charts bundle (src/features/market/webview/charts.ts), loaded after the book: the panel's
 * script keeps the latest trades until it is there.
 */
import type { TradePrint } from '../protocol';

/** Rows shown. */
export const TAPE_ROWS = 60;

/** Local time of a trade as HH:MM:SS. */
function hms(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

interface TapeRow {
  el: HTMLElement;
  time: Text;
  price: Text;
  size: Text;
  id: string;
}

/** The tape's DOM (see the module docstring). */
export class TapeView {
  private readonly rows: TapeRow[] = [];
  private trades: TradePrint[] = [];
  private frame = 0;
  private readonly empty: HTMLElement;
  private readonly head: Text[];

  constructor(host: HTMLElement) {
    const table = document.createElement('div');
    table.className = 'mk-tape-table';
    table.setAttribute('role', 'table');
    table.setAttribute('aria-label', 'Recent trades, newest first');
    const headRow = document.createElement('div');
    headRow.className = 'mk-tape-row head';
    headRow.setAttribute('role', 'row');
    this.head = ['Time', 'Price', 'Size'].map((label) => {
      const c = document.createElement('span');
      c.setAttribute('role', 'columnheader');
      const t = document.createTextNode(label);
      c.appendChild(t);
      headRow.appendChild(c);
      return t;
    });
    table.appendChild(headRow);
    for (let i = 0; i < TAPE_ROWS; i++) {
      const el = document.createElement('div');
      el.className = 'mk-tape-row';
      el.setAttribute('role', 'row');
      el.hidden = true;
      const cell = (cls: string) => {
        const c = document.createElement('span');
        c.className = cls;
        c.setAttribute('role', 'cell');
        const t = document.createTextNode('');
        c.appendChild(t);
        el.appendChild(c);
        return t;
      };
      this.rows.push({ el, time: cell('t'), price: cell('p'), size: cell('s'), id: '' });
      table.appendChild(el);
    }
    this.empty = document.createElement('div');
    this.empty.className = 'mk-empty';
    this.empty.textContent = 'Waiting for trades…';
    host.append(table, this.empty);
  }

  /** Column headers with the currencies. */
  setCurrencies(base: string, quote: string): void {
    this.head[1].data = quote ? `Price (${quote})` : 'Price';
    this.head[2].data = base ? `Size (${base})` : 'Size';
  }

  /** Add trades (oldest first), or replace the tape with them. */
  add(trades: readonly TradePrint[], replace: boolean): void {
    this.trades = replace ? trades.slice(-TAPE_ROWS) : this.trades.concat(trades).slice(-TAPE_ROWS);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** The empty-tape line (e.g. why there are no trades). */
  setEmptyText(text: string): void {
    this.empty.textContent = text;
  }

  /** The trades shown, newest first (tests). */
  get shown(): readonly TradePrint[] {
    return this.trades.slice().reverse();
  }

  /** Write the pending trades now. */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const n = this.trades.length;
    this.empty.hidden = n > 0;
    for (let i = 0; i < this.rows.length; i++) {
      const r = this.rows[i];
      const t = this.trades[n - 1 - i];
      if (!t) {
        if (!r.el.hidden) {
          r.el.hidden = true;
          r.id = '';
        }
        continue;
      }
      r.el.hidden = false;
      if (r.id === t.tradeId) continue;
      r.id = t.tradeId;
      r.time.data = hms(t.time);
      r.price.data = t.price;
      r.size.data = t.size;
      r.el.dataset.side = t.side;
      r.el.dataset.tradeId = t.tradeId;
    }
  }
}
