import { strict as assert } from 'node:assert';
import { Exchange, ExchangeError } from '../../../src/exchange/core';
import { fromUnits } from '../../../src/api/decimal';
import { SYM, fund, place, throwsCode, trade, world } from './helpers';

function setup(): { ex: Exchange; clock: { t: number } } {
  const w = world();
  fund(w.ex, 'buyer', 'USDT', '1000');
  fund(w.ex, 'seller', 'BTC', '10');
  fund(w.ex, 'seller2', 'BTC', '10');
  fund(w.ex, 'self', 'BTC', '10');
  fund(w.ex, 'self', 'USDT', '1000');
  return w;
}

describe('exchange core: spec rule 5 (fees and settlement)', () => {
  it('5.1 taker fills pay the taker rate, maker fills the (lower) maker rate', () => {
    const { ex } = setup();
    ex.setFeeRates('seller', '0.001', '0.0005');
    const sellId = place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const buyId = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    const bf = ex.fills('buyer', { symbol: SYM }).items;
    const sf = ex.fills('seller', { symbol: SYM }).items;
    assert.equal(bf.length, 1);
    assert.deepEqual(
      [bf[0].liquidity, bf[0].fee, bf[0].feeRate, bf[0].funds, bf[0].orderId, bf[0].counterOrderId],
      ['taker', '0.1', '0.001', '100', buyId, sellId],
    );
    assert.deepEqual([sf[0].liquidity, sf[0].fee, sf[0].feeRate, sf[0].forceTaker], ['maker', '0.05', '0.0005', false]);
    assert.equal(bf[0].tradeId, sf[0].tradeId);
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['899.9', '899.9', '0']);
    assert.deepEqual(trade(ex, 'buyer', 'BTC'), ['1', '1', '0']);
    assert.deepEqual(trade(ex, 'seller', 'USDT'), ['99.95', '99.95', '0']);
    assert.deepEqual(trade(ex, 'seller', 'BTC'), ['9', '9', '0']);
    assert.deepEqual(ex.collectedFees(), { USDT: '0.15' });
  });

  it('5.1 a zero or negative maker rate: a negative rate is a rebate credited to the maker', () => {
    const { ex } = setup();
    ex.setFeeRates('seller', '0.001', '-0.0002');
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    const sf = ex.fills('seller', { symbol: SYM }).items[0];
    assert.deepEqual([sf.fee, sf.feeRate], ['-0.02', '-0.0002']);
    assert.deepEqual(trade(ex, 'seller', 'USDT'), ['100.02', '100.02', '0']);
    assert.deepEqual(ex.collectedFees(), { USDT: '0.08' });
    ex.setFeeRates('seller2', '0.001', '0');
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    assert.equal(ex.fills('seller2', { symbol: SYM }).items[0].fee, '0');
    assert.deepEqual(trade(ex, 'seller2', 'USDT'), ['100', '100', '0']);
  });

  it('5.2/5.6 market orders pay taker; resting hidden and iceberg orders pay taker (forceTaker) even when filled passively', () => {
    const { ex } = setup();
    ex.setFeeRates('seller', '0.001', '0');
    const hid = place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', hidden: true });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    let f = ex.fills('seller', { symbol: SYM }).items[0];
    assert.deepEqual([f.orderId, f.liquidity, f.forceTaker, f.feeRate, f.fee], [hid, 'maker', true, '0.001', '0.1']);
    assert.deepEqual(trade(ex, 'seller', 'USDT'), ['99.9', '99.9', '0']);

    const ice = place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', iceberg: true, visibleSize: '0.2' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.2' });
    f = ex.fills('seller', { symbol: SYM }).items[0];
    assert.deepEqual([f.orderId, f.forceTaker, f.feeRate, f.fee, f.funds], [ice, true, '0.001', '0.02', '20']);

    ex.setFeeRates('seller2', '0.001', '0');
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '99', size: '0.5' });
    const mkt = place(ex, 'buyer', { side: 'buy', type: 'market', size: '0.5' });
    const bf = ex.fills('buyer', { symbol: SYM, orderId: mkt }).items;
    assert.deepEqual(
      bf.map((x) => [x.liquidity, x.type, x.price, x.size, x.funds, x.fee]),
      [['taker', 'market', '99', '0.5', '49.5', '0.0495']],
    );
    assert.equal(ex.fills('seller2', { symbol: SYM }).items[0].fee, '0');
  });

  it('5.3 placement holds price×size + taker fee; maker fills refund the surplus taker fee at once', () => {
    const { ex } = setup();
    ex.setFeeRates('buyer', '0.001', '0.0002');
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '2' });
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '799.8', '200.2']);
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '99', size: '0.5' });
    // maker fill at 100: funds 50, maker fee 0.01; hold for the remaining 1.5: 150 + 0.15
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['949.99', '799.84', '150.15']);
    place(ex, 'seller', { side: 'sell', type: 'market', size: '1.5' });
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['799.96', '799.96', '0']);
    assert.deepEqual(trade(ex, 'buyer', 'BTC'), ['2', '2', '0']);
    const o = ex.getOrder('buyer', SYM, id);
    assert.deepEqual([o.active, o.inOrderBook, o.dealSize, o.dealFunds, o.fee, o.remainSize], [false, false, '2', '200', '0.04', '0']);
  });

  it('5.4 a limit order is matched first (taker fee), its remainder rests and pays the maker fee later', () => {
    const { ex } = setup();
    ex.setFeeRates('buyer', '0.001', '0.0005');
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '101', size: '3' });
    // taker fill 1 @ 100: 100 + fee 0.1; remainder 2 @ 101 holds 202 + 0.202
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['899.9', '697.698', '202.202']);
    assert.deepEqual(ex.level2(SYM, 20).bids, [['101', '2']]);
    place(ex, 'seller2', { side: 'sell', type: 'market', size: '2' });
    const fills = ex.fills('buyer', { symbol: SYM, orderId: id }).items;
    assert.deepEqual(
      fills.map((f) => [f.liquidity, f.price, f.size, f.fee, f.feeRate]),
      [
        ['maker', '101', '2', '0.101', '0.0005'],
        ['taker', '100', '1', '0.1', '0.001'],
      ],
    );
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['697.799', '697.799', '0']);
    const o = ex.getOrder('buyer', SYM, id);
    assert.deepEqual([o.dealFunds, o.fee, o.funds, o.remainFunds, o.active], ['302', '0.201', '303', '1', false]);
  });

  it('5.5 post-only: cancelled when it would match an ordinary order; against hidden/iceberg it fills and pays the maker fee', () => {
    const { ex } = setup();
    ex.setFeeRates('buyer', '0.001', '0.0002');
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const po = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1', postOnly: true });
    let o = ex.getOrder('buyer', SYM, po);
    assert.deepEqual([o.active, o.dealSize, o.cancelledSize, o.cancelExist, o.inOrderBook], [false, '0', '1', true, false]);
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '1000', '0']);
    assert.equal(ex.fills('buyer', { symbol: SYM }).items.length, 0);
    const rest = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '99.9', size: '1', postOnly: true });
    assert.equal(ex.getOrder('buyer', SYM, rest).inOrderBook, true);
    ex.cancelAll('buyer', SYM);
    ex.cancelAll('seller', SYM);

    ex.setFeeRates('seller', '0.001', '0');
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', hidden: true });
    const po2 = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1', postOnly: true });
    const bf = ex.fills('buyer', { symbol: SYM, orderId: po2 }).items;
    assert.deepEqual(bf.map((f) => [f.feeRate, f.fee, f.size]), [['0.0002', '0.02', '1']]);
    assert.deepEqual(ex.fills('seller', { symbol: SYM }).items.map((f) => [f.forceTaker, f.fee]), [[true, '0.1']]);
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['899.98', '899.98', '0']);
    o = ex.getOrder('buyer', SYM, po2);
    assert.equal(o.active, false);
  });

  it('5.5 post-only crossing both an iceberg and an ordinary order is cancelled without any fill', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', iceberg: true, visibleSize: '0.1' });
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100.5', size: '1' });
    const po = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '101', size: '2', postOnly: true });
    assert.deepEqual([ex.getOrder('buyer', SYM, po).dealSize, ex.getOrder('buyer', SYM, po).active], ['0', false]);
  });

  it('5.7 market buy by funds stops and cancels the rest when it cannot buy one baseIncrement at the next price', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.05' });
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '200', size: '1' });
    const id = place(ex, 'buyer', { side: 'buy', type: 'market', funds: '5.01' });
    const o = ex.getOrder('buyer', SYM, id);
    // 0.05 @ 100 = 5; remaining 0.01 cannot buy 0.0001 @ 200 (= 0.02)
    assert.deepEqual(
      [o.funds, o.dealFunds, o.cancelledFunds, o.remainFunds, o.dealSize, o.size, o.price, o.fee, o.active, o.cancelExist],
      ['5.01', '5', '0.01', '0', '0.05', '0', '0', '0.005', false, true],
    );
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['994.995', '994.995', '0']);
    assert.deepEqual(ex.level2(SYM, 5).asks, [['200', '1']]);
    const id2 = place(ex, 'buyer', { side: 'buy', type: 'market', funds: '1' });
    const o2 = ex.getOrder('buyer', SYM, id2);
    assert.deepEqual([o2.dealFunds, o2.cancelledFunds, o2.dealSize, o2.cancelExist], ['1', '0', '0.005', false]);
  });

  it('5.8 fees are per fill: a market order sweeping two levels gets two fills with their own fees', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '101', size: '0.5' });
    const id = place(ex, 'buyer', { side: 'buy', type: 'market', size: '1' });
    const fills = ex.fills('buyer', { symbol: SYM, orderId: id }).items;
    assert.deepEqual(
      fills.map((f) => [f.price, f.funds, f.fee]),
      [
        ['101', '50.5', '0.0505'],
        ['100', '50', '0.05'],
      ],
    );
    assert.ok(fills[0].tradeId > fills[1].tradeId && fills[0].id > fills[1].id);
    assert.equal(ex.getOrder('buyer', SYM, id).fee, '0.1005');
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['899.3995', '899.3995', '0']);
  });

  it('fees are truncated at the quote precision per fill; the buy hold rounds the fee up', () => {
    const { ex } = setup();
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '123.4', size: '0.0011' });
    // funds 0.13574, fee hold ceil(0.00013574) = 0.000136
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '999.864124', '0.135876']);
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '123.4', size: '0.0011' });
    assert.equal(ex.fills('buyer', { symbol: SYM }).items[0].fee, '0.000135');
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['999.864125', '999.864125', '0']);
  });

  it('market sell by funds sells just enough base; market buy by size holds the walked cost', () => {
    const { ex } = setup();
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    const id = place(ex, 'seller', { side: 'sell', type: 'market', funds: '50' });
    const o = ex.getOrder('seller', SYM, id);
    assert.deepEqual([o.dealSize, o.dealFunds, o.fee, o.cancelledFunds], ['0.5', '50', '0.05', '0']);
    assert.deepEqual(trade(ex, 'seller', 'BTC'), ['9.5', '9.5', '0']);
    assert.deepEqual(trade(ex, 'seller', 'USDT'), ['49.95', '49.95', '0']);
    // a market buy the user cannot afford at the walked price is rejected
    fund(ex, 'poor', 'USDT', '10');
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100', size: '1' });
    throwsCode(() => ex.placeOrder('poor', { symbol: SYM, side: 'buy', type: 'market', size: '0.1' }), '200004', 'Balance insufficient!');
    place(ex, 'poor', { side: 'buy', type: 'market', size: '0.0998' }); // 9.98 + 0.00998 ≤ 10
    assert.deepEqual(trade(ex, 'poor', 'USDT'), ['0.01002', '0.01002', '0']);
  });
});

