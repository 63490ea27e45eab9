/**
 * Sandbox exchange core: a deterministic price-time-priority matching engine with an exact ledger
 * (spec "General rules" 3–5, "States and transitions"; issue 3).
 *
 * Determinism: no I/O, no randomness, time only from the injected clock. The same commands at the same
 * clock values produce the same order ids, fills, sequences and balances (the sandbox journals commands
 * and replays them on restart). Queries never change observable state except GTT expiry, which stamps
 * the expiry time (not the query time) so it is independent of when it is processed.
 *
 * Numbers (no binary floating point in money paths):
 * - prices are integer ticks (price / priceIncrement) and sizes integer lots (size / baseIncrement),
 *   JS numbers bounded by Number.MAX_SAFE_INTEGER: an order whose ticks or lots exceed 2^53−1 is rejected
 *   (400100), and an order that could push a level's aggregated lots past 2^53−1 is rejected too;
 * - money (balances, holds, funds, fees, collected fees) is BigInt in "ledger units" of 10^-18 of the
 *   currency (LEDGER_SCALE). A symbol needs fraction digits(priceIncrement)+digits(baseIncrement) ≤ 18,
 *   so price × size is exact in ledger units; currencies need precision ≤ 18.
 * - fee rates are BigInt at 10^-12 (RATE_SCALE).
 * - Number fast path: per-order and per-fill amounts (price × size, fees) are computed in doubles, in
 *   units of 10^-qs of the quote (qs = max(digits(priceIncrement)+digits(baseIncrement), quote precision)),
 *   only when every operand and result is an integer below 2^53 (checked on every call); otherwise, or
 *   with `bigIntOnly`, the same value is computed with BigInt. Both give identical results (tested).
 *   Resting-order holds likewise live in a per-account Number accumulator in units of 10^-K of the
 *   currency (K fixed by the first symbol using the currency), flushed into the BigInt part before it
 *   could leave ±(2^53−1); availability is checked against a Number lower bound of the free balance
 *   and, when that is inconclusive, exactly in BigInt. Fast-path fills add to Number accumulators the
 *   same way: account balances (10^-K units), an order's dealFunds and fee and a symbol's collected fees
 *   (qs units); each flushes into its BigInt part before an addition could leave ±(2^53−1), so every
 *   Number sum is exact (a double sum of safe integers is exact whenever its true value is safe).
 * - String API: price/size strings of ≤ 15 digits with no more fraction digits than the increment are
 *   parsed to ticks/lots in doubles (exact); anything else goes through src/api/decimal (BigInt), which
 *   also produces the errors.
 *
 * Memory layout: live orders are rows of typed arrays indexed by a pool slot, not objects (LF_* doubles
 * for the fields that may exceed 2^31, LI_* int32 for links, flags, owner and fee-rate ids; price-level
 * queues and a user's active list are linked by slot; rarely used fields and BigInt parts in an OrderExt
 * only for the orders that need one; freed slots reused last-freed first). Every order has a 32-byte int32
 * record by seq (the Archive): its pool slot while it is live, its final state once done (wider values in a
 * side map); done records also chain each user's done orders per symbol. Fill records and the public trade
 * tape are typed arrays too (FillStore, Sym.tape ring); wire objects are built only when queried. So the
 * garbage collector has no per-order object to trace or move, however deep the book. Large typed arrays
 * are written once per 4 KiB page when allocated (prefaulted), so page faults do not land on the order path. The trade accounts of a
 * user's orders on a symbol are cached on the user's per-symbol record (no Map lookup per fill).
 * Price levels are found through a LevelIndex per book side (a direct array over a 2^16-tick window
 * centred on the side's first price, a Map outside it) instead of a Map lookup per order. The internal
 * steps of a command (submit, match, fill, rest, finish, cancelResting) read the command's time from a
 * field (`tNow`) rather than a parameter, so no boxed double is passed between them.
 *
 * Other readings (documented choices):
 * - STP is the INCOMING order's `stp` (KuCoin): CN cancels the incoming order's remainder, CO cancels the
 *   resting own order and goes on, CB cancels both, DC decreases both by the smaller remaining size (the
 *   order reaching 0 is cancelled); DC is rejected for market orders by funds (400100).
 * - FOK: all-or-nothing checked before any fill; an own resting order met first under stp CN/CB/DC makes
 *   the FOK fail (no fill), under CO it is skipped in the check.
 * - post-only: cancelled (no fill at all) if ANY crossing resting order is ordinary (not hidden/iceberg).
 * - postOnly/hidden/iceberg/timeInForce GTT are for limit orders; postOnly with IOC/FOK is rejected.
 * - A limit order's `funds` is price × size, cancelledFunds = price × cancelledSize and remainFunds =
 *   funds − dealFunds − cancelledFunds (as in the KuCoin order fixture); market orders show price "0",
 *   size "0" for funds orders, funds "0" for size orders.
 * - clientOid must be unique among the user's ACTIVE orders (400100 "clientOid already exists").
 *
 * Fee rule (documented reading of rule 5): fees are always in the quote currency, fee = rate × funds of
 * the fill, truncated toward zero at the quote currency's precision (so rebates of a negative maker rate
 * are truncated toward zero too). Holds: a buy limit order holds price × remainSize + ceil(takerRate ×
 * price × remainSize) at the quote precision; since Σ trunc(fee_i) ≤ ceil(Σ fee), a hold recomputed after
 * every fill always covers the fills it pays for, and the difference (price improvement and the surplus
 * taker fee of maker fills) is released at once. A sell holds remainSize of base.
 * Market buy by funds holds funds + ceil(takerRate × funds). Market buy by size holds the cost of walking
 * the opposite book for `size` (own orders skipped when stp is set) + ceil(takerRate × cost); market sell
 * by funds holds the lots needed to raise `funds` by the same walk. If available does not cover that
 * hold → 200004. Market holds are transient: whatever is left is released when the order completes.
 *
 * Fee roles: the incoming order is the taker (liquidity 'taker') and pays the taker rate, except a
 * post-only order that fills against hidden/iceberg orders, which pays the maker rate. A resting order
 * pays the maker rate (liquidity 'maker') unless it is hidden or iceberg: then it pays the taker rate and
 * its fill has forceTaker true (liquidity stays 'maker'). Rates are snapshotted per order at placement.
 *
 * Market buy by funds stop rule: at each price the order buys floor(remainFunds / (price × baseIncrement))
 * lots; when that is 0 (the remaining funds cannot buy one baseIncrement at the next price) the order
 * stops and the remaining funds are cancelled ("cancelledFunds"). Market sell by funds is symmetric.
 */
import { fromUnits, parse, toUnits } from '../../api/decimal';
import { E_BALANCE, E_DISABLED, E_PARAM, E_SYMBOL, ExchangeError } from './errors';
import type {
  Account,
  AccountType,
  FillsQuery,
  HfFill,
  HfOrder,
  Level2,
  PlaceOrderRequest,
  PlaceOrderResult,
  PublicTrade,
  SymbolRules,
} from './types';

/** Fraction digits of ledger units (balances, holds, funds, fees). */
export const LEDGER_SCALE = 18;
/** Fraction digits of fee rates. */
export const RATE_SCALE = 12;
/** 3 × 24 h in ms: readable window of fills and done orders. */
export const HISTORY_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** Fixed 8-hex-digit prefix of order ids (followed by a 16-hex-digit counter). */
export const ORDER_ID_PREFIX = '6a5d0c00';
const ACCOUNT_ID_PREFIX = '6a5d0c01';
const MAX_LOTS = Number.MAX_SAFE_INTEGER;
const TAPE_MAX = 10_000;
const TAPE_STRIDE = 6; // tradeId, sequence, ticks, lots, side, time
const ZERO = 0n;

const BUY = 0;
const SELL = 1;
type SideN = 0 | 1;
const TIF_GTC = 0;
const TIF_GTT = 1;
const TIF_IOC = 2;
const TIF_FOK = 3;
const TIF_NAMES = ['GTC', 'GTT', 'IOC', 'FOK'] as const;
const STP_NONE = 0;
const STP_DC = 1;
const STP_CO = 2;
const STP_CN = 3;
const STP_CB = 4;
const STP_NAMES = ['', 'DC', 'CO', 'CN', 'CB'] as const;

function perr(msg: string): ExchangeError {
  return new ExchangeError(E_PARAM, msg);
}
/** Char code of hex digit v (0..15, lowercase). */
function hexCode(v: number): number {
  return v < 10 ? 48 + v : 87 + v;
}
/**
 * ORDER_ID_PREFIX + 16 lowercase hex digits of seq (0 ≤ seq ≤ 2^53−1), built as one flat string:
 * a concatenation of ≥ 13 chars is a cons string that every later read (e.g. cancel by id) must flatten.
 */
function orderIdString(seq: number): string {
  const hi = Math.floor(seq / 4294967296);
  const lo = seq >>> 0;
  const p = ORDER_ID_PREFIX;
  return String.fromCharCode(
    p.charCodeAt(0), p.charCodeAt(1), p.charCodeAt(2), p.charCodeAt(3), p.charCodeAt(4), p.charCodeAt(5), p.charCodeAt(6), p.charCodeAt(7),
    hexCode((hi >>> 28) & 15), hexCode((hi >>> 24) & 15), hexCode((hi >>> 20) & 15), hexCode((hi >>> 16) & 15),
    hexCode((hi >>> 12) & 15), hexCode((hi >>> 8) & 15), hexCode((hi >>> 4) & 15), hexCode(hi & 15),
    hexCode((lo >>> 28) & 15), hexCode((lo >>> 24) & 15), hexCode((lo >>> 20) & 15), hexCode((lo >>> 16) & 15),
    hexCode((lo >>> 12) & 15), hexCode((lo >>> 8) & 15), hexCode((lo >>> 4) & 15), hexCode(lo & 15),
  );
}
function hex16(n: number): string {
  return n.toString(16).padStart(16, '0');
}
function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}
function fracDigits(s: string): number {
  return parse(s).scale;
}
/**
 * A zeroed typed array with every 4 KiB page already written: large typed arrays come from lazily
 * mapped zero pages, and the first write to each page faults. Touching them all at allocation moves those
 * faults off the order path (one allocation every 4,096 orders pays them instead of ~2% of orders).
 */
function prefaulted<T extends Float64Array | Int32Array>(a: T): T {
  const step = 4096 / a.BYTES_PER_ELEMENT;
  for (let i = 0; i < a.length; i += step) a[i] = 0;
  return a;
}

/** 10^k as an exact double, k = 0..22. */
const POW10N = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Fast path of decimal parsing (string API): a plain unsigned decimal of at most 15 digits ("123",
 * "0.5", "100000.1") with at most `scale` fraction digits, as integer units at `scale`, when the result
 * is ≤ 2^53−1; -1 for anything else (then callers use the exact BigInt path of src/api/decimal, which
 * also produces the errors). Exact: ≤ 15 decimal digits are exact in a double, and a product whose true
 * value exceeds 2^53−1 never rounds to ≤ 2^53−1.
 */
function fastUnits(str: string, scale: number): number {
  const n = str.length;
  if (n === 0 || n > 16) return -1;
  let v = 0;
  let digits = 0;
  let dot = -1;
  for (let i = 0; i < n; i++) {
    const c = str.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
    } else if (c === 46 && dot < 0 && i > 0 && i < n - 1) {
      dot = i;
    } else {
      return -1;
    }
  }
  if (digits > 15) return -1;
  const frac = dot < 0 ? 0 : n - dot - 1;
  if (frac > scale || scale - frac > 22) return -1;
  const u = v * POW10N[scale - frac];
  return u <= MAX_LOTS ? u : -1;
}

/**
 * A fee rate: exact BigInt at RATE_SCALE for the general path, and num/den (den = 10^fraction digits,
 * both safe integers) for the Number fast path. Immutable; orders snapshot the object at placement.
 */
class Rate {
  readonly big: bigint;
  readonly num: number;
  readonly den: number;
  readonly str: string;
  /** index of `str` in RATE_STRS (fill records keep this index, not the string) */
  readonly id: number;
  constructor(s: string) {
    const raw = parse(s);
    this.str = fromUnits(raw.units, raw.scale);
    // from the normalised string, so that every Rate of one id (see RATE_OBJS) has the same num/den
    const p = parse(this.str);
    this.big = p.units * pow10(RATE_SCALE - p.scale);
    this.num = Number(p.units);
    this.den = 10 ** p.scale;
    let id = RATE_IDS.get(this.str);
    if (id === undefined) {
      id = RATE_STRS.push(this.str) - 1;
      RATE_IDS.set(this.str, id);
      RATE_OBJS.push(this);
    }
    this.id = id;
  }
}
/** Distinct fee-rate strings ever used (bounded by the distinct rates configured), by Rate.id. */
const RATE_STRS: string[] = [];
/** One Rate object per Rate.id (equal in value to every other Rate of that id): live orders keep the id. */
const RATE_OBJS: Rate[] = [];
const RATE_IDS = new Map<string, number>();
const DEFAULT_RATE = new Rate('0.001');

/** One balance of one currency of one type. */
class Acc {
  /** BigInt part of the balance, ledger units (change only through addBalance) */
  balanceB = ZERO;
  /**
   * Number part of the balance in units of 10^-K of the currency (fills on the fast path), |balanceN| ≤
   * 2^53−1: flushed into balanceB before an addition could leave that range.
   */
  balanceN = 0;
  /** BigInt part of the holds, ledger units (change only through addHoldsBig) */
  holdsB = ZERO;
  /**
   * Number part of the holds in units of 10^-K of the currency (K = the currency's fast scale, -1 while
   * unknown), |holdsN| ≤ 2^53−1: flushed into holdsB before an addition could leave that range.
   */
  holdsN = 0;
  K = -1;
  U = 1n; // ledger units per 10^-K
  /** min(floor((balance − holdsB) / U), 2^53−1), valid when freeOk: a lower bound for Number availability checks */
  freeN = 0;
  freeOk = false;
  /** freeN/freeOk must be recomputed (balance, holdsB or K changed) */
  dirty = true;
  constructor(
    readonly id: string,
    readonly currency: string,
    readonly type: AccountType,
  ) {}

  /** Balance, ledger units. */
  get balance(): bigint {
    return this.balanceN === 0 ? this.balanceB : this.balanceB + BigInt(this.balanceN) * this.U;
  }

  /** Total holds, ledger units. */
  get holds(): bigint {
    return this.holdsN === 0 ? this.holdsB : this.holdsB + BigInt(this.holdsN) * this.U;
  }

  /** Adopt the currency's fast scale (only while no Number holds or balance exist). */
  setK(k: number): void {
    if (this.K === k || this.holdsN !== 0 || this.balanceN !== 0 || k < 0) return;
    this.K = k;
    this.U = pow10(LEDGER_SCALE - k);
    this.dirty = true;
  }

  addBalance(v: bigint): void {
    this.balanceB += v;
    this.dirty = true;
  }

  /** Add x (10^-K units, |x| ≤ 2^53−1) to the Number balance. */
  addBalanceN(x: number): void {
    const t = this.balanceN + x;
    if (t > MAX_LOTS || t < -MAX_LOTS) {
      this.balanceB += BigInt(this.balanceN) * this.U;
      this.balanceN = x;
      this.dirty = true;
    } else {
      this.balanceN = t;
    }
  }

  addHoldsBig(v: bigint): void {
    this.holdsB += v;
    this.dirty = true;
  }

  /** Add x (10^-K units, |x| ≤ 2^53−1) to the Number holds. */
  addHoldsN(x: number): void {
    const t = this.holdsN + x;
    if (t > MAX_LOTS || t < -MAX_LOTS) {
      this.holdsB += BigInt(this.holdsN) * this.U;
      this.holdsN = x;
      this.dirty = true;
    } else {
      this.holdsN = t;
    }
  }

  /**
   * Exact: can `h` more (10^-K units) be held? available = balance − holds ≥ h, i.e.
   * (balanceB − holdsB)/U + balanceN − holdsN − h ≥ 0. freeN ≤ (balanceB − holdsB)/U, so
   * holdsN + h − balanceN ≤ freeN suffices; that difference is exact whenever its true value lies in
   * (−2^53, 2^53] and otherwise rounds (monotonically) to the same side of freeN (|freeN| < 2^53).
   */
  canHoldN(h: number): boolean {
    if (this.dirty) this.refresh();
    const t = this.holdsN + h;
    if (this.freeOk && t <= MAX_LOTS && t - this.balanceN <= this.freeN) return true;
    return this.balance - this.holdsB - BigInt(this.holdsN) * this.U - BigInt(h) * this.U >= 0n;
  }

  private refresh(): void {
    this.dirty = false;
    if (this.K < 0) {
      this.freeOk = false;
      return;
    }
    const d = this.balanceB - this.holdsB;
    let q = d / this.U;
    if (d < 0n && q * this.U !== d) q -= 1n;
    // a LOWER bound of the free amount is all the Number check needs: cap it at 2^53−1
    const lim = BigInt(MAX_LOTS);
    this.freeOk = q >= -lim;
    this.freeN = q > lim ? MAX_LOTS : this.freeOk ? Number(q) : 0;
  }
}

/** main + trade accounts of one currency of one user. */
class Wallet {
  constructor(
    readonly main: Acc,
    readonly trade: Acc,
  ) {}
}

