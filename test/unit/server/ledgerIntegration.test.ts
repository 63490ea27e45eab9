/**
 * Account ledgers end to end (SandboxState + the core's balance events): EVERY balance change of a
 * user with an API key is in its ledger with its bizType — checked after every command of seeded
 * random streams (deposits, transfers, limit/market orders that fill against the book and each
 * other, cancels, withdrawals settled, released and cancelled): per user, currency and account, the
 * entries' signed amounts add up to the account's balance and the newest entry shows it; fees of
 * fills are the fills' fees; the simulation's bots and the seeded liquidity keep no ledger; a replay
 * of the journal rebuilds the same ledger. Over HTTP, GET /api/v1/accounts/ledgers and
 * /api/v1/hf/accounts/ledgers answer those entries with filters and paging.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { MemoryJournal, newKeyMaterial, SandboxState } from '../../../src/exchange/server/state';
import { open, privateToken, until } from '../stream/helpers';
import { admin, createUser, startTestSandbox } from './helpers';

const T0 = 1_790_000_000_000;
const TRON = 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8';

/** Σ signed ledger amounts per `currency/account` of `uid`, and the newest entry's balance. */
function ledgerTotals(st: SandboxState, uid: string): Map<string, { sum: string; last: string }> {
  const out = new Map<string, { sum: string; last: string }>();
  for (const e of st.ledger.entriesOf(uid)) {
    const k = `${e.currency}/${e.accountType}`;
    const prev = out.get(k) ?? { sum: '0', last: '0' };
    out.set(k, { sum: D.add(prev.sum, e.direction === 'in' ? e.amount : D.sub('0', e.amount)), last: e.balance });
  }
  return out;
}

function checkLedger(st: SandboxState, uid: string, where: string): void {
  const totals = ledgerTotals(st, uid);
  for (const a of st.exchange.accounts(uid)) {
    const t = totals.get(`${a.currency}/${a.type}`) ?? { sum: '0', last: '0' };
    assert.equal(D.cmp(t.sum, a.balance), 0, `${where}: ${a.currency}/${a.type} Σ ledger ${t.sum} vs balance ${a.balance}`);
    assert.equal(D.cmp(t.last, a.balance), 0, `${where}: ${a.currency}/${a.type} newest ledger balance ${t.last} vs ${a.balance}`);
  }
}