describe('exchange core: self-trade prevention', () => {
  it('no stp: a user can trade with itself', () => {
    const { ex } = setup();
    place(ex, 'self', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '1' });
    assert.equal(ex.fills('self', { symbol: SYM }).items.length, 2);
  });
  it('CN cancels the newest (incoming) order, the resting one stays', () => {
    const { ex } = setup();
    const m = place(ex, 'self', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const t = place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '1', stp: 'CN' });
    const to = ex.getOrder('self', SYM, t);
    assert.deepEqual([to.active, to.cancelledSize, to.dealSize, to.stp], [false, '1', '0', 'CN']);
    assert.equal(ex.getOrder('self', SYM, m).active, true);
    assert.deepEqual(trade(ex, 'self', 'USDT'), ['1000', '1000', '0']);
  });
  it('CO cancels the oldest (resting) order and the incoming order goes on', () => {
    const { ex } = setup();
    const m = place(ex, 'self', { side: 'sell', type: 'limit', price: '100', size: '1' });
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.4' });
    const t = place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '1', stp: 'CO' });
    const mo = ex.getOrder('self', SYM, m);
    assert.deepEqual([mo.active, mo.cancelledSize, mo.cancelExist], [false, '1', true]);
    const to = ex.getOrder('self', SYM, t);
    assert.deepEqual([to.active, to.dealSize, to.remainSize], [true, '0.4', '0.6']);
    assert.deepEqual(ex.level2(SYM, 5), { sequence: ex.level2(SYM, 5).sequence, time: to.createdAt, bids: [['100', '0.6']], asks: [] });
    assert.deepEqual(trade(ex, 'self', 'BTC'), ['10.4', '10.4', '0']);
  });
  it('CB cancels both orders', () => {
    const { ex } = setup();
    const m = place(ex, 'self', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const t = place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '2', stp: 'CB' });
    assert.equal(ex.getOrder('self', SYM, m).active, false);
    assert.deepEqual([ex.getOrder('self', SYM, t).active, ex.getOrder('self', SYM, t).cancelledSize], [false, '2']);
    assert.deepEqual(ex.level2(SYM, 5).asks, []);
    assert.deepEqual(trade(ex, 'self', 'BTC'), ['10', '10', '0']);
    assert.deepEqual(trade(ex, 'self', 'USDT'), ['1000', '1000', '0']);
  });
  it('DC decreases both by the smaller size and cancels the smaller', () => {
    const { ex } = setup();
    const m = place(ex, 'self', { side: 'sell', type: 'limit', price: '100', size: '1' });
    const t = place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '0.4', stp: 'DC' });
    const to = ex.getOrder('self', SYM, t);
    assert.deepEqual([to.active, to.cancelledSize, to.dealSize], [false, '0.4', '0']);
    let mo = ex.getOrder('self', SYM, m);
    assert.deepEqual([mo.active, mo.cancelledSize, mo.remainSize], [true, '0.4', '0.6']);
    assert.deepEqual(trade(ex, 'self', 'BTC'), ['10', '9.4', '0.6']);
    assert.deepEqual(ex.level2(SYM, 5).asks, [['100', '0.6']]);
    const t2 = place(ex, 'self', { side: 'buy', type: 'limit', price: '100', size: '1.5', stp: 'DC' });
    mo = ex.getOrder('self', SYM, m);
    assert.deepEqual([mo.active, mo.cancelledSize, mo.remainSize], [false, '1', '0']);
    const t2o = ex.getOrder('self', SYM, t2);
    assert.deepEqual([t2o.active, t2o.cancelledSize, t2o.remainSize], [true, '0.6', '0.9']);
    assert.deepEqual(trade(ex, 'self', 'USDT'), ['1000', '909.91', '90.09']);
  });
});

