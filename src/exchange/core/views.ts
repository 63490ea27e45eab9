/**
 * Wire views of the exchange core: an order as the HF order object (GET /api/v1/hf/orders/{orderId}), a
 * fill as the HF fill object (GET /api/v1/hf/fills) and a tape entry as a public trade. Built only when
 * queried (or for a trade listener); decimal strings throughout.
 */
import { fromUnits } from '../../api/decimal';
import type { HfFill, HfOrder, PublicTrade } from './types';
import { BUY, LEDGER_SCALE, STP_NAMES, TIF_NAMES, orderIdString, type RateTable } from './base';
import { TAPE_STRIDE, type Sym } from './book';
import { FS_FORCE, FS_MAKER, FS_MARKET, FS_SIDE, type FillStore } from './fillstore';
import type { OrderState } from './rows';

/** An order (live or done) as the HF order object: price/size/funds fields as the spec shows them for its
 * type (docs/engine.md: limit funds = price × size, market orders price "0"). */
export function orderView(o: OrderState): HfOrder {
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
    id: orderIdString(o.seq),
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

/** Fill `ref` of the fill store (see FillStore) as the HF fill object (`symList`: the exchange's symbols by
 * index, `rates` its fee rates). */
export function fillView(fs: FillStore, symList: readonly Sym[], rates: RateTable, ref: number): HfFill {
  const s = symList[fs.symIdx(ref)];
  const fl = fs.flags(ref);
  const fundsQ = fs.fundsQ(ref);
  let funds: bigint;
  let fee: bigint;
  if (Number.isNaN(fundsQ)) {
    [funds, fee] = fs.bigOf(ref);
  } else {
    funds = BigInt(fundsQ) * s.qFactor;
    fee = BigInt(fs.feeQ(ref)) * s.qFactor;
  }
  return {
    id: fs.fillId(ref),
    symbol: s.rules.symbol,
    tradeId: fs.tradeId(ref),
    orderId: orderIdString(fs.orderSeq(ref)),
    counterOrderId: orderIdString(fs.counterSeq(ref)),
    side: (fl & FS_SIDE) === 0 ? 'buy' : 'sell',
    liquidity: (fl & FS_MAKER) !== 0 ? 'maker' : 'taker',
    forceTaker: (fl & FS_FORCE) !== 0,
    price: s.priceStr(fs.ticks(ref)),
    size: s.sizeStr(fs.lots(ref)),
    funds: fromUnits(funds, LEDGER_SCALE),
    fee: fromUnits(fee, LEDGER_SCALE),
    feeRate: rates.str(fs.rateId(ref)),
    feeCurrency: s.rules.quoteCurrency,
    stop: '',
    tradeType: 'TRADE',
    type: (fl & FS_MARKET) !== 0 ? 'market' : 'limit',
    createdAt: fs.createdAt(ref),
  };
}

/** The public trade in tape slot `slot` of symbol `s`. */
export function tradeView(s: Sym, slot: number): PublicTrade {
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
