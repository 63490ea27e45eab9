/**
 * Fill records of the exchange core: one record per trade in chunked typed arrays, holding both of its
 * fills (the taker's and the maker's), each chained to the previous fill of the same user. Only trades with
 * a side whose owner keeps history are recorded (the fills of the others are never read), and whole chunks
 * whose fills all lie before the 3 × 24 h window are released.
 */
import { CHUNK_BITS, CHUNK_MASK, doubleArray, objectArray, prefaulted } from './base';

/** Fill flag: the order's side is sell (else buy). */
export const FS_SIDE = 1;
/** Fill flag: the order is a market order. */
export const FS_MARKET = 2;
/** Fill flag: maker liquidity. */
export const FS_MAKER = 4;
/** Fill flag: forceTaker (a hidden / iceberg maker pays the taker rate). */
export const FS_FORCE = 8;
/** Float64 fields per trade: trade index k (its fill ids are 2k+1 and 2k+2), tradeId, taker seq, maker seq,
 * ticks, lots, funds, taker fee, maker fee, createdAt, previous fill of the taker's user, of the maker's user */
const TS_F = 12;
/** Int32 fields per trade: symbol index, taker flags | maker flags << 8, taker rate id, maker rate id */
const TS_I = 4;

/** The fill store's state as plain data (its chunks as they are): what a snapshot carries. */
export interface FillStoreData {
  /** index of the first kept chunk (positions below firstChunk × 4,096 are released) */
  firstChunk: number;
  /** records ever stored */
  count: number;
  /** kept chunks, in order: the Float64 and Int32 fields of every record, and the chunk's latest createdAt */
  chunks: { f: Float64Array; i: Int32Array; maxT: number }[];
  /** position → [funds, taker fee, maker fee] (ledger units) of trades settled on the BigInt path */
  big: [number, [bigint, bigint, bigint]][];
}

/**
 * Fill records in chunked typed arrays by POSITION (the order in which trades were recorded), one record per
 * recorded trade holding both of its fills (the k-th trade of the exchange has the fill ids 2k+1 for the
 * taker and 2k+2 for the maker, recorded or not): 112 bytes per trade, no per-fill heap object. A fill is
 * addressed by a REF = 2 × position + 1 (taker) or + 2 (maker); 0 is none. funds and fees are integers in the
 * symbol's qs units (10^-qs of the quote, exact below 2^53) or, when the trade was settled on the BigInt path,
 * NaN with the exact values in `big`. Each fill of a user who keeps history links to the previous one of that
 * user (User.lastFill starts the chain). Records are appended in clock order, so history older than the window
 * is a prefix: {@link release} drops whole chunks of it, and a chain ends where it reaches them.
 * Converted to {@link HfFill} on read.
 */
export class FillStore {
  private fC: Float64Array[] = objectArray();
  private iC: Int32Array[] = objectArray();
  /** per kept chunk: its latest createdAt */
  private maxT: number[] = doubleArray();
  /** index of the first kept chunk (fC[0] is chunk firstChunk) */
  private firstChunk = 0;
  /** records ever stored (positions 0 .. count − 1) */
  count = 0;
  /** position → [funds, taker fee, maker fee] in ledger units, for trades settled on the BigInt path */
  readonly big = new Map<number, [bigint, bigint, bigint]>();

  /**
   * Record trade `k` at the next position (returned): flags are FS_* bits, fees qs units or NaN, prevs the
   * users' previous fill refs.
   */
  put(
    k: number,
    symIdx: number,
    tradeId: number,
    takerSeq: number,
    makerSeq: number,
    takerFlags: number,
    makerFlags: number,
    ticks: number,
    lots: number,
    fundsQ: number,
    takerFeeQ: number,
    makerFeeQ: number,
    takerRate: number,
    makerRate: number,
    at: number,
    takerPrev: number,
    makerPrev: number,
  ): number {
    const pos = this.count++;
    const c = (pos >>> CHUNK_BITS) - this.firstChunk;
    if (c >= this.fC.length) {
      this.fC.push(prefaulted(new Float64Array(TS_F << CHUNK_BITS)));
      this.iC.push(prefaulted(new Int32Array(TS_I << CHUNK_BITS)));
      this.maxT.push(at);
    } else if (at > this.maxT[c]) {
      this.maxT[c] = at;
    }
    const f = this.fC[c];
    const x = (pos & CHUNK_MASK) * TS_F;
    f[x] = k;
    f[x + 1] = tradeId;
    f[x + 2] = takerSeq;
    f[x + 3] = makerSeq;
    f[x + 4] = ticks;
    f[x + 5] = lots;
    f[x + 6] = fundsQ;
    f[x + 7] = takerFeeQ;
    f[x + 8] = makerFeeQ;
    f[x + 9] = at;
    f[x + 10] = takerPrev;
    f[x + 11] = makerPrev;
    const n = this.iC[c];
    const y = (pos & CHUNK_MASK) * TS_I;
    n[y] = symIdx;
    n[y + 1] = takerFlags | (makerFlags << 8);
    n[y + 2] = takerRate;
    n[y + 3] = makerRate;
    return pos;
  }