describe('exchange core: time in force', () => {
  it('IOC fills what it can and cancels the rest', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1', timeInForce: 'IOC' });
    const o = ex.getOrder('buyer', SYM, id);
    assert.deepEqual([o.dealSize, o.cancelledSize, o.active, o.inOrderBook, o.timeInForce], ['0.5', '0.5', false, false, 'IOC']);
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['949.95', '949.95', '0']);
  });
  it('FOK is all-or-nothing, checked before any fill', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '101', size: '0.4' });
    const a = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '101', size: '1', timeInForce: 'FOK' });
    assert.deepEqual([ex.getOrder('buyer', SYM, a).dealSize, ex.getOrder('buyer', SYM, a).cancelledSize], ['0', '1']);
    assert.equal(ex.fills('buyer', { symbol: SYM }).items.length, 0);
    const b = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '101', size: '0.9', timeInForce: 'FOK' });
    assert.deepEqual([ex.getOrder('buyer', SYM, b).dealSize, ex.getOrder('buyer', SYM, b).active], ['0.9', false]);
    assert.deepEqual(ex.level2(SYM, 5).asks, []);
  });
  it('GTT expires cancelAfter seconds after placement (stamped with the expiry time)', () => {
    const { ex, clock } = setup();
    const t0 = clock.t;
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '90', size: '1', timeInForce: 'GTT', cancelAfter: 10 });
    clock.t = t0 + 9_999;
    ex.tick();
    assert.equal(ex.getOrder('buyer', SYM, id).active, true);
    clock.t = t0 + 25_000;
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '90', size: '1' }); // must not match the expired bid
    const o = ex.getOrder('buyer', SYM, id);
    assert.deepEqual([o.active, o.cancelAfter, o.lastUpdatedAt, o.cancelledSize], [false, 10, t0 + 10_000, '1']);
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '1000', '0']);
    assert.deepEqual(ex.level2(SYM, 5).asks, [['90', '1']]);
  });
  it('GTC rests until cancelled; cancel releases the hold', () => {
    const { ex } = setup();
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '90', size: '1' });
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '909.91', '90.09']);
    assert.deepEqual(ex.cancelOrder('buyer', SYM, id), { orderId: id });
    ex.checkInvariants();
    assert.deepEqual(trade(ex, 'buyer', 'USDT'), ['1000', '1000', '0']);
    throwsCode(() => ex.cancelOrder('buyer', SYM, id), '400100', 'order is not active');
  });
});

