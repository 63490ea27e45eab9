/**
 * The sandbox's public trade history views, derived from the engine's trades as they happen:
 * candles of GET /api/v1/market/candles (KuCoin "Get Klines") and the last 100 trades of
 * GET /api/v1/market/histories.
 *
 * Derivation (deterministic): every trade of the engine (`Exchange.onTrade`, called synchronously
 * inside the command that fills) is added here in execution order, so replaying the journal rebuilds
 * exactly the same candles. The state is plain data ({@link MarketTapeExport}: `export()` /
 * `MarketTape.import()`) and streams as snapshot records (`exportRecords()` / `importRecords()`, the
 * snapshot section `tape`).
 *
 * Retention (the spec's 3 × 24 h window) and the candle rows' layout, bounds and cost per trade:
 * docs/sandbox.md, "Market tape".
 */
import * as D from '../../api/decimal';
import type { CandleType, Candle } from '../../api/schemas';
import { CANDLE_SECONDS as INTERVAL_SECONDS } from '../../api/candleIntervals';

/** Length in seconds of each candle interval, finest first (src/api/candleIntervals.ts). */
export const CANDLE_SECONDS: Readonly<Record<CandleType, number>> = INTERVAL_SECONDS;

/** Candle intervals, finest first. */
export const CANDLE_TYPES = Object.keys(CANDLE_SECONDS) as CandleType[];

/** Rows answered per request (KuCoin answers at most 1500; older rows are read with `endAt`). */
export const MAX_CANDLE_ROWS = 1500;

/**
 * Rows kept per symbol and interval: 3 × 24 h of 1-minute rows (4,320) plus the 10-minute pruning interval
 * and slack, so that every interval reaches back over the whole history window.
 */
export const MAX_KEPT_ROWS = 4_400;

/** Public trades kept per symbol for GET /api/v1/market/histories. */
export const RECENT_TRADES = 100;

/** Candle rows per snapshot record (about 40 KB). */
const ROWS_PER_RECORD = 512;

/** Monday 1970-01-05 00:00 UTC, in seconds: weeks start here. */
const WEEK_ORIGIN_S = 4 * 86_400;

/** Start (s) of the interval of `type` holding second `s`. */
export function candleStart(type: CandleType, s: number): number {
  const len = CANDLE_SECONDS[type];
  if (type === '1week') return Math.floor((s - WEEK_ORIGIN_S) / len) * len + WEEK_ORIGIN_S;
  return Math.floor(s / len) * len;
}

/** One candle row as plain data: `t` the interval start (s), decimals as strings. */
export interface CandleRow {
  t: number;
  o: string;
  c: string;
  h: string;
  l: string;
  /** Volume, base currency. */
  v: string;
  /** Turnover, quote currency. */
  q: string;
}

/** A trade as the tape keeps it (the engine's public trade). */
export interface TapeTrade {
  symbol: string;
  sequence: string;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  /** ms */
  time: number;
}

/** The plain-data form of one symbol's tape. */
export interface SymbolTapeExport {
  /** Rows per interval, oldest first; the last 1min row may still be open (not folded yet). */
  candles: Record<CandleType, CandleRow[]>;
  /** Start (s) of the last 1min row already folded into the coarser intervals (-1: none). */
  folded: number;
  /** The last {@link RECENT_TRADES} trades, oldest first. */
  recent: TapeTrade[];
}

/** A trade in a snapshot: [sequence, price, size, side, time (ms)] (the symbol is the record's). */
export type TapeTradeRow = [string, string, string, 'buy' | 'sell', number];

/** A candle row in a snapshot: [t (s), open, close, high, low, volume, turnover]. */
export type CandleRowData = [number, string, string, string, string, string, string];

/** A record of the snapshot section `tape` (see {@link MarketTape.exportRecords}). */
export type TapeSnapshotRecord =
  | { k: 'sym'; symbol: string; folded: number; recent: TapeTradeRow[] }
  | { k: 'rows'; symbol: string; type: CandleType; list: CandleRowData[] };

/** The plain-data form of the whole tape. */
export interface MarketTapeExport {
  version: 1;
  symbols: Record<string, SymbolTapeExport>;
}

class SymbolTape {
  candles = {} as Record<CandleType, CandleRow[]>;
  folded = -1;
  recent: TapeTrade[] = [];