class User {
  readonly wallets = new Map<string, Wallet>();
  taker: Rate = DEFAULT_RATE;
  maker: Rate = DEFAULT_RATE;
  /** id of this user's most recent fill (0: none); earlier ones via FillStore.prev */
  lastFill = 0;
  /** per-symbol order lists */
  readonly perSym = new Map<Sym, UserSym>();
  lastSym: Sym | null = null;
  lastUS: UserSym | null = null;
  /** clientOid → seq of the most recent order with it */
  readonly byClientOid = new Map<string, number>();
  /**
   * @param idx index in the exchange's user list (-1: a throw-away record of an order validation)
   * @param usList the exchange's list of per-user-per-symbol records (live orders refer to them by index)
   */
  constructor(
    readonly uid: string,
    readonly idx: number,
    private readonly usList: UserSym[],
  ) {}
  /** Order lists of this user on a symbol (created on first use; registered in usList unless throw-away). */
  us(s: Sym): UserSym {
    if (this.lastSym === s) return this.lastUS as UserSym;
    let u = this.perSym.get(s);
    if (!u) {
      u = new UserSym(this, s, this.idx < 0 ? -1 : this.usList.length);
      if (this.idx >= 0) this.usList.push(u);
      this.perSym.set(s, u);
    }
    this.lastSym = s;
    this.lastUS = u;
    return u;
  }
}

/** A user's orders on one symbol: list of active orders (live-order slots) + done orders (done order). */
class UserSym {
  /**
   * @param idx index in the exchange's UserSym list (live orders keep it in LI_US), -1 for throw-away records
   */
  constructor(
    readonly user: User,
    readonly sym: Sym,
    readonly idx: number,
  ) {}
  /** slot of the newest active order, -1 when none (the list goes on through LI_ANEXT, newest first) */
  head = -1;
  /** cached trade accounts of the symbol's quote and base currency (set once they exist; wallets are never removed) */
  qAcc: Acc | null = null;
  bAcc: Acc | null = null;
}

const FS_SIDE = 1;
const FS_MARKET = 2;
const FS_MAKER = 4;
const FS_FORCE = 8;
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
class FillStore {
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

/** A price level: FIFO queue of live-order slots linked through LI_NEXT / LI_PREV. */
class Level {
  size = 0; // visible lots
  /** first (oldest) order's slot, -1 when empty */
  head = -1;
  /** last (newest) order's slot, -1 when empty */
  tail = -1;
  constructor(readonly ticks: number) {}
}

const LX_SPAN = 1 << 16; // ticks covered by a LevelIndex window

/**
 * Price → level index of one book side: a direct array over a window of LX_SPAN ticks centred on the
 * first price seen (one array load instead of a hash lookup), with a Map for prices outside the window.
 * Same contract as the Map it replaces (get/set/delete/size).
 */
class LevelIndex {
  private base = 0;
  private win: (Level | undefined)[] | null = null;
  private readonly out = new Map<number, Level>();
  /** number of levels indexed */
  size = 0;

  get(ticks: number): Level | undefined {
    const k = ticks - this.base;
    if (this.win !== null && k >= 0 && k < LX_SPAN) return this.win[k];
    return this.out.get(ticks);
  }

  /** Index a level not yet indexed. */
  set(ticks: number, lv: Level): void {
    if (this.win === null) {
      this.base = Math.max(0, ticks - LX_SPAN / 2);
      this.win = new Array<Level | undefined>(LX_SPAN).fill(undefined);
    }
    const k = ticks - this.base;
    if (k >= 0 && k < LX_SPAN) this.win[k] = lv;
    else this.out.set(ticks, lv);
    this.size++;
  }

  /** Remove an indexed level. */
  delete(ticks: number): void {
    const k = ticks - this.base;
    if (this.win !== null && k >= 0 && k < LX_SPAN) this.win[k] = undefined;
    else this.out.delete(ticks);
    this.size--;
  }
}

/**
 * One side of a book. Level prices are kept sorted with the BEST level LAST (bids ascending, asks
 * descending) in a Float64Array (ticks are safe integers, exact in a double): a new or emptied level moves
 * the prices after it with one memmove and no pointer writes, and the best level is appended or popped in
 * O(1). The Level objects live in `map`; `best()` is cached.
 */
class BookSide {
  /** level prices (ticks), px[0..count), best last */
  private px = new Float64Array(64);
  /** number of levels */
  count = 0;
  /** the best level, undefined when the side is empty */
  private top: Level | undefined = undefined;
  readonly map = new LevelIndex();
  constructor(readonly side: SideN) {}

  /** The best level (highest bid, lowest ask), undefined when empty. */
  best(): Level | undefined {
    return this.top;
  }

  /** The level at sorted index i (0 = the worst, count − 1 = the best); undefined only if the index is broken. */
  at(i: number): Level | undefined {
    return this.map.get(this.px[i]);
  }

  /** The level at `ticks`, created (and placed in price order) when there is none. */
  getOrCreate(ticks: number): Level {
    let lv = this.map.get(ticks);
    if (lv) return lv;
    lv = new Level(ticks);
    this.map.set(ticks, lv);
    const n = this.count;
    if (n === this.px.length) {
      const px = new Float64Array(n * 2);
      px.set(this.px);
      this.px = px;
    }
    const a = this.px;
    const buy = this.side === BUY;
    // a new best level goes last
    if (n === 0 || (buy ? a[n - 1] < ticks : a[n - 1] > ticks)) {
      a[n] = ticks;
      this.count = n + 1;
      this.top = lv;
      return lv;
    }
    const lo = this.search(ticks);
    a.copyWithin(lo + 1, lo, n);
    a[lo] = ticks;
    this.count = n + 1;
    return lv;
  }

  /** Binary search: the first sorted index whose price is not worse than `ticks` (its index when present). */
  private search(ticks: number): number {
    const a = this.px;
    const buy = this.side === BUY;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (buy ? a[mid] < ticks : a[mid] > ticks) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Remove a level of this side (it must be indexed here). */
  remove(lv: Level): void {
    this.map.delete(lv.ticks);
    const a = this.px;
    const n = this.count;
    const ticks = lv.ticks;
    if (a[n - 1] === ticks) {
      this.count = n - 1;
      this.top = n > 1 ? this.map.get(a[n - 2]) : undefined;
      return;
    }
    const lo = this.search(ticks);
    a.copyWithin(lo, lo + 1, n);
    this.count = n - 1;
  }
}

class Sym {
  readonly bids = new BookSide(BUY);
  readonly asks = new BookSide(SELL);
  sequence = 1;
  tradeSeq = 0;
  /** ring of the last TAPE_MAX trades: TAPE_STRIDE numbers each (allocated at the first trade) */
  tape: Float64Array | null = null;
  /** trades ever recorded in `tape` */
  tapeCount = 0;
  /** collected fees not yet added to Exchange.fees, qs units (|feeN| ≤ 2^53−1) */
  feeN = 0;
  readonly ps: number;
  readonly bs: number;
  readonly priceInc: bigint; // at ps
  /** priceInc / baseInc as Numbers (0 when not safe integers: string fast path off) */
  readonly priceIncN: number;
  readonly baseIncN: number;
  readonly baseInc: bigint; // at bs
  /** ledger units (quote) of 1 tick × 1 lot */
  readonly unitFunds: bigint;
  /** ledger units (base) of 1 lot */
  readonly lotUnits: bigint;
  readonly feeQ: bigint;
  readonly feeGrid: bigint;
  readonly baseMinLots: number;
  readonly baseMaxLots: number;
  readonly quoteMin: bigint;
  readonly quoteMax: bigint;
  readonly quoteInc: bigint;
  // Number fast path (see Exchange.costQ): amounts in units of 10^-qs of the quote currency
  readonly qs: number;
  /** qs units per tick × lot (0 when not a safe integer: fast path disabled) */
  readonly unitQ: number;
  readonly qFactor: bigint; // ledger units per qs unit
  readonly precStep: number; // qs units per quote-precision unit
  readonly quoteMinQ: number;
  readonly quoteMaxQ: number;
  /** Number path: account units (10^-K) per qs unit of the quote (10^(K_quote − qs)) and per lot of the base
   * (baseIncrement × 10^(K_base − bs)); 0 when not representable (then the BigInt path is used) */
  quoteMulK = 0;
  baseMulK = 0;
  quoteK = -1;
  baseK = -1;
  enableTrading: boolean;
  constructor(
    readonly rules: SymbolRules,
    quotePrecision: number,
    readonly idx: number,
  ) {
    this.ps = fracDigits(rules.priceIncrement);
    this.bs = fracDigits(rules.baseIncrement);
    if (this.ps + this.bs > LEDGER_SCALE) throw perr('priceIncrement and baseIncrement need more than 18 fraction digits');
    this.priceInc = toUnits(rules.priceIncrement, this.ps);
    this.baseInc = toUnits(rules.baseIncrement, this.bs);
    this.priceIncN = this.priceInc <= BigInt(MAX_LOTS) ? Number(this.priceInc) : 0;
    this.baseIncN = this.baseInc <= BigInt(MAX_LOTS) ? Number(this.baseInc) : 0;
    if (this.priceInc <= 0n || this.baseInc <= 0n) throw perr('increments must be positive');
    this.unitFunds = this.priceInc * this.baseInc * pow10(LEDGER_SCALE - this.ps - this.bs);
    this.lotUnits = this.baseInc * pow10(LEDGER_SCALE - this.bs);
    this.feeQ = pow10(RATE_SCALE + LEDGER_SCALE - quotePrecision);
    this.feeGrid = pow10(LEDGER_SCALE - quotePrecision);
    const lotsOf = (s: string, up: boolean): number => {
      const u = toUnits(s, LEDGER_SCALE, 'down');
      let l = u / this.lotUnits;
      if (up && l * this.lotUnits < u) l += 1n;
      return l > BigInt(MAX_LOTS) ? MAX_LOTS : Number(l);
    };
    this.baseMinLots = Math.max(1, lotsOf(rules.baseMinSize, true));
    this.baseMaxLots = lotsOf(rules.baseMaxSize, false);
    this.quoteMin = toUnits(rules.quoteMinSize, LEDGER_SCALE, 'down');
    this.quoteMax = toUnits(rules.quoteMaxSize, LEDGER_SCALE, 'down');
    this.quoteInc = toUnits(rules.quoteIncrement, LEDGER_SCALE, 'down');
    if (this.quoteInc <= 0n) throw perr('quoteIncrement must be positive with at most 18 fraction digits');
    this.qs = Math.max(this.ps + this.bs, quotePrecision);
    const uq = this.priceInc * this.baseInc * pow10(this.qs - this.ps - this.bs);
    this.unitQ = uq <= BigInt(MAX_LOTS) ? Number(uq) : 0;
    this.qFactor = pow10(LEDGER_SCALE - this.qs);
    this.precStep = 10 ** (this.qs - quotePrecision);
    const capQ = (v: bigint): number => (v > BigInt(MAX_LOTS) ? MAX_LOTS : Number(v));
    this.quoteMinQ = capQ((this.quoteMin + this.qFactor - 1n) / this.qFactor);
    this.quoteMaxQ = capQ(this.quoteMax / this.qFactor);
    this.enableTrading = rules.enableTrading;
  }
  priceStr(ticks: number): string {
    return fromUnits(BigInt(ticks) * this.priceInc, this.ps);
  }
  sizeStr(lots: number): string {
    return fromUnits(BigInt(lots) * this.baseInc, this.bs);
  }
}

/**
 * Fields of an order as read by views and invariants: materialised from a live order's row (liveState) or
 * from its done-order archive record (Archive.get).
 */
interface OrderState {
  seq: number;
  user: User;
  sym: Sym;
  side: SideN;
  market: boolean;
  ticks: number;
  sizeLots: number;
  funds: bigint;
  tif: number;
  cancelAfter: number;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visible: number;
  stp: number;
  clientOid: string;
  remark: string;
  tags: string;
  remain: number;
  deal: number;
  cancelled: number;
  dealFunds: bigint;
  remainFunds: bigint;
  cancelledFunds: bigint;
  fee: bigint;
  active: boolean;
  inBook: boolean;
  cancelExist: boolean;
  createdAt: number;
  lastUpdatedAt: number;
}

/*
 * Live orders (active, or being matched) are rows of two typed arrays indexed by a pool slot, not
 * objects: `lf` (Float64Array, LF_STRIDE numbers per slot: every field that may exceed 2^31) and `li`
 * (Int32Array, LI_STRIDE per slot: links, flags, owner and fee-rate ids). Price levels are FIFO queues
 * of slots (LI_NEXT/LI_PREV), a user's active orders a list of slots (LI_ANEXT/LI_APREV). Rarely used
 * fields and the BigInt parts of amounts live in an {@link OrderExt} per slot (null for plain orders).
 * No per-order heap object: nothing for the garbage collector to trace or move, and a slot freed by
 * a done order is reused first (LIFO), so the hot rows stay in cache. A slot is meaningful only while
 * archive.slotOf(seq) is it; views materialise an {@link OrderState} when queried.
 */
const LF_STRIDE = 12;
/** limit price, ticks (0 for market orders) */
const LF_TICKS = 0;
/** size, lots (-1 for market orders by funds) */
const LF_LOTS = 1;
/** remaining lots (size orders) */
const LF_REMAIN = 2;
/** lots matchable now / displayed (the iceberg tranche) */
const LF_SHOWN = 3;
const LF_DEAL = 4;
const LF_CANC = 5;
/** hold on the Number path in the hold account's 10^-K units; -1 when the hold is ext.hold (BigInt) */
const LF_HOLDN = 6;
/** Number part of dealFunds, qs units (0..2^53−1): dealFunds = ext.dealB + LF_DEALN × sym.qFactor */
const LF_DEALN = 7;
/** Number part of the fee, qs units (|·| ≤ 2^53−1): fee = ext.feeB + LF_FEEN × sym.qFactor */
const LF_FEEN = 8;
/** createdAt, ms */
const LF_CREATED = 9;
/** lastUpdatedAt, ms */
const LF_UPDATED = 10;
/** order sequence number (its id is orderIdString(seq)) */
const LF_SEQ = 11;
const LI_STRIDE = 8;
/** next (newer) order in the price level's queue, -1 at the tail */
const LI_NEXT = 0;
const LI_PREV = 1;
/** next (older) order in the owner's active list, -1 at the end */
const LI_ANEXT = 2;
const LI_APREV = 3;
/** packed flags (F_*) */
const LI_FLAGS = 4;
/** index of the owner's UserSym (gives user, symbol and the trade accounts of the hold) */
const LI_US = 5;
/** Rate.id of the taker / maker rate snapshotted at placement (see RATE_OBJS) */
const LI_TAKER = 6;
const LI_MAKER = 7;

/** Rarely used order fields and BigInt amounts, allocated only for orders that need them. */
class OrderExt {
  funds: bigint; // -1n for size orders (ledger units of quote)
  remainFunds: bigint; // funds orders
  cancelledFunds = ZERO;
  cancelAfter: number;
  expireAt = 0;
  visible: number; // iceberg visible lots (0 otherwise)
  clientOid: string;
  remark: string;
  tags: string;
  /** hold on the BigInt path (ledger units), used when LF_HOLDN < 0 */
  hold = ZERO;
  /** BigInt parts of dealFunds and fee (ledger units), see LF_DEALN / LF_FEEN */
  dealB = ZERO;
  feeB = ZERO;
  constructor(p: Parsed | null) {
    this.funds = p ? p.funds : -1n;
    this.remainFunds = p && p.funds > 0n ? p.funds : ZERO;
    this.cancelAfter = p ? p.cancelAfter : 0;
    this.visible = p ? p.visible : 0;
    this.clientOid = p ? p.clientOid : '';
    this.remark = p ? p.remark : '';
    this.tags = p ? p.tags : '';
  }
}

const F_SELL = 1;
const F_MARKET = 2;
const F_TIF_SHIFT = 2; // 2 bits
const F_POST = 1 << 4;
const F_HIDDEN = 1 << 5;
const F_ICEBERG = 1 << 6;
const F_STP_SHIFT = 7; // 3 bits
const F_CANCEL_EXIST = 1 << 10;
const F_ACTIVE = 1 << 11;
const F_IN_BOOK = 1 << 12;
/** the slot has an OrderExt (lx[slot] !== null): plain orders never read lx */
const F_EXT = 1 << 13;
/** flags kept in the archive (all but the live-state bits), below 2^11 */
const F_ARCHIVED = (1 << 11) - 1;
/** at most 2^20 symbols (a bound on registered pairs) */
const MAX_SYMBOLS = 1 << 20;
/**
 * Order record: AR_STRIDE int32 per seq (32 bytes), written when the order is placed (its pool slot) and
 * when it is done (its final state).
 * Live order: [0] pool slot, [5] 0. Done order: [0] ticks [1] sizeLots [2] deal [3] createdAt − the
 * chunk's base time [4] lastUpdatedAt − createdAt [5] AR_DONE | UserSym index << 11 | flags (AR_WIDE set:
 * the numbers of [0]–[4], [6], [7] or the UserSym index did not fit and are in Archive.wide) [6] seq − the
 * previous done seq of the same user and symbol (0: none) [7] 1 + index of [dealN, feeN] in the
 * fill-amount store (0: none). cancelledSize is not stored: a done order has nothing remaining, so it is
 * sizeLots − deal (0 for orders by funds).
 */
const AR_STRIDE = 8;
const AR_WIDE = 1 << 31;
const AR_DONE = 1 << 30;
/** UserSym indexes below this fit the record's meta field (bits 11..29) */
const AR_MAX_US = 1 << 19;
const CHUNK_BITS = 12; // archive chunk = 4,096 orders
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/** Archived fields of orders that have any of them. */
interface ArchivedExt {
  clientOid: string;
  remark: string;
  tags: string;
  visible: number;
  cancelAfter: number;
}

/** A done order's numbers when one of them does not fit the int32 record. */
interface WideRecord {
  ticks: number;
  sizeLots: number;
  deal: number;
  createdAt: number;
  lastUpdatedAt: number;
  /** previous done seq of the same user and symbol, 0 when none */
  prevDone: number;
  dealN: number;
  feeN: number;
  /** index of the owner's UserSym */
  usIdx: number;
}

/** True when v is an integer that fits an int32. */
function i32(v: number): boolean {
  return (v | 0) === v;
}

/**
 * Order archive: one int32 record per seq (32 bytes per order, plus 16 for one with fills on the Number
 * path; no per-order objects for the garbage collector to trace). While an order is live its record holds
 * its pool slot (seq → slot, so no separate index); when it is done, its final state. BigInt amounts,
 * strings and out-of-range numbers only for the orders that have them. The done orders of one user and
 * symbol are chained newest first (Archive.lastDone, then [6]).
 */
class Archive {
  /** chunks of CHUNK orders: no copying as the history grows */
  private readonly recC: Int32Array[] = [];
  /** per chunk: createdAt of the first order archived in it (NaN until then) */
  private readonly baseC: number[] = [];
  /** [dealN, feeN] (qs units) of archived orders with fills on the Number path, in chunks of CHUNK pairs */
  private readonly fillAmtC: Float64Array[] = [];
  private fillAmts = 0;
  /** highest seq with a record (seqs 1..count exist) */
  count = 0;
  /** per UserSym index: seq of its most recently archived done order (0: none); a typed array rather than a
   * UserSym field, measurably cheaper to update on every done order */
  private lastDoneOf: Float64Array = new Float64Array(64);
  /** seq → [funds, dealFunds, cancelledFunds, fee] when any is non-zero (funds orders, filled orders) */
  readonly big = new Map<number, bigint[]>();
  /** seq → clientOid, remark, tags, visible, cancelAfter when any is set */
  readonly ext = new Map<number, ArchivedExt>();
  /** seq → numbers of records flagged AR_WIDE */
  readonly wide = new Map<number, WideRecord>();

