/**
 * Funding endpoints beyond the spec: the deposit addresses of a currency (GET
 * /api/v3/deposit-addresses), one withdrawal (GET /api/v1/withdrawals/{withdrawalId}) and the V1
 * histories (GET /api/v1/hist-deposits, GET /api/v1/hist-withdrawals: records from before
 * 2019-02-18, when KuCoin moved deposits and withdrawals to the current API). Read-only.
 * Behaviour and codes: docs/sandbox.md "Funding".
 */
import type * as S from '../../../api/schemas';
import { SandboxError, type SandboxState, type WithdrawalRecord } from '../state';
import { callerOf, type RefHandler } from './context';

/** 2019-02-18T00:00:00Z (ms): records created before it are V1 history (ccxt switches to hist-* for earlier `since`). */
export const HIST_CUTOFF_MS = 1_550_448_000_000;

/**
 * A bound of the V1 history query in ms: KuCoin documents ms, ccxt sends `startAt` in seconds; a
 * value below 10^11 (a date in 1973 as ms, in 5138 as s) is read as seconds.
 */
export function histBoundMs(v: number | undefined): number | undefined {
  return v === undefined ? undefined : v < 1e11 ? v * 1000 : v;
}

/** One page of `list` (already in answer order) as KuCoin's paged payload (defaults 1 and 50). */
function pageOf<T>(list: readonly T[], currentPage: number | undefined, pageSize: number | undefined) {
  const cp = currentPage ?? 1;
  const ps = pageSize ?? 50;
  const start = (cp - 1) * ps;
  return { currentPage: cp, pageSize: ps, totalNum: list.length, totalPage: Math.ceil(list.length / ps), items: list.slice(start, start + ps) };
}

/** 400100 naming the currency when it is given and the world does not list it. */
function checkCurrency(state: SandboxState, currency: string | undefined): void {
  if (currency !== undefined && !state.world.currencyMap.has(currency)) throw new SandboxError('400100', `currency: ${currency} is not supported`);
}

/** GET /api/v1/withdrawals/{withdrawalId} of a record (see {@link S.WithdrawalDetail}). */
export function withdrawalDetail(w: WithdrawalRecord): S.WithdrawalDetail {
  return {
    id: w.withdrawalId,
    uid: Number(w.uid),
    currency: w.currency,
    chainId: w.chainId,
    chainName: w.chainName,
    currencyName: w.currency,
    status: w.status,
    failureReason: w.status === 'FAILURE' ? w.failureReason : '',
    failureReasonMsg: w.status === 'FAILURE' ? w.failureReason : null,
    address: w.toAddress,
    memo: w.memo,
    isInner: w.isInner || w.withdrawType !== 'ADDRESS',
    amount: w.amount,
    fee: w.fee,
    walletTxId: w.status === 'SUCCESS' ? `sbx-${w.withdrawalId}` : null,
    addressRemark: null,
    remark: w.remark,
    createdAt: w.createdAt,
    // a processing withdrawal can still be cancelled (DELETE /api/v1/withdrawals/{withdrawalId})
    cancelType: w.status === 'PROCESSING' ? 'CANCELABLE' : 'NON_CANCELABLE',
    taxes: null,
    taxDescription: null,
    returnStatus: 'NOT_RETURN',
    returnAmount: null,
    returnCurrency: null,
  };
}

/** Handlers of the funding rows. */
export const FUNDING_HANDLERS: { [N in 'depositAddressesV3' | 'withdrawal' | 'histDeposits' | 'histWithdrawals']: RefHandler<N> } = {
  depositAddressesV3: (ctx) => {
    const uid = callerOf(ctx).uid;
    const p = ctx.params;
    return ctx.state.listDepositAddresses(uid, p.currency, p.chain).map(({ rec: a, contractAddress }) => ({
      address: a.address,
      memo: a.memo,
      chainId: a.chainId,
      to: a.to,
      expirationDate: 0,
      currency: a.currency,
      contractAddress: contractAddress,
      chainName: a.chainName,
    }));
  },
  withdrawal: (ctx) => {
    const uid = callerOf(ctx).uid;
    const w = ctx.state.withdrawals.get(ctx.params.withdrawalId);
    // another user's withdrawal is as unknown as a made-up id
    if (!w || w.uid !== uid) throw new SandboxError('400100', `withdrawalId: ${ctx.params.withdrawalId} is not a withdrawal of this user`);
    return withdrawalDetail(w);
  },
  histDeposits: (ctx) => {
    const uid = callerOf(ctx).uid;
    const p = ctx.params;
    checkCurrency(ctx.state, p.currency);
    const from = histBoundMs(p.startAt);
    const to = histBoundMs(p.endAt);
    // every sandbox deposit is credited at once (SUCCESS); only those before the cut-over are V1 history
    const list = ctx.state.deposits
      .filter((d) => d.uid === uid && d.createdAt < HIST_CUTOFF_MS && (p.currency === undefined || d.currency === p.currency) && (p.status === undefined || p.status === 'SUCCESS'))
      .filter((d) => (from === undefined || d.createdAt >= from) && (to === undefined || d.createdAt <= to))
      .reverse()
      .map((d) => ({ currency: d.currency, createAt: Math.floor(d.createdAt / 1000), amount: d.amount, walletTxId: `sbx-${d.depositId}`, isInner: false, status: 'SUCCESS' as const }));
    return pageOf(list, p.currentPage, p.pageSize);
  },
  histWithdrawals: (ctx) => {
    const uid = callerOf(ctx).uid;
    const p = ctx.params;
    checkCurrency(ctx.state, p.currency);
    const from = histBoundMs(p.startAt);
    const to = histBoundMs(p.endAt);
    const list: S.HistWithdrawalItem[] = [];
    for (const w of ctx.state.withdrawals.values()) {
      if (w.uid !== uid || w.createdAt >= HIST_CUTOFF_MS || (p.currency !== undefined && w.currency !== p.currency) || (p.status !== undefined && w.status !== p.status)) continue;
      if ((from !== undefined && w.createdAt < from) || (to !== undefined && w.createdAt > to)) continue;
      list.push({ currency: w.currency, createAt: Math.floor(w.createdAt / 1000), amount: w.amount, address: w.toAddress, walletTxId: w.status === 'SUCCESS' ? `sbx-${w.withdrawalId}` : '', isInner: w.isInner || w.withdrawType !== 'ADDRESS', status: w.status });
    }
    return pageOf(list.reverse(), p.currentPage, p.pageSize);
  },
};
