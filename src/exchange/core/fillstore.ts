/**
 * Fill records of the exchange core: one record per trade in chunked typed arrays, holding both of its
 * fills (the taker's and the maker's), each chained to the previous fill of the same user.
 */
import { CHUNK_BITS, CHUNK_MASK, prefaulted } from './base';

/** Fill flag: the order's side is sell (else buy). */
export const FS_SIDE = 1;
/** Fill flag: the order is a market order. */
export const FS_MARKET = 2;
/** Fill flag: maker liquidity. */
export const FS_MAKER = 4;
/** Fill flag: forceTaker (a hidden / iceberg maker pays the taker rate). */
export const FS_FORCE = 8;
/** Float64 fields per trade: tradeId, taker seq, maker seq, ticks, lots, funds, taker fee, maker fee,
 * createdAt, previous fill id of the taker's user, previous fill id of the maker's user */
const TS_F = 11;
/** Int32 fields per trade: symbol index, taker flags | maker flags << 8, taker rate id, maker rate id */
const TS_I = 4;

/**
 * Fill records in chunked typed arrays, one record per trade holding both of its fills (taker fill id
 * 2k+1, maker fill id 2k+2 for the k-th trade): 104 bytes per trade, no per-fill heap object. funds and
 * fees are integers in the symbol's qs units (10^-qs of the quote, exact below 2^53) or, when the trade
 * was settled on the BigInt path, NaN with the exact values in `big`. Each fill links to the previous
 * fill of the same user (User.lastFill starts the chain). Converted to {@link HfFill} on read.
 */
export class FillStore {
  private readonly fC: Float64Array[] = [];
  private readonly iC: Int32Array[] = [];
  /** fill id → [funds, fee] in ledger units, for fills settled on the BigInt path */
  readonly big = new Map<number, [bigint, bigint]>();

  /** Record trade `k` (0-based; its fills are 2k+1 and 2k+2). Flags are FS_* bits, fees qs units or NaN. */
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
  ): void {
    const c = k >>> CHUNK_BITS;
    if (c >= this.fC.length) {
      this.fC.push(prefaulted(new Float64Array(TS_F << CHUNK_BITS)));
      this.iC.push(prefaulted(new Int32Array(TS_I << CHUNK_BITS)));
    }
    const f = this.fC[c];
    const x = (k & CHUNK_MASK) * TS_F;
    f[x] = tradeId;
    f[x + 1] = takerSeq;
    f[x + 2] = makerSeq;
    f[x + 3] = ticks;
    f[x + 4] = lots;
    f[x + 5] = fundsQ;
    f[x + 6] = takerFeeQ;
    f[x + 7] = makerFeeQ;
    f[x + 8] = at;
    f[x + 9] = takerPrev;
    f[x + 10] = makerPrev;
    const n = this.iC[c];
    const y = (k & CHUNK_MASK) * TS_I;
    n[y] = symIdx;
    n[y + 1] = takerFlags | (makerFlags << 8);
    n[y + 2] = takerRate;
    n[y + 3] = makerRate;
  }

  /** Float64 field `f` of the trade of fill `id`. */
  private fl(id: number, f: number): number {
    const k = (id - 1) >>> 1;
    return this.fC[k >>> CHUNK_BITS][(k & CHUNK_MASK) * TS_F + f];
  }
  /** Int32 field `f` of the trade of fill `id`. */
  private in(id: number, f: number): number {
    const k = (id - 1) >>> 1;
    return this.iC[k >>> CHUNK_BITS][(k & CHUNK_MASK) * TS_I + f];
  }
  /** 0 for the taker's fill, 1 for the maker's. */
  private side(id: number): number {
    return (id - 1) & 1;
  }

  symIdx(id: number): number {
    return this.in(id, 0);
  }
  tradeId(id: number): number {
    return this.fl(id, 0);
  }
  orderSeq(id: number): number {
    return this.fl(id, 1 + this.side(id));
  }
  counterSeq(id: number): number {
    return this.fl(id, 2 - this.side(id));
  }
  /** FS_* flags of this fill. */
  flags(id: number): number {
    return (this.in(id, 1) >> (8 * this.side(id))) & 255;
  }
  ticks(id: number): number {
    return this.fl(id, 3);
  }
  lots(id: number): number {
    return this.fl(id, 4);
  }
  /** funds in qs units, NaN when on the BigInt path (see `big`) */
  fundsQ(id: number): number {
    return this.fl(id, 5);
  }
  feeQ(id: number): number {
    return this.fl(id, 6 + this.side(id));
  }
  rateId(id: number): number {
    return this.in(id, 2 + this.side(id));
  }
  createdAt(id: number): number {
    return this.fl(id, 8);
  }
  /** The previous fill of the same user (0: none). */
  prev(id: number): number {
    return this.fl(id, 9 + this.side(id));
  }
}
