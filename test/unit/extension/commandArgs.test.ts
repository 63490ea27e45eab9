/**
 * The argument normalisers of the commands that move money or place/cancel orders
 * (src/host/commandArgs.ts) keep only what SpotDesk's menus and tree rows pass: a currency, a
 * row's identity, an order document's (uri, index). Whatever else another extension puts in the
 * argument — a complete withdrawal draft, a confirmation function, a client — is dropped.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import { accountArg, alertArg, alertSymbolArg, currencyArg, orderArg, orderDocumentArgs, symbolArg, watchlistArg, withdrawalArg } from '../../../src/host/commandArgs';

/** An argument as another extension could build it: a full draft plus test/automation hooks. */
const HOSTILE = {
  currency: 'USDT',
  chain: 'trx',
  withdrawType: 'ADDRESS',
  destination: 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz',
  memo: '',
  amount: '20',
  feeDeduction: 'EXTERNAL',
  apiVersion: 'V1',
  remark: 'x',
  isInner: true,
  recipient: { receiverType: 'individual', firstName: 'A', lastName: 'B' },
  confirm: async (s: { suffix: string }) => s.suffix,
  acceptTransfer: true,
  client: { withdrawV1: async () => ({ withdrawalId: 'x' }) },
  show: () => undefined,
};

/** Arbitrary extra fields (values of any kind, functions included). */
const extras = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !['kind', 'currency', 'account', 'symbol', 'order', '__proto__'].includes(k)),
  fc.oneof(fc.anything(), fc.constant(() => true), fc.constant(async () => 'JggwX8')),
  { maxKeys: 8 },
);

