/**
 * The Order Ticket's arithmetic (src/features/market/model/ticket.ts): sizes for 25/50/75/100 % of
 * the available balance at the lot, the notional, the fee estimate at the user's rate, the crossing
 * and far-from-market warnings — and that the ticket and the request builder never disagree: on the
 * same drafts both give the same rule issues (src/api/orderRules.ts) and the same notional, liquidity,
 * fee and warnings as the builder's placement estimate (src/api/orderEstimate.ts).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as D from '../../../src/api/decimal';
import { validateOrder } from '../../../src/api/orderRules';
import { validateKind } from '../../../src/api/advancedOrderRules';
import { estimateOrder } from '../../../src/api/orderEstimate';
import { draftToOrder, emptyDraft } from '../../../src/features/requestBuilder/protocol';
import { FAR_FROM_MARKET, marketPrice, quoteTicket, sizeForShare, ticketPrice, type TicketContext, type TicketInput } from '../../../src/features/market/model/ticket';

/** BTC-USDT as the sandbox seeds it (src/exchange/server/seed/symbols.json). */
const RULES = {
  symbol: 'BTC-USDT',
  baseCurrency: 'BTC',
  quoteCurrency: 'USDT',
  baseMinSize: '0.00001',
  quoteMinSize: '0.1',
  baseMaxSize: '10000000000',
  quoteMaxSize: '99999999',
  baseIncrement: '0.00000001',
  quoteIncrement: '0.000001',
  priceIncrement: '0.1',
  minFunds: '0.1',
  enableTrading: true,
};

const ctx = (over: Partial<TicketContext> = {}): TicketContext => ({
  rules: RULES,
  bestBid: '60000',
  bestAsk: '60010',
  last: '60005',
  availableBase: '1.23456789',
  availableQuote: '10000',
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  ...over,
});

const codes = (ws: readonly { code: string }[]) => ws.map((w) => w.code).sort();