describe('exchange core: iceberg and hidden', () => {
  it('an iceberg shows only its tranche and a refilled tranche goes to the back of the queue', () => {
    const { ex } = setup();
    const ice = place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', iceberg: true, visibleSize: '0.2' });
    const plain = place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100', size: '0.3' });
    assert.deepEqual(ex.level2(SYM, 5).asks, [['100', '0.5']]);
    const counter = (): string => ex.fills('buyer', { symbol: SYM }).items[0].counterOrderId;
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.2' });
    assert.equal(counter(), ice);
    assert.deepEqual(ex.level2(SYM, 5).asks, [['100', '0.5']]);
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.3' });
    assert.equal(counter(), plain); // the refilled tranche queued behind the plain order
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.1' });
    assert.equal(counter(), ice);
    const o = ex.getOrder('seller', SYM, ice);
    assert.deepEqual([o.iceberg, o.visibleSize, o.dealSize, o.remainSize], [true, '0.2', '0.3', '0.7']);
    assert.deepEqual(ex.level2(SYM, 5).asks, [['100', '0.1']]);
  });
  it('hidden orders never appear in level 2 or the best bid/ask but still match', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', hidden: true });
    assert.deepEqual(ex.level2(SYM, 20).asks, []);
    assert.equal(ex.bestBidAsk(SYM).bestAsk, null);
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
    assert.deepEqual(ex.level2(SYM, 20).asks, [['100', '0.5']]);
    assert.deepEqual(ex.bestBidAsk(SYM), { bestBid: null, bestBidSize: null, bestAsk: '100', bestAskSize: '0.5' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1.5' });
    assert.deepEqual(ex.level2(SYM, 20).asks, []);
    assert.deepEqual(trade(ex, 'buyer', 'BTC'), ['1.5', '1.5', '0']);
  });
});

describe('exchange core: validation, errors, queries', () => {
  it('rejects with KuCoin codes and changes nothing', () => {
    const { ex } = setup();
    const before = JSON.stringify([ex.accounts('buyer'), ex.level2(SYM, 20)]);
    throwsCode(() => ex.placeOrder('buyer', { symbol: 'NOPE-USDT', side: 'buy', type: 'limit', price: '1', size: '1' }), '900001');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100.05', size: '1' }), '400100', 'price must be a multiple of priceIncrement 0.1');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '0.00005' }), '400100', 'size must be a multiple of baseIncrement 0.0001');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '10001' }), '400100', 'size must be at most baseMaxSize 10000');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '0.1', size: '0.0001' }), '400100', /quoteMinSize 0.1/);
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'market', size: '1', funds: '10' }), '400100', 'market orders need exactly one of size or funds');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'market', funds: '10.0000001' }), '400100', 'funds must be a multiple of quoteIncrement 0.000001');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1', timeInForce: 'GTT' }), '400100', /cancelAfter/);
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1', postOnly: true, timeInForce: 'IOC' }), '400100');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1', iceberg: true }), '400100', 'visibleSize is required for iceberg orders');
    throwsCode(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '10' }), '200004', 'Balance insufficient!');
    throwsCode(() => ex.validateOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '10' }), '200004');
    assert.deepEqual(ex.validateOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1', clientOid: 'x' }).clientOid, 'x');
    assert.equal(JSON.stringify([ex.accounts('buyer'), ex.level2(SYM, 20)]), before);
    ex.checkInvariants();
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1' });
    assert.equal(id, '6a5d0c000000000000000001'); // no id consumed by rejected or tested orders
    throwsCode(() => ex.cancelOrder('seller', SYM, id), '400100', 'order not exists');
    throwsCode(() => ex.getOrder('buyer', SYM, 'ffffffffffffffffffffffff'), '400100', 'order not exists');
  });

  it('a hold needing exactly the available balance is accepted, one unit more is not', () => {
    const { ex } = setup();
    fund(ex, 'exact', 'USDT', '100.1');
    fund(ex, 'short', 'USDT', '100.099999');
    throwsCode(() => ex.placeOrder('short', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size: '1' }), '200004');
    place(ex, 'exact', { side: 'buy', type: 'limit', price: '100', size: '1' }); // 100 + fee hold 0.1
    assert.deepEqual(trade(ex, 'exact', 'USDT'), ['100.1', '0', '100.1']);
    throwsCode(() => ex.placeOrder('exact', { symbol: SYM, side: 'buy', type: 'limit', price: '0.1', size: '1' }), '200004');
    fund(ex, 'seller3', 'BTC', '0.5');
    place(ex, 'seller3', { side: 'sell', type: 'limit', price: '200', size: '0.5' });
    throwsCode(() => ex.placeOrder('seller3', { symbol: SYM, side: 'sell', type: 'limit', price: '200', size: '0.001' }), '200004');
    assert.deepEqual(trade(ex, 'seller3', 'BTC'), ['0.5', '0', '0.5']);
  });

  it('getOrder returns every spec field', () => {
    const { ex, clock } = setup();
    const id = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '1', clientOid: 'c1', remark: 'r', tags: 't' });
    assert.deepEqual(ex.getOrder('buyer', SYM, id), {
      id,
      symbol: SYM,
      opType: 'DEAL',
      type: 'limit',
      side: 'buy',
      price: '100',
      size: '1',
      funds: '100',
      dealSize: '0',
      dealFunds: '0',
      cancelledSize: '0',
      cancelledFunds: '0',
      remainSize: '1',
      remainFunds: '100',
      fee: '0',
      feeCurrency: 'USDT',
      stp: '',
      timeInForce: 'GTC',
      postOnly: false,
      hidden: false,
      iceberg: false,
      visibleSize: '0',
      cancelAfter: 0,
      channel: 'API',
      clientOid: 'c1',
      remark: 'r',
      tags: 't',
      active: true,
      inOrderBook: true,
      cancelExist: false,
      createdAt: clock.t,
      lastUpdatedAt: clock.t,
      tradeType: 'TRADE',
    });
    assert.equal(ex.getOrderByClientOid('buyer', SYM, 'c1').id, id);
  });

  it('active orders sort by lastUpdatedAt desc; done orders readable 3×24 h', () => {
    const { ex, clock } = setup();
    const a = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '90', size: '1' });
    clock.t += 1000;
    const b = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '91', size: '1' });
    clock.t += 1000;
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '90', size: '0.5' }); // fills b first (better price)
    clock.t += 1000;
    assert.deepEqual(ex.activeOrders('buyer', SYM).map((o) => o.id), [b, a]);
    ex.cancelOrder('buyer', SYM, a);
    assert.deepEqual(ex.doneOrders('buyer', SYM).map((o) => o.id), [a]);
    clock.t += 3 * 24 * 3600 * 1000 + 1;
    throwsCode(() => ex.getOrder('buyer', SYM, a), '400100', 'order not exists');
    assert.equal(ex.getOrder('buyer', SYM, b).active, true);
  });

  it('done orders keep values that do not fit the compact archive: an order resting 30 days, fractional-ms clocks, prices beyond 2^31 ticks', () => {
    const { ex, clock } = setup();
    const t0 = clock.t;
    const long = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '90', size: '1', clientOid: 'long' });
    const old = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '91', size: '0.5' });
    ex.cancelOrder('buyer', SYM, old);
    clock.t += 30 * 24 * 3600 * 1000 + 0.5; // lastUpdatedAt − createdAt > 2^31 ms, and not an integer
    ex.cancelOrder('buyer', SYM, long);
    const plain = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '91', size: '0.5' });
    ex.cancelOrder('buyer', SYM, plain);
    const o = ex.getOrder('buyer', SYM, long);
    assert.deepEqual([o.createdAt, o.lastUpdatedAt, o.price, o.cancelledSize, o.clientOid, o.active], [t0, clock.t, '90', '1', 'long', false]);
    // a price of 2^31 + 1 ticks (the symbol's priceIncrement is 0.1)
    const high = place(ex, 'seller', { side: 'sell', type: 'limit', price: '214748364.9', size: '0.0001' });
    ex.cancelOrder('seller', SYM, high);
    assert.deepEqual([ex.getOrder('seller', SYM, high).price, ex.getOrder('seller', SYM, high).cancelledSize], ['214748364.9', '0.0001']);
    // the done-order chain of a user spans compact and wide records, newest first (the order done 30 days ago
    // is out of the 3 × 24 h window; moving the clock back does not bring it back)
    assert.deepEqual(ex.doneOrders('buyer', SYM, { startAt: 0 }).map((d) => d.id), [plain, long]);
    clock.t = t0 + 1;
    assert.deepEqual(ex.doneOrders('buyer', SYM, { startAt: t0, endAt: t0 + 1 }).map((d) => d.id), []);
    throwsCode(() => ex.getOrder('buyer', SYM, old), '400100', 'order not exists');
  });


  it('done orders of the 2^19-th user-symbol record and beyond (past the compact record\'s owner field) keep their owner', function () {
    this.timeout(60_000);
    const { ex } = setup();
    // every user whose order reaches the balance check gets a per-symbol record; 2^19 unfunded buys (100 USDT
    // × 0.01 BTC, valid otherwise) fill the packed range
    let insufficient = 0;
    for (let i = 0; i < 1 << 19; i++) {
      try {
        ex.placeLimitTicks(`u${i}`, SYM, 'buy', 1000, 100);
      } catch (e) {
        if (e instanceof ExchangeError && e.code === '200004') insufficient++;
      }
    }
    assert.equal(insufficient, 1 << 19);
    fund(ex, 'late', 'USDT', '100');
    const id = place(ex, 'late', { side: 'buy', type: 'limit', price: '90', size: '0.5' });
    ex.cancelOrder('late', SYM, id);
    const o = ex.getOrder('late', SYM, id);
    assert.deepEqual([o.price, o.size, o.cancelledSize, o.active], ['90', '0.5', '0.5', false]);
    assert.deepEqual(ex.doneOrders('late', SYM, { startAt: 0 }).map((d) => d.id), [id]);
    // ownership is still checked on the done order: another user does not see it, the owner gets "not active"
    throwsCode(() => ex.getOrder('buyer', SYM, id), '400100', 'order not exists');
    throwsCode(() => ex.cancelOrder('late', SYM, id), '400100', 'order is not active');
    ex.checkInvariants();
  });
  it('fills: newest first, lastId pagination, filters, 3×24 h window', () => {
    const { ex, clock } = setup();
    const t0 = clock.t;
    for (let i = 0; i < 3; i++) {
      place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '0.1' });
      place(ex, 'buyer', { side: 'buy', type: 'market', size: '0.1' });
      clock.t += 1000;
    }
    const p1 = ex.fills('buyer', { symbol: SYM, limit: 2 });
    assert.deepEqual(p1.items.map((f) => f.createdAt), [t0 + 2000, t0 + 1000]);
    assert.equal(p1.lastId, p1.items[1].id);
    const p2 = ex.fills('buyer', { symbol: SYM, limit: 2, lastId: p1.lastId });
    assert.deepEqual(p2.items.map((f) => f.createdAt), [t0]);
    assert.equal(ex.fills('buyer', { symbol: SYM, side: 'sell' }).items.length, 0);
    assert.equal(ex.fills('buyer', { symbol: SYM, type: 'limit' }).items.length, 0);
    assert.equal(ex.fills('buyer', { symbol: SYM, startAt: t0 + 500, endAt: t0 + 1500 }).items.length, 1);
    const f = p1.items[0];
    assert.deepEqual(Object.keys(f).sort(), ['createdAt', 'counterOrderId', 'fee', 'feeCurrency', 'feeRate', 'forceTaker', 'funds', 'id', 'liquidity', 'orderId', 'price', 'side', 'size', 'stop', 'symbol', 'tradeId', 'tradeType', 'type'].sort());
    assert.deepEqual([f.stop, f.tradeType, f.symbol, f.side, f.type], ['', 'TRADE', SYM, 'buy', 'market']);
    clock.t = t0 + 3 * 24 * 3600 * 1000 + 1500;
    // a range before the window is replaced by the window ending now: only the last fill remains
    assert.deepEqual(ex.fills('buyer', { symbol: SYM, startAt: t0 - 10_000, endAt: t0 + 100 }).items.map((x) => x.createdAt), [t0 + 2000]);
  });

  it('level 2: aggregated by price, top N, sorted, sequence increases with every book change', () => {
    const { ex } = setup();
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '101', size: '1' });
    place(ex, 'seller2', { side: 'sell', type: 'limit', price: '101', size: '0.5' });
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '102', size: '1' });
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '99', size: '1' });
    const s1 = Number(ex.level2(SYM, 20).sequence);
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '2' });
    const l2 = ex.level2(SYM, 1);
    assert.deepEqual([l2.asks, l2.bids], [[['101', '1.5']], [['100', '2']]]);
    assert.ok(Number(l2.sequence) > s1);
    assert.deepEqual(ex.level2(SYM, 20).bids, [['100', '2'], ['99', '1']]);
    assert.deepEqual(ex.level2(SYM, 20).asks, [['101', '1.5'], ['102', '1']]);
    const seen: string[] = [];
    const off = ex.onTrade((t) => seen.push(`${t.side} ${t.price} ${t.size}`));
    place(ex, 'seller', { side: 'sell', type: 'market', size: '2.5' });
    off();
    assert.deepEqual(seen, ['sell 100 2', 'sell 99 0.5']);
    assert.deepEqual(ex.trades(SYM).map((t) => t.price), ['100', '99']);
  });
});