  constructor() {
    for (const t of CANDLE_TYPES) this.candles[t] = [];
  }

  add(tr: TapeTrade): void {
    const s = Math.floor(tr.time / 1000);
    const minute = this.candles['1min'];
    const bucket = candleStart('1min', s);
    let last = minute[minute.length - 1];
    if (last === undefined || last.t !== bucket) {
      if (last !== undefined) this.fold(last);
      last = { t: bucket, o: tr.price, c: tr.price, h: tr.price, l: tr.price, v: '0', q: '0' };
      push(minute, last);
    }
    last.c = tr.price;
    if (D.cmp(tr.price, last.h) > 0) last.h = tr.price;
    if (D.cmp(tr.price, last.l) < 0) last.l = tr.price;
    last.v = D.add(last.v, tr.size);
    last.q = D.add(last.q, D.mul(tr.price, tr.size));
    this.recent.push(tr);
    if (this.recent.length > RECENT_TRADES) this.recent.shift();
  }

  /**
   * Drop the trades older than `cutoff` (ms) and the rows whose interval ended at or before it; a 1min row
   * not folded yet is folded before it goes, so the coarser rows it belongs to stay whole.
   * @returns how many trades and rows were dropped.
   */
  prune(cutoff: number): number {
    let n = 0;
    let k = 0;
    while (k < this.recent.length && this.recent[k].time < cutoff) k++;
    if (k > 0) this.recent.splice(0, k);
    n += k;
    const minute = this.candles['1min'];
    const open = minute[minute.length - 1];
    if (open !== undefined && (open.t + CANDLE_SECONDS['1min']) * 1000 <= cutoff) this.fold(open);
    for (const type of CANDLE_TYPES) {
      const rows = this.candles[type];
      const len = CANDLE_SECONDS[type];
      k = 0;
      while (k < rows.length && (rows[k].t + len) * 1000 <= cutoff) k++;
      if (k > 0) rows.splice(0, k);
      n += k;
    }
    return n;
  }

  /** True when nothing is left (no trade, no row). */
  get empty(): boolean {
    return this.recent.length === 0 && CANDLE_TYPES.every((t) => this.candles[t].length === 0);
  }

  /** Fold a finished 1min row into every coarser interval (once). */
  private fold(row: CandleRow): void {
    if (row.t <= this.folded) return;
    for (let i = 1; i < CANDLE_TYPES.length; i++) mergeInto(this.candles[CANDLE_TYPES[i]], candleStart(CANDLE_TYPES[i], row.t), row, true);
    this.folded = row.t;
  }

  /** Rows of `type` with the still-open 1min row merged in (copies where merged). */
  rows(type: CandleType): CandleRow[] {
    const rows = this.candles[type];
    if (type === '1min') return rows;
    const minute = this.candles['1min'];
    const open = minute[minute.length - 1];
    if (open === undefined || open.t <= this.folded) return rows;
    const out = rows.slice();
    mergeInto(out, candleStart(type, open.t), open, false);
    return out;
  }
}

/** Append, dropping the oldest row beyond {@link MAX_KEPT_ROWS}. */
function push(rows: CandleRow[], row: CandleRow): void {
  rows.push(row);
  if (rows.length > MAX_KEPT_ROWS) rows.shift();
}

/** Merge `src` (a finer, later row) into the row of `rows` starting at `start` (new row if none). In place when `inPlace`, else the last row is replaced by a merged copy. */
function mergeInto(rows: CandleRow[], start: number, src: CandleRow, inPlace: boolean): void {
  const last = rows[rows.length - 1];
  if (last === undefined || last.t !== start) {
    push(rows, { t: start, o: src.o, c: src.c, h: src.h, l: src.l, v: src.v, q: src.q });
    return;
  }
  const merged = inPlace ? last : { ...last };
  merged.c = src.c;
  if (D.cmp(src.h, merged.h) > 0) merged.h = src.h;
  if (D.cmp(src.l, merged.l) < 0) merged.l = src.l;
  merged.v = D.add(merged.v, src.v);
  merged.q = D.add(merged.q, src.q);
  if (!inPlace) rows[rows.length - 1] = merged;
}

/** Candles and recent trades of every symbol (see module docstring). */
export class MarketTape {
  private readonly symbols = new Map<string, SymbolTape>();

