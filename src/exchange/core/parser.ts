/**
 * The request parser of the exchange core ({@link OrderParser}): the string API's request (decimal strings,
 * KuCoin field names) and the numeric entry point's limit order are checked against the symbol's rules and
 * the balance, and turn into a {@link Parsed} request with its hold. Nothing changes on error (a validation
 * alone creates no user).
 */
import { toUnits } from '../../api/decimal';
import { E_BALANCE, E_DISABLED, E_SYMBOL, ExchangeError } from './errors';
import type { PlaceOrderRequest } from './types';
import { BUY, LEDGER_SCALE, MAX_LOTS, SELL, STP_DC, STP_NAMES, STP_NONE, TIF_FOK, TIF_GTC, TIF_GTT, TIF_IOC, TIF_NAMES, ZERO, fastUnits, perr } from './base';
import type { Sym } from './book';
import { User } from './accounts';
import type { Ledger } from './ledger';
import type { Parsed } from './rows';
import type { CoreState } from './state';

/** Options of the numeric entry point (Exchange.placeLimitTicks). */
export interface LimitTicksOptions {
  tif?: 'GTC' | 'IOC' | 'FOK';
  postOnly?: boolean;
  clientOid?: string;
  /**
   * Skip the size and funds bounds (baseMinSize/baseMaxSize, quoteMinSize/quoteMaxSize): the mirror market's own
   * liquidity orders (src/exchange/server/mirror) stand for an upstream's price levels, whose sizes follow no
   * order-size rule. Never set for a user's order.
   */
  exemptSizeLimits?: boolean;
}

/** Request parsing and rule checks (both entry points). */
export class OrderParser {
  /** one-entry symbol cache of limitTicks (symbols are never removed) */
  private lastSymbolName = '';
  private lastSymbolSym: Sym | null = null;
  /** scratch request of limitTicks (fields not set there keep these plain-limit defaults) */
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

  private declare readonly st: CoreState;
  private declare readonly ledger: Ledger;

  constructor(st: CoreState, ledger: Ledger) {
    this.st = st;
    this.ledger = ledger;
}

  /**
   * Parse and check a string-API order request (symbol, side, type, price/size/funds, timeInForce,
   * cancelAfter, postOnly, hidden, iceberg/visibleSize, stp, clientOid, remark, tags), compute its hold and
   * check the balance. `forPlace` false (validation only) uses a throw-away record for an unknown user.
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 rule violation, 200004 balance.
   */
  parseOrder(uid: string, req: PlaceOrderRequest, forPlace: boolean): Parsed {
    const sym = this.st.sym(req.symbol);
    if (!sym.enableTrading) throw new ExchangeError(E_DISABLED, 'trading is disabled on this symbol');
    if (req.side !== 'buy' && req.side !== 'sell') throw perr('side must be buy or sell');
    if (req.type !== 'limit' && req.type !== 'market') throw perr('type must be limit or market');
    // validation alone must not create state: an unknown user is a throw-away record
    const user = this.st.users[uid] ?? (forPlace ? this.st.user(uid) : new User(uid, -1, this.st.usList));
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
      if (prev !== undefined && this.st.liveOf(prev) >= 0) throw perr('clientOid already exists');
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
      this.ledger.marketHold(p);
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

  /**
   * The numeric entry point's limit order of `ticks` × priceIncrement and `lots` × baseIncrement, checked as
   * {@link checkLimitAndHold} checks it. Returns one scratch request, reused by the next call (submit copies
   * every field into the order's row).
   * @throws ExchangeError 900001 unknown symbol, 400600 trading disabled, 400100 rule violation, 200004 balance.
   */
  limitTicks(uid: string, symbol: string, side: 'buy' | 'sell', ticks: number, lots: number, opts?: LimitTicksOptions): Parsed {
    let sym = this.lastSymbolSym;
    if (symbol !== this.lastSymbolName || sym === null) {
      sym = this.st.syms.get(symbol) ?? null;
      if (sym === null) throw new ExchangeError(E_SYMBOL, 'symbol not exists!');
      this.lastSymbolName = symbol;
      this.lastSymbolSym = sym;
    }
    if (!sym.enableTrading) throw new ExchangeError(E_DISABLED, 'trading is disabled on this symbol');
    const user = this.st.user(uid);
    if (!Number.isSafeInteger(ticks) || ticks <= 0) throw perr('price must be positive');
    if (!Number.isSafeInteger(lots) || lots <= 0) throw perr('size must be positive');
    const tifName = opts?.tif ?? 'GTC';
    const p = this.scratch;
    // pointer stores into the long-lived scratch pass the GC's write barrier while it marks: skip the ones
    // that store what is already there (the symbol, mostly; a bot often repeats its user too)
    if (p.user !== user) p.user = user;
    if (p.sym !== sym) p.sym = sym;
    p.side = side === 'buy' ? BUY : SELL;
    p.ticks = ticks;
    p.lots = lots;
    p.tif = tifName === 'GTC' ? TIF_GTC : tifName === 'IOC' ? TIF_IOC : TIF_FOK;
    p.postOnly = opts?.postOnly ?? false;
    p.clientOid = opts?.clientOid ?? '';
    this.checkLimitAndHold(p, opts?.exemptSizeLimits === true);
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
  private checkLimitAndHold(p: Parsed, exempt = false): void {
    const s = p.sym;
    // the bounds (not for the mirror's liquidity: LimitTicksOptions.exemptSizeLimits)
    if (!exempt) {
      if (p.lots < s.baseMinLots) throw perr(`size must be at least baseMinSize ${s.rules.baseMinSize}`);
      if (p.lots > s.baseMaxLots) throw perr(`size must be at most baseMaxSize ${s.rules.baseMaxSize}`);
      const cq = this.ledger.costQ(s, p.ticks, p.lots);
      if (cq >= 0 ? cq < s.quoteMinQ : BigInt(p.ticks) * BigInt(p.lots) * s.unitFunds < s.quoteMin) {
        throw perr(`price x size must be at least quoteMinSize ${s.rules.quoteMinSize}`);
      }
      if (cq >= 0 ? cq > s.quoteMaxQ : BigInt(p.ticks) * BigInt(p.lots) * s.unitFunds > s.quoteMax) {
        throw perr(`price x size must be at most quoteMaxSize ${s.rules.quoteMaxSize}`);
      }
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
    const n = this.ledger.holdNOf(s, p.side, p.user.taker, p.ticks, p.lots, acc);
    if (n >= 0) {
      if (!acc.canHoldN(n)) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
      // p.hold is read only when holdN < 0 (Parsed.hold)
      p.holdN = n;
      return;
    }
    const hold = p.side === BUY ? this.ledger.buyHold(s, p.user.taker, p.ticks, p.lots) : BigInt(p.lots) * s.lotUnits;
    if (acc.balance - acc.holds < hold) throw new ExchangeError(E_BALANCE, 'Balance insufficient!');
    p.hold = hold;
    p.holdN = -1;
  }
}