  /** Record a new live order: seq (= count + 1) is in pool slot `slot`. */
  add(seq: number, slot: number): void {
    const c = seq >>> CHUNK_BITS;
    if (c >= this.recC.length) {
      this.recC.push(prefaulted(new Int32Array(AR_STRIDE << CHUNK_BITS)));
      this.baseC.push(NaN);
    }
    this.count = seq;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    rec[r] = slot;
    rec[r + 5] = 0;
  }

  /** The pool slot of a live order's seq, -1 when done or unknown (any number is accepted). */
  slotOf(seq: number): number {
    if (!(seq >= 1 && seq <= this.count) || Math.floor(seq) !== seq) return -1;
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    return rec[r + 5] === 0 ? rec[r] : -1;
  }

  /** Archive the final state of the live order in row `k` of `lf` (flags, owner record and ext given). */
  put(seq: number, lf: Float64Array, k: number, flags: number, us: UserSym, x: OrderExt | null): void {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    const created = lf[k + LF_CREATED];
    let base = this.baseC[c];
    if (base !== base) base = this.baseC[c] = created;
    const ticks = lf[k + LF_TICKS];
    const lots = lf[k + LF_LOTS];
    const deal = lf[k + LF_DEAL];
    const updated = lf[k + LF_UPDATED];
    let last: Float64Array = this.lastDoneOf;
    if (us.idx >= last.length) last = this.growLastDone(us.idx);
    const prev = last[us.idx];
    last[us.idx] = seq;
    // dealFunds and fee are non-zero only after a fill (deal > 0), funds/cancelledFunds only for funds orders;
    // size orders whose amounts are all on the Number path keep them as Numbers (qs units)
    let dealN = 0;
    let feeN = 0;
    if (deal > 0 || lots < 0) {
      const dn = lf[k + LF_DEALN];
      const fn = lf[k + LF_FEEN];
      if (lots >= 0 && (x === null || (x.dealB === ZERO && x.feeB === ZERO))) {
        dealN = dn;
        feeN = fn;
      } else {
        const qf = us.sym.qFactor;
        const dealB = x === null ? ZERO : x.dealB;
        const feeB = x === null ? ZERO : x.feeB;
        this.big.set(seq, [
          x === null ? -1n : x.funds,
          dn === 0 ? dealB : dealB + BigInt(dn) * qf,
          x === null ? ZERO : x.cancelledFunds,
          fn === 0 ? feeB : feeB + BigInt(fn) * qf,
        ]);
      }
    }
    const dc = created - base;
    const du = updated - created;
    const dp = prev === 0 ? 0 : seq - prev;
    let meta = AR_DONE | (flags & F_ARCHIVED);
    if (us.idx < AR_MAX_US && i32(ticks) && i32(lots) && i32(deal) && i32(dc) && i32(du) && i32(dp)) {
      meta |= us.idx << 11;
      rec[r] = ticks;
      rec[r + 1] = lots;
      rec[r + 2] = deal;
      rec[r + 3] = dc;
      rec[r + 4] = du;
      rec[r + 6] = dp;
      if (dealN !== 0 || feeN !== 0) {
        const i = this.fillAmts++;
        if (i >>> CHUNK_BITS >= this.fillAmtC.length) this.fillAmtC.push(prefaulted(new Float64Array(2 << CHUNK_BITS)));
        const a = this.fillAmtC[i >>> CHUNK_BITS];
        a[(i & CHUNK_MASK) * 2] = dealN;
        a[(i & CHUNK_MASK) * 2 + 1] = feeN;
        rec[r + 7] = i + 1;
      } else {
        rec[r + 7] = 0;
      }
    } else {
      meta |= AR_WIDE;
      this.wide.set(seq, { ticks, sizeLots: lots, deal, createdAt: created, lastUpdatedAt: updated, prevDone: prev, dealN, feeN, usIdx: us.idx });
    }
    rec[r + 5] = meta;
    if (x !== null && (x.clientOid !== '' || x.remark !== '' || x.tags !== '' || x.visible !== 0 || x.cancelAfter !== 0)) {
      this.ext.set(seq, { clientOid: x.clientOid, remark: x.remark, tags: x.tags, visible: x.visible, cancelAfter: x.cancelAfter });
    }
  }

  /** Seq of the most recently archived done order of a UserSym (by index; 0: none). */
  lastDone(usIdx: number): number {
    return usIdx < this.lastDoneOf.length ? this.lastDoneOf[usIdx] : 0;
  }

  private growLastDone(usIdx: number): Float64Array {
    const a = new Float64Array(Math.max(usIdx + 1, this.lastDoneOf.length * 2));
    a.set(this.lastDoneOf);
    this.lastDoneOf = a;
    return a;
  }

  /** Index of the owner's UserSym of a done order. */
  usIdx(seq: number): number {
    const meta = this.recC[seq >>> CHUNK_BITS][(seq & CHUNK_MASK) * AR_STRIDE + 5];
    if ((meta & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).usIdx;
    return (meta >>> 11) & (AR_MAX_US - 1);
  }
  lastUpdatedAt(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).lastUpdatedAt;
    return this.baseC[seq >>> CHUNK_BITS] + rec[r + 3] + rec[r + 4];
  }
  /** The done order archived before `seq` for the same user and symbol, 0 when none. */
  prevDone(seq: number): number {
    const rec = this.recC[seq >>> CHUNK_BITS];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    if ((rec[r + 5] & AR_WIDE) !== 0) return (this.wide.get(seq) as WideRecord).prevDone;
    const d = rec[r + 6];
    return d === 0 ? 0 : seq - d;
  }

  /** Materialise a done order (`usList`: the exchange's UserSym records by index). */
  get(seq: number, usList: UserSym[]): OrderState {
    const c = seq >>> CHUNK_BITS;
    const rec = this.recC[c];
    const r = (seq & CHUNK_MASK) * AR_STRIDE;
    const meta = rec[r + 5];
    const fl = meta & F_ARCHIVED;
    const w = (meta & AR_WIDE) !== 0 ? (this.wide.get(seq) as WideRecord) : undefined;
    let dealN: number;
    let feeN: number;
    if (w) {
      dealN = w.dealN;
      feeN = w.feeN;
    } else if (rec[r + 7] !== 0) {
      const i = rec[r + 7] - 1;
      dealN = this.fillAmtC[i >>> CHUNK_BITS][(i & CHUNK_MASK) * 2];
      feeN = this.fillAmtC[i >>> CHUNK_BITS][(i & CHUNK_MASK) * 2 + 1];
    } else {
      dealN = 0;
      feeN = 0;
    }
    const created = w ? w.createdAt : this.baseC[c] + rec[r + 3];
    const b = this.big.get(seq);
    const ex = this.ext.get(seq);
    const us = usList[w ? w.usIdx : (meta >>> 11) & (AR_MAX_US - 1)];
    const sym = us.sym;
    const qn = (v: number): bigint => (v === 0 ? ZERO : BigInt(v) * sym.qFactor);
    const sizeLots = w ? w.sizeLots : rec[r + 1];
    const deal = w ? w.deal : rec[r + 2];
    return {
      seq,
      user: us.user,
      sym,
      side: (fl & F_SELL) as SideN,
      market: (fl & F_MARKET) !== 0,
      ticks: w ? w.ticks : rec[r],
      sizeLots,
      funds: b ? b[0] : -1n,
      tif: (fl >> F_TIF_SHIFT) & 3,
      cancelAfter: ex ? ex.cancelAfter : 0,
      postOnly: (fl & F_POST) !== 0,
      hidden: (fl & F_HIDDEN) !== 0,
      iceberg: (fl & F_ICEBERG) !== 0,
      visible: ex ? ex.visible : 0,
      stp: (fl >> F_STP_SHIFT) & 7,
      clientOid: ex ? ex.clientOid : '',
      remark: ex ? ex.remark : '',
      tags: ex ? ex.tags : '',
      remain: 0,
      deal,
      cancelled: sizeLots < 0 ? 0 : sizeLots - deal,
      dealFunds: b ? b[1] : qn(dealN),
      remainFunds: ZERO,
      cancelledFunds: b ? b[2] : ZERO,
      fee: b ? b[3] : qn(feeN),
      active: false,
      inBook: false,
      cancelExist: (fl & F_CANCEL_EXIST) !== 0,
      createdAt: created,
      lastUpdatedAt: w ? w.lastUpdatedAt : created + rec[r + 4],
    };
  }
}

/** Withdrawal hold record. */
interface WHold {
  acc: Acc;
  amount: bigint;
  cur: string;
}

/** Parsed, rule-checked order (internal). */
interface Parsed {
  user: User;
  sym: Sym;
  side: SideN;
  market: boolean;
  ticks: number;
  lots: number; // -1 for funds
  funds: bigint; // -1n for size
  tif: number;
  cancelAfter: number;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visible: number;
  stp: number;
  clientOid: string;
  remark: string;
  tags: string;
  hold: bigint; // required hold in ledger units (quote for buys, base for sells), when holdN < 0
  holdN: number; // required hold in the account's 10^-K units (Number path), -1 when on the BigInt path
  acc: Acc | null; // the trade account of the hold, when already resolved (limit orders)
  /** own-side level at `ticks` as found by checkLimitAndHold (undefined: none); matching never touches the
   * own side, so it is still the book's level when the order rests */
  level: Level | undefined;
}

/** Best bid/ask (visible levels only); null when that side has no visible level. */
export interface BestBidAsk {
  bestBid: string | null;
  bestBidSize: string | null;
  bestAsk: string | null;
  bestAskSize: string | null;
}

/** Options of the numeric entry point {@link Exchange.placeLimitTicks}. */
export interface LimitTicksOptions {
  tif?: 'GTC' | 'IOC' | 'FOK';
  postOnly?: boolean;
  clientOid?: string;
}

/**
 * The sandbox exchange: currencies, symbols, users' fee rates, ledger (main/trade accounts, withdrawal
 * holds, collected fees) and one order book per symbol. All methods are synchronous; every mutating method
 * either succeeds completely or throws {@link ExchangeError} having changed nothing.
 */
export class Exchange {
  private readonly now: () => number;
  private readonly currencies = new Map<string, number>();
  private readonly syms = new Map<string, Sym>();
  /** uid → user: a prototype-less dictionary object rather than a Map (V8 looks string keys up in it faster,
   * ~14 ns per order on stream B); iterate `userList` (creation order) */
  private readonly users: Record<string, User | undefined> = Object.create(null) as Record<string, User | undefined>;
  private readonly userList: User[] = [];
  /** currency → fast scale K of Number holds (see Acc) */
  private readonly fastScale = new Map<string, number>();
  private readonly symList: Sym[] = [];
  /** done orders + seq → live slot */
  private readonly archive = new Archive();
  /** live-order columns (see LF_* / LI_*), grown by doubling; read them again after allocSlot() */
  private lf = new Float64Array(LF_STRIDE * 1024);
  private li = new Int32Array(LI_STRIDE * 1024);
  /** OrderExt of each slot (null: plain order) */
  private readonly lx: (OrderExt | null)[] = [];
  /** slots ever allocated, and the capacity of the columns */
  private liveSlots = 0;
  private liveCap = 1024;
  /** free slots, reused last-freed first */
  private readonly freeSlots: number[] = [];
  /** every user's per-symbol record, by UserSym.idx (live orders keep the index) */
  private readonly usList: UserSym[] = [];
  private orderSeq = 0;
  private fillSeq = 0;
  /** time (ms) of the command being processed (GTT expiry: the expiry time), read by the internal steps
   * instead of a parameter: a double argument would be boxed (a heap number per call) */
  private tNow = 0;
  /** every fill record, by fill id */
  private readonly fillStore = new FillStore();
  private accountSeq = 0;
  private holdSeq = 0;
  private readonly fees = new Map<string, bigint>();
  private readonly deposited = new Map<string, bigint>();
  private readonly withdrawn = new Map<string, bigint>();
  private readonly wholds = new Map<string, WHold>();
  /** GTT min-heap by (expireAt, seq) */
  private readonly gtt: { expireAt: number; seq: number }[] = [];
  private readonly tradeListeners: ((t: PublicTrade) => void)[] = [];
  /** one-entry symbol cache of placeLimitTicks (symbols are never removed) */
  private lastSymbolName = '';
  private lastSymbolSym: Sym | null = null;
  /** scratch request of placeLimitTicks (fields not set there keep these plain-limit defaults) */
  private readonly scratch: Parsed = {
    user: new User('', -1, []),
    sym: null as unknown as Sym,
    side: BUY,
    market: false,
    ticks: 0,
    lots: 0,
    funds: -1n,
    tif: TIF_GTC,
    cancelAfter: 0,
    postOnly: false,
    hidden: false,
    iceberg: false,
    visible: 0,
    stp: STP_NONE,
    clientOid: '',
    remark: '',
    tags: '',
    hold: ZERO,
    holdN: -1,
    acc: null,
    level: undefined,
  };

  /** Disable the Number fast path (tests run the model on both paths). */
  private readonly bigOnly: boolean;

  /**
   * @param opts.now injected clock, ms since epoch (the only time source of the core).
   * @param opts.bigIntOnly testing aid: compute every amount on the BigInt path (results are identical).
   */
  constructor(opts: { now: () => number; bigIntOnly?: boolean }) {
    this.now = opts.now;
    this.bigOnly = opts.bigIntOnly === true;
  }

  // ───────────────────────────── reference data ─────────────────────────────

  /** Register a currency with its precision (fraction digits, 0..18). Re-adding updates the precision of
   * an unused currency. @throws ExchangeError 400100 on a bad precision. */
  addCurrency(c: { currency: string; precision: number }): void {
    if (!Number.isInteger(c.precision) || c.precision < 0 || c.precision > LEDGER_SCALE) {
      throw perr(`precision of ${c.currency} must be an integer in 0..${LEDGER_SCALE}`);
    }
    this.currencies.set(c.currency, c.precision);
  }

  /** Currency codes registered with {@link addCurrency}, with precision. */
  currencyList(): { currency: string; precision: number }[] {
    return [...this.currencies].map(([currency, precision]) => ({ currency, precision }));
  }

  /**
   * Register a trading pair (fields as in GET /api/v2/symbols). Both currencies must have been added.
   * Re-adding an existing symbol only updates `enableTrading`.
   * @throws ExchangeError 400100 on unknown currencies or unusable increments.
   */
  addSymbol(rules: SymbolRules): void {
    const existing = this.syms.get(rules.symbol);
    if (existing) {
      existing.enableTrading = rules.enableTrading;
      return;
    }
    if (this.symList.length >= MAX_SYMBOLS) throw perr(`at most ${MAX_SYMBOLS} symbols`);
    const qp = this.currencies.get(rules.quoteCurrency);
    if (qp === undefined || !this.currencies.has(rules.baseCurrency)) {
      throw perr(`currencies of ${rules.symbol} must be added first`);
    }
    const sym = new Sym({ ...rules, feeCurrency: rules.feeCurrency ?? rules.quoteCurrency }, qp, this.symList.length);
    // fast scale of a currency: fixed by the first symbol using it; later symbols needing finer units
    // simply keep their holds on the BigInt path
    const kq = this.fastScale.get(rules.quoteCurrency) ?? Math.max(qp, sym.qs);
    this.fastScale.set(rules.quoteCurrency, kq);
    const kb = this.fastScale.get(rules.baseCurrency) ?? Math.max(this.currencies.get(rules.baseCurrency) as number, sym.bs);
    this.fastScale.set(rules.baseCurrency, kb);
    sym.quoteK = kq;
    sym.baseK = kb;
    sym.quoteMulK = kq >= sym.qs ? 10 ** (kq - sym.qs) : 0;
    // one lot is baseInc units at bs, i.e. baseInc × 10^(kb − bs) units of 10^-kb (baseIncrement need not be a power of ten)
    const bm = kb >= sym.bs ? sym.baseInc * pow10(kb - sym.bs) : 0n;
    sym.baseMulK = bm <= BigInt(MAX_LOTS) ? Number(bm) : 0;
    if (sym.quoteMulK > MAX_LOTS) sym.quoteMulK = 0;
    this.symList.push(sym);
    this.syms.set(rules.symbol, sym);
  }

  /** Set whether a symbol accepts new orders (cancellation always works). @throws 900001 unknown symbol. */
  setTradingEnabled(symbol: string, enabled: boolean): void {
    this.sym(symbol).enableTrading = enabled;
  }

  /** All symbols' rules (copies), in registration order. */
  symbols(): SymbolRules[] {
    return [...this.syms.values()].map((s) => ({ ...s.rules, enableTrading: s.enableTrading }));
  }

