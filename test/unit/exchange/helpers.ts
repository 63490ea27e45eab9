/** Test helpers for the exchange core: a small world with exact, easy numbers. */
import { strict as assert } from 'node:assert';
import { Exchange, ExchangeError, type PlaceOrderRequest } from '../../../src/exchange/core';
import { REF_SYMBOL, addRefMarket, fundTrade } from '../../../src/exchange/core/refmarket';

export const SYM = REF_SYMBOL;

/** Mutable clock for tests. */
export interface Clock {
  t: number;
}

/**
 * Exchange with the core's reference market (src/exchange/core/refmarket.ts, shared with the benchmarks):
 * BTC (precision 8) / USDT (precision 6) and BTC-USDT: priceIncrement 0.1, baseIncrement 0.0001,
 * quoteIncrement 0.000001, baseMinSize 0.0001, quoteMinSize 0.1.
 * Every command is followed by checkInvariants() when going through {@link place} etc.
 * `bigIntOnly` / `fastPaths`: the Exchange's testing aids (Number fast path off / canonical code instead of
 * the written-out fast paths, Matcher.restPlain and OrderBook.cancelResting).
 */
export function world(start = 1_700_000_000_000, bigIntOnly = false, fastPaths = true): { ex: Exchange; clock: Clock } {
  const clock = { t: start };
  const ex = new Exchange({ now: () => clock.t, bigIntOnly, fastPaths });
  addRefMarket(ex);
  return { ex, clock };
}

/** Deposit to main and move it all to trade. */
export function fund(ex: Exchange, uid: string, currency: string, amount: string): void {
  fundTrade(ex, uid, currency, amount);
  ex.checkInvariants();
}

/** Place an order on SYM and check invariants; returns the order id. */
export function place(ex: Exchange, uid: string, req: Omit<PlaceOrderRequest, 'symbol'>): string {
  const r = ex.placeOrder(uid, { symbol: SYM, ...req });
  ex.checkInvariants();
  return r.orderId;
}

/** Trade account of a currency as [balance, available, holds]. */
export function trade(ex: Exchange, uid: string, currency: string): [string, string, string] {
  const a = ex.accounts(uid, { currency, type: 'trade' })[0];
  return a ? [a.balance, a.available, a.holds] : ['0', '0', '0'];
}

/** Expect an ExchangeError with this code (and message, when given). */
export function throwsCode(fn: () => unknown, code: string, msg?: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ExchangeError, String(e));
    assert.equal(e.code, code);
    if (typeof msg === 'string') assert.equal(e.msg, msg);
    else if (msg) assert.match(e.msg, msg);
    return true;
  });
}
