/**
 * SpotClient paging iterators of the endpoints beyond the spec, against a scripted fetch: which
 * requests they send (currentPage/pageSize, lastId/limit), that they yield every item once in order,
 * and that they stop on the last page, a short page, an empty page or a lastId that does not move.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import type { FetchLike } from '../../../src/api/transport';

/** A client whose fetch answers `answer(url)` (an envelope's data), recording the URLs. */
function scripted(answer: (url: URL) => unknown, seen: string[]): SpotClient {
  const fetch: FetchLike = async (url) => {
    seen.push(url.replace('http://paging.invalid', ''));
    const text = JSON.stringify({ code: '200000', data: answer(new URL(url)) });
    return { status: 200, headers: { get: (n: string) => (n === 'content-type' ? 'application/json' : null) }, text: async () => text };
  };
  return new SpotClient({ baseUrl: 'http://paging.invalid', fetch, credentials: { apiKey: 'k'.repeat(24), apiSecret: 's', apiPassphrase: 'p', keyVersion: '2' } });
}

const withdrawal = (i: number) => ({ id: `w${i}`, currency: 'USDT', chain: 'trx', status: 'SUCCESS', address: 'T', memo: '', isInner: false, amount: String(i), fee: '1', walletTxId: null, createdAt: i, updatedAt: i, remark: '' });
const ledger = (i: number) => ({ id: String(i), currency: 'USDT', amount: '1', fee: '0', balance: String(i), accountType: 'MAIN', bizType: 'TRANSFER', direction: 'in', createdAt: i, context: '' });
const hfLedger = (i: number) => ({ ...ledger(i), tax: '0', accountType: 'TRADE_HF', createdAt: String(i) });

describe('SpotClient paging iterators', () => {
  it('iterateWithdrawals: currentPage 1.. until totalPage; every item once, in order', async () => {
    const all = Array.from({ length: 23 }, (_, i) => withdrawal(23 - i));
    const seen: string[] = [];
    const c = scripted((u) => {
      const cp = Number(u.searchParams.get('currentPage'));
      const ps = Number(u.searchParams.get('pageSize'));
      return { currentPage: cp, pageSize: ps, totalNum: all.length, totalPage: Math.ceil(all.length / ps), items: all.slice((cp - 1) * ps, cp * ps) };
    }, seen);
    const got = [];
    for await (const w of c.iterateWithdrawals({ currency: 'USDT', pageSize: 10 })) got.push(w.id);
    assert.deepEqual(got, all.map((w) => w.id));
    assert.deepEqual(seen, [1, 2, 3].map((p) => `/api/v1/withdrawals?currency=USDT&currentPage=${p}&pageSize=10`));
  });

  it('iterateLedgers stops on an empty page even if totalPage claims more', async () => {
    const seen: string[] = [];
    const c = scripted((u) => {
      const cp = Number(u.searchParams.get('currentPage'));
      return { currentPage: cp, pageSize: 100, totalNum: 999, totalPage: 10, items: cp === 1 ? [ledger(2), ledger(1)] : [] };
    }, seen);
    const got = [];
    for await (const e of c.iterateLedgers()) got.push(e.id);
    assert.deepEqual(got, ['2', '1']);
    assert.deepEqual(seen, ['/api/v1/accounts/ledgers?currentPage=1&pageSize=100', '/api/v1/accounts/ledgers?currentPage=2&pageSize=100']);
  });

  it('iterateHfLedgers follows lastId = the last id of each full page, stops on a short page', async () => {
    const all = Array.from({ length: 5 }, (_, i) => hfLedger(50 - i));
    const seen: string[] = [];
    const c = scripted((u) => {
      const last = u.searchParams.get('lastId');
      const limit = Number(u.searchParams.get('limit'));
      return all.filter((e) => last === null || Number(e.id) < Number(last)).slice(0, limit);
    }, seen);
    const got = [];
    for await (const e of c.iterateHfLedgers({ limit: 2 })) got.push(e.id);
    assert.deepEqual(got, ['50', '49', '48', '47', '46']);
    assert.deepEqual(seen, ['/api/v1/hf/accounts/ledgers?limit=2', '/api/v1/hf/accounts/ledgers?lastId=49&limit=2', '/api/v1/hf/accounts/ledgers?lastId=47&limit=2']);
  });

  it('iterateDoneOrders stops when the server repeats lastId (no endless loop)', async () => {
    const order = (id: string) => ({
      id, symbol: 'BTC-USDT', opType: 'DEAL', type: 'limit', side: 'buy', price: '1', size: '1', funds: '1', dealSize: '0', dealFunds: '0', cancelledSize: '1', cancelledFunds: '1', remainSize: '0', remainFunds: '0', fee: '0', feeCurrency: 'USDT',
      stp: null, timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, visibleSize: '0', cancelAfter: 0, channel: 'API', clientOid: null, remark: null, tags: null, active: false, inOrderBook: false, cancelExist: true, createdAt: 1, lastUpdatedAt: 1, tradeType: 'TRADE',
    });
    const seen: string[] = [];
    const c = scripted(() => ({ lastId: 7, items: [order('a'), order('b')] }), seen);
    const got = [];
    for await (const o of c.iterateDoneOrders({ symbol: 'BTC-USDT', limit: 2 })) got.push(o.id);
    assert.deepEqual(got, ['a', 'b', 'a', 'b']);
    assert.equal(seen.length, 2);
  });
});