  /** Add one trade (in execution order). */
  add(tr: TapeTrade): void {
    let st = this.symbols.get(tr.symbol);
    if (st === undefined) this.symbols.set(tr.symbol, (st = new SymbolTape()));
    st.add(tr);
  }

  /**
   * Candle rows of `symbol` and `type` whose start lies in [startAt, endAt] (seconds; 0 = unbounded) and
   * whose interval ends after `since` (ms; the history window's start, see module docstring), newest first,
   * at most {@link MAX_CANDLE_ROWS}, in the wire form of {@link Candle}.
   */
  candles(symbol: string, type: CandleType, startAt = 0, endAt = 0, since = -Infinity): Candle[] {
    const st = this.symbols.get(symbol);
    if (st === undefined) return [];
    const rows = st.rows(type);
    const len = CANDLE_SECONDS[type];
    const out: Candle[] = [];
    for (let i = rows.length - 1; i >= 0 && out.length < MAX_CANDLE_ROWS; i--) {
      const r = rows[i];
      if (endAt > 0 && r.t > endAt) continue;
      if ((startAt > 0 && r.t < startAt) || (r.t + len) * 1000 <= since) break;
      out.push([String(r.t), r.o, r.c, r.h, r.l, r.v, r.q]);
    }
    return out;
  }

  /** The last {@link RECENT_TRADES} trades of `symbol` at or after `since` (ms; default all kept), oldest first. */
  recentTrades(symbol: string, since = -Infinity): readonly TapeTrade[] {
    const recent = this.symbols.get(symbol)?.recent ?? [];
    let k = 0;
    while (k < recent.length && recent[k].time < since) k++;
    return k === 0 ? recent : recent.slice(k);
  }

  /**
   * Drop what is older than `cutoff` (ms): trades, and candle rows whose interval ended at or before it
   * (module docstring, "Retention"); a symbol with nothing left is forgotten.
   * @returns how many trades and rows were dropped.
   */
  prune(cutoff: number): number {
    let n = 0;
    for (const [sym, st] of this.symbols) {
      n += st.prune(cutoff);
      if (st.empty) this.symbols.delete(sym);
    }
    return n;
  }

  /**
   * The tape as snapshot records (section `tape`), streamed: per symbol `{k: 'sym', symbol, folded, recent}`,
   * then `{k: 'rows', symbol, type, list}` blocks of at most 512 rows of one interval, oldest first.
   * Changes nothing.
   */
  *exportRecords(): Generator<TapeSnapshotRecord> {
    for (const [symbol, st] of this.symbols) {
      yield { k: 'sym', symbol, folded: st.folded, recent: st.recent.map((t) => [t.sequence, t.price, t.size, t.side, t.time]) };
      for (const type of CANDLE_TYPES) {
        const rows = st.candles[type];
        for (let i = 0; i < rows.length; i += ROWS_PER_RECORD) {
          yield { k: 'rows', symbol, type, list: rows.slice(i, i + ROWS_PER_RECORD).map((r) => [r.t, r.o, r.c, r.h, r.l, r.v, r.q]) };
        }
      }
    }
  }

  /**
   * Restore {@link exportRecords}' records into this (empty) tape.
   * @throws Error on a record of an unknown kind or interval, rows before their symbol's record or out of
   *   time order, more rows than {@link MAX_KEPT_ROWS}.
   */
  importRecords(records: Iterable<unknown>): void {
    for (const rec of records) {
      const r = rec as TapeSnapshotRecord;
      if (r.k === 'sym') {
        const st = new SymbolTape();
        st.folded = r.folded;
        st.recent = r.recent.map(([sequence, price, size, side, time]) => ({ symbol: r.symbol, sequence, price, size, side, time }));
        this.symbols.set(r.symbol, st);
      } else if (r.k === 'rows') {
        const st = this.symbols.get(r.symbol);
        if (st === undefined) throw new Error(`snapshot: candle rows of ${r.symbol} before its tape record`);
        if (!Object.prototype.hasOwnProperty.call(CANDLE_SECONDS, r.type)) throw new Error(`snapshot: unknown candle interval ${String(r.type)}`);
        const rows = st.candles[r.type];
        for (const [t, o, c, h, l, v, q] of r.list) {
          if (rows.length > 0 && rows[rows.length - 1].t >= t) throw new Error(`snapshot: ${r.symbol} ${r.type} candle rows out of order at ${t}`);
          rows.push({ t, o, c, h, l, v, q });
        }
        if (rows.length > MAX_KEPT_ROWS) throw new Error(`snapshot: ${r.symbol} ${r.type} has more than ${MAX_KEPT_ROWS} candle rows`);
      } else {
        throw new Error(`snapshot: unknown record ${String((r as { k: unknown }).k)} of section tape`);
      }
    }
  }

