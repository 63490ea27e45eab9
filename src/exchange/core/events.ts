/**
 * Core events (the contract with the sandbox's WebSocket feed: docs/events.md): every visible level
 * change and every trade of a watched symbol, every order change and ledger change of a watched user,
 * delivered synchronously to one {@link CoreEventSink} inside the command that causes them, in the order the
 * changes happen. {@link EventPublisher} builds them and holds the sink.
 *
 * Zero cost when nobody listens: the hot paths test one flag of the symbol (`Sym.watched`) or of the user
 * (`User.watched`) per change; strings are built only for watched events. A command that throws emits nothing
 * (every check precedes the first change, and events are emitted only by changes).
 */
import { fromUnits } from '../../api/decimal';
import { BUY, LEDGER_SCALE, orderIdString } from './base';
import type { Level, Sym } from './book';
import type { Acc, User, UserSym } from './accounts';
import type { CoreState } from './state';
import { orderView } from './views';

/** Receiver of the core's events. Set with `exchange.setEventSink(sink | null)`. Its methods must not throw
 * nor call back into the exchange (they run in the middle of a command). */
export interface CoreEventSink {
  /** A VISIBLE price level changed: its new aggregated visible size ("0" = the level left the visible book). */
  level(e: LevelEvent): void;
  /** One trade (one call per maker/taker fill pair). */
  trade(e: TradeEvent): void;
  /** An order of a WATCHED user changed (private feed). */
  order(e: OrderEvent): void;
  /** A ledger account of a WATCHED user changed (private feed). */
  balance(e: BalanceEvent): void;
  /** A stop order or OCO leg of a WATCHED user was placed, triggered or cancelled (stops.ts; optional). */
  advanced?(e: AdvancedOrderEvent): void;
}

/**
 * A stop order or an OCO leg of a watched user changed (`/spotMarket/advancedOrders`, subject `stopOrder`):
 * `open` when it is placed, `triggered` when its trigger price was reached (`triggerSuccess` false, with `error`,
 * when its order was then refused: balance, rules), `cancel` when it is cancelled (by the user, or an OCO leg
 * whose sibling triggered). Decimal strings; `orderPrice` only for limit orders, `size` / `funds` as placed.
 */
export interface AdvancedOrderEvent {
  uid: string;
  symbol: string;
  /** the stop order's (leg's) id, `vs…` */
  orderId: string;
  type: 'open' | 'triggered' | 'cancel';
  side: 'buy' | 'sell';
  /** `loss` / `entry`, or an OCO leg's kind (`l_l_o`, `l_s_o`, `e_l_o`, `e_s_o`) */
  stop: string;
  stopPrice: string;
  orderPrice?: string;
  size?: string;
  funds?: string;
  /** the id of the order that entered matching (`triggered` with success only) */
  triggeredOrderId?: string;
  triggerSuccess?: boolean;
  error?: string;
  /** ms */
  createdAt: number;
  /** ms of this change */
  time: number;
}

/** A visible level change. `sequence` = the symbol's book sequence this change consumed. Decimal strings. */
export interface LevelEvent {
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  /** new aggregated visible size of the level, "0" when it has none any more */
  size: string;
  sequence: number;
  /** ms */
  time: number;
}

/** A trade. `sequence` = the symbol's sequence right after the fill's visible level change (unchanged when
 * the maker is hidden). `side` is the TAKER's side. */
export interface TradeEvent {
  symbol: string;
  tradeId: number;
  sequence: number;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  takerOrderId: string;
  makerOrderId: string;
  takerUid: string;
  makerUid: string;
  /** ms */
  time: number;
}

/** The kinds of order events, in the order an order goes through them: received → (match | update)* →
 * open → (match | update)* → filled | canceled (an order done at once skips open). */
export type OrderEventType = 'received' | 'open' | 'match' | 'update' | 'filled' | 'canceled';