describe('order ticket (src/features/market/model/ticket.ts)', () => {
  describe('sizes for a share of the available balance', () => {
    it('a sell uses that share of the base available, rounded DOWN to the lot', () => {
      // 1.23456789 × 0.25 = 0.3086419725 → 0.30864197
      assert.deepEqual(
        [25, 50, 75, 100].map((p) => sizeForShare(p, { side: 'sell', type: 'limit', price: '60000' }, ctx())),
        ['0.30864197', '0.61728394', '0.92592591', '1.23456789'],
      );
    });

    it('a buy: the largest size whose price × size × (1 + taker rate) fits the share of the quote', () => {
      // 100 %: 10000 / (60000 × 1.002) = 0.166333998669… → 0.16633399
      const s = sizeForShare(100, { side: 'buy', type: 'limit', price: '60000' }, ctx());
      assert.equal(s, '0.16633399');
      const cost = D.mul(D.mul(s!, '60000'), '1.002');
      assert.ok(D.cmp(cost, '10000') <= 0, `fits: ${cost}`);
      const oneLotMore = D.mul(D.mul(D.add(s!, RULES.baseIncrement), '60000'), '1.002');
      assert.ok(D.cmp(oneLotMore, '10000') > 0, `one lot more does not: ${oneLotMore}`);
      // a market buy uses the best ask
      assert.equal(sizeForShare(50, { side: 'buy', type: 'market', price: '' }, ctx()), D.roundDown(D.divDown('5000', D.mul('60010', '1.002'), 10), RULES.baseIncrement));
    });

    it('nothing when it cannot be computed or rounds to zero', () => {
      assert.equal(sizeForShare(25, { side: 'sell', type: 'limit', price: '1' }, ctx({ availableBase: '0' })), null);
      assert.equal(sizeForShare(25, { side: 'sell', type: 'limit', price: '1' }, ctx({ availableBase: '0.00000003' })), null); // 0.0000000075 → 0
      assert.equal(sizeForShare(50, { side: 'buy', type: 'limit', price: '' }, ctx()), null); // no price
      assert.equal(sizeForShare(50, { side: 'buy', type: 'market', price: '' }, ctx({ bestAsk: null })), null);
      assert.equal(sizeForShare(0, { side: 'sell', type: 'limit', price: '1' }, ctx()), null);
      assert.equal(sizeForShare(101, { side: 'sell', type: 'limit', price: '1' }, ctx()), null);
    });

    it('property: the size is on the lot and never needs more than the share of what is available', () => {
      const amount = (max: number, scale: number) => fc.integer({ min: 1, max }).map((u) => D.fromUnits(BigInt(u), scale));
      fc.assert(
        fc.property(fc.constantFrom(25, 50, 75, 100), fc.boolean(), amount(10_000_000, 1), amount(1_000_000_000, 4), amount(10_000_000_000, 8), fc.integer({ min: 0, max: 50 }), (pct, buy, price, quote, base, rateBp) => {
          const rate = D.fromUnits(BigInt(rateBp), 4);
          const c = ctx({ availableQuote: quote, availableBase: base, takerFeeRate: rate });
          const s = sizeForShare(pct, { side: buy ? 'buy' : 'sell', type: 'limit', price }, c);
          if (s === null) return;
          assert.ok(D.isMultipleOf(s, RULES.baseIncrement), s);
          const share = D.divDown(String(pct), '100', 2);
          if (buy) assert.ok(D.cmp(D.mul(D.mul(s, price), D.add('1', rate)), D.mul(quote, share)) <= 0);
          else assert.ok(D.cmp(s, D.mul(base, share)) <= 0);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('notional, fee and warnings', () => {
    it('a resting limit buy: notional at its price, the maker fee rounded up to the quote precision', () => {
      const q = quoteTicket({ side: 'buy', type: 'limit', price: '59990.1', size: '0.0123457' }, ctx());
      assert.equal(q.notional, '740.61977757'); // 59990.1 × 0.0123457 (exact)
      assert.equal(q.liquidity, 'maker');
      assert.equal(q.feeRate, '0.001');
      assert.equal(q.fee, '0.74062'); // 0.74061977757 rounded UP to 6 decimals
      assert.deepEqual(q.cost, { currency: 'USDT', amount: '741.36039757' });
      assert.deepEqual(q.available, { currency: 'USDT', amount: '10000' });
      assert.deepEqual(q.warnings, []);
      assert.equal(q.ok, true);
      assert.deepEqual(q.order, { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '59990.1', size: '0.0123457' });
    });

    it('a limit that crosses the spread is a taker and says so; at the touch counts as crossing', () => {
      const buy = quoteTicket({ side: 'buy', type: 'limit', price: '60010', size: '0.1' }, ctx());
      assert.equal(buy.liquidity, 'taker');
      assert.equal(buy.fee, '12.002'); // 6001 × 0.002
      assert.deepEqual(codes(buy.warnings), ['crosses-spread']);
      assert.match(buy.warnings[0].message, /best ask 60010/);
      const sell = quoteTicket({ side: 'sell', type: 'limit', price: '59000', size: '0.1' }, ctx());
      assert.equal(sell.liquidity, 'taker');
      assert.deepEqual(codes(sell.warnings), ['crosses-spread']);
      assert.deepEqual(sell.cost, { currency: 'BTC', amount: '0.1' });
      assert.equal(quoteTicket({ side: 'sell', type: 'limit', price: '60000.1', size: '0.1' }, ctx()).liquidity, 'maker');
    });

    it(`far from the market: more than ${D.mul(FAR_FROM_MARKET, '100')} % from the mid (the last price when a side is empty)`, () => {
      const mid = marketPrice('60000', '60010', null)!;
      assert.equal(mid, '60005');
      const edge = D.roundDown(D.mul(mid, D.add('1', FAR_FROM_MARKET)), '0.1'); // exactly at the threshold or just inside
      assert.deepEqual(codes(quoteTicket({ side: 'sell', type: 'limit', price: edge, size: '0.1' }, ctx()).warnings), []);
      const far = quoteTicket({ side: 'sell', type: 'limit', price: D.add(edge, '1'), size: '0.1' }, ctx());
      assert.deepEqual(codes(far.warnings), ['far-from-market']);
      assert.match(far.warnings[0].message, /above the mid 60005/);
      const low = quoteTicket({ side: 'buy', type: 'limit', price: '30000', size: '0.1' }, ctx({ bestAsk: null }));
      assert.deepEqual(codes(low.warnings), ['far-from-market']);
      assert.match(low.warnings[0].message, /50 % below the last price 60005/);
    });

    it('a market order is a taker priced at the opposite best; without one, no figures and a warning', () => {
      const q = quoteTicket({ side: 'buy', type: 'market', price: '123', size: '0.5' }, ctx());
      assert.equal(q.referencePrice, '60010');
      assert.equal(q.notional, '30005');
      assert.equal(q.liquidity, 'taker');
      assert.equal(q.order.price, undefined, 'a market order sends no price');
      assert.deepEqual(codes(q.warnings), ['insufficient-balance']); // 30005 + fee > 10000
      assert.match(q.warnings[0].message, /Needs 30065\.01 USDT; 10000 USDT is available/);
      const none = quoteTicket({ side: 'sell', type: 'market', price: '', size: '0.5' }, ctx({ bestBid: null }));
      assert.deepEqual([none.notional, none.fee, codes(none.warnings)], [null, null, ['no-market-price']]);
    });

    it('malformed input: null figures and the rules module’s errors, never a throw', () => {
      const q = quoteTicket({ side: 'buy', type: 'limit', price: '60000.05', size: 'abc' }, ctx());
      assert.equal(q.notional, null);
      assert.equal(q.ok, false);
      assert.ok(q.issues.some((i) => i.field === 'price' && i.severity === 'error'), JSON.stringify(q.issues));
      assert.ok(q.issues.some((i) => i.field === 'size' && i.severity === 'error'), JSON.stringify(q.issues));
    });

    it('price buttons: best bid, best ask, and the mid rounded down to the tick', () => {
      assert.deepEqual([ticketPrice('bid', ctx()), ticketPrice('ask', ctx()), ticketPrice('mid', ctx({ bestAsk: '60000.3' }))], ['60000', '60010', '60000.1']);
      assert.equal(ticketPrice('mid', ctx({ bestBid: null })), null);
    });
  });

  describe('the ticket and the request builder agree (one rules module, one estimate)', () => {
    type HfInput = TicketInput & { type: 'limit' | 'market' };
    const drafts: Array<HfInput> = [
      { side: 'buy', type: 'limit', price: '59990.1', size: '0.01' },
      { side: 'buy', type: 'limit', price: '60010', size: '0.01' }, // crosses
      { side: 'sell', type: 'limit', price: '70000', size: '0.01' }, // far
      { side: 'sell', type: 'limit', price: '60000.05', size: '0.01' }, // off the tick
      { side: 'buy', type: 'limit', price: '60000', size: '0.000001' }, // below the minimum size
      { side: 'buy', type: 'limit', price: '60000', size: '0.123456789' }, // off the lot
      { side: 'buy', type: 'limit', price: '', size: '0.01' }, // no price
      { side: 'sell', type: 'limit', price: '-1', size: '0.01' },
      { side: 'buy', type: 'market', price: '', size: '0.01' },
      { side: 'sell', type: 'market', price: '', size: '0' },
      { side: 'buy', type: 'limit', price: '0.1', size: '0.5' }, // funds below the minimum
    ];

    /** What the request builder does with the same order: its draft, the rules, its placement estimate. */
    function builder(t: HfInput, c: TicketContext) {
      const draft = { ...emptyDraft('BTC-USDT', 'agree-1'), side: t.side, type: t.type, price: t.price, size: t.size };
      const order = draftToOrder(draft);
      const issues = validateOrder(order, { symbols: new Map([[RULES.symbol, RULES]]) });
      const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
      const estimate = estimateOrder(
        { side: t.side, type: t.type, price: str(order.price), size: str(order.size), base: 'BTC', baseDigits: D.fractionDigits(RULES.baseIncrement) },
        { bestBid: c.bestBid ?? undefined, bestAsk: c.bestAsk ?? undefined, bids: c.bids ?? undefined, asks: c.asks ?? undefined },
        c.makerFeeRate && c.takerFeeRate ? { makerFeeRate: c.makerFeeRate, takerFeeRate: c.takerFeeRate } : undefined,
        'USDT',
        D.fractionDigits(RULES.quoteIncrement),
      );
      return { issues, estimate };
    }

    function assertAgree(t: HfInput, c: TicketContext): void {
      const q = quoteTicket(t, c);
      const b = builder(t, c);
      const key = (i: { code: string; field: string | null; severity: string }) => `${i.severity} ${i.code} ${i.field}`;
      const label = JSON.stringify(t);
      assert.deepEqual(q.issues.filter((i) => i.field !== 'clientOid').map(key).sort(), b.issues.filter((i) => i.field !== 'clientOid').map(key).sort(), `issues of ${label}`);
      assert.equal(q.ok, !b.issues.some((i) => i.severity === 'error' && i.field !== 'clientOid'), `ok of ${label}`);
      const valid = D.isDecimal(t.size.trim()) && !D.isZero(t.size) && !D.isNegative(t.size) && (t.type === 'market' || (D.isDecimal(t.price) && !D.isNegative(t.price) && !D.isZero(t.price)));
      if (!valid) return;
      assert.equal(q.notional ?? undefined, b.estimate.notional, `notional of ${label}`);
      assert.equal(q.liquidity ?? 'unknown', b.estimate.liquidity, `liquidity of ${label}`);
      assert.equal(q.fee ?? undefined, b.estimate.fee, `fee of ${label}`);
      const crosses = b.estimate.warnings.some((w) => /crosses the spread/.test(w));
      assert.equal(codes(q.warnings).includes('crosses-spread'), crosses, `crossing warning of ${label}`);
      assert.deepEqual(q.walk ?? undefined, b.estimate.walk, `book walk of ${label}`);
      const deep = b.estimate.warnings.filter((w) => /^Larger than the visible book/.test(w));
      assert.deepEqual(q.warnings.filter((w) => w.code === 'beyond-depth').map((w) => w.message), deep, `depth warning of ${label}`);
      if (c.bestBid && c.bestAsk) {
        const far = b.estimate.warnings.some((w) => /the market \(mid/.test(w));
        assert.equal(codes(q.warnings).includes('far-from-market'), far, `far-from-market warning of ${label}`);
      }
    }

    it('on a fixed set of drafts: same issues, notional, liquidity, fee, crossing and far-from-market warnings', () => {
      for (const t of drafts) assertAgree(t, ctx());
    });

    it('market orders walk the same visible book: same average price, slippage, notional and depth warning', () => {
      const book = { bids: [['60000', '0.01'], ['59990', '0.02'], ['59900', '0.5']] as const, asks: [['60010', '0.01'], ['60020', '0.02'], ['60100', '0.03']] as const };
      const c = ctx({ bids: book.bids, asks: book.asks });
      for (const size of ['0.005', '0.01', '0.025', '0.06', '0.07', '1']) for (const side of ['buy', 'sell'] as const) assertAgree({ side, type: 'market', price: '', size }, c);
      const q = quoteTicket({ side: 'buy', type: 'market', price: '', size: '0.025' }, c);
      // 0.01 × 60010 + 0.015 × 60020 = 600.1 + 900.3 = 1500.4 over 0.025 BTC → 60016 average, 0.99 bps above 60010
      assert.deepEqual([q.notional, q.referencePrice, q.walk?.levels, q.walk?.slippageBps, q.walk?.exceedsDepth], ['1500.4', '60016', 2, '0.99', false]);
      const deep = quoteTicket({ side: 'buy', type: 'market', price: '', size: '0.07' }, c);
      assert.deepEqual(codes(deep.warnings), ['beyond-depth']);
      assert.equal(deep.warnings[0].message, 'Larger than the visible book: its 3 ask levels hold 0.06 BTC (3603.5 USDT); the rest fills at prices nobody can see, or not at all.');
    });

    it('property: on random drafts and books', () => {
      const price = fc.oneof(fc.integer({ min: 1, max: 1_400_000 }).map((u) => D.fromUnits(BigInt(u), 1)), fc.integer({ min: 1, max: 10_000_000 }).map((u) => D.fromUnits(BigInt(u), 2)));
      const size = fc.oneof(fc.integer({ min: 1, max: 100_000_000 }).map((u) => D.fromUnits(BigInt(u), 8)), fc.integer({ min: 1, max: 1_000_000 }).map((u) => D.fromUnits(BigInt(u), 9)), fc.constant(''));
      fc.assert(
        fc.property(fc.boolean(), fc.boolean(), price, size, fc.integer({ min: 590_000, max: 610_000 }), fc.integer({ min: 1, max: 5000 }), (buy, limit, p, s, bidTicks, spreadTicks) => {
          const bid = D.fromUnits(BigInt(bidTicks), 1);
          const ask = D.add(bid, D.fromUnits(BigInt(spreadTicks), 1));
          assertAgree({ side: buy ? 'buy' : 'sell', type: limit ? 'limit' : 'market', price: limit ? p : '', size: s }, ctx({ bestBid: bid, bestAsk: ask }));
        }),
        { numRuns: 400 },
      );
    });
  });

  describe('stop orders and OCO orders', () => {
    it('a stop-limit sell below the last price is a loss stop: the stop-order body, its trigger, the taker fee, no hold but a balance warning', () => {
      const q = quoteTicket({ side: 'sell', type: 'stopLimit', price: '59000', size: '2', stopPrice: '59500' }, ctx());
      assert.equal(q.kind, 'stop');
      assert.deepEqual(q.order, { symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '59000', size: '2', stopPrice: '59500', stop: 'loss' });
      assert.equal(q.trigger, '≤ 59500 (loss)');
      assert.deepEqual([q.referencePrice, q.notional, q.liquidity, q.feeRate, q.fee], ['59000', '118000', 'taker', '0.002', '236']);
      assert.deepEqual(q.cost, { currency: 'BTC', amount: '2' });
      assert.deepEqual(codes(q.warnings), ['insufficient-balance']);
      assert.match(q.warnings[0].message, /Needs 2 BTC when it fires; 1\.23456789 BTC is available/);
      assert.ok(q.ok);
    });

    it('a stop-market buy above the last price is an entry stop, estimated at its trigger; a trigger at the last price fires at once', () => {
      const q = quoteTicket({ side: 'buy', type: 'stopMarket', price: '123', size: '0.01', stopPrice: '61000' }, ctx());
      assert.deepEqual(q.order, { symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.01', stopPrice: '61000', stop: 'entry' });
      assert.equal(q.trigger, '≥ 61000 (entry)');
      assert.deepEqual([q.referencePrice, q.notional, q.fee], ['61000', '610', '1.22']);
      assert.deepEqual(q.cost, { currency: 'USDT', amount: '611.22' });
      assert.deepEqual(codes(q.warnings), []);
      const now = quoteTicket({ side: 'sell', type: 'stopMarket', price: '', size: '0.01', stopPrice: '60005' }, ctx());
      assert.deepEqual(codes(now.warnings), ['fires-at-once']);
      // without a last price the mid decides; without either, the side
      assert.equal(quoteTicket({ side: 'sell', type: 'stopMarket', price: '', size: '0.01', stopPrice: '60100' }, ctx({ last: null })).order.stop, 'entry');
      assert.equal(quoteTicket({ side: 'sell', type: 'stopMarket', price: '', size: '0.01', stopPrice: '60100' }, ctx({ last: null, bestBid: null, bestAsk: null })).order.stop, 'loss');
    });

    it('an OCO sell: take profit above, stop below; the body of POST /api/v3/oco/order; a leg already met fires at once', () => {
      const q = quoteTicket({ side: 'sell', type: 'oco', price: '62000', size: '0.5', stopPrice: '59000', limitPrice: '58900' }, ctx());
      assert.equal(q.kind, 'oco');
      assert.deepEqual(q.order, { symbol: 'BTC-USDT', side: 'sell', price: '62000', size: '0.5', stopPrice: '59000', limitPrice: '58900' });
      assert.equal(q.trigger, '≥ 62000 / ≤ 59000');
      assert.deepEqual([q.notional, q.liquidity], ['31000', 'taker']);
      assert.ok(q.ok, JSON.stringify(q.issues));
      assert.deepEqual(codes(quoteTicket({ side: 'sell', type: 'oco', price: '60000', size: '0.5', stopPrice: '59000', limitPrice: '58900' }, ctx()).warnings), ['fires-at-once']);
      assert.deepEqual(codes(quoteTicket({ side: 'sell', type: 'oco', price: '62000', size: '0.5', stopPrice: '60005', limitPrice: '58900' }, ctx()).warnings), ['fires-at-once']);
      // a buy OCO: the dearer leg is the reference (what it may cost), take profit below the stop
      const b = quoteTicket({ side: 'buy', type: 'oco', price: '58000', size: '0.1', stopPrice: '61000', limitPrice: '61100' }, ctx());
      assert.deepEqual([b.trigger, b.referencePrice, b.notional, b.fee], ['≤ 58000 / ≥ 61000', '61100', '6110', '12.22']);
      assert.ok(b.ok);
    });

    it('rule checks are those of src/api/advancedOrderRules.ts, at their fields (the missing clientOid is the host\'s to add)', () => {
      const cases: Array<[TicketInput, string[]]> = [
        [{ side: 'sell', type: 'stopLimit', price: '59000', size: '0.01', stopPrice: '' }, ['missing-field stopPrice']],
        [{ side: 'sell', type: 'stopLimit', price: '59000', size: '0.01', stopPrice: '59500.05' }, ['price-increment stopPrice']],
        [{ side: 'sell', type: 'stopLimit', price: '59000.01', size: '0.01', stopPrice: '59500' }, ['price-increment price']],
        [{ side: 'sell', type: 'oco', price: '58000', size: '0.01', stopPrice: '59000', limitPrice: '58900' }, ['oco-price-side price']],
        [{ side: 'sell', type: 'oco', price: '62000', size: '0.01', stopPrice: '59000', limitPrice: '' }, ['missing-field limitPrice']],
        [{ side: 'sell', type: 'oco', price: '62000', size: '0.01', stopPrice: '59000', limitPrice: '58900.05' }, ['price-increment limitPrice']],
        [{ side: 'buy', type: 'oco', price: '62000', size: '0.000009', stopPrice: '63000', limitPrice: '63100' }, ['size-min size']],
      ];
      for (const [input, want] of cases) {
        const q = quoteTicket(input, ctx());
        assert.deepEqual(q.issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.field}`), want, JSON.stringify(input));
        assert.equal(q.ok, false);
        // the same issues as the rules module gives the body the ticket sends (with a clientOid)
        const same = validateKind(q.kind, { ...q.order, clientOid: 'x' }, { symbols: new Map([[RULES.symbol, RULES]]) });
        assert.deepEqual(q.issues, same);
      }
    });

    it('sizes for a share: a stop-market buy at its trigger price', () => {
      assert.equal(sizeForShare(50, { side: 'buy', type: 'stopMarket', price: '', stopPrice: '50000' }, ctx()), D.roundDown(D.divDown('5000', D.mul('50000', '1.002'), 10), RULES.baseIncrement));
      assert.equal(sizeForShare(50, { side: 'buy', type: 'stopMarket', price: '', stopPrice: '' }, ctx()), null);
    });
  });
});