describe('account ledgers from the core balance events', function () {
  this.timeout(60_000);

  it('every balance change of a keyed user is in its ledger, after every command of random streams (property)', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(9), fc.nat(), fc.nat()), { minLength: 5, maxLength: 40 }), (steps) => {
        const st = new SandboxState({ manualClock: true, startTime: T0 });
        const journal = new MemoryJournal();
        st.attachJournal(journal);
        st.run('world.seed', { seed: 3 });
        const mk = () => (st.run('user.create', { ...newKeyMaterial(), keyVersion: '2', permissions: ['General', 'Spot', 'Transfer'], balances: [{ currency: 'USDT', type: 'main', amount: '5000' }, { currency: 'BTC', type: 'trade', amount: '0.2' }], takerFeeRate: '0.002', makerFeeRate: '0.001' }) as { uid: string }).uid;
        const users = [mk(), mk()];
        const bid = st.exchange.level2('BTC-USDT', 1).bids[0][0];
        let now = T0;
        let n = 0;
        for (const [kind, a, b] of steps) {
          const uid = users[a % 2];
          now += 1000 + (b % 7000);
          st.exec({ op: 'clock.set', t: now, args: { now } });
          try {
            switch (kind) {
              case 0:
                st.run('deposit', { uid, currency: 'USDT', chainId: 'trx', amount: String(1 + (b % 50)), depositId: `d${n++}` });
                break;
              case 1:
                st.run('transfer', { uid, clientOid: `t${n++}`, currency: 'USDT', from: b % 2 ? 'main' : 'trade', to: b % 2 ? 'trade' : 'main', amount: String(1 + (b % 300)) });
                break;
              case 2:
                st.run('order.place', { uid, req: { symbol: 'BTC-USDT', side: b % 2 ? 'buy' : 'sell', type: 'market', size: D.fromUnits(BigInt(1 + (b % 400)), 5) } });
                break;
              case 3:
              case 4: {
                // resting limits near the touch, so the two users also trade with each other
                const price = D.add(D.roundDown(bid, '0.1'), D.fromUnits(BigInt((b % 11) - 5), 1));
                st.run('order.place', { uid, req: { symbol: 'BTC-USDT', side: b % 2 ? 'buy' : 'sell', type: 'limit', price, size: D.fromUnits(BigInt(10 + (b % 300)), 5) } });
                break;
              }
              case 5:
                st.run('order.cancelAll', { uid, symbol: 'BTC-USDT' });
                break;
              case 6:
                st.run('withdrawal.create', { withdrawalId: `w${n++}`, uid, version: 'v1', currency: 'USDT', chainId: 'trx', withdrawType: 'ADDRESS', toAddress: TRON, memo: '', isInner: false, remark: b % 3 === 0 ? 'FAIL test' : '', amount: String(11 + (b % 40)) });
                break;
              case 7: {
                const w = [...st.withdrawals.values()].find((x) => x.uid === uid && x.status === 'PROCESSING');
                if (w) st.run('withdrawal.cancel', { uid, withdrawalId: w.withdrawalId });
                break;
              }
              default:
                st.settleDue();
            }
          } catch {
            // refused commands (balance, rules) change nothing and record nothing
          }
          for (const u of users) checkLedger(st, u, `after step ${kind}`);
        }
        // fills' fees: each TRADE_EXCHANGE entry in the quote currency carries the fill's fee
        for (const u of users) {
          const fills = st.exchange.fills(u, { symbol: 'BTC-USDT', limit: 100 }).items;
          const feeOf = new Map(fills.map((f) => [`${f.orderId}:${f.tradeId}`, f.fee]));
          for (const e of st.ledger.entriesOf(u).filter((x) => x.bizType === 'TRADE_EXCHANGE' && x.currency === 'USDT')) {
            const c = JSON.parse(e.context) as { orderId: string; tradeId: string };
            const fee = feeOf.get(`${c.orderId}:${c.tradeId}`);
            if (fee !== undefined) assert.equal(e.fee, fee);
          }
        }
        for (const u of users) for (const e of st.ledger.entriesOf(u)) seen.set(`${e.bizType}/${e.accountType}${D.isZero(e.fee) ? '' : '/fee'}`, (seen.get(`${e.bizType}/${e.accountType}${D.isZero(e.fee) ? '' : '/fee'}`) ?? 0) + 1);
        // the seeded liquidity keeps no ledger
        assert.equal(st.ledger.entriesOf('100000000').length, 0);
        // replay rebuilds the same ledger (same ids)
        const b = new SandboxState({ manualClock: true, startTime: T0 });
        assert.deepEqual(b.replay(journal.commands), []);
        assert.deepEqual(b.ledger.export(), st.ledger.export());
      }),
      { numRuns: 40 },
    );
    // the streams really produced every kind of entry
    for (const k of ['DEPOSIT/main', 'TRANSFER/main', 'TRANSFER/trade', 'TRADE_EXCHANGE/trade/fee', 'TRADE_EXCHANGE/trade', 'WITHDRAW/main/fee']) assert.ok((seen.get(k) ?? 0) > 0, `${k}: ${JSON.stringify([...seen])}`);
  });

  describe('over HTTP', () => {
    let sb: RunningSandbox;
    let client: SpotClient;
    let uid: string;
    before(async () => {
      sb = await startTestSandbox();
      const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'main', amount: '2000' }, { currency: 'BTC', type: 'trade', amount: '0.1' }], takerFeeRate: '0.002' });
      uid = u.uid;
      client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, now: () => sb.state.now(), maxRetries: 0 });
    });
    after(async () => {
      client.close();
      await sb.close();
    });

    it('ledgers list every change with its bizType; filters and paging; trade_hf lists the trade account by lastId', async () => {
      await client.innerTransfer({ clientOid: 'l1', currency: 'USDT', from: 'main', to: 'trade', amount: '1000' });
      await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.003' });
      await client.placeOrder({ symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.001' });
      const w = await client.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' });
      await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 5_000 });
      await admin(sb, 'POST', '/sandbox/v1/deposits', { uid, currency: 'USDT', chain: 'trx', amount: '7' });
      const all = [];
      for await (const e of client.iterateLedgers({ pageSize: 10 })) all.push(e);
      assert.deepEqual(all.map((e) => e.id), sb.state.ledger.entriesOf(uid).map((e) => String(e.id)).reverse());
      const kinds = new Set(all.map((e) => `${e.bizType}/${e.accountType}/${e.direction}`));
      for (const k of ['DEPOSIT/MAIN/in', 'TRANSFER/MAIN/out', 'TRANSFER/TRADE/in', 'TRADE_EXCHANGE/TRADE/out', 'TRADE_EXCHANGE/TRADE/in', 'WITHDRAW/MAIN/out']) assert.ok(kinds.has(k), `${k} in ${[...kinds].join(', ')}`);
      const wd = all.find((e) => e.bizType === 'WITHDRAW');
      assert.equal(wd?.fee, sb.state.withdrawals.get(w.withdrawalId)?.fee);
      assert.equal(wd?.amount, sb.state.withdrawals.get(w.withdrawalId)?.totalDebit);
      checkLedger(sb.state, uid, 'http');
      // filters
      assert.ok((await client.getLedgers({ bizType: 'TRANSFER' })).items.every((e) => e.bizType === 'TRANSFER'));
      assert.ok((await client.getLedgers({ currency: 'BTC', direction: 'in' })).items.every((e) => e.currency === 'BTC' && e.direction === 'in'));
      // trade_hf: the trade account only, newest first, by lastId
      const hf = [];
      for await (const e of client.iterateHfLedgers({ limit: 2 })) hf.push(e);
      assert.deepEqual(hf.map((e) => e.id), all.filter((e) => e.accountType === 'TRADE').map((e) => e.id));
      assert.ok(hf.every((e) => e.accountType === 'TRADE_HF'));
      const trade = hf.find((e) => e.bizType === 'TRADE_EXCHANGE' && e.currency === 'USDT');
      assert.ok(trade && !D.isZero(trade.fee));
    });

    it('the WebSocket feed and the ledger share the core\'s events: the feed letting go of a user does not stop its ledger', async () => {
      const t = await privateToken(sb);
      const p = open(t.endpoint, t.token, 'ledger-probe');
      await p.waitFor((f) => f.json.type === 'welcome', 'welcome');
      p.send({ id: 'b1', type: 'subscribe', topic: '/account/balance', privateChannel: true, response: true });
      assert.equal((await p.reply('b1')).json.type, 'ack');
      const me = sb.credentials.uid;
      const n0 = sb.state.ledger.entriesOf(me).length;
      await admin(sb, 'POST', '/sandbox/v1/deposits', { uid: me, currency: 'USDT', chain: 'trx', amount: '3' });
      await p.waitFor((f) => f.json.topic === '/account/balance', 'the feed\'s balance message');
      assert.equal(sb.state.ledger.entriesOf(me).length, n0 + 1);
      // the only feed subscriber leaves: the feed stops watching the user, the ledger does not
      p.ws.close();
      await p.closed;
      await until(() => sb.feed.stats.connections === 0, 'the feed dropped the connection');
      await admin(sb, 'POST', '/sandbox/v1/deposits', { uid: me, currency: 'USDT', chain: 'trx', amount: '4' });
      const after = sb.state.ledger.entriesOf(me);
      assert.equal(after.length, n0 + 2);
      assert.deepEqual([after[after.length - 1].bizType, after[after.length - 1].amount], ['DEPOSIT', '4']);
      checkLedger(sb.state, me, 'after the feed left');
    });

    it('bad ledger queries: 400100 naming the field', async () => {
      for (const [q, field] of [
        ['pageSize=5', 'pageSize'],
        ['direction=up', 'direction'],
        ['startAt=10&endAt=5', 'endAt'],
      ] as const) {
        const r = await client.send(client.prepare('ledgers', Object.fromEntries(new URLSearchParams(q)) as never, { validate: false }));
        const body = JSON.parse(r.bodyText) as { code: string; msg: string };
        assert.equal(body.code, '400100');
        assert.ok(body.msg.startsWith(`${field}:`), body.msg);
      }
      const r = await client.send(client.prepare('hfLedgers', { limit: '201' } as never, { validate: false }));
      assert.match(r.bodyText, /"code":"400100","msg":"limit:/);
    });
  });
});