  /** True when the symbol is registered. */
  hasSymbol(symbol: string): boolean {
    return this.syms.has(symbol);
  }

  /**
   * Set a user's fee rates (decimal strings). Applies to orders placed afterwards (rates are snapshotted
   * per order). 0 ≤ taker ≤ 0.1, −0.1 ≤ maker ≤ taker (negative maker = rebate). Default 0.001/0.001.
   * @throws ExchangeError 400100 outside those bounds or with more than 12 fraction digits.
   */
  setFeeRates(uid: string, takerFeeRate: string, makerFeeRate: string): void {
    let t: bigint;
    let m: bigint;
    try {
      t = toUnits(takerFeeRate, RATE_SCALE);
      m = toUnits(makerFeeRate, RATE_SCALE);
    } catch {
      throw perr('fee rates must be decimals with at most 12 fraction digits');
    }
    const lim = pow10(RATE_SCALE - 1);
    if (t < 0n || t > lim || m < -lim || m > t) throw perr('fee rates must satisfy 0 <= taker <= 0.1 and -0.1 <= maker <= taker');
    const u = this.user(uid);
    u.taker = new Rate(takerFeeRate);
    u.maker = new Rate(makerFeeRate);
  }

  /** A user's current fee rates as decimal strings (spec "Base fee rates"). */
  feeRates(uid: string): { takerFeeRate: string; makerFeeRate: string } {
    const u = this.users[uid];
    return u ? { takerFeeRate: u.taker.str, makerFeeRate: u.maker.str } : { takerFeeRate: '0.001', makerFeeRate: '0.001' };
  }

  // ───────────────────────────── orders ─────────────────────────────

  /**
   * Check everything placement checks (symbol, trading rules, increments, min/max, balance) without
   * changing anything (POST /api/v1/hf/orders/test). Returns what placeOrder would return, except that
   * the orderId is the id the NEXT order would get.
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 rule violation, 200004 balance.
   */
  validateOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.now();
    this.expire(now);
    this.parseOrder(uid, req, false);
    return { orderId: orderIdString(this.orderSeq + 1), clientOid: req.clientOid ?? '' };
  }

  /**
   * Place an order (POST /api/v1/hf/orders): validate, hold funds in `trade`, match (price-time
   * priority, STP, TIF, post-only), rest the remainder (limit GTC/GTT) or cancel it (market, IOC).
   * @returns the new order id (24 lowercase hex: ORDER_ID_PREFIX + 16-hex counter) and clientOid ('' if none).
   * @throws ExchangeError as {@link validateOrder}; nothing changes on error.
   */
  placeOrder(uid: string, req: PlaceOrderRequest): PlaceOrderResult {
    const now = this.now();
    this.expire(now);
    const p = this.parseOrder(uid, req, true);
    this.tNow = now;
    const seq = this.submit(p);
    return { orderId: orderIdString(seq), clientOid: p.clientOid };
  }

  /**
   * Numeric entry point for benchmarks: a limit order of `ticks` × priceIncrement and `lots` ×
   * baseIncrement. Same rule checks (numeric form), holds, matching and settlement as {@link placeOrder}
   * (which parses strings and then runs the same `submit`). Returns the order sequence number (the id is
   * {@link orderIdOf}(seq)). @throws ExchangeError as placeOrder.
   */
  placeLimitTicks(uid: string, symbol: string, side: 'buy' | 'sell', ticks: number, lots: number, opts?: LimitTicksOptions): number {
    const now = this.now();
    if (this.gtt.length > 0) this.expire(now);
    let sym = this.lastSymbolSym;
    if (symbol !== this.lastSymbolName || sym === null) {
      sym = this.syms.get(symbol) ?? null;
      if (sym === null) throw new ExchangeError(E_SYMBOL, 'symbol not exists!');
      this.lastSymbolName = symbol;
      this.lastSymbolSym = sym;
    }
    if (!sym.enableTrading) throw new ExchangeError(E_DISABLED, 'trading is disabled on this symbol');
    const user = this.user(uid);
    if (!Number.isSafeInteger(ticks) || ticks <= 0) throw perr('price must be positive');
    if (!Number.isSafeInteger(lots) || lots <= 0) throw perr('size must be positive');
    const tifName = opts?.tif ?? 'GTC';
    // one scratch request object, reused (submit copies every field into the order's row)
    const p = this.scratch;
    p.user = user;
    p.sym = sym;
    p.side = side === 'buy' ? BUY : SELL;
    p.ticks = ticks;
    p.lots = lots;
    p.tif = tifName === 'GTC' ? TIF_GTC : tifName === 'IOC' ? TIF_IOC : TIF_FOK;
    p.postOnly = opts?.postOnly ?? false;
    p.clientOid = opts?.clientOid ?? '';
    p.hold = ZERO;
    this.checkLimitAndHold(p);
    this.tNow = now;
    return this.submit(p);
  }

  /** Order id string of an order sequence number (see {@link placeLimitTicks}). */
  orderIdOf(seq: number): string {
    return orderIdString(seq);
  }

  /**
   * Cancel an active order (DELETE /api/v1/hf/orders/{orderId}?symbol=): releases its remaining hold.
   * @returns {orderId}.
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" when the id is unknown, of another
   *   user or another symbol; 400100 "order is not active" when the order is already done.
   */
  cancelOrder(uid: string, symbol: string, orderId: string): { orderId: string } {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.findSeq(uid, symbol, orderId);
    if (seq < 0) throw perr('order not exists');
    const o = this.liveOf(seq);
    if (o < 0) throw perr('order is not active');
    this.tNow = now;
    this.cancelResting(o);
    return { orderId };
  }

  /** Cancel an active order by sequence number (benchmark entry point; same path as cancelOrder).
   * Returns false (and changes nothing) when it is not an active order of `uid`. */
  cancelSeq(uid: string, seq: number): boolean {
    const now = this.now();
    if (this.gtt.length > 0) this.expire(now);
    const o = this.liveOf(seq);
    if (o < 0 || this.usOf(o).user.uid !== uid) return false;
    this.tNow = now;
    this.cancelResting(o);
    return true;
  }

  /** Cancel an active order by clientOid (DELETE /api/v1/hf/orders/client-order/{clientOid}).
   * @returns {clientOid}. @throws ExchangeError 400100 "order not exists" when no active order has it. */
  cancelOrderByClientOid(uid: string, symbol: string, clientOid: string): { clientOid: string } {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.users[uid]?.byClientOid.get(clientOid) ?? -1;
    const o = this.liveOf(seq);
    if (o < 0 || this.usOf(o).sym.rules.symbol !== symbol) throw perr('order not exists');
    this.tNow = now;
    this.cancelResting(o);
    return { clientOid };
  }

  /** Cancel all active orders of a user on a symbol (DELETE /api/v1/hf/orders?symbol=).
   * @returns the cancelled order ids, oldest first. @throws ExchangeError 900001 unknown symbol. */
  cancelAll(uid: string, symbol: string): string[] {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const u = this.users[uid];
    if (!u) return [];
    const list = this.activeSlots(u.us(this.sym(symbol)));
    const ids = list.map((o) => this.orderIdOf(this.lf[o * LF_STRIDE + LF_SEQ]));
    this.tNow = now;
    for (const o of list) this.cancelResting(o);
    return ids;
  }

  /**
   * One HF order with every spec field (GET /api/v1/hf/orders/{orderId}?symbol=). A done order is
   * readable for 3 × 24 h after its last update.
   * @throws ExchangeError 900001 unknown symbol; 400100 "order not exists" (unknown, other user/symbol, expired).
   */
  getOrder(uid: string, symbol: string, orderId: string): HfOrder {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.findSeq(uid, symbol, orderId);
    if (seq < 0) throw perr('order not exists');
    const o = this.stateOf(seq);
    if (!o.active && o.lastUpdatedAt < now - HISTORY_WINDOW_MS) throw perr('order not exists');
    return this.orderView(o);
  }

  /** Like {@link getOrder} but by clientOid (most recent order of that clientOid). */
  getOrderByClientOid(uid: string, symbol: string, clientOid: string): HfOrder {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const seq = this.users[uid]?.byClientOid.get(clientOid) ?? -1;
    if (!this.owns(uid, symbol, seq)) throw perr('order not exists');
    const o = this.stateOf(seq);
    if (!o.active && o.lastUpdatedAt < now - HISTORY_WINDOW_MS) throw perr('order not exists');
    return this.orderView(o);
  }

  /** Active orders of a user on a symbol, sorted by lastUpdatedAt descending (ties: newest first)
   * (GET /api/v1/hf/orders/active). @throws ExchangeError 900001 unknown symbol. */
  activeOrders(uid: string, symbol: string): HfOrder[] {
    this.expire(this.now());
    this.sym(symbol);
    const u = this.users[uid];
    if (!u) return [];
    return this.activeSlots(u.us(this.sym(symbol)))
      .map((o) => this.liveState(o))
      .sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq)
      .map((o) => this.orderView(o));
  }

