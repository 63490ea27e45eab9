/**
 * Conformance of the market/reference, account and funding reads that bots use beyond the spec with
 * KuCoin's official kucoin-universal-sdk (v1.3.0, key version 3, unmodified: only its endpoints and
 * credentials are set): getSymbol, getCurrency (new USDT chains), getAnnouncements,
 * getClientIPAddress, getCallAuctionPartOrderBook (20 and 100), getCallAuctionInfo,
 * getSpotAccountDetail, getAccountInfo, getApikeyInfo, getSpotAccountList (type option),
 * addDepositAddressV3 + getDepositAddressV3 (BEP20, SOL, NEAR), withdrawalV3 + getWithdrawalHistoryById,
 * getDepositHistoryOld and getWithdrawalHistoryOld. Each SDK result is compared with the sandbox's
 * own state. GET /api/v2/currencies/{currency} has no method in the SDK (it calls V3) nor in ccxt
 * (which routes `currencies/{currency}` to V3): that one is exercised through SpotDesk's own client.
 */
import { strict as assert } from 'node:assert';
import { Account, DefaultClient, Spot } from 'kucoin-universal-sdk';
import { sdkClient } from './sdkClient';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { checkWithdrawalDestination } from '../../../src/api/withdrawalAddress';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { ANNOUNCEMENTS } from '../../../src/exchange/server/refdata/announcements';
import { USER_INFO } from '../../../src/exchange/server/refdata/account';
import { createUser } from './helpers';

