/**
 * The one valuation price (src/api/valuation.ts): a live USDT-pair last × USDT's fiat price
 * wins over GET /api/v1/prices; USDT and pairless currencies use GET /api/v1/prices; nothing → unpriced.
 */
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { currencyPrice, currencyPrices, priceSource, valuationPair } from '../../../src/api/valuation';
import { fakeVscode, install } from '../extension/fakeVscode';

describe('valuation: one price per currency', () => {
  const fiat = { BTC: '66000', USDT: '0.9995', ETH: '2600', DOGE: '0.1' };
  const lasts: Record<string, string> = { 'BTC-USDT': '67085.7', 'ETH-BTC': '0.05' };
  const last = (s: string) => lasts[s];

  it('a live USDT-pair last × the fiat price of USDT; otherwise GET /api/v1/prices; nothing → undefined', () => {
    assert.deepEqual(currencyPrice('BTC', fiat, last), { price: D.mul('67085.7', '0.9995'), market: { symbol: 'BTC-USDT', last: '67085.7', bridgePrice: '0.9995' } });
    assert.deepEqual(currencyPrice('ETH', fiat, last), { price: '2600' }, 'ETH-BTC is not a valuation pair');
    assert.deepEqual(currencyPrice('USDT', fiat, last), { price: '0.9995' });
    assert.equal(currencyPrice('ZZZ', fiat, last), undefined);
    assert.deepEqual(currencyPrice('BTC', { BTC: '66000' }, last), { price: '66000' }, 'without a USDT price the market cannot be bridged');
    assert.equal(currencyPrice('BTC', undefined, last), undefined);
    assert.equal(valuationPair('USDT'), undefined);
    assert.equal(priceSource(currencyPrice('BTC', fiat, last)!, 'USD'), 'the last BTC-USDT trade 67085.7 × 0.9995 USD per USDT');
  });

  describe('with the extension modules on the stand-in vscode', () => {
    let uninstall: () => void;
    let portfolioValue: typeof import('../../../src/features/live/host/statusItem').portfolioValue;
    let fiatValue: typeof import('../../../src/api/displayFormat').fiatValue;
    before(() => {
      uninstall = install(fakeVscode());
      /* eslint-disable @typescript-eslint/no-require-imports -- after the stand-in is installed */
      portfolioValue = (require('../../../src/features/live/host/statusItem') as typeof import('../../../src/features/live/host/statusItem')).portfolioValue;
      fiatValue = (require('../../../src/api/displayFormat') as typeof import('../../../src/api/displayFormat')).fiatValue;
      /* eslint-enable @typescript-eslint/no-require-imports */
    });
    after(() => uninstall());

  it('the status bar total equals the sum of the rows valued at the same prices (property)', () => {
    const amount = fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 8 })).map(([u, s]) => D.fromUnits(BigInt(u), s));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('BTC', 'ETH', 'USDT', 'DOGE', 'ZZZ'), fc.constantFrom('main', 'trade'), amount), { maxLength: 8 }), amount, (rows, tick) => {
        const accounts = rows.map(([currency, type, balance], i) => ({ id: String(i), currency, type: type as 'main' | 'trade', balance, available: balance, holds: '0' }));
        const live = (s: string) => (s === 'BTC-USDT' && !D.isZero(tick) ? tick : undefined);
        const prices = currencyPrices(new Set(accounts.map((a) => a.currency)), fiat, live);
        // The Accounts view: per currency, the balance summed then valued; the Portfolio row sums those.
        const totals = new Map<string, string>();
        for (const a of accounts) totals.set(a.currency, D.add(totals.get(a.currency) ?? '0', a.balance));
        let sum = '0';
        for (const [c, t] of totals) {
          const v = D.isZero(t) ? undefined : fiatValue(t, currencyPrice(c, fiat, live)?.price);
          if (v !== undefined) sum = D.add(sum, v);
        }
        assert.equal(D.cmp(portfolioValue(accounts, prices).total, sum), 0);
      }),
    );
  });
  });
});