  /**
   * Done orders of a user on a symbol whose lastUpdatedAt lies in [startAt, endAt] (ms, clamped to the
   * 3 × 24 h window ending now), newest first, at most `limit` (default 100, max 100).
   * @throws ExchangeError 900001 unknown symbol.
   */
  doneOrders(uid: string, symbol: string, q: { startAt?: number; endAt?: number; limit?: number } = {}): HfOrder[] {
    const now = this.now();
    this.expire(now);
    this.sym(symbol);
    const u = this.users[uid];
    if (!u) return [];
    const us = u.us(this.sym(symbol));
    const start = Math.max(q.startAt ?? 0, now - HISTORY_WINDOW_MS);
    const end = q.endAt ?? now;
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    const out: OrderState[] = [];
    for (let seq = this.archive.lastDone(us.idx); seq !== 0; seq = this.archive.prevDone(seq)) {
      const t = this.archive.lastUpdatedAt(seq);
      if (t >= start && t <= end) out.push(this.stateOf(seq));
    }
    out.sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt || b.seq - a.seq);
    return out.slice(0, limit).map((o) => this.orderView(o));
  }

  /**
   * A user's fills (GET /api/v1/hf/fills), newest first. With `orderId` every other filter is ignored.
   * Otherwise filters side/type, [startAt, endAt] (ms) — a range starting before the 3 × 24 h window is
   * replaced by that window ending now — and `lastId` (items with id < lastId). limit default 100, max 100.
   * @returns items and lastId (id of the last item returned, 0 when none).
   * @throws ExchangeError 900001 unknown symbol.
   */
  fills(uid: string, q: FillsQuery): { items: HfFill[]; lastId: number } {
    const now = this.now();
    this.expire(now);
    const sym = this.sym(q.symbol);
    const u = this.users[uid];
    if (!u) return { items: [], lastId: 0 };
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 100);
    const out: HfFill[] = [];
    const winStart = now - HISTORY_WINDOW_MS;
    let start = q.startAt ?? winStart;
    let end = q.endAt ?? now;
    if (start < winStart) {
      start = winStart;
      end = now;
    }
    let oseq = -1;
    if (q.orderId !== undefined) {
      oseq = this.findSeq(uid, q.symbol, q.orderId);
      if (oseq < 0) return { items: [], lastId: 0 };
    }
    const side = q.side === undefined ? -1 : q.side === 'buy' ? BUY : SELL;
    const fs = this.fillStore;
    for (let id = u.lastFill; id !== 0 && out.length < limit; id = fs.prev(id)) {
      if (fs.symIdx(id) !== sym.idx) continue;
      if (oseq >= 0) {
        if (fs.orderSeq(id) !== oseq) continue;
      } else {
        const fl = fs.flags(id);
        if (q.lastId !== undefined && id >= q.lastId) continue;
        if (side >= 0 && (fl & FS_SIDE) !== side) continue;
        if (q.type !== undefined && ((fl & FS_MARKET) !== 0 ? 'market' : 'limit') !== q.type) continue;
        const at = fs.createdAt(id);
        if (at < start || at > end) continue;
      }
      out.push(this.fillView(id));
    }
    return { items: out, lastId: out.length ? out[out.length - 1].id : 0 };
  }

  // ───────────────────────────── market data ─────────────────────────────

  /**
   * Aggregated level-2 snapshot, top `depth` visible levels per side (hidden orders never count, icebergs
   * only their visible tranche). `sequence` increases with every book change.
   * @throws ExchangeError 900001 unknown symbol.
   */
  level2(symbol: string, depth: number): Level2 {
    const now = this.now();
    this.expire(now);
    const s = this.sym(symbol);
    const side = (b: BookSide): [string, string][] => {
      const out: [string, string][] = [];
      for (let i = b.count - 1; i >= 0 && out.length < depth; i--) {
        const lv = b.at(i) as Level;
        if (lv.size > 0) out.push([s.priceStr(lv.ticks), s.sizeStr(lv.size)]);
      }
      return out;
    };
    return { sequence: String(s.sequence), time: now, bids: side(s.bids), asks: side(s.asks) };
  }

  /** Current book sequence of a symbol (increases with every book change). @throws 900001. */
  sequence(symbol: string): number {
    return this.sym(symbol).sequence;
  }

  /** Best visible bid and ask with their aggregated sizes. @throws ExchangeError 900001 unknown symbol. */
  bestBidAsk(symbol: string): BestBidAsk {
    this.expire(this.now());
    const s = this.sym(symbol);
    const best = (b: BookSide): Level | undefined => {
      for (let i = b.count - 1; i >= 0; i--) {
        const lv = b.at(i) as Level;
        if (lv.size > 0) return lv;
      }
      return undefined;
    };
    const bb = best(s.bids);
    const ba = best(s.asks);
    return {
      bestBid: bb ? s.priceStr(bb.ticks) : null,
      bestBidSize: bb ? s.sizeStr(bb.size) : null,
      bestAsk: ba ? s.priceStr(ba.ticks) : null,
      bestAskSize: ba ? s.sizeStr(ba.size) : null,
    };
  }

  /**
   * Public trades of a symbol with time ≥ sinceMs (default all retained), oldest first. The tape keeps the
   * most recent 10,000 trades per symbol; use {@link onTrade} for complete statistics.
   * @throws ExchangeError 900001 unknown symbol.
   */
  trades(symbol: string, sinceMs = 0): PublicTrade[] {
    const s = this.sym(symbol);
    const out: PublicTrade[] = [];
    for (let i = Math.max(0, s.tapeCount - TAPE_MAX); i < s.tapeCount; i++) {
      const slot = i % TAPE_MAX;
      if ((s.tape as Float64Array)[slot * TAPE_STRIDE + 5] >= sinceMs) out.push(this.tradeView(s, slot));
    }
    return out;
  }

  /** Register a listener called synchronously after every trade (taker side). Returns an unsubscribe function. */
  onTrade(listener: (t: PublicTrade) => void): () => void {
    this.tradeListeners.push(listener);
    return () => {
      const i = this.tradeListeners.indexOf(listener);
      if (i >= 0) this.tradeListeners.splice(i, 1);
    };
  }

  // ───────────────────────────── ledger ─────────────────────────────

  /**
   * A user's accounts (GET /api/v1/accounts), optionally filtered, in creation order. Accounts exist once
   * a currency was touched (deposit, transfer, fill). Decimal strings.
   */
  accounts(uid: string, f: { currency?: string; type?: AccountType } = {}): Account[] {
    this.expire(this.now());
    const u = this.users[uid];
    if (!u) return [];
    const out: Account[] = [];
    for (const [cur, w] of u.wallets) {
      if (f.currency !== undefined && f.currency !== cur) continue;
      for (const a of [w.main, w.trade]) {
        if (f.type !== undefined && f.type !== a.type) continue;
        out.push({
          id: a.id,
          currency: cur,
          type: a.type,
          balance: fromUnits(a.balance, LEDGER_SCALE),
          available: fromUnits(a.balance - a.holds, LEDGER_SCALE),
          holds: fromUnits(a.holds, LEDGER_SCALE),
        });
      }
    }
    return out;
  }

  /** Credit a deposit to the user's `main` account. `amount` > 0 with at most the currency's precision.
   * @throws ExchangeError 400100 unknown currency or bad amount. */
  deposit(uid: string, currency: string, amount: string): void {
    this.expire(this.now());
    const v = this.amount(currency, amount);
    const a = this.wallet(this.user(uid), currency).main;
    a.addBalance(v);
    this.deposited.set(currency, (this.deposited.get(currency) ?? ZERO) + v);
  }

  /** Move `amount` between a user's main and trade accounts (no fee).
   * @throws ExchangeError 400100 bad currency/amount/types, 200004 when `from` available is insufficient. */
  transfer(uid: string, currency: string, from: AccountType, to: AccountType, amount: string): void {
    this.expire(this.now());
    const v = this.amount(currency, amount);
    if ((from !== 'main' && from !== 'trade') || (to !== 'main' && to !== 'trade') || from === to) {
      throw perr('from and to must be main and trade (different)');
    }
    const w = this.wallet(this.user(uid), currency);
    const src = w[from];
    if (src.balance - src.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    src.addBalance(-v);
    w[to].addBalance(v);
  }

  /** Hold `amount` (total leaving, fee included) of the user's `main` account for a withdrawal.
   * @returns a hold id. @throws ExchangeError 400100 bad amount, 200004 insufficient available. */
  holdWithdrawal(uid: string, currency: string, amount: string): string {
    this.expire(this.now());
    const v = this.amount(currency, amount);
    const a = this.wallet(this.user(uid), currency).main;
    if (a.balance - a.holds < v) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    a.addHoldsBig(v);
    const id = `wh${++this.holdSeq}`;
    this.wholds.set(id, { acc: a, amount: v, cur: currency });
    return id;
  }

  /** Complete a held withdrawal: the held amount leaves the balance; `fee` (0 ≤ fee ≤ amount) goes to the
   * collected fees, the rest counts as withdrawn. @throws ExchangeError 400100 unknown hold or bad fee. */
  settleWithdrawal(holdId: string, fee: string): void {
    const h = this.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    let f: bigint;
    try {
      f = toUnits(fee, LEDGER_SCALE);
    } catch {
      throw perr('fee must be a decimal');
    }
    if (f < 0n || f > h.amount) throw perr('fee must be between 0 and the held amount');
    this.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
    h.acc.addBalance(-h.amount);
    this.fees.set(h.cur, (this.fees.get(h.cur) ?? ZERO) + f);
    this.withdrawn.set(h.cur, (this.withdrawn.get(h.cur) ?? ZERO) + h.amount - f);
  }

  /** Cancel a held withdrawal: the hold is released. @throws ExchangeError 400100 unknown hold. */
  releaseWithdrawal(holdId: string): void {
    const h = this.wholds.get(holdId);
    if (!h) throw perr('withdrawal hold not exists');
    this.wholds.delete(holdId);
    h.acc.addHoldsBig(-h.amount);
  }

  /** Fees collected per currency (decimal strings), including withdrawal fees, net of maker rebates. */
  collectedFees(): Record<string, string> {
    this.flushFees();
    const out: Record<string, string> = {};
    for (const [c, v] of this.fees) out[c] = fromUnits(v, LEDGER_SCALE);
    return out;
  }

  /** Process GTT expiries due at the current clock time (each expired order is stamped with its expiry time). */
  tick(): void {
    this.expire(this.now());
  }

  /** Process GTT expiries due at `now` (ms). */
  advanceTo(now: number): void {
    this.expire(now);
  }

  // ───────────────────────────── invariants ─────────────────────────────

  /**
   * Check every ledger and book invariant; throws an Error describing the first violation:
   * per currency Σ balances + collected fees = deposits − withdrawals; every account's holds = what its
   * open orders / pending withdrawals reserve, 0 ≤ holds ≤ balance; books not crossed; each level's size =
   * Σ visible lots of its orders; each order dealSize + remainSize + cancelledSize = size (funds likewise
   * for funds orders); done orders hold nothing.
   */
  checkInvariants(): void {
    const fail = (m: string): never => {
      throw new Error(`invariant violated: ${m}`);
    };
    this.flushFees();
    const lf = this.lf;
    const li = this.li;
    let activeCount = 0;
    const total = new Map<string, bigint>();
    const reserved = new Map<Acc, bigint>();
    const addR = (a: Acc, v: bigint): void => {
      reserved.set(a, (reserved.get(a) ?? ZERO) + v);
    };
    for (const h of this.wholds.values()) addR(h.acc, h.amount);
    for (let seq = 1; seq <= this.orderSeq; seq++) {
      const live = this.liveOf(seq);
      const o: OrderState = live >= 0 ? this.liveState(live) : this.archive.get(seq, this.usList);
      const id = this.orderIdOf(seq);
      if (o.seq !== seq) fail(`order ${id}: archived under the wrong seq`);
      if (o.funds < 0n) {
        if (o.deal + o.remain + o.cancelled !== o.sizeLots) fail(`order ${id}: deal+remain+cancelled != size`);
      } else if (o.dealFunds + o.remainFunds + o.cancelledFunds !== o.funds) {
        fail(`order ${id}: dealFunds+remainFunds+cancelledFunds != funds`);
      }
      if (o.remain < 0 || o.remainFunds < 0n) fail(`order ${id}: negative remaining`);
      if (live < 0) {
        if (o.active || o.inBook || o.remain !== 0) fail(`done order ${id} still active`);
        continue;
      }
      const k = live * LF_STRIDE;
      const lh = this.holdBig(live);
      const x = this.lx[live];
      if (!o.active || lh < 0n) fail(`live order ${id} not active or negative hold`);
      if (lf[k + LF_HOLDN] >= 0 && x !== null && x.hold !== ZERO) fail(`order ${id} holds on both paths`);
      if (o.remain <= 0) fail(`active order ${id} has nothing remaining`);
      if (!o.inBook || o.market || this.levelOf(live) === undefined) fail(`active order ${id} not resting in the book`);
      const expect = this.holdFor(live);
      if (lh !== expect) fail(`order ${id} holds ${lh}, expected ${expect}`);
      const w = o.user.wallets.get(o.side === BUY ? o.sym.rules.quoteCurrency : o.sym.rules.baseCurrency);
      if (!w || this.accOf(live) !== w.trade) fail(`order ${id} has no account`);
      else addR(w.trade, lh);
      const shown = lf[k + LF_SHOWN];
      if (shown <= 0 || shown > o.remain) fail(`order ${id} shown ${shown} of remain ${o.remain}`);
      if (!o.iceberg && shown !== o.remain) fail(`order ${id} shown != remain`);
      activeCount++;
    }
    let pooled = 0;
    for (let slot = 0; slot < this.liveSlots; slot++) if (this.liveOf(lf[slot * LF_STRIDE + LF_SEQ]) === slot) pooled++;
    if (pooled !== activeCount || this.liveSlots - this.freeSlots.length !== activeCount || this.lx.length !== this.liveSlots) {
      fail('order pool out of step with live orders');
    }
    for (const slot of this.freeSlots) if (this.lx[slot] !== null) fail(`free slot ${slot} keeps order fields`);
    for (let slot = 0; slot < this.liveSlots; slot++) {
      const live = this.liveOf(lf[slot * LF_STRIDE + LF_SEQ]) === slot;
      if (live && ((li[slot * LI_STRIDE + LI_FLAGS] & F_EXT) !== 0) !== (this.lx[slot] !== null)) fail(`slot ${slot}: F_EXT out of step with its OrderExt`);
    }
    let listed = 0;
    for (const u of this.userList) {
      for (const us of u.perSym.values()) {
        if (this.usList[us.idx] !== us) fail(`${u.uid}: unregistered order list`);
        let prev = -1;
        for (let o = us.head; o !== -1; o = li[o * LI_STRIDE + LI_ANEXT]) {
          const j = o * LI_STRIDE;
          if ((li[j + LI_FLAGS] & F_ACTIVE) === 0 || li[j + LI_US] !== us.idx || li[j + LI_APREV] !== prev) fail(`${u.uid}: broken active-order list`);
          prev = o;
          listed++;
        }
      }
    }
    if (listed !== activeCount) fail(`active-order lists hold ${listed} orders, ${activeCount} are active`);
    for (const u of this.userList) {
      for (const [cur, w] of u.wallets) {
        for (const a of [w.main, w.trade]) {
          total.set(cur, (total.get(cur) ?? ZERO) + a.balance);
          const r = reserved.get(a) ?? ZERO;
          if (a.holds !== r) fail(`${u.uid} ${cur} ${a.type}: holds ${fromUnits(a.holds, LEDGER_SCALE)} != reserved ${fromUnits(r, LEDGER_SCALE)}`);
          if (a.holds < 0n || a.balance - a.holds < 0n) fail(`${u.uid} ${cur} ${a.type}: available < 0 or holds < 0`);
        }
      }
    }
    for (const cur of new Set([...total.keys(), ...this.deposited.keys(), ...this.fees.keys()])) {
      const lhs = (total.get(cur) ?? ZERO) + (this.fees.get(cur) ?? ZERO);
      const rhs = (this.deposited.get(cur) ?? ZERO) - (this.withdrawn.get(cur) ?? ZERO);
      if (lhs !== rhs) fail(`${cur}: balances+fees ${fromUnits(lhs, LEDGER_SCALE)} != deposits-withdrawals ${fromUnits(rhs, LEDGER_SCALE)}`);
    }
    for (const s of this.syms.values()) {
      for (const b of [s.bids, s.asks]) {
        if (b.count !== b.map.size) fail(`${s.rules.symbol}: level index mismatch`);
        if (b.best() !== (b.count > 0 ? b.at(b.count - 1) : undefined)) fail(`${s.rules.symbol}: best level is not the last`);
        for (let i = 0; i < b.count; i++) {
          const lv = b.at(i) ?? fail(`${s.rules.symbol}: level at index ${i} not indexed`);
          const pv = i > 0 ? (b.at(i - 1) as Level) : undefined;
          if (pv !== undefined && (b.side === BUY ? pv.ticks >= lv.ticks : pv.ticks <= lv.ticks)) {
            fail(`${s.rules.symbol}: levels not sorted`);
          }
          if (lv.head === -1) fail(`${s.rules.symbol}: empty level ${lv.ticks}`);
          let sum = 0;
          let prev = -1;
          for (let o = lv.head; o !== -1; o = li[o * LI_STRIDE + LI_NEXT]) {
            const j = o * LI_STRIDE;
            const fl = li[j + LI_FLAGS];
            const us = this.usList[li[j + LI_US]];
            if (
              li[j + LI_PREV] !== prev ||
              lf[o * LF_STRIDE + LF_TICKS] !== lv.ticks ||
              (fl & F_SELL) !== b.side ||
              (fl & (F_ACTIVE | F_IN_BOOK)) !== (F_ACTIVE | F_IN_BOOK) ||
              us === undefined ||
              us.sym !== s ||
              this.liveOf(lf[o * LF_STRIDE + LF_SEQ]) !== o
            ) {
              fail(`${s.rules.symbol}: broken level ${lv.ticks}`);
            }
            if ((fl & F_HIDDEN) === 0) sum += lf[o * LF_STRIDE + LF_SHOWN];
            prev = o;
          }
          if (lv.tail !== prev) fail(`${s.rules.symbol}: bad tail at ${lv.ticks}`);
          if (sum !== lv.size) fail(`${s.rules.symbol}: level ${lv.ticks} size ${lv.size} != ${sum}`);
        }
      }
      const bb = s.bids.best();
      const ba = s.asks.best();
      if (bb && ba && bb.ticks >= ba.ticks) fail(`${s.rules.symbol}: crossed book ${bb.ticks} >= ${ba.ticks}`);
    }
  }

  // ───────────────────────────── internals ─────────────────────────────

  private sym(symbol: string): Sym {
    const s = this.syms.get(symbol);
    if (!s) throw new ExchangeError(E_SYMBOL, 'symbol not exists!');
    return s;
  }

  private user(uid: string): User {
    let u = this.users[uid];
    if (!u) {
      u = new User(uid, this.userList.length, this.usList);
      this.userList.push(u);
      this.users[uid] = u;
    }
    return u;
  }

  private wallet(u: User, cur: string): Wallet {
    let w = u.wallets.get(cur);
    if (!w) {
      w = new Wallet(
        new Acc(ACCOUNT_ID_PREFIX + hex16(++this.accountSeq), cur, 'main'),
        new Acc(ACCOUNT_ID_PREFIX + hex16(++this.accountSeq), cur, 'trade'),
      );
      const k = this.fastScale.get(cur);
      if (k !== undefined) w.trade.setK(k);
      u.wallets.set(cur, w);
    }
    return w;
  }

  private amount(currency: string, amount: string): bigint {
    const prec = this.currencies.get(currency);
    if (prec === undefined) throw perr(`currency ${currency} not exists`);
    let v: bigint;
    try {
      v = toUnits(amount, prec);
    } catch {
      throw perr(`amount must be a decimal with at most ${prec} fraction digits`);
    }
    if (v <= 0n) throw perr('amount must be positive');
    return v * pow10(LEDGER_SCALE - prec);
  }

  /** Seq of an order id of `uid` on `symbol`, or -1 (unknown id, other user or symbol). */
  private findSeq(uid: string, symbol: string, orderId: string): number {
    if (typeof orderId !== 'string' || orderId.length !== 24 || !orderId.startsWith(ORDER_ID_PREFIX)) return -1;
    // 16 lowercase hex digits; a value above 2^53−1 is no existing seq
    let seq = 0;
    for (let i = 8; i < 24; i++) {
      const c = orderId.charCodeAt(i);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
      if (d < 0) return -1;
      seq = seq * 16 + d;
      if (seq > MAX_LOTS) return -1;
    }
    return this.owns(uid, symbol, seq) ? seq : -1;
  }

  /** True when seq is an order of uid on symbol. */
  private owns(uid: string, symbol: string, seq: number): boolean {
    if (!(seq >= 1 && seq <= this.orderSeq)) return false;
    const o = this.liveOf(seq);
    if (o >= 0) {
      const us = this.usOf(o);
      return us.user.uid === uid && us.sym.rules.symbol === symbol;
    }
    const us = this.usList[this.archive.usIdx(seq)];
    return us.user.uid === uid && us.sym.rules.symbol === symbol;
  }

  /** The live-order slot of a seq, or -1 when done / unknown (any number is accepted). */
  private liveOf(seq: number): number {
    return this.archive.slotOf(seq);
  }

  /** Live order or archived state of an existing seq. */
  private stateOf(seq: number): OrderState {
    const o = this.liveOf(seq);
    return o >= 0 ? this.liveState(o) : this.archive.get(seq, this.usList);
  }

  /** The state of the live order in `slot`, materialised for views and invariant checks. */
  private liveState(slot: number): OrderState {
    const lf = this.lf;
    const k = slot * LF_STRIDE;
    const fl = this.li[slot * LI_STRIDE + LI_FLAGS];
    const us = this.usOf(slot);
    const x = this.lx[slot];
    return {
      seq: lf[k + LF_SEQ],
      user: us.user,
      sym: us.sym,
      side: (fl & F_SELL) as SideN,
      market: (fl & F_MARKET) !== 0,
      ticks: lf[k + LF_TICKS],
      sizeLots: lf[k + LF_LOTS],
      funds: x === null ? -1n : x.funds,
      tif: (fl >> F_TIF_SHIFT) & 3,
      cancelAfter: x === null ? 0 : x.cancelAfter,
      postOnly: (fl & F_POST) !== 0,
      hidden: (fl & F_HIDDEN) !== 0,
      iceberg: (fl & F_ICEBERG) !== 0,
      visible: x === null ? 0 : x.visible,
      stp: (fl >> F_STP_SHIFT) & 7,
      clientOid: x === null ? '' : x.clientOid,
      remark: x === null ? '' : x.remark,
      tags: x === null ? '' : x.tags,
      remain: lf[k + LF_REMAIN],
      deal: lf[k + LF_DEAL],
      cancelled: lf[k + LF_CANC],
      dealFunds: (x === null ? ZERO : x.dealB) + BigInt(lf[k + LF_DEALN]) * us.sym.qFactor,
      remainFunds: x === null ? ZERO : x.remainFunds,
      cancelledFunds: x === null ? ZERO : x.cancelledFunds,
      fee: (x === null ? ZERO : x.feeB) + BigInt(lf[k + LF_FEEN]) * us.sym.qFactor,
      active: (fl & F_ACTIVE) !== 0,
      inBook: (fl & F_IN_BOOK) !== 0,
      cancelExist: (fl & F_CANCEL_EXIST) !== 0,
      createdAt: lf[k + LF_CREATED],
      lastUpdatedAt: lf[k + LF_UPDATED],
    };
  }

  /** The owner's per-symbol record of a live order. */
  private usOf(slot: number): UserSym {
    return this.usList[this.li[slot * LI_STRIDE + LI_US]];
  }

  /** Trade account a live order's hold sits in (quote for buys, base for sells; set on the owner's record at placement). */
  private accOf(slot: number): Acc {
    const j = slot * LI_STRIDE;
    const us = this.usList[this.li[j + LI_US]];
    return ((this.li[j + LI_FLAGS] & F_SELL) === 0 ? us.qAcc : us.bAcc) as Acc;
  }

  /** The OrderExt of a live order (created on first use). */
  private ext(slot: number): OrderExt {
    let x = this.lx[slot];
    if (x === null) {
      x = new OrderExt(null);
      this.lx[slot] = x;
      this.li[slot * LI_STRIDE + LI_FLAGS] |= F_EXT;
    }
    return x;
  }

  /** The price level a resting order is queued in (undefined when not in the book). */
  private levelOf(slot: number): Level | undefined {
    const fl = this.li[slot * LI_STRIDE + LI_FLAGS];
    if ((fl & F_IN_BOOK) === 0) return undefined;
    const s = this.usOf(slot).sym;
    return ((fl & F_SELL) === 0 ? s.bids : s.asks).map.get(this.lf[slot * LF_STRIDE + LF_TICKS]);
  }

  /** Slots of a user's active orders on a symbol, oldest first. */
  private activeSlots(us: UserSym): number[] {
    const out: number[] = [];
    for (let o = us.head; o !== -1; o = this.li[o * LI_STRIDE + LI_ANEXT]) out.push(o);
    return out.reverse();
  }

  /** A free live-order slot (the last freed one first); grows the columns when none is free. */
  private allocSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    const slot = this.liveSlots++;
    if (slot >= this.liveCap) {
      const cap = this.liveCap * 2;
      // prefaulted: the first write to each fresh page would otherwise fault on the order path
      const lf = prefaulted(new Float64Array(cap * LF_STRIDE));
      lf.set(this.lf);
      const li = prefaulted(new Int32Array(cap * LI_STRIDE));
      li.set(this.li);
      this.lf = lf;
      this.li = li;
      this.liveCap = cap;
    }
    this.lx.push(null);
    return slot;
  }

  /** ceil(rate × funds) at the quote precision, 0 for rate ≤ 0 (ledger units, BigInt path). */
  private ceilFee(s: Sym, rate: Rate, funds: bigint): bigint {
    if (rate.big <= 0n) return ZERO;
    return ((rate.big * funds + s.feeQ - 1n) / s.feeQ) * s.feeGrid;
  }

  /** trunc(rate × funds) toward zero at the quote precision (ledger units, BigInt path). */
  private truncFee(s: Sym, rate: Rate, funds: bigint): bigint {
    return ((rate.big * funds) / s.feeQ) * s.feeGrid;
  }

  /**
   * Number fast path. ticks × lots in qs units (10^-qs quote), or -1 when the exact value is not
   * below 2^53 (then callers use the BigInt path). Doubles are exact for integers < 2^53 and rounding
   * is monotonic, so a true product ≥ 2^53 never compares ≤ MAX_SAFE_INTEGER.
   */
  private costQ(s: Sym, ticks: number, lots: number): number {
    if (this.bigOnly || s.unitQ === 0) return -1;
    const c = ticks * lots * s.unitQ;
    return c <= MAX_LOTS ? c : -1;
  }

  /** Fee of `q` qs units at `rate`, rounded at the quote precision: ceil for up=true (holds, 0 when
   * rate ≤ 0), else toward zero. -1 when not exactly computable in doubles. Floor(a / b) of safe
   * integers is exact (the rounding error of a/b is below 1/b). */
  private feeQ(s: Sym, rate: Rate, q: number, up: boolean): number {
    if (rate.num === 0 || q === 0) return 0;
    if (up && rate.num < 0) return 0;
    const a = q * (rate.num < 0 ? -rate.num : rate.num);
    const b = rate.den * s.precStep;
    if (a > MAX_LOTS || b > MAX_LOTS) return -1;
    let k = Math.floor(a / b);
    if (up && k * b < a) k++;
    const f = k * s.precStep;
    if (f > MAX_LOTS) return -1;
    return rate.num < 0 ? -f : f;
  }

  /** Hold of a buy of `lots` at `ticks` at the taker rate: cost + ceil(fee) (ledger units). */
  private buyHold(s: Sym, rate: Rate, ticks: number, lots: number): bigint {
    const c = this.costQ(s, ticks, lots);
    if (c >= 0) {
      const f = this.feeQ(s, rate, c, true);
      if (f >= 0 && c + f <= MAX_LOTS) return BigInt(c + f) * s.qFactor;
    }
    const cost = BigInt(ticks) * BigInt(lots) * s.unitFunds;
    return cost + this.ceilFee(s, rate, cost);
  }

  /** Hold a resting limit order must carry (ledger units). */
  private holdFor(o: number): bigint {
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const s = this.usList[this.li[j + LI_US]].sym;
    const remain = this.lf[k + LF_REMAIN];
    if ((this.li[j + LI_FLAGS] & F_SELL) !== 0) return BigInt(remain) * s.lotUnits;
    return this.buyHold(s, RATE_OBJS[this.li[j + LI_TAKER]], this.lf[k + LF_TICKS], remain);
  }

  private parseOrder(uid: string, req: PlaceOrderRequest, forPlace: boolean): Parsed {
    const sym = this.sym(req.symbol);
    if (!sym.enableTrading) throw new ExchangeError(E_DISABLED, 'trading is disabled on this symbol');
    if (req.side !== 'buy' && req.side !== 'sell') throw perr('side must be buy or sell');
    if (req.type !== 'limit' && req.type !== 'market') throw perr('type must be limit or market');
    // validation alone must not create state: an unknown user is a throw-away record
    const user = this.users[uid] ?? (forPlace ? this.user(uid) : new User(uid, -1, this.usList));
    const r = sym.rules;
    const lotsOf = (field: string, s: string): number => {
      const fu = sym.baseIncN > 0 ? fastUnits(s, sym.bs) : -1;
      if (fu > 0 && fu % sym.baseIncN === 0) return fu / sym.baseIncN;
      let u: bigint;
      try {
        u = toUnits(s, LEDGER_SCALE);
      } catch {
        throw perr(`${field} must be a decimal with at most 18 fraction digits`);
      }
      if (u <= 0n) throw perr(`${field} must be positive`);
      if (u % sym.lotUnits !== 0n) throw perr(`${field} must be a multiple of baseIncrement ${r.baseIncrement}`);
      const l = u / sym.lotUnits;
      if (l > BigInt(MAX_LOTS)) throw perr(`${field} exceeds the engine bound of 2^53-1 baseIncrements`);
      return Number(l);
    };
    const tifName = req.timeInForce ?? 'GTC';
    const tif = TIF_NAMES.indexOf(tifName as (typeof TIF_NAMES)[number]);
    if (tif < 0) throw perr('timeInForce must be GTC, GTT, IOC or FOK');
    const stpName = req.stp ?? '';
    const stp = STP_NAMES.indexOf(stpName as (typeof STP_NAMES)[number]);
    if (stp < 0) throw perr('stp must be DC, CO, CN or CB');
    const clientOid = req.clientOid ?? '';
    if (clientOid !== '') {
      const prev = user.byClientOid.get(clientOid);
      if (prev !== undefined && this.liveOf(prev) >= 0) throw perr('clientOid already exists');
    }
    const p: Parsed = {
      user,
      sym,
      side: req.side === 'buy' ? BUY : SELL,
      market: req.type === 'market',
      ticks: 0,
      lots: -1,
      funds: -1n,
      tif,
      cancelAfter: 0,
      postOnly: req.postOnly === true,
      hidden: req.hidden === true,
      iceberg: req.iceberg === true,
      visible: 0,
      stp,
      clientOid,
      remark: req.remark ?? '',
      tags: req.tags ?? '',
      hold: ZERO,
      holdN: -1,
      acc: null,
      level: undefined,
    };
    if (p.market) {
      if (p.postOnly || p.hidden || p.iceberg) throw perr('postOnly, hidden and iceberg are only valid for limit orders');
      if (req.cancelAfter) throw perr('cancelAfter is only valid for limit GTT orders');
      const hasSize = req.size !== undefined && req.size !== '';
      const hasFunds = req.funds !== undefined && req.funds !== '';
      if (hasSize === hasFunds) throw perr('market orders need exactly one of size or funds');
      if (hasSize) {
        p.lots = lotsOf('size', req.size as string);
        if (p.lots < sym.baseMinLots) throw perr(`size must be at least baseMinSize ${r.baseMinSize}`);
        if (p.lots > sym.baseMaxLots) throw perr(`size must be at most baseMaxSize ${r.baseMaxSize}`);
      } else {
        if (stp === STP_DC) throw perr('stp DC is not supported for market orders by funds');
        let f: bigint;
        try {
          f = toUnits(req.funds as string, LEDGER_SCALE);
        } catch {
          throw perr('funds must be a decimal with at most 18 fraction digits');
        }
        if (f <= 0n) throw perr('funds must be positive');
        if (f % sym.quoteInc !== 0n) throw perr(`funds must be a multiple of quoteIncrement ${r.quoteIncrement}`);
        if (f < sym.quoteMin) throw perr(`funds must be at least quoteMinSize ${r.quoteMinSize}`);
        if (f > sym.quoteMax) throw perr(`funds must be at most quoteMaxSize ${r.quoteMaxSize}`);
        p.funds = f;
      }
      this.marketHold(p);
      return p;
    }
    // limit
    if (req.funds !== undefined && req.funds !== '') throw perr('funds is not allowed for limit orders');
    if (req.price === undefined || req.price === '') throw perr('price is required for limit orders');
    if (req.size === undefined || req.size === '') throw perr('size is required for limit orders');
    const pf = sym.priceIncN > 0 ? fastUnits(req.price, sym.ps) : -1;
    if (pf > 0 && pf % sym.priceIncN === 0) {
      p.ticks = pf / sym.priceIncN;
    } else {
      p.ticks = this.ticksOf(sym, req.price);
    }
    p.lots = lotsOf('size', req.size);
    if (tif === TIF_GTT) {
      const ca = req.cancelAfter;
      if (ca === undefined || !Number.isSafeInteger(ca) || ca <= 0 || ca > 2_147_483_647) throw perr('cancelAfter must be a positive integer number of seconds for GTT');
      p.cancelAfter = ca;
    } else if (req.cancelAfter) {
      throw perr('cancelAfter is only valid with timeInForce GTT');
    }
    if (p.postOnly && (tif === TIF_IOC || tif === TIF_FOK)) throw perr('postOnly is not allowed with timeInForce IOC or FOK');
    if (p.hidden && p.iceberg) throw perr('hidden and iceberg cannot both be set');
    if (p.iceberg) {
      if (req.visibleSize === undefined || req.visibleSize === '') throw perr('visibleSize is required for iceberg orders');
      p.visible = lotsOf('visibleSize', req.visibleSize);
      if (p.visible > p.lots) throw perr('visibleSize must not exceed size');
    } else if (req.visibleSize !== undefined && req.visibleSize !== '' && req.visibleSize !== '0') {
      throw perr('visibleSize is only valid for iceberg orders');
    }
    this.checkLimitAndHold(p);
    return p;
  }

  /** Ticks of a limit price string (exact BigInt path). @throws ExchangeError 400100 not a positive multiple of priceIncrement, or above 2^53−1 ticks. */
  private ticksOf(sym: Sym, price: string): number {
    let pu: bigint;
    try {
      pu = toUnits(price, sym.ps, 'exact');
    } catch {
      throw perr(`price must be a multiple of priceIncrement ${sym.rules.priceIncrement}`);
    }
    if (pu <= 0n) throw perr('price must be positive');
    if (pu % sym.priceInc !== 0n) throw perr(`price must be a multiple of priceIncrement ${sym.rules.priceIncrement}`);
    const t = pu / sym.priceInc;
    if (t > BigInt(MAX_LOTS)) throw perr('price exceeds the engine bound of 2^53-1 priceIncrements');
    return Number(t);
  }

  /** Numeric rule checks of a limit order + hold computation + balance check (shared by both entry points). */
  private checkLimitAndHold(p: Parsed): void {
    const s = p.sym;
    if (p.lots < s.baseMinLots) throw perr(`size must be at least baseMinSize ${s.rules.baseMinSize}`);
    if (p.lots > s.baseMaxLots) throw perr(`size must be at most baseMaxSize ${s.rules.baseMaxSize}`);
    const cq = this.costQ(s, p.ticks, p.lots);
    if (cq >= 0 ? cq < s.quoteMinQ : BigInt(p.ticks) * BigInt(p.lots) * s.unitFunds < s.quoteMin) {
      throw perr(`price x size must be at least quoteMinSize ${s.rules.quoteMinSize}`);
    }
    if (cq >= 0 ? cq > s.quoteMaxQ : BigInt(p.ticks) * BigInt(p.lots) * s.unitFunds > s.quoteMax) {
      throw perr(`price x size must be at most quoteMaxSize ${s.rules.quoteMaxSize}`);
    }
    const own = p.side === BUY ? s.bids : s.asks;
    const lv = own.map.get(p.ticks);
    p.level = lv;
    if (lv && lv.size + p.lots > MAX_LOTS) throw perr('size would exceed the engine bound of 2^53-1 lots per price level');
    // trade account holding the order's funds (cached per user and symbol once it exists)
    const us = p.user.us(s);
    let acc = p.side === BUY ? us.qAcc : us.bAcc;
    if (acc === null) {
      const w = p.user.wallets.get(p.side === BUY ? s.rules.quoteCurrency : s.rules.baseCurrency);
      if (!w) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
      acc = w.trade;
      if (p.user.idx >= 0) {
        if (p.side === BUY) us.qAcc = acc;
        else us.bAcc = acc;
      }
    }
    if (acc.K < 0) acc.setK(p.side === BUY ? s.quoteK : s.baseK);
    p.acc = acc;
    const n = this.holdNOf(s, p.side, p.user.taker, p.ticks, p.lots, acc);
    if (n >= 0) {
      if (!acc.canHoldN(n)) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
      p.holdN = n;
      p.hold = ZERO;
      return;
    }
    const hold = p.side === BUY ? this.buyHold(s, p.user.taker, p.ticks, p.lots) : BigInt(p.lots) * s.lotUnits;
    if (acc.balance - acc.holds < hold) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    p.hold = hold;
    p.holdN = -1;
  }

  /**
   * Number-path hold of a limit order of `lots` at `ticks` (buy: cost + ceil taker fee; sell: lots) in the
   * account's 10^-K units, or -1 when not exactly representable below 2^53 (then the BigInt path is used).
   */
  private holdNOf(s: Sym, side: SideN, rate: Rate, ticks: number, lots: number, acc: Acc): number {
    if (this.bigOnly) return -1;
    if (side === SELL) {
      if (s.baseMulK === 0 || acc.K !== s.baseK) return -1;
      const v = lots * s.baseMulK;
      return v <= MAX_LOTS ? v : -1;
    }
    if (s.quoteMulK === 0 || acc.K !== s.quoteK) return -1;
    const c = this.costQ(s, ticks, lots);
    if (c < 0) return -1;
    const f = this.feeQ(s, rate, c, true);
    if (f < 0) return -1;
    const v = (c + f) * s.quoteMulK;
    return v <= MAX_LOTS ? v : -1;
  }

  /** An order's current hold in ledger units, whichever path holds it. */
  private holdBig(o: number): bigint {
    const h = this.lf[o * LF_STRIDE + LF_HOLDN];
    if (h >= 0) return BigInt(h) * this.accOf(o).U;
    const x = this.lx[o];
    return x === null ? ZERO : x.hold;
  }

  /** Re-evaluate a resting limit order's hold from its remaining size (after a fill or a DC decrease). */
  private reholdLimit(o: number): void {
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const us = this.usList[li[j + LI_US]];
    const isSell = (li[j + LI_FLAGS] & F_SELL) !== 0;
    const acc = (isSell ? us.bAcc : us.qAcc) as Acc;
    const n = this.holdNOf(us.sym, isSell ? SELL : BUY, RATE_OBJS[li[j + LI_TAKER]], lf[k + LF_TICKS], lf[k + LF_REMAIN], acc);
    const cur = lf[k + LF_HOLDN];
    if (n >= 0 && cur >= 0) {
      acc.addHoldsN(n - cur);
      lf[k + LF_HOLDN] = n;
      return;
    }
    this.releaseHold(o);
    if (n >= 0) {
      lf[k + LF_HOLDN] = n;
      acc.addHoldsN(n);
    } else {
      const h = this.holdFor(o);
      this.ext(o).hold = h;
      acc.addHoldsBig(h);
    }
  }

  /** Release whatever an order holds. */
  private releaseHold(o: number): void {
    const k = o * LF_STRIDE + LF_HOLDN;
    const h = this.lf[k];
    if (h >= 0) {
      this.accOf(o).addHoldsN(-h);
      this.lf[k] = -1;
      return;
    }
    const x = this.lx[o];
    if (x !== null && x.hold !== ZERO) {
      this.accOf(o).addHoldsBig(-x.hold);
      x.hold = ZERO;
    }
  }

  /** Hold of a market order (see module doc) + balance check. */
  private marketHold(p: Parsed): void {
    const s = p.sym;
    const opp = p.side === BUY ? s.asks : s.bids;
    const uid = p.user.uid;
    const skipOwn = p.stp !== STP_NONE;
    let hold = ZERO;
    let cur: string;
    if (p.side === BUY) {
      cur = s.rules.quoteCurrency;
      if (p.funds > 0n) {
        hold = p.funds + this.ceilFee(s, p.user.taker, p.funds);
      } else {
        let need = BigInt(p.lots);
        let cost = ZERO;
        outer: for (let i = opp.count - 1; i >= 0; i--) {
          const lv = opp.at(i) as Level;
          for (let m = lv.head; m !== -1; m = this.li[m * LI_STRIDE + LI_NEXT]) {
            if (skipOwn && this.usOf(m).user.uid === uid) continue;
            const rem = BigInt(this.lf[m * LF_STRIDE + LF_REMAIN]);
            const take = rem < need ? rem : need;
            cost += BigInt(lv.ticks) * take * s.unitFunds;
            need -= take;
            if (need === 0n) break outer;
          }
        }
        hold = cost + this.ceilFee(s, p.user.taker, cost);
      }
    } else {
      cur = s.rules.baseCurrency;
      if (p.lots > 0) {
        hold = BigInt(p.lots) * s.lotUnits;
      } else {
        let left = p.funds;
        let lots = ZERO;
        outer2: for (let i = opp.count - 1; i >= 0; i--) {
          const lv = opp.at(i) as Level;
          const perLot = BigInt(lv.ticks) * s.unitFunds;
          for (let m = lv.head; m !== -1; m = this.li[m * LI_STRIDE + LI_NEXT]) {
            if (skipOwn && this.usOf(m).user.uid === uid) continue;
            const can = left / perLot;
            if (can === 0n) break outer2;
            const rem = BigInt(this.lf[m * LF_STRIDE + LF_REMAIN]);
            const take = rem < can ? rem : can;
            lots += take;
            left -= take * perLot;
          }
        }
        hold = lots * s.lotUnits;
      }
    }
    const w = p.user.wallets.get(cur);
    const avail = w ? w.trade.balance - w.trade.holds : ZERO;
    if (avail < hold) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    p.hold = hold;
  }

  /** Create the order, take its hold, match, then rest / cancel the remainder. */
  private submit(p: Parsed): number {
    const now = this.tNow;
    const u = p.user;
    const s = p.sym;
    if (
      p.holdN >= 0 &&
      p.acc !== null &&
      !p.market &&
      p.tif === TIF_GTC &&
      !p.postOnly &&
      !p.hidden &&
      !p.iceberg &&
      p.clientOid === '' &&
      p.remark === '' &&
      p.tags === ''
    ) {
      // a plain GTC limit order that cannot cross the opposite best level rests at once (see restPlain)
      const ob = p.side === BUY ? s.asks.best() : s.bids.best();
      if (ob === undefined || (p.side === BUY ? ob.ticks > p.ticks : ob.ticks < p.ticks)) return this.restPlain(p, now);
    }
    const seq = ++this.orderSeq;
    const o = this.allocSlot();
    this.archive.add(seq, o);
    const r = s.rules;
    const acc = p.acc ?? this.wallet(u, p.side === BUY ? r.quoteCurrency : r.baseCurrency).trade;
    const level = p.level;
    p.acc = null;
    p.level = undefined;
    const us = u.us(s);
    // the hold's trade account is read through the owner's record (see accOf)
    if (p.side === BUY) us.qAcc = acc;
    else us.bAcc = acc;
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    lf[k + LF_TICKS] = p.ticks;
    lf[k + LF_LOTS] = p.lots;
    lf[k + LF_REMAIN] = p.lots > 0 ? p.lots : 0;
    lf[k + LF_SHOWN] = 0;
    lf[k + LF_DEAL] = 0;
    lf[k + LF_CANC] = 0;
    lf[k + LF_HOLDN] = p.holdN >= 0 ? p.holdN : -1;
    lf[k + LF_DEALN] = 0;
    lf[k + LF_FEEN] = 0;
    lf[k + LF_CREATED] = now;
    lf[k + LF_UPDATED] = now;
    lf[k + LF_SEQ] = seq;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = -1;
    li[j + LI_ANEXT] = -1;
    li[j + LI_APREV] = -1;
    li[j + LI_FLAGS] =
      p.side |
      (p.market ? F_MARKET : 0) |
      (p.tif << F_TIF_SHIFT) |
      (p.postOnly ? F_POST : 0) |
      (p.hidden ? F_HIDDEN : 0) |
      (p.iceberg ? F_ICEBERG : 0) |
      (p.stp << F_STP_SHIFT) |
      F_ACTIVE;
    li[j + LI_US] = us.idx;
    li[j + LI_TAKER] = u.taker.id;
    li[j + LI_MAKER] = u.maker.id;
    const plain = p.lots > 0 && p.cancelAfter === 0 && p.visible === 0 && p.clientOid === '' && p.remark === '' && p.tags === '';
    // lx[o] is null here (freed slots are cleared)
    if (!plain) {
      this.lx[o] = new OrderExt(p);
      li[j + LI_FLAGS] |= F_EXT;
    }
    if (p.clientOid !== '') u.byClientOid.set(p.clientOid, seq);
    if (p.holdN >= 0) {
      acc.addHoldsN(p.holdN);
    } else {
      if (p.hold !== ZERO) this.ext(o).hold = p.hold;
      acc.addHoldsBig(p.hold);
    }
    // a limit order that cannot cross the opposite best level does not match (its remainder rests, except a
    // FOK, which is then not fillable); the best level may be hidden-only: it still crosses
    const ob = p.side === BUY ? s.asks.best() : s.bids.best();
    const mayRest =
      p.market || (ob !== undefined && (p.side === BUY ? ob.ticks <= p.ticks : ob.ticks >= p.ticks)) ? this.match(o) : p.tif !== TIF_FOK;
    const fl = li[j + LI_FLAGS];
    const tif = (fl >> F_TIF_SHIFT) & 3;
    if (mayRest && lf[k + LF_REMAIN] > 0 && (fl & F_MARKET) === 0 && (tif === TIF_GTC || tif === TIF_GTT)) {
      this.rest(o, level);
    } else {
      this.finish(o, true);
    }
    return seq;
  }

  /**
   * {@link submit} for a plain GTC limit order (no OrderExt fields, not post-only/hidden/iceberg, hold on the
   * Number path) that cannot cross the opposite best level: what submit, rest and link do for exactly this
   * case, in one body (no matching, no flag decoding). Returns the order's seq.
   */
  private restPlain(p: Parsed, now: number): number {
    const u = p.user;
    const s = p.sym;
    const side = p.side;
    const lots = p.lots;
    const n = p.holdN;
    const acc = p.acc as Acc;
    const known = p.level;
    p.acc = null;
    p.level = undefined;
    const us = u.us(s);
    if (side === BUY) us.qAcc = acc;
    else us.bAcc = acc;
    const seq = ++this.orderSeq;
    const o = this.allocSlot();
    this.archive.add(seq, o);
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    lf[k + LF_TICKS] = p.ticks;
    lf[k + LF_LOTS] = lots;
    lf[k + LF_REMAIN] = lots;
    lf[k + LF_SHOWN] = lots;
    lf[k + LF_DEAL] = 0;
    lf[k + LF_CANC] = 0;
    lf[k + LF_HOLDN] = n;
    lf[k + LF_DEALN] = 0;
    lf[k + LF_FEEN] = 0;
    lf[k + LF_CREATED] = now;
    lf[k + LF_UPDATED] = now;
    lf[k + LF_SEQ] = seq;
    li[j + LI_FLAGS] = side | (p.stp << F_STP_SHIFT) | F_ACTIVE | F_IN_BOOK;
    li[j + LI_US] = us.idx;
    li[j + LI_TAKER] = u.taker.id;
    li[j + LI_MAKER] = u.maker.id;
    acc.addHoldsN(n);
    // link(), written out: called from here it is not inlined, which costs ~12 ns per order. A level still in
    // the book is never empty (empty levels are removed at once); the order is neither hidden nor an iceberg,
    // so its whole size is shown.
    const lv = known !== undefined && known.head !== -1 ? known : (side === BUY ? s.bids : s.asks).getOrCreate(p.ticks);
    const tail = lv.tail;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = tail;
    if (tail !== -1) li[tail * LI_STRIDE + LI_NEXT] = o;
    else lv.head = o;
    lv.tail = o;
    lv.size += lots;
    s.sequence++;
    this.pushActive(us, o);
    return seq;
  }

  /** Would a post-only order cross any ordinary (not hidden, not iceberg) resting order? */
  private postOnlyBlocked(o: number): boolean {
    const li = this.li;
    const isBuy = (li[o * LI_STRIDE + LI_FLAGS] & F_SELL) === 0;
    const ticks = this.lf[o * LF_STRIDE + LF_TICKS];
    const s = this.usOf(o).sym;
    const opp = isBuy ? s.asks : s.bids;
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = li[m * LI_STRIDE + LI_NEXT]) {
        if ((li[m * LI_STRIDE + LI_FLAGS] & (F_HIDDEN | F_ICEBERG)) === 0) return true;
      }
    }
    return false;
  }

  /** FOK: can the whole size be filled now (see module doc for STP)? */
  private fokFillable(o: number): boolean {
    const lf = this.lf;
    const li = this.li;
    const j = o * LI_STRIDE;
    const isBuy = (li[j + LI_FLAGS] & F_SELL) === 0;
    const stp = (li[j + LI_FLAGS] >> F_STP_SHIFT) & 7;
    const own = li[j + LI_US];
    const ticks = lf[o * LF_STRIDE + LF_TICKS];
    const opp = isBuy ? this.usList[own].sym.asks : this.usList[own].sym.bids;
    let need = lf[o * LF_STRIDE + LF_REMAIN];
    for (let i = opp.count - 1; i >= 0; i--) {
      const lv = opp.at(i) as Level;
      if (isBuy ? lv.ticks > ticks : lv.ticks < ticks) return false;
      for (let m = lv.head; m !== -1; m = li[m * LI_STRIDE + LI_NEXT]) {
        // same UserSym ⇔ same user (the maker is on the same symbol)
        if (stp !== STP_NONE && li[m * LI_STRIDE + LI_US] === own) {
          if (stp === STP_CO) continue;
          return false;
        }
        need -= lf[m * LF_STRIDE + LF_REMAIN];
        if (need <= 0) return true;
      }
    }
    return false;
  }

  /** Match the incoming order against the opposite side. Returns false when its remainder must be
   * cancelled whatever its time in force (FOK not fillable, post-only blocked, STP CN/CB). */
  private match(o: number): boolean {
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const fo = this.li[j + LI_FLAGS];
    const own = this.li[j + LI_US];
    const s = this.usList[own].sym;
    const isBuy = (fo & F_SELL) === 0;
    const market = (fo & F_MARKET) !== 0;
    const byFunds = this.lf[k + LF_LOTS] < 0;
    const stp = (fo >> F_STP_SHIFT) & 7;
    const ticks = this.lf[k + LF_TICKS];
    const opp = isBuy ? s.asks : s.bids;
    if (!market) {
      if (((fo >> F_TIF_SHIFT) & 3) === TIF_FOK && !this.fokFillable(o)) return false;
      if ((fo & F_POST) !== 0 && this.postOnlyBlocked(o)) return false;
    }
    for (;;) {
      const lv = opp.best();
      if (lv === undefined) return true;
      if (!market && (isBuy ? lv.ticks > ticks : lv.ticks < ticks)) return true;
      const perLot = byFunds ? BigInt(lv.ticks) * s.unitFunds : ZERO;
      while (lv.head !== -1) {
        const m = lv.head;
        // (lf/li are not reallocated while matching: no slot is allocated)
        const lf = this.lf;
        if (stp !== STP_NONE && this.li[m * LI_STRIDE + LI_US] === own) {
          if (stp === STP_CN) {
            return false; // taker remainder cancelled by caller
          } else if (stp === STP_CO) {
            this.cancelResting(m, lv);
            continue;
          } else if (stp === STP_CB) {
            this.cancelResting(m, lv);
            return false;
          } else {
            // DC: decrease both by the smaller remaining size; the one reaching 0 is cancelled
            const d = Math.min(lf[k + LF_REMAIN], lf[m * LF_STRIDE + LF_REMAIN]);
            lf[k + LF_REMAIN] -= d;
            lf[k + LF_CANC] += d;
            this.li[j + LI_FLAGS] |= F_CANCEL_EXIST;
            if (!market) this.reholdLimit(o);
            this.reduceResting(m, lv, d);
            if (lf[k + LF_REMAIN] === 0) return true;
            continue;
          }
        }
        const shown = lf[m * LF_STRIDE + LF_SHOWN];
        let qty: number;
        if (byFunds) {
          const x = this.lx[o] as OrderExt;
          const can = x.remainFunds / perLot;
          if (can === ZERO) return true;
          qty = can < BigInt(shown) ? Number(can) : shown;
          if (!isBuy) {
            const holdLots = x.hold / s.lotUnits;
            if (holdLots < BigInt(qty)) qty = Number(holdLots);
            if (qty === 0) return true;
          }
        } else {
          const remain = lf[k + LF_REMAIN];
          qty = remain < shown ? remain : shown;
        }
        this.fill(o, m, lv, qty);
        if (byFunds ? (this.lx[o] as OrderExt).remainFunds === ZERO : lf[k + LF_REMAIN] === 0) return true;
      }
      // level emptied by fills/cancels (removed in unlink)
    }
  }

  /**
   * Settle one fill of `qty` lots at maker `m`'s price between taker `o` and maker `m`.
   * Fast path (funds and both fees exact integers below 2^53 in qs units): order amounts, balances and
   * collected fees are added as Numbers (each accumulator flushes into its BigInt part before it could
   * leave ±(2^53−1)); otherwise everything is computed and added in BigInt. Same values either way.
   */
  private fill(o: number, m: number, lv: Level, qty: number): void {
    const now = this.tNow;
    const lf = this.lf;
    const li = this.li;
    const ok = o * LF_STRIDE;
    const mk = m * LF_STRIDE;
    const oj = o * LI_STRIDE;
    const mj = m * LI_STRIDE;
    const fo = li[oj + LI_FLAGS];
    const fm = li[mj + LI_FLAGS];
    const ous = this.usList[li[oj + LI_US]];
    const mus = this.usList[li[mj + LI_US]];
    const s = ous.sym;
    const ticks = lv.ticks;
    // fee roles
    const mForce = (fm & (F_HIDDEN | F_ICEBERG)) !== 0;
    const oRate = RATE_OBJS[(fo & F_POST) !== 0 ? li[oj + LI_MAKER] : li[oj + LI_TAKER]];
    const mRate = RATE_OBJS[mForce ? li[mj + LI_TAKER] : li[mj + LI_MAKER]];
    const isBuy = (fo & F_SELL) === 0;
    const bus = isBuy ? ous : mus;
    const sus = isBuy ? mus : ous;
    const bq = bus.qAcc ?? this.tradeAccOf(bus, true);
    const bb = bus.bAcc ?? this.tradeAccOf(bus, false);
    const sq = sus.qAcc ?? this.tradeAccOf(sus, true);
    const sb = sus.bAcc ?? this.tradeAccOf(sus, false);
    const oMarket = (fo & F_MARKET) !== 0;
    const oFunds = lf[ok + LF_LOTS] < 0;
    const fq = this.costQ(s, ticks, qty);
    const ofq = fq >= 0 ? this.feeQ(s, oRate, fq, false) : -1;
    const mfq = fq >= 0 ? this.feeQ(s, mRate, fq, false) : -1;
    // fill-record values: qs units (fast path) or NaN with the BigInt values in the store's map
    let fundsRec = NaN;
    let oFeeRec = NaN;
    let mFeeRec = NaN;
    let funds = ZERO;
    let oFee = ZERO;
    let mFee = ZERO;
    const fast = fq >= 0 && ofq !== -1 && mfq !== -1;
    if (fast) {
      fundsRec = fq;
      oFeeRec = ofq;
      mFeeRec = mfq;
      this.addDealN(o, s, fq, ofq);
      this.addDealN(m, s, fq, mfq);
      const bFee = isBuy ? ofq : mfq;
      const sFee = isBuy ? mfq : ofq;
      this.addQuoteN(bq, s, -fq, -bFee);
      this.addQuoteN(sq, s, fq, -sFee);
      this.addBaseN(bb, s, qty);
      this.addBaseN(sb, s, -qty);
      this.addFeesN(s, bFee, sFee);
      if (oFunds || oMarket) {
        // funds orders and market holds work in BigInt (only the incoming order can be a market order)
        funds = BigInt(fq) * s.qFactor;
        oFee = BigInt(ofq) * s.qFactor;
        mFee = BigInt(mfq) * s.qFactor;
      }
    } else {
      funds = BigInt(ticks) * BigInt(qty) * s.unitFunds;
      oFee = this.truncFee(s, oRate, funds);
      mFee = this.truncFee(s, mRate, funds);
      const bFee = isBuy ? oFee : mFee;
      const sFee = isBuy ? mFee : oFee;
      const baseAmt = BigInt(qty) * s.lotUnits;
      const ox = this.ext(o);
      const mx = this.ext(m);
      ox.dealB += funds;
      mx.dealB += funds;
      ox.feeB += oFee;
      mx.feeB += mFee;
      bq.addBalance(-(funds + bFee));
      bb.addBalance(baseAmt);
      sb.addBalance(-baseAmt);
      sq.addBalance(funds - sFee);
      const qw = s.rules.quoteCurrency;
      this.fees.set(qw, (this.fees.get(qw) ?? ZERO) + bFee + sFee);
    }
    // order state
    lf[ok + LF_DEAL] += qty;
    lf[mk + LF_DEAL] += qty;
    if (oFunds) (this.lx[o] as OrderExt).remainFunds -= funds;
    else lf[ok + LF_REMAIN] -= qty;
    lf[mk + LF_REMAIN] -= qty;
    lf[mk + LF_SHOWN] -= qty;
    if ((fm & F_HIDDEN) === 0) lv.size -= qty;
    lf[ok + LF_UPDATED] = now;
    lf[mk + LF_UPDATED] = now;
    // holds (the maker is a resting limit order; a limit order with nothing left is done: its hold is
    // released whole, no recomputation)
    if (oMarket) {
      this.consumeHold(o, isBuy ? bq : sb, isBuy ? funds + oFee : BigInt(qty) * s.lotUnits);
    } else if (lf[ok + LF_REMAIN] === 0) {
      this.releaseHold(o);
    } else {
      this.reholdLimit(o);
    }
    if (lf[mk + LF_REMAIN] === 0) this.releaseHold(m);
    else this.reholdLimit(m);
    // records
    const tradeId = ++s.tradeSeq;
    s.sequence++;
    const fs = this.fillStore;
    const oSeq = lf[ok + LF_SEQ];
    const mSeq = lf[mk + LF_SEQ];
    const oId = ++this.fillSeq;
    const mId = ++this.fillSeq;
    // each user's fills are chained newest first (taker's fill, then maker's: a self-trade lists both)
    const ou = ous.user;
    const mu = mus.user;
    const oPrev = ou.lastFill;
    ou.lastFill = oId;
    const mPrev = mu.lastFill;
    mu.lastFill = mId;
    fs.put(
      (oId - 1) >>> 1,
      s.idx,
      tradeId,
      oSeq,
      mSeq,
      (fo & F_SELL) | (oMarket ? FS_MARKET : 0),
      (fm & F_SELL) | FS_MAKER | (mForce ? FS_FORCE : 0),
      ticks,
      qty,
      fundsRec,
      oFeeRec,
      mFeeRec,
      oRate.id,
      mRate.id,
      now,
      oPrev,
      mPrev,
    );
    if (!fast) {
      fs.big.set(oId, [funds, oFee]);
      fs.big.set(mId, [funds, mFee]);
    }
    let tape = s.tape;
    if (tape === null) tape = s.tape = new Float64Array(TAPE_MAX * TAPE_STRIDE);
    const slot = s.tapeCount % TAPE_MAX;
    const t = slot * TAPE_STRIDE;
    tape[t] = tradeId;
    tape[t + 1] = s.sequence;
    tape[t + 2] = ticks;
    tape[t + 3] = qty;
    tape[t + 4] = fo & F_SELL;
    tape[t + 5] = now;
    s.tapeCount++;
    if (this.tradeListeners.length > 0) {
      const pt = this.tradeView(s, slot);
      for (const l of this.tradeListeners.slice()) l(pt);
    }
    // maker bookkeeping
    if (lf[mk + LF_REMAIN] === 0) {
      this.unlink(m, lv, false);
      this.finish(m, false);
    } else if (lf[mk + LF_SHOWN] === 0) {
      // iceberg refill: new tranche to the back of the level's queue
      this.unlink(m, lv, true);
      const x = this.lx[m] as OrderExt;
      lf[mk + LF_SHOWN] = Math.min(x.visible, lf[mk + LF_REMAIN]);
      this.link(m, lv);
    }
  }

  /** Trade account of the quote (quote=true) or base currency of a user on a symbol (created if missing), cached on the record. */
  private tradeAccOf(us: UserSym, quote: boolean): Acc {
    if (quote) return us.qAcc ?? (us.qAcc = this.wallet(us.user, us.sym.rules.quoteCurrency).trade);
    return us.bAcc ?? (us.bAcc = this.wallet(us.user, us.sym.rules.baseCurrency).trade);
  }

  /** Fast-path fill of order `o`: add `funds` (0..2^53−1) and `fee` (|fee| ≤ 2^53−1) qs units. */
  private addDealN(o: number, s: Sym, funds: number, fee: number): void {
    const lf = this.lf;
    const k = o * LF_STRIDE;
    const d = lf[k + LF_DEALN] + funds;
    if (d > MAX_LOTS) {
      const x = this.ext(o);
      x.dealB += BigInt(lf[k + LF_DEALN]) * s.qFactor;
      lf[k + LF_DEALN] = funds;
    } else {
      lf[k + LF_DEALN] = d;
    }
    const f = lf[k + LF_FEEN] + fee;
    if (f > MAX_LOTS || f < -MAX_LOTS) {
      const x = this.ext(o);
      x.feeB += BigInt(lf[k + LF_FEEN]) * s.qFactor;
      lf[k + LF_FEEN] = fee;
    } else {
      lf[k + LF_FEEN] = f;
    }
  }

  /** Add a + b qs units of the quote (a, b safe integers) to a quote account's balance: Number path when
   * the sum and its scaling to the account's 10^-K units stay exact (|·| ≤ 2^53−1), else BigInt. */
  private addQuoteN(acc: Acc, s: Sym, a: number, b: number): void {
    const x = a + b; // exact whenever |a + b| ≤ 2^53−1, otherwise rounded beyond that bound
    if (s.quoteMulK !== 0 && acc.K === s.quoteK && x <= MAX_LOTS && x >= -MAX_LOTS) {
      const y = x * s.quoteMulK;
      if (y <= MAX_LOTS && y >= -MAX_LOTS) {
        acc.addBalanceN(y);
        return;
      }
    }
    acc.addBalance((BigInt(a) + BigInt(b)) * s.qFactor);
  }

  /** Add `lots` (safe integer, may be negative) of the base to a base account's balance. */
  private addBaseN(acc: Acc, s: Sym, lots: number): void {
    if (s.baseMulK !== 0 && acc.K === s.baseK) {
      const y = lots * s.baseMulK;
      if (y <= MAX_LOTS && y >= -MAX_LOTS) {
        acc.addBalanceN(y);
        return;
      }
    }
    acc.addBalance(BigInt(lots) * s.lotUnits);
  }

  /** Add a + b qs units (safe integers) to the symbol's pending collected fees (flushed to `fees`). */
  private addFeesN(s: Sym, a: number, b: number): void {
    // the first fill of a symbol creates the currency's entry (as the BigInt path does), so `fees` keeps
    // the same keys in the same order whichever path settles
    if (s.tradeSeq === 0 && !this.fees.has(s.rules.quoteCurrency)) this.fees.set(s.rules.quoteCurrency, ZERO);
    // two single additions, each exact when its true result is within ±(2^53−1) (checked after each)
    const t1 = s.feeN + a;
    const t = t1 + b;
    if (t1 > MAX_LOTS || t1 < -MAX_LOTS || t > MAX_LOTS || t < -MAX_LOTS) {
      this.flushFeesOf(s);
      const qw = s.rules.quoteCurrency;
      this.fees.set(qw, (this.fees.get(qw) ?? ZERO) + (BigInt(a) + BigInt(b)) * s.qFactor);
    } else {
      s.feeN = t;
    }
  }

  /** Move a symbol's pending Number fees into `fees` (exact). */
  private flushFeesOf(s: Sym): void {
    if (s.feeN === 0) return;
    const qw = s.rules.quoteCurrency;
    this.fees.set(qw, (this.fees.get(qw) ?? ZERO) + BigInt(s.feeN) * s.qFactor);
    s.feeN = 0;
  }

  /** Move every symbol's pending Number fees into `fees` (before `fees` is read). */
  private flushFees(): void {
    for (const s of this.symList) this.flushFeesOf(s);
  }

  /** Consume `consumed` ledger units of a market order's (transient, BigInt) hold after a fill. */
  private consumeHold(o: number, acc: Acc, consumed: bigint): void {
    this.ext(o).hold -= consumed;
    acc.addHoldsBig(-consumed);
  }

  /** DC on a resting order `m` (queued in `lv`): decrease by d lots (cancelled), cancel it when nothing remains. */
  private reduceResting(m: number, lv: Level, d: number): void {
    const now = this.tNow;
    const lf = this.lf;
    const k = m * LF_STRIDE;
    const j = m * LI_STRIDE;
    const remain = lf[k + LF_REMAIN] - d;
    lf[k + LF_REMAIN] = remain;
    lf[k + LF_CANC] += d;
    this.li[j + LI_FLAGS] |= F_CANCEL_EXIST;
    lf[k + LF_UPDATED] = now;
    if (remain === 0) {
      this.unlink(m, lv, false);
      this.finish(m, false);
      return;
    }
    const shown = lf[k + LF_SHOWN];
    const ns = Math.min(shown, remain);
    if ((this.li[j + LI_FLAGS] & F_HIDDEN) === 0) lv.size -= shown - ns;
    lf[k + LF_SHOWN] = ns;
    this.usOf(m).sym.sequence++;
    this.reholdLimit(m);
  }

  /** Put resting order `o` at the head (newest end) of its owner's active-order list. */
  private pushActive(us: UserSym, o: number): void {
    const li = this.li;
    const head = us.head;
    li[o * LI_STRIDE + LI_ANEXT] = head;
    li[o * LI_STRIDE + LI_APREV] = -1;
    if (head !== -1) li[head * LI_STRIDE + LI_APREV] = o;
    us.head = o;
  }

  /** Take order `o` out of its owner's active-order list. */
  private dropActive(us: UserSym, o: number): void {
    const li = this.li;
    const ap = li[o * LI_STRIDE + LI_APREV];
    const an = li[o * LI_STRIDE + LI_ANEXT];
    if (ap !== -1) li[ap * LI_STRIDE + LI_ANEXT] = an;
    else us.head = an;
    if (an !== -1) li[an * LI_STRIDE + LI_APREV] = ap;
  }

  /** Append order `o` to the back of level `lv`'s queue. */
  private link(o: number, lv: Level): void {
    const li = this.li;
    const j = o * LI_STRIDE;
    const tail = lv.tail;
    li[j + LI_NEXT] = -1;
    li[j + LI_PREV] = tail;
    if (tail !== -1) li[tail * LI_STRIDE + LI_NEXT] = o;
    else lv.head = o;
    lv.tail = o;
    if ((li[j + LI_FLAGS] & F_HIDDEN) === 0) lv.size += this.lf[o * LF_STRIDE + LF_SHOWN];
    this.usList[li[j + LI_US]].sym.sequence++;
  }

  /** Remove order `o` from its level `lv` (and the level from the book when empty, unless keepLevel). */
  private unlink(o: number, lv: Level, keepLevel: boolean): void {
    const li = this.li;
    const j = o * LI_STRIDE;
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else lv.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else lv.tail = prev;
    const fl = li[j + LI_FLAGS];
    if ((fl & F_HIDDEN) === 0) lv.size -= this.lf[o * LF_STRIDE + LF_SHOWN];
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    const s = this.usList[li[j + LI_US]].sym;
    s.sequence++;
    if (lv.head === -1 && !keepLevel) ((fl & F_SELL) === 0 ? s.bids : s.asks).remove(lv);
  }

  /** Rest a limit order in the book (`level`: its price level when already known to exist). */
  private rest(o: number, level: Level | undefined): void {
    const now = this.tNow;
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    const fl = li[j + LI_FLAGS];
    const us = this.usList[li[j + LI_US]];
    const x = (fl & F_EXT) !== 0 ? this.lx[o] : null;
    // a level still in the book is never empty (empty levels are removed at once)
    const lv = level !== undefined && level.head !== -1 ? level : ((fl & F_SELL) === 0 ? us.sym.bids : us.sym.asks).getOrCreate(lf[k + LF_TICKS]);
    const remain = lf[k + LF_REMAIN];
    lf[k + LF_SHOWN] = (fl & F_ICEBERG) !== 0 ? Math.min((x as OrderExt).visible, remain) : remain;
    this.link(o, lv);
    li[j + LI_FLAGS] = fl | F_IN_BOOK;
    lf[k + LF_UPDATED] = now;
    this.pushActive(us, o);
    if (((fl >> F_TIF_SHIFT) & 3) === TIF_GTT) {
      const ex = x as OrderExt;
      ex.expireAt = lf[k + LF_CREATED] + ex.cancelAfter * 1000;
      this.heapPush({ expireAt: ex.expireAt, seq: lf[k + LF_SEQ] });
    }
  }

  /** Cancel an active order (user cancel, STP, GTT expiry); `lv`: its level when the caller knows it. */
  private cancelResting(o: number, lv?: Level): void {
    const li = this.li;
    const lf = this.lf;
    const j = o * LI_STRIDE;
    const k = o * LF_STRIDE;
    const fl = li[j + LI_FLAGS];
    const h = lf[k + LF_HOLDN];
    if ((fl & (F_IN_BOOK | F_EXT)) !== F_IN_BOOK || h < 0) {
      if ((fl & F_IN_BOOK) !== 0) this.unlink(o, lv ?? (this.levelOf(o) as Level), false);
      this.finish(o, true);
      return;
    }
    // A resting order without an OrderExt whose hold is on the Number path (the common cancel): the steps
    // of unlink + finish(o, true) for exactly this case, in one body.
    const now = this.tNow;
    const us = this.usList[li[j + LI_US]];
    // unlink(), written out (see restPlain)
    const s = us.sym;
    const side = (fl & F_SELL) === 0 ? s.bids : s.asks;
    const level = lv ?? (side.map.get(lf[k + LF_TICKS]) as Level);
    const prev = li[j + LI_PREV];
    const next = li[j + LI_NEXT];
    if (prev !== -1) li[prev * LI_STRIDE + LI_NEXT] = next;
    else level.head = next;
    if (next !== -1) li[next * LI_STRIDE + LI_PREV] = prev;
    else level.tail = prev;
    if ((fl & F_HIDDEN) === 0) level.size -= lf[k + LF_SHOWN];
    li[j + LI_PREV] = -1;
    li[j + LI_NEXT] = -1;
    s.sequence++;
    if (level.head === -1) side.remove(level);
    const remain = lf[k + LF_REMAIN];
    if (remain > 0) {
      lf[k + LF_CANC] += remain;
      lf[k + LF_REMAIN] = 0;
    }
    ((fl & F_SELL) === 0 ? (us.qAcc as Acc) : (us.bAcc as Acc)).addHoldsN(-h);
    lf[k + LF_HOLDN] = -1;
    this.dropActive(us, o);
    const done = (remain > 0 ? fl | F_CANCEL_EXIST : fl) & ~(F_ACTIVE | F_IN_BOOK);
    li[j + LI_FLAGS] = done;
    lf[k + LF_SHOWN] = 0;
    lf[k + LF_UPDATED] = now;
    this.archive.put(lf[k + LF_SEQ], lf, k, done, us, null);
    this.freeSlots.push(o);
  }

  /** Mark done: cancel whatever remains (if cancel), release the remaining hold, move to history. */
  private finish(o: number, cancel: boolean): void {
    const now = this.tNow;
    const lf = this.lf;
    const li = this.li;
    const k = o * LF_STRIDE;
    const j = o * LI_STRIDE;
    let fl = li[j + LI_FLAGS];
    const x = (fl & F_EXT) !== 0 ? this.lx[o] : null;
    if (lf[k + LF_LOTS] < 0) {
      // funds order: what is left of the funds is cancelled (a market order that stopped is not flagged)
      const ex = x as OrderExt;
      if (ex.remainFunds > 0n) {
        ex.cancelledFunds += ex.remainFunds;
        ex.remainFunds = ZERO;
        if (cancel) fl |= F_CANCEL_EXIST;
      }
      if (cancel) lf[k + LF_REMAIN] = 0;
    } else if (cancel) {
      const remain = lf[k + LF_REMAIN];
      if (remain > 0) {
        lf[k + LF_CANC] += remain;
        lf[k + LF_REMAIN] = 0;
        fl |= F_CANCEL_EXIST;
      }
    }
    li[j + LI_FLAGS] = fl;
    this.releaseHold(o);
    const us = this.usList[li[j + LI_US]];
    if ((fl & F_IN_BOOK) !== 0) this.dropActive(us, o);
    fl &= ~(F_ACTIVE | F_IN_BOOK);
    li[j + LI_FLAGS] = fl;
    lf[k + LF_SHOWN] = 0;
    lf[k + LF_UPDATED] = now;
    const seq = lf[k + LF_SEQ];
    // archive the final state and free the slot
    this.archive.put(seq, lf, k, fl, us, x);
    if (x !== null) this.lx[o] = null;
    this.freeSlots.push(o);
  }
  // GTT heap of (expireAt, seq); entries of orders done earlier are skipped when popped
  private heapLess(a: { expireAt: number; seq: number }, b: { expireAt: number; seq: number }): boolean {
    return a.expireAt < b.expireAt || (a.expireAt === b.expireAt && a.seq < b.seq);
  }
  private heapPush(e: { expireAt: number; seq: number }): void {
    const h = this.gtt;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.heapLess(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  private heapPop(): { expireAt: number; seq: number } | undefined {
    const h = this.gtt;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.heapLess(h[l], h[m])) m = l;
        if (r < h.length && this.heapLess(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }

  /** Cancel GTT orders with expireAt ≤ now, in (expireAt, seq) order, stamped with their expiry time. */
  private expire(now: number): void {
    const h = this.gtt;
    while (h.length > 0 && h[0].expireAt <= now) {
      const e = this.heapPop() as { expireAt: number; seq: number };
      const o = this.liveOf(e.seq);
      if (o >= 0) {
        this.tNow = e.expireAt;
        this.cancelResting(o);
      }
    }
  }

  private orderView(o: OrderState): HfOrder {
    const s = o.sym;
    const r = s.rules;
    const q = (v: bigint): string => fromUnits(v, LEDGER_SCALE);
    let price = '0';
    let size = '0';
    let funds = '0';
    let remainFunds = '0';
    let cancelledFunds = '0';
    let remainSize = '0';
    let cancelledSize = '0';
    if (o.funds > 0n) {
      funds = q(o.funds);
      remainFunds = q(o.remainFunds);
      cancelledFunds = q(o.cancelledFunds);
    } else {
      size = s.sizeStr(o.sizeLots);
      remainSize = s.sizeStr(o.remain);
      cancelledSize = s.sizeStr(o.cancelled);
      if (!o.market) {
        price = s.priceStr(o.ticks);
        const f = BigInt(o.ticks) * BigInt(o.sizeLots) * s.unitFunds;
        const cf = BigInt(o.ticks) * BigInt(o.cancelled) * s.unitFunds;
        funds = q(f);
        cancelledFunds = q(cf);
        remainFunds = q(f - o.dealFunds - cf);
      }
    }
    return {
      id: this.orderIdOf(o.seq),
      symbol: r.symbol,
      opType: 'DEAL',
      type: o.market ? 'market' : 'limit',
      side: o.side === BUY ? 'buy' : 'sell',
      price,
      size,
      funds,
      dealSize: s.sizeStr(o.deal),
      dealFunds: q(o.dealFunds),
      cancelledSize,
      cancelledFunds,
      remainSize,
      remainFunds,
      fee: q(o.fee),
      feeCurrency: r.quoteCurrency,
      stp: STP_NAMES[o.stp],
      timeInForce: TIF_NAMES[o.tif],
      postOnly: o.postOnly,
      hidden: o.hidden,
      iceberg: o.iceberg,
      visibleSize: o.iceberg ? s.sizeStr(o.visible) : '0',
      cancelAfter: o.cancelAfter,
      channel: 'API',
      clientOid: o.clientOid,
      remark: o.remark,
      tags: o.tags,
      active: o.active,
      inOrderBook: o.inBook,
      cancelExist: o.cancelExist,
      createdAt: o.createdAt,
      lastUpdatedAt: o.lastUpdatedAt,
      tradeType: 'TRADE',
    };
  }

  private fillView(id: number): HfFill {
    const fs = this.fillStore;
    const s = this.symList[fs.symIdx(id)];
    const fl = fs.flags(id);
    const fundsQ = fs.fundsQ(id);
    let funds: bigint;
    let fee: bigint;
    if (Number.isNaN(fundsQ)) {
      [funds, fee] = fs.big.get(id) as [bigint, bigint];
    } else {
      funds = BigInt(fundsQ) * s.qFactor;
      fee = BigInt(fs.feeQ(id)) * s.qFactor;
    }
    return {
      id,
      symbol: s.rules.symbol,
      tradeId: fs.tradeId(id),
      orderId: this.orderIdOf(fs.orderSeq(id)),
      counterOrderId: this.orderIdOf(fs.counterSeq(id)),
      side: (fl & FS_SIDE) === 0 ? 'buy' : 'sell',
      liquidity: (fl & FS_MAKER) !== 0 ? 'maker' : 'taker',
      forceTaker: (fl & FS_FORCE) !== 0,
      price: s.priceStr(fs.ticks(id)),
      size: s.sizeStr(fs.lots(id)),
      funds: fromUnits(funds, LEDGER_SCALE),
      fee: fromUnits(fee, LEDGER_SCALE),
      feeRate: RATE_STRS[fs.rateId(id)],
      feeCurrency: s.rules.quoteCurrency,
      stop: '',
      tradeType: 'TRADE',
      type: (fl & FS_MARKET) !== 0 ? 'market' : 'limit',
      createdAt: fs.createdAt(id),
    };
  }

  /** Public trade in tape slot `slot` of symbol `s`. */
  private tradeView(s: Sym, slot: number): PublicTrade {
    const t = s.tape as Float64Array;
    const k = slot * TAPE_STRIDE;
    return {
      symbol: s.rules.symbol,
      tradeId: t[k],
      sequence: String(t[k + 1]),
      price: s.priceStr(t[k + 2]),
      size: s.sizeStr(t[k + 3]),
      side: t[k + 4] === BUY ? 'buy' : 'sell',
      time: t[k + 5],
    };
  }
}