/** An SDK call's failure as `code msg` (the SDK throws an Error whose message carries KuCoin's code). */
async function sdkError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('conformance with kucoin-universal-sdk: market/reference, account and funding reads', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let uid: string;
  let rest: ReturnType<DefaultClient['restService']>;
  let creds: { apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: '1' | '2' | '3' };

  before(async () => {
    sb = await startSandbox({ port: 0, sim: false, seed: 12, settleIntervalMs: 60_000 });
    const u = await createUser(sb, { keyVersion: '3', balances: [{ currency: 'USDT', type: 'main', amount: '1000' }, { currency: 'USDT', type: 'trade', amount: '250' }] });
    uid = u.uid;
    creds = u;
    rest = sdkClient(sb.baseUrl, u, { retries: 1, explain: false }).restService();
  });
  after(async () => {
    await sb?.close();
  });

  it('market: getSymbol is the world\'s pair; an unknown pair is 900001', async () => {
    const market = rest.getSpotService().getMarketApi();
    for (const sym of ['BTC-USDT', 'BTCP-BTC']) {
      const s = await market.getSymbol(Spot.Market.GetSymbolReq.builder().setSymbol(sym).build());
      const w = sb.state.world.symbolMap.get(sym);
      assert.ok(w);
      assert.deepEqual(
        [s.symbol, s.baseCurrency, s.quoteCurrency, s.market, s.baseMinSize, s.priceIncrement, s.baseIncrement, s.minFunds, s.enableTrading, s.callauctionIsEnabled],
        [w.symbol, w.baseCurrency, w.quoteCurrency, w.market, w.baseMinSize, w.priceIncrement, w.baseIncrement, w.minFunds, w.enableTrading, false],
      );
    }
    assert.match(await sdkError(market.getSymbol(Spot.Market.GetSymbolReq.builder().setSymbol('NOPE-USDT').build())), /900001/);
  });

  it('market: getCurrency lists USDT on BEP20, SOL and NEAR; chain=sol narrows to that chain', async () => {
    const market = rest.getSpotService().getMarketApi();
    const all = await market.getCurrency(Spot.Market.GetCurrencyReq.builder().setCurrency('USDT').build());
    assert.deepEqual(all.chains.map((c) => c.chainId), sb.state.world.currencyMap.get('USDT')?.chains.map((c) => c.chainId));
    const sol = await market.getCurrency(Spot.Market.GetCurrencyReq.builder().setCurrency('USDT').setChain('sol').build());
    const w = sb.state.world.currencyMap.get('USDT')?.chains.find((c) => c.chainId === 'sol');
    assert.ok(w);
    assert.deepEqual(sol.chains.map((c) => [c.chainId, c.chainName, c.withdrawalMinFee, c.withdrawalMinSize, c.contractAddress]), [['sol', 'SOL', w.withdrawalMinFee, w.withdrawalMinSize, w.contractAddress]]);
  });

  it('market: GET /api/v2/currencies/{currency} (no SDK or ccxt method: SpotDesk\'s client) answers the V3 payload', async () => {
    const c = new SpotClient({ baseUrl: sb.baseUrl, maxRetries: 0 });
    try {
      assert.deepEqual(await c.getCurrencyV2('USDT'), await c.getCurrency('USDT'));
      const near = await c.getCurrencyV2('USDT', 'NEAR');
      assert.deepEqual(near.chains.map((x) => x.chainId), ['near']);
    } finally {
      c.close();
    }
  });

  it('market: getAnnouncements (the SDK\'s defaults: en_US, latest-announcements) is the sandbox\'s list; a type and a time window filter it', async () => {
    const market = rest.getSpotService().getMarketApi();
    const a = await market.getAnnouncements(Spot.Market.GetAnnouncementsReq.builder().build());
    const newest = [...ANNOUNCEMENTS].sort((x, y) => y.cTime - x.cTime);
    assert.deepEqual(a.items.map((x) => [x.annId, x.annTitle, x.cTime, x.language]), newest.map((x) => [x.annId, x.annTitle, x.cTime, x.language]));
    assert.equal(a.totalNum, ANNOUNCEMENTS.length);
    const del = await market.getAnnouncements(Spot.Market.GetAnnouncementsReq.builder().setAnnType(Spot.Market.GetAnnouncementsReq.AnnTypeEnum.DELISTINGS).build());
    assert.deepEqual(del.items.map((x) => x.annId), newest.filter((x) => x.annType.includes('delistings')).map((x) => x.annId));
    const mid = newest[2].cTime;
    const win = await market.getAnnouncements(Spot.Market.GetAnnouncementsReq.builder().setStartTime(mid).setEndTime(mid).build());
    assert.deepEqual(win.items.map((x) => x.annId), [newest[2].annId]);
  });

  it('market: getClientIPAddress is the loopback address the test connects from', async () => {
    const ip = await rest.getSpotService().getMarketApi().getClientIPAddress();
    assert.equal(ip.data, '127.0.0.1');
  });

  it('market: call auction (no pair of the sandbox is in one): empty books of 20 and 100, null estimates; unknown pair 900001', async () => {
    const market = rest.getSpotService().getMarketApi();
    for (const size of ['20', '100']) {
      const b = await market.getCallAuctionPartOrderBook(Spot.Market.GetCallAuctionPartOrderBookReq.builder().setSymbol('ETH-USDT').setSize(size).build());
      assert.deepEqual([b.bids, b.asks, b.sequence], [[], [], String(sb.state.exchange.sequence('ETH-USDT'))]);
    }
    const info = await market.getCallAuctionInfo(Spot.Market.GetCallAuctionInfoReq.builder().setSymbol('ETH-USDT').build());
    assert.deepEqual([info.symbol, info.estimatedPrice, info.estimatedSize, info.buyOrderRangeLowPrice, info.sellOrderRangeHighPrice], ['ETH-USDT', null, null, null, null]);
    assert.ok(Math.abs(info.time - sb.state.now()) < 5_000);
    assert.match(await sdkError(market.getCallAuctionInfo(Spot.Market.GetCallAuctionInfoReq.builder().setSymbol('NOPE-USDT').build())), /900001/);
  });

  it('account: getSpotAccountDetail of each account id, getSpotAccountList(type option) is empty', async () => {
    const api = rest.getAccountService().getAccountApi();
    for (const a of sb.state.exchange.accounts(uid)) {
      const d = await api.getSpotAccountDetail(Account.Account.GetSpotAccountDetailReq.builder().setAccountId(a.id).build());
      assert.deepEqual([d.currency, d.balance, d.available, d.holds], [a.currency, a.balance, a.available, a.holds]);
    }
    const opt = await api.getSpotAccountList(Account.Account.GetSpotAccountListReq.builder().setType(Account.Account.GetSpotAccountListReq.TypeEnum.OPTION).build());
    assert.deepEqual(opt.data, []);
    const main = await api.getSpotAccountList(Account.Account.GetSpotAccountListReq.builder().setType(Account.Account.GetSpotAccountListReq.TypeEnum.MAIN).build());
    assert.deepEqual(main.data.map((a) => [a.id, a.balance]), sb.state.exchange.accounts(uid, { type: 'main' }).map((a) => [a.id, a.balance]));
  });

  it('account: getAccountInfo is the sandbox summary; getApikeyInfo is the key record (version 3, all permissions)', async () => {
    const api = rest.getAccountService().getAccountApi();
    const info = await api.getAccountInfo();
    for (const [k, v] of Object.entries(USER_INFO)) assert.equal((info as unknown as Record<string, number>)[k], v, k);
    const key = await api.getApikeyInfo();
    const u = sb.state.users.get(uid);
    assert.ok(u);
    assert.deepEqual([key.apiKey, key.apiVersion, key.permission, key.uid, key.isMaster, key.createdAt, key.remark], [u.apiKey, 3, u.permissions.join(','), Number(uid), true, u.createdAt, u.label]);
    assert.ok(!JSON.stringify(key).includes(creds.apiSecret));
  });

  it('funding: addDepositAddressV3 on BEP20, SOL, NEAR, then getDepositAddressV3 lists them as stored (per chain and all)', async () => {
    const dep = rest.getAccountService().getDepositApi();
    for (const chain of ['bsc', 'sol', 'near']) {
      const r = await dep.addDepositAddressV3(Account.Deposit.AddDepositAddressV3Req.builder().setCurrency('USDT').setChain(chain).setTo(Account.Deposit.AddDepositAddressV3Req.ToEnum.TRADE).build());
      assert.ok(checkWithdrawalDestination('ADDRESS', r.address, chain).ok, `${r.address} on ${chain}`);
      const one = await dep.getDepositAddressV3(Account.Deposit.GetDepositAddressV3Req.builder().setCurrency('USDT').setChain(chain).build());
      const rec = sb.state.depositAddressesOf(uid, 'USDT', chain);
      assert.deepEqual(one.data.map((a) => [a.address, a.chainId, a.to, a.memo, a.expirationDate]), rec.map((a) => [a.address, chain, 'TRADE', '', 0]));
    }
    const all = await dep.getDepositAddressV3(Account.Deposit.GetDepositAddressV3Req.builder().setCurrency('USDT').build());
    const chains = sb.state.world.currencyMap.get('USDT')?.chains ?? [];
    assert.deepEqual(
      all.data.map((a) => [a.address, a.chainId, a.chainName, a.contractAddress]),
      sb.state.depositAddressesOf(uid, 'USDT').map((a) => [a.address, a.chainId, a.chainName, chains.find((c) => c.chainId === a.chainId)?.contractAddress]),
    );
  });

  it('funding: withdrawalV3 on SOL, then getWithdrawalHistoryById is the record (amount, fee, status, cancelable); another id is 400100', async () => {
    const wapi = rest.getAccountService().getWithdrawalApi();
    const to = 'So11111111111111111111111111111111111111112';
    const before = sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0];
    const w = await wapi.withdrawalV3(Account.Withdrawal.WithdrawalV3Req.builder().setCurrency('USDT').setChain('sol').setAmount('25').setToAddress(to).setWithdrawType(Account.Withdrawal.WithdrawalV3Req.WithdrawTypeEnum.ADDRESS).setRemark('sdk sol').build());
    const rec = sb.state.withdrawals.get(w.withdrawalId);
    assert.ok(rec);
    const d = await wapi.getWithdrawalHistoryById(Account.Withdrawal.GetWithdrawalHistoryByIdReq.builder().setWithdrawalId(w.withdrawalId).build());
    assert.deepEqual(
      [d.id, d.uid, d.currency, d.chainId, d.chainName, d.status, d.address, d.amount, d.fee, d.remark, d.createdAt, d.cancelType, d.walletTxId],
      [rec.withdrawalId, Number(uid), 'USDT', 'sol', 'SOL', 'PROCESSING', to, '25', rec.fee, 'sdk sol', rec.createdAt, 'CANCELABLE', null],
    );
    assert.equal(sb.state.exchange.accounts(uid, { currency: 'USDT', type: 'main' })[0].holds, D.add(before.holds, rec.totalDebit));
    assert.match(await sdkError(wapi.getWithdrawalHistoryById(Account.Withdrawal.GetWithdrawalHistoryByIdReq.builder().setWithdrawalId('0123456789abcdef01234567').build())), /400100/);
  });

  it('funding: getDepositHistoryOld / getWithdrawalHistoryOld: KuCoin\'s empty page (every record of the sandbox is after 2019-02-18)', async () => {
    const dep = await rest.getAccountService().getDepositApi().getDepositHistoryOld(Account.Deposit.GetDepositHistoryOldReq.builder().setCurrency('USDT').setStartAt(1500000000000).build());
    assert.deepEqual([dep.currentPage, dep.pageSize, dep.totalNum, dep.totalPage, dep.items], [1, 50, 0, 0, []]);
    const wd = await rest.getAccountService().getWithdrawalApi().getWithdrawalHistoryOld(Account.Withdrawal.GetWithdrawalHistoryOldReq.builder().setCurrency('USDT').build());
    assert.deepEqual([wd.totalNum, wd.items], [0, []]);
    assert.ok([...sb.state.withdrawals.values()].some((w) => w.uid === uid), 'the user has withdrawals, all current ones');
  });
});
