/**
 * The reference market of the exchange core's own tests, benchmarks and engine:diff streams: BTC (precision
 * 8) / USDT (precision 6) and BTC-USDT with priceIncrement 0.1, baseIncrement 0.0001, quoteIncrement 0.000001,
 * baseMinSize 0.0001, quoteMinSize 0.1 (exact, easy numbers). One module both test/unit/exchange/helpers.ts and
 * bench/engineStreams.ts import, so that tests and benchmarks set up the same world without importing each
 * other. The sandbox does not use it (its world is src/exchange/server/world.ts).
 */
import type { Exchange } from './exchange';
import type { SymbolRules } from './types';

/** The reference symbol. */
export const REF_SYMBOL = 'BTC-USDT';

/** Rules of {@link REF_SYMBOL} (fields as in GET /api/v2/symbols). */
export const REF_RULES: SymbolRules = {
  symbol: REF_SYMBOL,
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
};

/** Register BTC (precision 8), USDT (precision 6) and {@link REF_SYMBOL} on an exchange. */
export function addRefMarket(ex: Pick<Exchange, 'addCurrency' | 'addSymbol'>): void {
  ex.addCurrency({ currency: 'BTC', precision: 8 });
  ex.addCurrency({ currency: 'USDT', precision: 6 });
  ex.addSymbol(REF_RULES);
}

/** Deposit `amount` (decimal string) of `currency` to a user's main account and move it all to trade.
 * @throws ExchangeError as Exchange.deposit / transfer. */
export function fundTrade(ex: Pick<Exchange, 'deposit' | 'transfer'>, uid: string, currency: string, amount: string): void {
  ex.deposit(uid, currency, amount);
  ex.transfer(uid, currency, 'main', 'trade', amount);
}