  /** True when `ref` is a fill whose record is kept (0 and refs into released chunks are not). */
  has(ref: number): boolean {
    return ref > 0 && (ref - 1) >>> 1 >>> CHUNK_BITS >= this.firstChunk;
  }

  /** Float64 field `f` of the record of fill `ref`. */
  private fl(ref: number, f: number): number {
    const p = (ref - 1) >>> 1;
    return this.fC[(p >>> CHUNK_BITS) - this.firstChunk][(p & CHUNK_MASK) * TS_F + f];
  }
  /** Int32 field `f` of the record of fill `ref`. */
  private in(ref: number, f: number): number {
    const p = (ref - 1) >>> 1;
    return this.iC[(p >>> CHUNK_BITS) - this.firstChunk][(p & CHUNK_MASK) * TS_I + f];
  }
  /** 0 for the taker's fill, 1 for the maker's. */
  private side(ref: number): number {
    return (ref - 1) & 1;
  }

  /** The fill id (2k+1 taker, 2k+2 maker of the exchange's k-th trade). */
  fillId(ref: number): number {
    return 2 * this.fl(ref, 0) + 1 + this.side(ref);
  }
  symIdx(ref: number): number {
    return this.in(ref, 0);
  }
  tradeId(ref: number): number {
    return this.fl(ref, 1);
  }
  orderSeq(ref: number): number {
    return this.fl(ref, 2 + this.side(ref));
  }
  counterSeq(ref: number): number {
    return this.fl(ref, 3 - this.side(ref));
  }
  /** FS_* flags of this fill. */
  flags(ref: number): number {
    return (this.in(ref, 1) >> (8 * this.side(ref))) & 255;
  }
  ticks(ref: number): number {
    return this.fl(ref, 4);
  }
  lots(ref: number): number {
    return this.fl(ref, 5);
  }
  /** funds in qs units, NaN when on the BigInt path (see `big`) */
  fundsQ(ref: number): number {
    return this.fl(ref, 6);
  }
  feeQ(ref: number): number {
    return this.fl(ref, 7 + this.side(ref));
  }
  /** [funds, fee] in ledger units of a fill settled on the BigInt path (fundsQ NaN). */
  bigOf(ref: number): [bigint, bigint] {
    const b = this.big.get((ref - 1) >>> 1) as [bigint, bigint, bigint];
    return [b[0], b[1 + this.side(ref)]];
  }
  rateId(ref: number): number {
    return this.in(ref, 2 + this.side(ref));
  }
  createdAt(ref: number): number {
    return this.fl(ref, 9);
  }
  /** The previous fill of the same user (0: none). */
  prev(ref: number): number {
    return this.fl(ref, 10 + this.side(ref));
  }

  /** Kept chunks and the records they hold (memory statistics). */
  get keptChunks(): number {
    return this.fC.length;
  }

  /**
   * Release the whole chunks at the start whose fills were all created before `winStart` (ms); never the chunk
   * being filled. @returns how many chunks were released.
   */
  release(winStart: number): number {
    const full = (this.count >>> CHUNK_BITS) - this.firstChunk;
    let n = 0;
    while (n < full && this.maxT[n] < winStart) n++;
    if (n === 0) return 0;
    this.fC.splice(0, n);
    this.iC.splice(0, n);
    this.maxT.splice(0, n);
    this.firstChunk += n;
    const first = this.firstChunk << CHUNK_BITS;
    for (const pos of this.big.keys()) {
      if (pos >= first) break;
      this.big.delete(pos);
    }
    return n;
  }

  /** The state as plain data (chunks shared, not copied: serialise before the next change). */
  exportData(): FillStoreData {
    return {
      firstChunk: this.firstChunk,
      count: this.count,
      chunks: this.fC.map((f, j) => ({ f, i: this.iC[j], maxT: this.maxT[j] })),
      big: [...this.big],
    };
  }

  /** A store holding `d` ({@link exportData}). @throws Error when the chunks do not fit the counts. */
  static importData(d: FillStoreData): FillStore {
    const fs = new FillStore();
    const need = d.count === 0 ? 0 : ((d.count - 1) >>> CHUNK_BITS) + 1 - d.firstChunk;
    if (!(d.firstChunk >= 0 && d.count >= d.firstChunk << CHUNK_BITS && d.chunks.length === Math.max(0, need))) {
      throw new Error('snapshot: fill store chunks do not fit its counts');
    }
    fs.firstChunk = d.firstChunk;
    fs.count = d.count;
    for (const ch of d.chunks) {
      if (ch.f.length !== TS_F << CHUNK_BITS || ch.i.length !== TS_I << CHUNK_BITS) throw new Error('snapshot: fill store chunk of the wrong size');
      fs.fC.push(ch.f);
      fs.iC.push(ch.i);
      fs.maxT.push(ch.maxT);
    }
    for (const [pos, v] of d.big) fs.big.set(pos, v);
    return fs;
  }
}