/**
 * An order change of a watched user. Amount fields are the HF order view's (GET /api/v1/hf/orders/{id}) after
 * the change: price, size, funds, filledSize = dealSize, remainSize, canceledSize = cancelledSize, remainFunds.
 * `filled` ends an order with nothing cancelled, `canceled` one that cancelled something (its remainder, or a
 * part by STP DC) — the order's `cancelExist`.
 */
export interface OrderEvent {
  uid: string;
  symbol: string;
  orderId: string;
  clientOid: string;
  type: OrderEventType;
  side: 'buy' | 'sell';
  orderType: 'limit' | 'market';
  price: string;
  size: string;
  funds: string;
  filledSize: string;
  remainSize: string;
  canceledSize: string;
  remainFunds: string;
  /** 'update' (STP DC decrease): the remaining size before the decrease (remainSize is after it) */
  oldSize?: string;
  /** 'match': this fill of the order */
  match?: { price: string; size: string; tradeId: number; liquidity: 'maker' | 'taker'; fee: string; feeCurrency: string };
  /** createdAt, ms */
  orderTime: number;
  /** ms of this change */
  time: number;
}

/**
 * A ledger account change of a watched user: the account's new total (balance), available and hold, and the
 * changes since the previous event of that account (so the changes of successive events add up). Decimal
 * strings. relationEvent: `trade.hold` (an order's hold taken, recomputed or released), `trade.setted` (a fill
 * settled: balances and holds), `main.deposit`, `main.transfer` / `trade.transfer` (the two sides of a
 * transfer), `main.withdraw_hold`, `main.withdraw_done`, `main.other` (a withdrawal hold released).
 * relationEventId: the order id (trade.*), the withdrawal hold id (main.withdraw_*, main.other), '' for
 * deposits and transfers (the sandbox server knows its own record of those).
 */
export interface BalanceEvent {
  uid: string;
  accountId: string;
  currency: string;
  accountType: 'main' | 'trade';
  total: string;
  available: string;
  hold: string;
  availableChange: string;
  holdChange: string;
  relationEvent: string;
  relationEventId: string;
  relationContext?: { symbol?: string; orderId?: string; tradeId?: string };
  /** ms */
  time: number;
}

const dec = (v: bigint): string => fromUnits(v, LEDGER_SCALE);

/** Event construction and the sink (callers test the symbol's / user's `watched` flag first). */
export class EventPublisher {
  /** receiver of the core's events, null: none */
  sink: CoreEventSink | null = null;

  private declare readonly st: CoreState;

  constructor(st: CoreState) {
    this.st = st;
  }

  /** A visible change of level `lv` of `s`: its new visible size and the sequence it consumed. */
  emitLevel(s: Sym, lv: Level): void {
    const sink = this.sink;
    if (sink === null) return;
    sink.level({ symbol: s.rules.symbol, side: lv.side === BUY ? 'buy' : 'sell', price: s.priceStr(lv.ticks), size: s.sizeStr(lv.size), sequence: s.sequence, time: this.st.tNow });
  }

  /** A trade of `s` between taker seq `oSeq` (of `ou`, on side takerSell) and maker seq `mSeq` (of `mu`). */
  emitTrade(s: Sym, tradeId: number, ticks: number, lots: number, takerSell: boolean, oSeq: number, mSeq: number, ou: User, mu: User): void {
    const sink = this.sink;
    if (sink === null) return;
    sink.trade({
      symbol: s.rules.symbol,
      tradeId,
      sequence: s.sequence,
      price: s.priceStr(ticks),
      size: s.sizeStr(lots),
      side: takerSell ? 'sell' : 'buy',
      takerOrderId: orderIdString(oSeq),
      makerOrderId: orderIdString(mSeq),
      takerUid: ou.uid,
      makerUid: mu.uid,
      time: this.st.tNow,
    });
  }