describe('exchange core: book sequence', () => {
  it('every visible level change consumes one sequence number; hidden orders none; an iceberg refill one; a trade keeps its fill\'s number', () => {
    const { ex } = setup();
    const s0 = ex.sequence(SYM);
    place(ex, 'seller', { side: 'sell', type: 'limit', price: '100', size: '1', hidden: true });
    assert.equal(ex.sequence(SYM), s0, 'a hidden order rests without a visible change');
    const vis = place(ex, 'seller2', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
    assert.equal(ex.sequence(SYM), s0 + 1);
    const ice = place(ex, 'seller', { side: 'sell', type: 'limit', price: '101', size: '1', iceberg: true, visibleSize: '0.2' });
    assert.equal(ex.sequence(SYM), s0 + 2);
    // fills of the hidden order (first in the queue) change nothing visible
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.3' });
    assert.equal(ex.sequence(SYM), s0 + 2);
    // the hidden order's last 0.7 (no number), then 0.2 of the visible one (one number)
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100', size: '0.9' });
    assert.equal(ex.sequence(SYM), s0 + 3);
    assert.deepEqual(ex.trades(SYM).map((t) => [t.size, t.sequence]), [['0.3', String(s0 + 2)], ['0.7', String(s0 + 2)], ['0.2', String(s0 + 3)]]);
    ex.cancelOrder('seller2', SYM, vis);
    assert.equal(ex.sequence(SYM), s0 + 4);
    // the iceberg's tranche is taken (one number), then refilled (one more)
    place(ex, 'buyer', { side: 'buy', type: 'limit', price: '101', size: '0.2' });
    assert.equal(ex.sequence(SYM), s0 + 6);
    assert.equal(ex.trades(SYM).at(-1)?.sequence, String(s0 + 5));
    assert.deepEqual(ex.level2(SYM, 5), { sequence: String(s0 + 6), time: ex.level2(SYM, 5).time, bids: [], asks: [['101', '0.2']] });
    ex.cancelOrder('seller', SYM, ice);
    assert.equal(ex.sequence(SYM), s0 + 7);
  });
});

describe('exchange core: price levels', () => {
  it('levels stay in price order when created and emptied at any depth (level2 and best bid/ask against a reference)', () => {
    const { ex } = setup();
    fund(ex, 'buyer', 'USDT', '5000');
    fund(ex, 'seller', 'BTC', '50');
    let x = 7;
    const rnd = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return (x >>> 8) % n;
    };
    const live: { id: string; uid: string; side: 'buy' | 'sell'; ticks: number; lots: number }[] = [];
    const check = (): void => {
      const ref = { buy: new Map<number, number>(), sell: new Map<number, number>() };
      for (const o of live) ref[o.side].set(o.ticks, (ref[o.side].get(o.ticks) ?? 0) + o.lots);
      const rows = (m: Map<number, number>, desc: boolean): [string, string][] =>
        [...m].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([t, l]) => [fromUnits(BigInt(t), 1), fromUnits(BigInt(l), 4)]);
      const l2 = ex.level2(SYM, 10_000);
      assert.deepEqual(l2.bids, rows(ref.buy, true));
      assert.deepEqual(l2.asks, rows(ref.sell, false));
      const bba = ex.bestBidAsk(SYM);
      assert.deepEqual([bba.bestBid, bba.bestAsk], [l2.bids[0]?.[0] ?? null, l2.asks[0]?.[0] ?? null]);
    };
    let levelsSeen = 0;
    for (let step = 0; step < 1500; step++) {
      if (live.length > 0 && rnd(3) === 0) {
        const o = live.splice(rnd(live.length), 1)[0];
        ex.cancelOrder(o.uid, SYM, o.id);
        ex.checkInvariants();
      } else {
        // bids 10.0-49.9, asks 60.0-99.9 (never crossing): 400 possible levels a side, created at any depth
        const side = rnd(2) === 0 ? 'buy' : 'sell';
        const ticks = side === 'buy' ? 100 + rnd(400) : 600 + rnd(400);
        const lots = 100 * (1 + rnd(5));
        const uid = side === 'buy' ? 'buyer' : 'seller';
        // place() checks the invariants: levels sorted best last, every level indexed, best() the last one
        const id = place(ex, uid, { side, type: 'limit', price: fromUnits(BigInt(ticks), 1), size: fromUnits(BigInt(lots), 4) });
        live.push({ id, uid, side, ticks, lots });
      }
      if (step % 25 === 0) check();
      levelsSeen = Math.max(levelsSeen, ex.level2(SYM, 10_000).bids.length);
    }
    check();
    assert.ok(levelsSeen > 150, `only ${levelsSeen} bid levels at once`);
  });
});

