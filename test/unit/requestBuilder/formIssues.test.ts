/**
 * The request builder shows no error before input, and each at the field at fault.
 */
import { strict as assert } from 'assert';
import { validateOrder } from '../../../src/api/orderRules';
import { formFieldOf, shownIssues } from '../../../src/features/requestBuilder/model/formIssues';
import { draftToOrder, emptyDraft } from '../../../src/features/requestBuilder/protocol';

const rules = new Map([
  ['BTC-USDT', { symbol: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', baseIncrement: '0.00000001', priceIncrement: '0.1', quoteIncrement: '0.000001', baseMinSize: '0.00001', quoteMinSize: '0.1', baseMaxSize: '10000000000', quoteMaxSize: '99999999', minFunds: '0.1', enableTrading: true }],
]);
const issuesOf = (d = emptyDraft('BTC-USDT', 'abc')) => validateOrder(draftToOrder(d), { symbols: rules });

describe('request builder: which issues the form shows, and where', () => {
  it('a fresh limit order shows nothing before input (the rules do find the missing price and size)', () => {
    const issues = issuesOf();
    assert.deepEqual(issues.map((i) => i.code), ['limit-missing-price', 'limit-missing-size']);
    const shown = shownIssues(issues, new Set(), false);
    assert.deepEqual([...shown.byField.keys()], []);
    assert.deepEqual(shown.general, []);
  });

  it('a missing price is shown at "price", not under "type"', () => {
    const [missing] = issuesOf();
    assert.equal(missing.field, 'type', 'the rules anchor it on the property that requires it');
    assert.equal(formFieldOf(missing), 'price');
    const shown = shownIssues(issuesOf(), new Set(['price']), false);
    assert.deepEqual([...shown.byField.keys()], ['price']);
    assert.equal(shown.byField.get('price')?.[0].message, 'A limit order needs "price".');
  });

  it('a touched field shows its own rule violation only', () => {
    const issues = issuesOf({ ...emptyDraft('BTC-USDT', 'abc'), price: '60000.05' });
    const shown = shownIssues(issues, new Set(['price']), false);
    assert.deepEqual([...shown.byField.keys()], ['price']);
    assert.match(shown.byField.get('price')![0].message, /^price 60000\.05 is not a multiple of priceIncrement 0\.1/);
  });

  it('after "Run order test" or "Place order…", everything is shown, each at its field', () => {
    const shown = shownIssues(issuesOf({ ...emptyDraft('', 'abc'), type: 'market' }), new Set(), true);
    assert.deepEqual([...shown.byField.keys()].sort(), ['size', 'symbol']);
    assert.deepEqual(shown.general, []);
  });
});
