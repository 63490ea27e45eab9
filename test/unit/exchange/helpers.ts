/** Test helpers for the exchange core: a small world with exact, easy numbers. */
import { Exchange, type PlaceOrderRequest } from '../../../src/exchange/core';

export const SYM = 'BTC-USDT';

/** Mutable clock for tests. */
export interface Clock {
  t: number;
}

/**
 * Exchange with BTC (precision 8) / USDT (precision 6) and BTC-USDT: priceIncrement 0.1,
 * baseIncrement 0.0001, quoteIncrement 0.000001, baseMinSize 0.0001, quoteMinSize 0.1.
 * Every command is followed by checkInvariants() when going through {@link place} etc.
 * `bigIntOnly` / `fastPaths`: the Exchange's testing aids (Number fast path off / canonical code instead of
 * the written-out fast paths of src/exchange/core/fastpaths.ts).
 */
export function world(start = 1_700_000_000_000, bigIntOnly = false, fastPaths = true): { ex: Exchange; clock: Clock } {
  const clock = { t: start };
  const ex = new Exchange({ now: () => clock.t, bigIntOnly, fastPaths });
  ex.addCurrency({ currency: 'BTC', precision: 8 });
  ex.addCurrency({ currency: 'USDT', precision: 6 });
  ex.addSymbol({
    symbol: SYM,
    baseCurrency: 'BTC',
    quoteCurrency: 'USDT',
    baseIncrement: '0.0001',
    priceIncrement: '0.1',
    quoteIncrement: '0.000001',
    baseMinSize: '0.0001',
    baseMaxSize: '10000',
    quoteMinSize: '0.1',
    quoteMaxSize: '99999999',
    enableTrading: true,
  });
  return { ex, clock };
}

/** Deposit to main and move it all to trade. */
export function fund(ex: Exchange, uid: string, currency: string, amount: string): void {
  ex.deposit(uid, currency, amount);
  ex.transfer(uid, currency, 'main', 'trade', amount);
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