describe('exchange core: ledger', () => {
  it('deposits, transfers and withdrawal holds keep the books balanced', () => {
    const { ex } = world();
    ex.deposit('u', 'USDT', '10');
    throwsCode(() => ex.transfer('u', 'USDT', 'main', 'trade', '10.5'), '200004');
    throwsCode(() => ex.deposit('u', 'USDT', '0.0000001'), '400100');
    ex.transfer('u', 'USDT', 'main', 'trade', '4');
    const h = ex.holdWithdrawal('u', 'USDT', '3');
    ex.checkInvariants();
    assert.deepEqual(ex.accounts('u', { type: 'main' }).map((a) => [a.balance, a.available, a.holds]), [['6', '3', '3']]);
    throwsCode(() => ex.holdWithdrawal('u', 'USDT', '3.5'), '200004');
    ex.settleWithdrawal(h, '0.5');
    ex.checkInvariants();
    assert.deepEqual(ex.accounts('u', { type: 'main' }).map((a) => [a.balance, a.available, a.holds]), [['3', '3', '0']]);
    assert.deepEqual(ex.collectedFees(), { USDT: '0.5' });
    const h2 = ex.holdWithdrawal('u', 'USDT', '1');
    ex.releaseWithdrawal(h2);
    ex.checkInvariants();
    assert.deepEqual(ex.accounts('u').map((a) => `${a.type}:${a.balance}/${a.holds}`), ['main:3/0', 'trade:4/0']);
    throwsCode(() => ex.releaseWithdrawal(h2), '400100');
  });

  it('is deterministic: the same commands at the same times give identical state', () => {
    const run = (): string => {
      const { ex, clock } = setup();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        clock.t += 7;
        ids.push(place(ex, i % 2 ? 'seller' : 'buyer', { side: i % 2 ? 'sell' : 'buy', type: 'limit', price: String(95 + (i % 7)), size: '0.3' }));
      }
      return JSON.stringify([ids, ex.fills('buyer', { symbol: SYM }), ex.level2(SYM, 20), ex.accounts('seller'), ex.collectedFees()]);
    };
    assert.equal(run(), run());
  });
});

