import { strict as assert } from 'assert';
import type { HfOrder, SymbolInfo } from '../../../src/api/schemas';
import { discoveryCandidates, explainedHolds, unexplainedCurrencies, UNKNOWN_HOLD } from '../../../src/features/orders/model/orderDiscovery';

const sym = (symbol: string, enableTrading = true) => {
  const [baseCurrency, quoteCurrency] = symbol.split('-');
  return { symbol, baseCurrency, quoteCurrency, enableTrading } as SymbolInfo;
};
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'KCS-USDT', 'LTC-USDT', 'TRX-USDT', 'ETH-BTC'].map((s) => sym(s));
const PAIRS = new Map(SYMBOLS.map((s) => [s.symbol, s]));
const order = (o: Partial<HfOrder>) =>
  ({ type: 'limit', side: 'buy', price: '0', size: '0', funds: '0', remainSize: '0', remainFunds: '0', ...o }) as HfOrder;

describe('Active Orders discovery rules (src/features/orders/model/orderDiscovery.ts)', () => {
  it('explains holds per currency: limit buy price × remainSize of the quote, sell remainSize of the base, market buy by funds remainFunds', () => {
    const e = explainedHolds(
      [
        order({ symbol: 'BTC-USDT', price: '30000.5', size: '0.002', remainSize: '0.001' }),
        order({ symbol: 'ETH-USDT', type: 'market', funds: '50', remainFunds: '12.5' }),
        order({ symbol: 'ETH-BTC', side: 'sell', size: '3', remainSize: '2.25' }),
        order({ symbol: 'NOPE-USDT', price: '1', remainSize: '1000' }),
      ],
      PAIRS,
    );
    assert.deepEqual([...e], [
      ['USDT', '42.5005'],
      ['ETH', '2.25'],
    ]);
  });

  it('a market buy by size has an unknown hold and explains any hold of its quote', () => {
    const e = explainedHolds([order({ symbol: 'KCS-USDT', type: 'market', size: '3', remainSize: '3' })], PAIRS);
    assert.equal(e.get('USDT'), UNKNOWN_HOLD);
    assert.deepEqual(unexplainedCurrencies(new Map([['USDT', '1000']]), e), []);
  });

  it('a hold is unexplained only beyond the 1 % fee allowance', () => {
    const e = explainedHolds([order({ symbol: 'BTC-USDT', price: '100', remainSize: '1' })], PAIRS);
    assert.deepEqual(unexplainedCurrencies(new Map([['USDT', '101']]), e), []);
    assert.deepEqual(unexplainedCurrencies(new Map([['USDT', '101.000001'], ['BTC', '0.1'], ['ETH', '0']]), e), ['USDT', 'BTC']);
  });

  it('candidates: preferred (watched) first, then by 24 h quote volume, skipping polled and disabled symbols', () => {
    const tickers = new Map([
      ['BTC-USDT', { volValue: '900.5' }],
      ['ETH-USDT', { volValue: '1000' }],
      ['KCS-USDT', { volValue: '5' }],
      ['LTC-USDT', { volValue: null }],
    ]);
    const c = discoveryCandidates({
      quote: 'USDT',
      symbols: [...SYMBOLS, sym('XRP-USDT', false)],
      tickers,
      preferred: ['TRX-USDT', 'ETH-BTC', 'BTC-USDT'],
      exclude: new Set(['BTC-USDT']),
      cursor: 0,
    });
    assert.deepEqual(c.preferred, ['TRX-USDT']);
    assert.deepEqual(c.byVolume, [
      { symbol: 'ETH-USDT', rank: 0 },
      { symbol: 'KCS-USDT', rank: 2 },
      { symbol: 'LTC-USDT', rank: 3 },
    ]);
  });

  it('candidates rotate from the cursor so successive refreshes reach the long tail', () => {
    const tickers = new Map([
      ['BTC-USDT', { volValue: '4' }],
      ['ETH-USDT', { volValue: '3' }],
      ['KCS-USDT', { volValue: '2' }],
      ['LTC-USDT', { volValue: '1' }],
      ['TRX-USDT', { volValue: '0.5' }],
    ]);
    const c = discoveryCandidates({ quote: 'USDT', symbols: SYMBOLS, tickers, preferred: [], exclude: new Set(), cursor: 8 });
    assert.deepEqual(c.byVolume.map((x) => x.symbol), ['LTC-USDT', 'TRX-USDT', 'BTC-USDT', 'ETH-USDT', 'KCS-USDT']);
    assert.equal(c.byVolume[0].rank, 3);
  });
});