  /**
   * An order event of order `seq` (live or done) of `us`, built from its HF order view now. `oldRemain`: the
   * remaining lots before an 'update'; `match`: the fill of a 'match' (lots, ticks, tradeId, fee in ledger units).
   */
  emitOrder(seq: number, us: UserSym, type: OrderEventType, oldRemain = -1, match?: { ticks: number; lots: number; tradeId: number; maker: boolean; fee: bigint }): void {
    const sink = this.sink;
    if (sink === null) return;
    const v = orderView(this.st.stateOf(seq));
    const s = us.sym;
    const e: OrderEvent = {
      uid: us.user.uid,
      symbol: s.rules.symbol,
      orderId: v.id,
      clientOid: v.clientOid ?? '',
      type,
      side: v.side,
      orderType: v.type,
      price: v.price,
      size: v.size,
      funds: v.funds,
      filledSize: v.dealSize,
      remainSize: v.remainSize,
      canceledSize: v.cancelledSize,
      remainFunds: v.remainFunds,
      orderTime: v.createdAt,
      time: this.st.tNow,
    };
    if (oldRemain >= 0) e.oldSize = s.sizeStr(oldRemain);
    if (match !== undefined) {
      e.match = {
        price: s.priceStr(match.ticks),
        size: s.sizeStr(match.lots),
        tradeId: match.tradeId,
        liquidity: match.maker ? 'maker' : 'taker',
        fee: dec(match.fee),
        feeCurrency: s.rules.quoteCurrency,
      };
    }
    sink.order(e);
  }

  /**
   * A balance event of account `acc` of `u` when its balance or holds changed since its previous event
   * (nothing otherwise). The changes are against that previous event (Acc.evTotal / evHold).
   */
  emitBalance(acc: Acc, u: User, relationEvent: string, relationEventId: string, ctx?: BalanceEvent['relationContext']): void {
    const sink = this.sink;
    if (sink === null) return;
    const total = acc.balance;
    const hold = acc.holds;
    if (total === acc.evTotal && hold === acc.evHold) return;
    const e: BalanceEvent = {
      uid: u.uid,
      accountId: acc.id,
      currency: acc.currency,
      accountType: acc.type,
      total: dec(total),
      available: dec(total - hold),
      hold: dec(hold),
      availableChange: dec(total - hold - (acc.evTotal - acc.evHold)),
      holdChange: dec(hold - acc.evHold),
      relationEvent,
      relationEventId,
      time: this.st.tNow,
    };
    if (ctx !== undefined) e.relationContext = ctx;
    acc.evTotal = total;
    acc.evHold = hold;
    sink.balance(e);
  }

  /** The balance events of a fill (`trade.setted`) for the trade accounts of a watched user `us` on its symbol. */
  emitSettled(us: UserSym, orderSeq: number, tradeId: number): void {
    const orderId = orderIdString(orderSeq);
    const ctx = { symbol: us.sym.rules.symbol, orderId, tradeId: String(tradeId) };
    if (us.qAcc !== null) this.emitBalance(us.qAcc, us.user, 'trade.setted', orderId, ctx);
    if (us.bAcc !== null) this.emitBalance(us.bAcc, us.user, 'trade.setted', orderId, ctx);
  }

  /** The `trade.hold` balance event of the account order `seq` of `us` (side sell: base, else quote) holds in. */
  emitHold(us: UserSym, seq: number, sell: boolean): void {
    const acc = sell ? us.bAcc : us.qAcc;
    if (acc === null) return;
    const orderId = orderIdString(seq);
    this.emitBalance(acc, us.user, 'trade.hold', orderId, { symbol: us.sym.rules.symbol, orderId });
  }

  /** Take the current balances of a user's accounts as the base of its next balance events. */
  baseBalances(u: User): void {
    for (const w of u.wallets.values()) {
      for (const a of [w.main, w.trade]) {
        a.evTotal = a.balance;
        a.evHold = a.holds;
      }
    }
  }
}