describe('exchange core: exact arithmetic beyond 2^53', () => {
  it('amounts above the Number fast path fall back to BigInt and stay exact (same results on both paths)', () => {
    const run = (bigIntOnly: boolean): string => {
      const clock = { t: 1_700_000_000_000 };
      const ex = new Exchange({ now: () => clock.t, bigIntOnly });
      ex.addCurrency({ currency: 'BTC', precision: 8 });
      ex.addCurrency({ currency: 'USDT', precision: 6 });
      ex.addSymbol({
        symbol: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', baseIncrement: '0.00000001', priceIncrement: '0.01',
        quoteIncrement: '0.000001', baseMinSize: '0.00001', baseMaxSize: '10000000000', quoteMinSize: '0.1', quoteMaxSize: '999999999999', enableTrading: true,
      });
      fund(ex, 'whale', 'USDT', '1000000000');
      fund(ex, 'miner', 'BTC', '1000');
      ex.setFeeRates('miner', '0.001', '-0.0001');
      const s = ex.placeOrder('miner', { symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '1000000.01', size: '99.99999999' });
      ex.checkInvariants();
      // 1000000.01 × 99.99999999 = 100000000.9899999999 USDT: 10^-10 units → about 1e18 > 2^53
      assert.deepEqual(ex.accounts('miner', { currency: 'BTC', type: 'trade' }).map((a) => a.holds), ['99.99999999']);
      const b = ex.placeOrder('whale', { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000000.02', size: '100' });
      ex.checkInvariants();
      // taker fee trunc(0.001 × 100000000.9899999999) = 100000.000989; the rest 0.00000001 @ 1000000.02 holds
      // 0.0100000002 + ceil(0.0000100000002) = 0.0100110002
      assert.deepEqual(trade(ex, 'whale', 'USDT'), ['899899999.0090110001', '899899998.9989999999', '0.0100110002']);
      const mf = ex.fills('miner', { symbol: 'BTC-USDT' }).items[0];
      assert.deepEqual([mf.funds, mf.fee, mf.feeRate], ['100000000.9899999999', '-10000.000098', '-0.0001']);
      assert.deepEqual(trade(ex, 'miner', 'USDT'), ['100010000.9900979999', '100010000.9900979999', '0']);
      // holds summing past 2^53 units of 10^-10 USDT (three 400,400 USDT holds) stay exact
      const ids = [1, 2, 3].map(() => ex.placeOrder('whale', { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '100000', size: '4' }).orderId);
      ex.checkInvariants();
      assert.deepEqual(trade(ex, 'whale', 'USDT').slice(2), ['1201200.0100110002']);
      ex.cancelOrder('whale', 'BTC-USDT', ids[1]);
      ex.checkInvariants();
      assert.deepEqual(trade(ex, 'whale', 'USDT').slice(2), ['800800.0100110002']);
      ex.cancelAll('whale', 'BTC-USDT');
      ex.checkInvariants();
      assert.deepEqual(trade(ex, 'whale', 'USDT'), ['899899999.0090110001', '899899999.0090110001', '0']);
      return JSON.stringify([s, b, ids, ex.accounts('whale'), ex.accounts('miner'), ex.fills('whale', { symbol: 'BTC-USDT' }), ex.collectedFees()]);
    };
    assert.equal(run(false), run(true));
  });
});

describe('exchange core: Number fast paths (string parsing, balance and fee accumulators)', () => {
  it('decimal strings parse to the same ticks/lots on the fast path and the BigInt path; malformed ones are rejected', () => {
    const { ex } = setup();
    // leading zeros and trailing fraction zeros (the latter beyond the increment's digits: BigInt path)
    const a = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '0100.0', size: '0.10' });
    const b = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '100.10', size: '00.1000' });
    // 16 and 17 significant digits (fast path declines, BigInt path parses)
    const c = place(ex, 'buyer', { side: 'buy', type: 'limit', price: '0000000000000100.2', size: '0.10000000000000' });
    assert.deepEqual(
      [a, b, c].map((id) => ex.getOrder('buyer', SYM, id)).map((o) => [o.price, o.size, o.funds]),
      [
        ['100', '0.1', '10'],
        ['100.1', '0.1', '10.01'],
        ['100.2', '0.1', '10.02'],
      ],
    );
    for (const price of ['1e2', '.5', '5.', '-100', '+100', '10 0', '100.05', '0', '0.0']) {
      assert.throws(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price, size: '0.1' }), ExchangeError, price);
    }
    for (const size of ['1e-1', '.1', '0.00005', '0', '-0.1']) {
      assert.throws(() => ex.placeOrder('buyer', { symbol: SYM, side: 'buy', type: 'limit', price: '100', size }), ExchangeError, size);
    }
    // order ids: only 24 lowercase hex digits with the prefix are ids
    for (const id of [a.toUpperCase(), `${a.slice(0, 23)}g`, `${a}0`, a.slice(1)]) throwsCode(() => ex.cancelOrder('buyer', SYM, id), '400100', 'order not exists');
    ex.checkInvariants();
  });

  it('balances and collected fees accumulated past 2^53 units on the Number path flush exactly (same as the BigInt-only path)', () => {
    const run = (bigIntOnly: boolean): string => {
      const { ex } = world(1_700_000_000_000, bigIntOnly);
      fund(ex, 'whale', 'USDT', '100000000000');
      fund(ex, 'miner', 'BTC', '10000000');
      ex.setFeeRates('whale', '0.001', '-0.0001');
      ex.setFeeRates('miner', '0.0013', '0.0007');
      // 100 fills of up to 99,999,990.3 USDT (~10^10 USDT = 10^16 units of 10^-6 > 2^53), rebates included
      for (let i = 0; i < 100; i++) {
        ex.placeLimitTicks('whale', SYM, 'buy', 999_999_903, 9998 + (i % 3));
        ex.placeLimitTicks('miner', SYM, 'sell', 999_999_903, 9998 + (i % 3));
      }
      ex.checkInvariants();
      return JSON.stringify([ex.accounts('whale'), ex.accounts('miner'), ex.collectedFees(), ex.fills('whale', { symbol: SYM, limit: 3 })]);
    };
    const fast = run(false);
    assert.equal(fast, run(true));
    // the whale's quote balance really moved by more than 2^53 units of 10^-6 USDT
    const whaleUsdt = (JSON.parse(fast) as { currency: string; type: string; balance: string }[][])[0].find((x) => x.currency === 'USDT' && x.type === 'trade');
    assert.ok(whaleUsdt && 100_000_000_000 - Number(whaleUsdt.balance) > 2 ** 53 / 1e6, JSON.stringify(whaleUsdt));
  });
});