describe('command argument normalisers', () => {
  describe('currencyArg (spotdesk.withdraw, spotdesk.createDepositAddress)', () => {
    it('keeps only the currency of a complete draft with a confirm function and a client', () => {
      assert.deepEqual(currencyArg(HOSTILE), { currency: 'USDT' });
    });

    it('takes the currency of an Accounts currency row, account row or a bare string, upper-cased', () => {
      assert.deepEqual(currencyArg({ kind: 'currency', currency: 'usdt', total: '1', accounts: [] }), { currency: 'USDT' });
      assert.deepEqual(currencyArg({ kind: 'account', currency: 'BTC', account: { currency: 'BTC', type: 'main', available: '1' } }), { currency: 'BTC' });
      assert.deepEqual(currencyArg({ account: { currency: 'XRP' } }), { currency: 'XRP' });
      assert.deepEqual(currencyArg('eth'), { currency: 'ETH' });
    });

    it('drops anything that is not a currency code', () => {
      for (const bad of [undefined, null, 42, [], ['USDT'], '', 'US DT', '../x', { currency: 5 }, { currency: 'A'.repeat(21) }, () => 'USDT']) {
        assert.deepEqual(currencyArg(bad), {}, JSON.stringify(bad));
      }
    });

    it('property: the result has no key but currency, whatever else the argument carries', () => {
      fc.assert(
        fc.property(extras, fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,20}$/)), (extra, currency) => {
          const out = currencyArg({ ...extra, ...(currency !== null ? { currency } : {}) });
          assert.ok(Object.keys(out).every((k) => k === 'currency'), JSON.stringify(Object.keys(out)));
          assert.deepEqual(out, currency !== null ? { currency: currency.toUpperCase() } : {});
        }),
      );
    });
  });

  describe('accountArg (spotdesk.transfer)', () => {
    it('keeps only the account identity of an account row; balances in the row are dropped', () => {
      const row = { kind: 'account', currency: 'USDT', account: { id: 'a', currency: 'USDT', type: 'main', balance: '9', available: '999999', holds: '0' }, amount: '5', confirm: () => true };
      assert.deepEqual(accountArg(row), { currency: 'USDT', type: 'main' });
    });

    it('refuses anything but an account row', () => {
      for (const bad of [undefined, 'USDT', { kind: 'currency', currency: 'USDT' }, { kind: 'account', account: { currency: 'USDT', type: 'margin' } }, { kind: 'account', account: { currency: 'US DT', type: 'main' } }]) {
        assert.equal(accountArg(bad), undefined, JSON.stringify(bad));
      }
    });

    it('property: only currency and type survive', () => {
      fc.assert(
        fc.property(extras, extras, fc.constantFrom('main', 'trade'), (outer, inner, type) => {
          const out = accountArg({ ...outer, kind: 'account', account: { ...inner, currency: 'BTC', type } });
          assert.deepEqual(out, { currency: 'BTC', type });
        }),
      );
    });
  });

  describe('watchlistArg (spotdesk.addToWatchlist)', () => {
    it('takes a pair-shaped symbol from a string or a row, upper case; nothing else', () => {
      assert.deepEqual(watchlistArg('eth-usdt'), { symbol: 'ETH-USDT' });
      assert.deepEqual(watchlistArg({ kind: 'marketSymbol', symbol: 'BTC-USDT', confirm: () => true }), { symbol: 'BTC-USDT' });
      for (const bad of [undefined, '', 'BTCUSDT', 'BTC/USDT', '<img src=x>', 'x'.repeat(30) + '-USDT', { symbol: 42 }, ['BTC-USDT'], { symbol: 'A-B\n' }]) {
        assert.equal(watchlistArg(bad), undefined, JSON.stringify(bad));
      }
    });
  });

  describe('orderArg (spotdesk.cancelOrder) and symbolArg (spotdesk.cancelAllForSymbol)', () => {
    it('keep only the order id and symbol of an order row, the symbol of a symbol row', () => {
      const order = { kind: 'order', symbol: 'BTC-USDT', order: { id: '6712a5c0f4a3e9000123abcd', side: 'sell', size: '999', price: '1' }, confirm: () => true };
      assert.deepEqual(orderArg(order), { symbol: 'BTC-USDT', orderId: '6712a5c0f4a3e9000123abcd' });
      assert.deepEqual(symbolArg({ kind: 'symbol', symbol: 'eth-usdt', group: { orders: [] }, confirm: () => true }), { symbol: 'ETH-USDT' });
    });

    it('refuse other shapes', () => {
      for (const bad of [undefined, 'BTC-USDT', { kind: 'symbol', symbol: 'BTC-USDT' }, { kind: 'order', symbol: 'BTCUSDT', order: { id: 'x' } }, { kind: 'order', symbol: 'BTC-USDT', order: { id: 'a b' } }]) {
        assert.equal(orderArg(bad), undefined, JSON.stringify(bad));
      }
      for (const bad of [undefined, 'BTC-USDT', { kind: 'order', symbol: 'BTC-USDT' }, { kind: 'symbol', symbol: 'BTC/USDT' }]) {
        assert.equal(symbolArg(bad), undefined, JSON.stringify(bad));
      }
    });

    it('property: nothing but the identity survives', () => {
      fc.assert(
        fc.property(extras, extras, (outer, inner) => {
          assert.deepEqual(orderArg({ ...outer, kind: 'order', symbol: 'BTC-USDT', order: { ...inner, id: 'abc123' } }), { symbol: 'BTC-USDT', orderId: 'abc123' });
          assert.deepEqual(symbolArg({ ...outer, kind: 'symbol', symbol: 'BTC-USDT' }), { symbol: 'BTC-USDT' });
        }),
      );
    });
  });

  describe('withdrawalArg (Funding History withdrawal rows)', () => {
    it('keeps only the withdrawal id of a withdrawal row', () => {
      assert.deepEqual(withdrawalArg({ kind: 'withdrawal', withdrawal: { id: '67e6515f7960ba0007b42025', amount: '1', address: 'evil' } }), { withdrawalId: '67e6515f7960ba0007b42025' });
      for (const bad of [undefined, '67e6515f7960ba0007b42025', { kind: 'deposit', withdrawal: { id: 'a' } }, { kind: 'withdrawal' }, { kind: 'withdrawal', withdrawal: { id: '../x' } }, { kind: 'withdrawal', withdrawal: { id: 5 } }]) {
        assert.equal(withdrawalArg(bad), undefined, JSON.stringify(bad));
      }
    });
    it('property: nothing but the id survives', () => {
      fc.assert(
        fc.property(extras, extras, (outer, inner) => {
          assert.deepEqual(withdrawalArg({ ...outer, kind: 'withdrawal', withdrawal: { ...inner, id: 'abc123' } }), { withdrawalId: 'abc123' });
        }),
      );
    });
  });

  describe('orderDocumentArgs (order-document lenses)', () => {
    it('accepts (uri of a *.spotorder.json, non-negative integer index) only', () => {
      assert.deepEqual(orderDocumentArgs('file:///x/a/test.spotorder.json', 0), { uri: 'file:///x/a/test.spotorder.json', index: 0 });
      assert.equal(orderDocumentArgs('file:///etc/passwd', 0), undefined);
      assert.equal(orderDocumentArgs('file:///x/a.spotorder.json', -1), undefined);
      assert.equal(orderDocumentArgs('file:///x/a.spotorder.json', 1.5), undefined);
      assert.equal(orderDocumentArgs({ uri: 'file:///x/a.spotorder.json' }, 0), undefined);
    });
  });

  describe('alertArg / alertSymbolArg (price alert commands)', () => {
    const row = { kind: 'alert', alert: { id: '0123abcd4567ef89', profileId: 'sandbox', symbol: 'BTC-USDT', direction: 'above', price: '70000', createdAt: 1 } };

    it('edit/delete keep only the id of a Price Alerts row; anything else is refused', () => {
      assert.deepEqual(alertArg(row), { alertId: '0123abcd4567ef89' });
      for (const bad of [undefined, null, '0123abcd4567ef89', { alert: { id: '0123abcd4567ef89' } }, { kind: 'alert', alert: { id: 'XYZ' } }, { kind: 'alert', alert: { id: 'ab' } }, { kind: 'order', alert: row.alert }]) {
        assert.equal(alertArg(bad), undefined, JSON.stringify(bad));
      }
    });

    it('property: nothing but the id survives, whatever the row carries', () => {
      fc.assert(
        fc.property(extras, extras, (outer, inner) => {
          assert.deepEqual(alertArg({ ...outer, kind: 'alert', alert: { ...inner, id: 'deadbeefdeadbeef' } }), { alertId: 'deadbeefdeadbeef' });
        }),
      );
    });

    it('add keeps only the symbol of a Markets symbol row or a bare symbol (direction and price are always asked)', () => {
      assert.deepEqual(alertSymbolArg({ kind: 'marketSymbol', symbol: 'eth-usdt', info: {}, price: '1', direction: 'above' }), { symbol: 'ETH-USDT' });
      assert.deepEqual(alertSymbolArg('btc-usdt'), { symbol: 'BTC-USDT' });
      for (const bad of [undefined, {}, { symbol: 'BTC-USDT' }, { kind: 'marketSymbol', symbol: 'BTC/USDT' }, 'BTC', 42]) assert.deepEqual(alertSymbolArg(bad), {}, JSON.stringify(bad));
    });
  });
});