  /**
   * Open, high, low, last, volume and turnover of the 1-minute rows of `symbol` that overlap [since, ∞)
   * (ms; the row holding `since` counts whole), the still-open row included; null prices when none.
   * Decimal strings. The 24 h statistics use it when the engine's own trade tape does not reach back
   * ({@link MarketTape.oldestMinute}).
   */
  minuteWindow(symbol: string, since: number): { open: string | null; high: string | null; low: string | null; last: string | null; vol: string; value: string } {
    const rows = this.symbols.get(symbol)?.candles['1min'] ?? [];
    let i = rows.length;
    while (i > 0 && (rows[i - 1].t + 60) * 1000 > since) i--;
    let high: string | null = null;
    let low: string | null = null;
    let vol = '0';
    let value = '0';
    for (let k = i; k < rows.length; k++) {
      const r = rows[k];
      if (high === null || D.cmp(r.h, high) > 0) high = r.h;
      if (low === null || D.cmp(r.l, low) < 0) low = r.l;
      vol = D.add(vol, r.v);
      value = D.add(value, r.q);
    }
    return { open: i < rows.length ? rows[i].o : null, high, low, last: i < rows.length ? rows[rows.length - 1].c : null, vol, value };
  }

  /** Start (ms) of the oldest 1-minute row of `symbol`, or null when it has none. */
  oldestMinute(symbol: string): number | null {
    const rows = this.symbols.get(symbol)?.candles['1min'];
    return rows && rows.length > 0 ? rows[0].t * 1000 : null;
  }

  /**
   * Install a symbol's past as finished candle rows of every interval (oldest first, each interval's rows
   * aggregated from the same 1-minute rows), before any trade of that symbol: trades added later continue
   * the last rows. `rows['1min']` must not be empty; the last 1-minute row counts as folded already (it is
   * in the coarser rows). @throws Error when the symbol has a tape already or an interval is missing.
   */
  importHistory(symbol: string, rows: Record<CandleType, CandleRow[]>): void {
    if (this.symbols.has(symbol)) throw new Error(`market tape: ${symbol} has trades already`);
    const st = new SymbolTape();
    for (const t of CANDLE_TYPES) {
      if (!Array.isArray(rows[t])) throw new Error(`market tape: history of ${symbol} lacks ${t} rows`);
      st.candles[t] = rows[t].slice(-MAX_KEPT_ROWS);
    }
    const minute = st.candles['1min'];
    st.folded = minute.length ? minute[minute.length - 1].t : -1;
    this.symbols.set(symbol, st);
  }

  /** Plain-data copy of the whole tape (for snapshots). */
  export(): MarketTapeExport {
    const symbols: Record<string, SymbolTapeExport> = {};
    for (const [sym, st] of this.symbols) {
      const candles = {} as Record<CandleType, CandleRow[]>;
      for (const t of CANDLE_TYPES) candles[t] = st.candles[t].map((r) => ({ ...r }));
      symbols[sym] = { candles, folded: st.folded, recent: st.recent.map((r) => ({ ...r })) };
    }
    return { version: 1, symbols };
  }

  /** Rebuild a tape from {@link export}'s data. @throws Error on an unknown version. */
  static import(data: MarketTapeExport): MarketTape {
    if (data.version !== 1) throw new Error(`market tape export version ${String(data.version)} is not supported`);
    const tape = new MarketTape();
    for (const [sym, e] of Object.entries(data.symbols)) {
      const st = new SymbolTape();
      for (const t of CANDLE_TYPES) st.candles[t] = (e.candles[t] ?? []).map((r) => ({ ...r }));
      st.folded = e.folded;
      st.recent = e.recent.map((r) => ({ ...r }));
      tape.symbols.set(sym, st);
    }
    return tape;
  }
}
