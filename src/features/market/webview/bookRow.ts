/**
 * One row of the market panel's book: three text cells (price, size, cumulative total) and a depth
 * bar, pooled and reused by the view (src/features/market/webview/view.ts). A row caches the strings
 * it shows, so an update touches only the text nodes and styles that changed; depth bars are
 * `transform: scaleX()` (no relayout); off-screen rows defer their writes until they come near.
 */
import type { ViewLevel } from '../model/viewModel';
import { padFraction } from '../../../api/numberFormat';
import { el, textCell } from './dom';

/**
 * Fraction digits the columns are padded to: prices to the tick (the grouping step), sizes and
 * totals to the lot (baseIncrement), so that decimal points line up in the tabular-figure font
 * ("67051" among "67051.3" is shown "67051.0"). Padding adds zeros only: values never change.
 */
export interface ColumnDigits {
  price: number;
  size: number;
}

/** `scaleX(k / 200)` for k = 0…200, built once: a bar update writes a ready string. */
const SCALE_X: readonly string[] = Array.from({ length: 201 }, (_, k) => `scaleX(${k / 200})`);

/**
 * A reusable row: three text cells and a depth bar, with the last values written to them.
 *
 * Rows outside the viewport (beyond a quarter of a viewport above or below, tracked by an
 * IntersectionObserver) keep the latest level as `pending` and write it when they scroll near the
 * viewport or receive focus; showing/hiding a row (which changes the layout) is always immediate,
 * and a row being shown is written at once. `near` is only ever what the observer last reported:
 * an observer reports changes of intersection, so a row shown off screen gets no report and must
 * not be assumed near. With 100 levels per side most rows are off screen, so an update touches
 * only what can be seen.
 */
export class Row {
  readonly root: HTMLDivElement;
  private readonly bar: HTMLDivElement;
  private readonly price: Text;
  private readonly size: Text;
  private readonly total: Text;
  private shown = true;
  private p = '';
  private s = '';
  private t = '';
  private r = -1;
  private own = '';
  /** Near the viewport, as last reported by the observer (always true without an observer). */
  private near: boolean;
  private pending: ViewLevel | null = null;

  /**
   * @param observed whether an IntersectionObserver will report this row's position.
   * @param digits the view's column precision (shared by every row; read at each write).
   */
  constructor(
    readonly side: 'ask' | 'bid',
    parent: Element,
    before: Node | null,
    observed: boolean,
    private readonly digits: ColumnDigits,
  ) {
    this.near = !observed;
    this.root = document.createElement('div');
    this.root.className = `row ${side}`;
    this.root.setAttribute('role', 'row');
    this.root.tabIndex = -1;
    this.bar = el('div', 'bar', this.root);
    this.bar.setAttribute('aria-hidden', 'true');
    this.price = textCell(this.root, 'price', 'gridcell');
    this.size = textCell(this.root, 'size', 'gridcell');
    this.total = textCell(this.root, 'total', 'gridcell');
    parent.insertBefore(this.root, before);
    this.hide();
  }

  /** Show `lvl` (now if near the viewport, else when it comes near). Returns true when the row was made to flash. */
  set(lvl: ViewLevel): boolean {
    if (!this.shown) {
      this.root.hidden = false;
      this.shown = true;
      this.pending = null;
      return this.write(lvl, true); // written at once; the observer reports its position next frame
    }
    if (!this.near) {
      this.pending = lvl;
      return false;
    }
    return this.write(lvl, true);
  }

  /** Forget the written strings, so the next write rewrites every cell (the column precision changed). */
  invalidate(): void {
    this.p = this.s = this.t = '\u0000';
  }

  /** Write any pending level now (before focus moves to the row). */
  flush(): void {
    if (this.pending) {
      this.write(this.pending, false); // a change that happened off screen does not flash later
      this.pending = null;
    }
  }

  /** Observer callback: the row came near the viewport or left it. */
  setNear(near: boolean): void {
    this.near = near;
    if (near) this.flush();
  }

  private write(lvl: ViewLevel, flash: boolean): boolean {
    const d = this.digits;
    if (lvl.price !== this.p) this.price.data = padFraction((this.p = lvl.price), d.price);
    if (lvl.size !== this.s) this.size.data = padFraction((this.s = lvl.size), d.size);
    if (lvl.total !== this.t) this.total.data = padFraction((this.t = lvl.total), d.size);
    // Bar width: quantised to 0.5 % (2–3 px) and rewritten only when it moved by 1 % or more (or
    // to/from empty), so the small drift of every ratio at each update does not restyle every row;
    // a bar is never off by more than 0.5 %.
    const r = Math.round(lvl.ratio * 200);
    if (this.r < 0 || r - this.r >= 2 || this.r - r >= 2 || (r === 0) !== (this.r === 0)) {
      this.r = r;
      this.bar.style.transform = SCALE_X[r] ?? `scaleX(${r / 200})`;
    }
    if (flash && lvl.change) {
      this.root.classList.add('flash');
      return true;
    }
    return false;
  }

  /** The price shown (or about to be), '' when hidden. */
  get shownPrice(): string {
    return this.pending?.price ?? this.p;
  }

  /**
   * Mark the row as holding the user's resting orders: `size` their remaining size at this level
   * (shown in the row, with a side-coloured edge), `title` the words for it; '' unmarks the row.
   */
  setOwn(size: string, title: string): void {
    if (size === this.own && this.root.title === title) return;
    this.own = size;
    this.root.classList.toggle('own', size !== '');
    if (size) this.root.dataset.own = size;
    else delete this.root.dataset.own;
    this.root.title = title;
  }

  hide(): void {
    this.pending = null;
    this.setOwn('', '');
    if (this.shown) {
      this.root.hidden = true;
      this.shown = false;
      this.p = this.s = this.t = '';
      this.price.data = this.size.data = this.total.data = '';
      this.r = -1;
    }
  }

  get visible(): boolean {
    return this.shown;
  }
}
