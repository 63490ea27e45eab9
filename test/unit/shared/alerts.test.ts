/**
 * Price alerts, the pure rules (src/features/alerts/model/alerts.ts): the typed price is checked against
 * the symbol's tick and the current price; `above` fires at last ≥ price, `below` at last ≤ price;
 * an alert fires ONCE however many prices follow; an alert stored armed whose price was crossed while
 * nothing watched (VS Code closed) fires on the first price seen at start; stored JSON is read back
 * defensively.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { checkAlerts, describeAlert, isArmed, isTriggered, parseAlerts, validateAlertPrice, type PriceAlert } from '../../../src/features/alerts/model/alerts';

const alert = (id: string, direction: 'above' | 'below', price: string, extra: Partial<PriceAlert> = {}): PriceAlert => ({
  id,
  profileId: 'sandbox',
  symbol: 'BTC-USDT',
  direction,
  price,
  createdAt: 1_700_000_000_000,
  ...extra,
});

describe('price alerts (src/features/alerts/model/alerts.ts)', () => {
  describe('validateAlertPrice: the symbol tick and the far side of the current price', () => {
    it('accepts a price on the tick beyond the last price', () => {
      assert.equal(validateAlertPrice('70000.1', '0.1', 'above', '68000'), undefined);
      assert.equal(validateAlertPrice(' 60000 ', '0.1', 'below', '68000'), undefined);
      assert.equal(validateAlertPrice('0.00012', '0.00001', 'above', null), undefined); // last unknown: tick only
    });

    it('refuses a price off the tick and names the two nearest valid prices', () => {
      assert.equal(validateAlertPrice('70000.05', '0.1', 'above', '68000'), '70000.05 is not on the tick 0.1: use 70000 or 70000.1.');
      assert.equal(validateAlertPrice('1.23', '0.5', 'above', null), '1.23 is not on the tick 0.5: use 1 or 1.5.');
    });

    it('refuses what is not a positive plain decimal', () => {
      for (const bad of ['', 'abc', '1e5', '70,000', '+5', 'NaN']) assert.match(validateAlertPrice(bad, '0.1', 'above', null) ?? '', /plain decimal/, bad);
      for (const bad of ['0', '-1', '0.0']) assert.match(validateAlertPrice(bad, '0.1', 'below', null) ?? '', /greater than zero/, bad);
    });

    it('refuses a price the last price already satisfies (it would fire at once), equality included', () => {
      assert.match(validateAlertPrice('68000', '0.1', 'above', '68000') ?? '', /already at or above 68000: the alert would fire at once\. Choose a price above 68000/);
      assert.match(validateAlertPrice('67000', '0.1', 'above', '68000') ?? '', /would fire at once/);
      assert.match(validateAlertPrice('69000', '0.1', 'below', '68000') ?? '', /already at or below 69000/);
      assert.match(validateAlertPrice('68000.0', '0.1', 'below', '68000') ?? '', /would fire at once/);
    });
  });

  describe('isTriggered: a level, compared exactly', () => {
    it('above fires at or beyond the price, below at or under it', () => {
      const up = alert('a', 'above', '70000');
      const down = alert('b', 'below', '60000');
      assert.deepEqual(['69999.99', '70000', '70000.00', '70000.01'].map((p) => isTriggered(up, p)), [false, true, true, true]);
      assert.deepEqual(['60000.01', '60000', '59999.99'].map((p) => isTriggered(down, p)), [false, true, true]);
    });

    it('decimals longer than a double holds are compared exactly; a malformed price never fires', () => {
      const a = alert('a', 'above', '0.100000000000000000001');
      assert.equal(isTriggered(a, '0.1'), false); // Number() would say equal
      assert.equal(isTriggered(a, '0.100000000000000000001'), true);
      assert.equal(isTriggered(alert('b', 'below', '1'), 'not a price'), false);
    });
  });

  describe('checkAlerts: fired once, per profile and symbol', () => {
    it('a price path crossing the level fires the alert once, at the first price beyond it', () => {
      let alerts: readonly PriceAlert[] = [alert('a', 'above', '70000'), alert('b', 'below', '60000')];
      const firedAt: Array<[string, string]> = [];
      ['68000', '69999.9', '70000.5', '71000', '69000', '70500', '59000'].forEach((last, i) => {
        const r = checkAlerts(alerts, 'sandbox', 'BTC-USDT', last, 1000 + i);
        for (const f of r.fired) firedAt.push([f.id, last]);
        alerts = r.next;
      });
      assert.deepEqual(firedAt, [
        ['a', '70000.5'],
        ['b', '59000'],
      ]);
      assert.deepEqual(
        alerts.map((a) => [a.id, a.firedAt, a.firedPrice]),
        [
          ['a', 1002, '70000.5'],
          ['b', 1006, '59000'],
        ],
      );
      assert.ok(alerts.every((a) => !isArmed(a)));
    });

    it('an alert stored armed whose level was crossed while VS Code was closed fires on the first (current) price at start', () => {
      // stored yesterday: above 70000; nothing watched since; the first ticker at start says 72000
      const stored = parseAlerts(JSON.parse(JSON.stringify([alert('a', 'above', '70000')])));
      const r = checkAlerts(stored, 'sandbox', 'BTC-USDT', '72000', 5000);
      assert.deepEqual(r.fired.map((a) => [a.id, a.firedPrice, a.firedAt]), [['a', '72000', 5000]]);
      // …and once only: the state it leaves (saved to global state) does not fire again after another reload
      const again = checkAlerts(parseAlerts(JSON.parse(JSON.stringify(r.next))), 'sandbox', 'BTC-USDT', '73000', 6000);
      assert.deepEqual(again.fired, []);
    });

    it("leaves other profiles' and other symbols' alerts alone, and returns the same array when nothing fired", () => {
      const alerts = [alert('a', 'above', '70000', { profileId: 'user:Live' }), alert('b', 'above', '70000', { symbol: 'ETH-USDT' }), alert('c', 'above', '80000')];
      const r = checkAlerts(alerts, 'sandbox', 'BTC-USDT', '75000', 1);
      assert.deepEqual(r.fired, []);
      assert.equal(r.next, alerts);
    });

    it('property: over any price path, each alert fires at most once, exactly when the path reaches its level, at the first such price', () => {
      const price = fc.integer({ min: 1, max: 2000 }).map((u) => D.fromUnits(BigInt(u), 1));
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.boolean(), price), { minLength: 1, maxLength: 6 }), fc.array(price, { minLength: 1, maxLength: 40 }), (defs, path) => {
          let alerts: readonly PriceAlert[] = defs.map(([up, p], i) => alert(`id${i}`, up ? 'above' : 'below', p));
          const fired = new Map<string, string>();
          path.forEach((last, t) => {
            const r = checkAlerts(alerts, 'sandbox', 'BTC-USDT', last, t);
            for (const f of r.fired) {
              assert.ok(!fired.has(f.id), `${f.id} fired twice`);
              fired.set(f.id, last);
            }
            alerts = r.next;
          });
          defs.forEach(([up, p], i) => {
            const first = path.find((last) => (up ? D.cmp(last, p) >= 0 : D.cmp(last, p) <= 0));
            assert.equal(fired.get(`id${i}`), first, `alert ${i} ${up ? 'above' : 'below'} ${p}`);
          });
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('parseAlerts: stored JSON read back', () => {
    it('keeps well-formed alerts (fired state included) and drops anything malformed', () => {
      const good = alert('a', 'above', '70000');
      const fired = { ...alert('b', 'below', '1.5', { symbol: 'eth-usdt' }), firedAt: 10, firedPrice: '1.4' };
      const raw = [
        good,
        fired,
        { ...good, direction: 'sideways' },
        { ...good, price: '1e5' },
        { ...good, price: '0' },
        { ...good, symbol: 'BTCUSDT' },
        { ...good, createdAt: 'yesterday' },
        null,
        'x',
        { ...good, firedAt: 5, firedPrice: 'oops' }, // a broken fired state: kept, armed
      ];
      const out = parseAlerts(raw);
      assert.deepEqual(
        out.map((a) => [a.id, a.symbol, a.firedAt ?? null]),
        [
          ['a', 'BTC-USDT', null],
          ['b', 'ETH-USDT', 10],
          ['a', 'BTC-USDT', null],
        ],
      );
      assert.deepEqual(parseAlerts(undefined), []);
      assert.deepEqual(parseAlerts({ a: 1 }), []);
    });

    it('describeAlert names symbol, direction and price', () => {
      assert.equal(describeAlert(alert('a', 'below', '60000')), 'BTC-USDT below 60000');
    });
  });
});