describe('exchange core: increments that are not powers of ten', () => {
  it('baseIncrement 10 / 0.5 / 0.0025 and priceIncrement 0.05: holds, fills and balances exact, same as the BigInt-only path', () => {
    const cases = [
      { base: 'SHIB', bp: 2, baseIncrement: '10', priceIncrement: '0.00000001', price: '0.00002', size: '50000', take: '20000', fund: '100000', takerBase: '120000' },
      { base: 'DOT', bp: 4, baseIncrement: '0.5', priceIncrement: '0.05', price: '6.35', size: '12.5', take: '4', fund: '100', takerBase: '104' },
      { base: 'XYZ', bp: 8, baseIncrement: '0.0025', priceIncrement: '0.05', price: '101.15', size: '1.0075', take: '0.505', fund: '10', takerBase: '10.505' },
    ];
    for (const c of cases) {
      const run = (bigIntOnly: boolean): string => {
        const ex = new Exchange({ now: () => 1_700_000_000_000, bigIntOnly });
        const symbol = `${c.base}-USDT`;
        ex.addCurrency({ currency: c.base, precision: c.bp });
        ex.addCurrency({ currency: 'USDT', precision: 6 });
        ex.addSymbol({ symbol, baseCurrency: c.base, quoteCurrency: 'USDT', baseIncrement: c.baseIncrement, priceIncrement: c.priceIncrement, quoteIncrement: '0.000001', baseMinSize: c.baseIncrement, baseMaxSize: '1000000000', quoteMinSize: '0.0001', quoteMaxSize: '1000000', enableTrading: true });
        for (const u of ['maker', 'taker']) {
          for (const [cur, amt] of [[c.base, c.fund], ['USDT', '100000']]) {
            ex.deposit(u, cur, amt);
            ex.transfer(u, cur, 'main', 'trade', amt);
          }
        }
        const sell = ex.placeOrder('maker', { symbol, side: 'sell', type: 'limit', price: c.price, size: c.size }).orderId;
        ex.checkInvariants();
        // the resting sell holds exactly its size of the base currency
        assert.equal(ex.accounts('maker', { currency: c.base, type: 'trade' })[0].holds, c.size, `${symbol} sell hold`);
        ex.placeOrder('taker', { symbol, side: 'buy', type: 'limit', price: c.price, size: c.take });
        ex.placeOrder('taker', { symbol, side: 'sell', type: 'limit', price: c.price, size: c.baseIncrement });
        ex.placeOrder('maker', { symbol, side: 'buy', type: 'market', size: c.baseIncrement });
        ex.checkInvariants();
        return JSON.stringify([ex.accounts('maker'), ex.accounts('taker'), ex.getOrder('maker', symbol, sell), ex.collectedFees()]);
      };
      const fast = run(false);
      assert.equal(fast, run(true), c.base);
      // the taker received exactly `take` of the base (its own sell of one increment rests: held, not sold)
      const takerBase = (JSON.parse(fast) as { currency: string; type: string; balance: string; holds: string }[][])[1].find((x) => x.currency === c.base && x.type === 'trade');
      assert.deepEqual([takerBase?.balance, takerBase?.holds], [c.takerBase, c.baseIncrement], c.base);
    }
  });
});

describe('exchange core: collected fees on the Number path', () => {
  it('a zero-fee fill still lists the quote currency, in first-fill order (same as the BigInt-only path)', () => {
    const run = (bigIntOnly: boolean): string => {
      const { ex } = world(1_700_000_000_000, bigIntOnly);
      fund(ex, 'a', 'USDT', '1000');
      fund(ex, 'b', 'BTC', '1');
      ex.deposit('b', 'BTC', '1');
      ex.setFeeRates('a', '0', '0');
      ex.setFeeRates('b', '0', '0');
      place(ex, 'b', { side: 'sell', type: 'limit', price: '100', size: '0.5' });
      place(ex, 'a', { side: 'buy', type: 'limit', price: '100', size: '0.5' });
      ex.settleWithdrawal(ex.holdWithdrawal('b', 'BTC', '0.5'), '0.0001');
      ex.checkInvariants();
      return JSON.stringify(ex.collectedFees());
    };
    assert.equal(run(false), '{"USDT":"0","BTC":"0.0001"}');
    assert.equal(run(true), run(false));
  });
});
