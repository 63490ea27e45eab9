/**
 * Funding: deposits, inner transfers, deposit addresses and withdrawals, with the handlers of their commands
 * (`deposit`, `transfer`, `depositAddress.create`, `withdrawal.create|settle|release|cancel`; commands.ts).
 * Applied by the exec loop (exec.ts): deterministic given (state, t, args); ids and addresses are drawn by the
 * caller before exec. Spec sections "Deposit", "Transfer", "Withdrawals"; KuCoin's fee rules in
 * src/api/withdrawalFee.ts.
 */
import { computeWithdrawalFee, WithdrawalFeeError } from '../../../api/withdrawalFee';
import type { Exchange } from '../../core';
import type { CommandArgs } from '../commands';
import {
  WITHDRAWAL_CANCELLED_REASON,
  WITHDRAWAL_SETTLE_DELAY_MS,
  type DepositAddressRecord,
  type DepositRecord,
  type InnerWithdrawalWindow,
  type WithdrawalRecord,
} from '../records';
import { SandboxError } from '../sandboxError';
import type { UserDirectory } from '../users/commands';
import { resolveChain, type ChainInfo, type CurrencyInfo, type World } from '../world';

const DAY_MS = 24 * 3600 * 1000;

/** An inner transfer, remembered by `uid:clientOid` (KuCoin's inner transfer is idempotent by clientOid). */
export interface TransferRecord {
  uid: string;
  clientOid: string;
  orderId: string;
}

/** The funding records of every user and the handlers that change them. */
export class Funding {
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  readonly deposits: DepositRecord[] = [];
  readonly depositAddresses: DepositAddressRecord[] = [];
  readonly innerWithdrawalWindows = new Map<string, InnerWithdrawalWindow>();
  readonly transfers = new Map<string, TransferRecord>();
  /** Counter of the inner transfers' order ids (snapshot `state` section, record `meta`, field `seq`). */
  seq = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly world: World,
    private readonly users: UserDirectory,
  ) {}

  /** `deposit`: credit main, recorded with the user's address of that chain. @throws SandboxError 400100 (nothing changed). */
  deposit(a: CommandArgs<'deposit'>, t: number): DepositRecord {
    this.users.require(a.uid);
    const { chain } = this.chainOf(a.currency, a.chainId);
    this.users.checkGrant({ currency: a.currency, type: 'main', amount: a.amount });
    this.exchange.deposit(a.uid, a.currency, a.amount);
    const addr = this.depositAddressesOf(a.uid, a.currency, chain.chainId)[0];
    const rec: DepositRecord = {
      depositId: a.depositId,
      uid: a.uid,
      currency: a.currency,
      chainId: chain.chainId,
      amount: a.amount,
      address: addr?.address ?? '',
      memo: addr?.memo ?? '',
      createdAt: t,
    };
    this.deposits.push(rec);
    return rec;
  }

  /** `transfer` main ↔ trade, idempotent by clientOid. @throws SandboxError 400100, ExchangeError 200004 (nothing changed). */
  transfer(a: CommandArgs<'transfer'>): { orderId: string } {
    this.users.require(a.uid);
    const key = `${a.uid}:${a.clientOid}`;
    const prev = this.transfers.get(key);
    // Idempotent by clientOid, like KuCoin's inner transfer.
    if (prev) return { orderId: prev.orderId };
    if (a.from === a.to) throw new SandboxError('400100', 'from and to must differ', 200);
    this.exchange.transfer(a.uid, a.currency, a.from, a.to, a.amount);
    this.seq++;
    const orderId = `7a${this.seq.toString(16).padStart(22, '0')}`;
    this.transfers.set(key, { uid: a.uid, clientOid: a.clientOid, orderId });
    return { orderId };
  }

  /** `depositAddress.create`: record an address drawn by the caller. @throws SandboxError 400100 unknown uid, currency or chain. */
  createDepositAddress(a: CommandArgs<'depositAddress.create'>, t: number): DepositAddressRecord {
    this.users.require(a.uid);
    const { chain } = this.chainOf(a.currency, a.chainId);
    const rec: DepositAddressRecord = {
      uid: a.uid,
      currency: a.currency,
      chainId: chain.chainId,
      chainName: chain.chainName,
      address: a.address,
      memo: a.memo,
      to: a.to,
      createdAt: t,
    };
    this.depositAddresses.push(rec);
    return rec;
  }

  /**
   * `withdrawal.create`: checks the chain, the whitelist and the identity-withdrawal limits, computes the fee
   * and holds the total debit in main; settles WITHDRAWAL_SETTLE_DELAY_MS later (settleDue in state.ts).
   * @throws SandboxError (260220 suspended chain, 260325 not a favorite address, 260310 limits, the fee's
   *   codes) or ExchangeError 200004; nothing changed.
   */
  createWithdrawal(a: CommandArgs<'withdrawal.create'>, t: number): WithdrawalRecord {
    const u = this.users.require(a.uid);
    if (this.withdrawals.has(a.withdrawalId)) throw new SandboxError('400100', 'duplicate withdrawalId', 400);
    const { currency, chain } = this.chainOf(a.currency, a.chainId);
    if (!chain.isWithdrawEnabled) throw new SandboxError('260220', `withdrawal of ${a.currency} on chain ${chain.chainName} is suspended`);
    if (u.whitelist.enabled && a.withdrawType === 'ADDRESS') {
      const ok = u.whitelist.favorites.some((f) => f.address === a.toAddress && (f.chain === chain.chainId || f.chain === chain.chainName));
      if (!ok) throw new SandboxError('260325', 'Already set withdraw whitelist, this address is not favorite address');
    }
    const byIdentity = a.withdrawType !== 'ADDRESS';
    if (byIdentity) this.checkInnerWindow(a.uid, t);
    const mainAcc = this.exchange.accounts(a.uid, { currency: a.currency, type: 'main' })[0];
    const available = mainAcc ? String(mainAcc.available) : '0';
    let fee;
    try {
      fee = computeWithdrawalFee({
        amount: a.amount,
        precision: chain.withdrawPrecision ?? currency.precision,
        withdrawalMinSize: chain.withdrawalMinSize,
        withdrawalMinFee: chain.withdrawalMinFee,
        withdrawFeeRate: chain.withdrawFeeRate,
        withdrawMaxFee: chain.withdrawMaxFee ?? null,
        feeDeductType: a.feeDeductType,
        available,
        isInner: a.isInner || byIdentity,
        lightning: chain.chainId === 'btcln',
        version: a.version,
      });
    } catch (e) {
      if (e instanceof WithdrawalFeeError) throw new SandboxError(e.code, e.message);
      throw e;
    }
    const holdId = this.exchange.holdWithdrawal(a.uid, a.currency, fee.totalDebit);
    if (byIdentity) this.bumpInnerWindow(a.uid, t);
    const rec: WithdrawalRecord = {
      withdrawalId: a.withdrawalId,
      uid: a.uid,
      version: a.version,
      currency: a.currency,
      chainId: chain.chainId,
      chainName: chain.chainName,
      withdrawType: a.withdrawType,
      toAddress: a.toAddress,
      memo: a.memo,
      isInner: a.isInner,
      remark: a.remark,
      amount: a.amount,
      fee: fee.fee,
      feeDeductType: fee.feeDeductType,
      receiveAmount: fee.receiveAmount,
      totalDebit: fee.totalDebit,
      holdId: String(holdId),
      status: 'PROCESSING',
      failureReason: '',
      createdAt: t,
      settleAt: t + WITHDRAWAL_SETTLE_DELAY_MS,
      updatedAt: t,
    };
    this.withdrawals.set(rec.withdrawalId, rec);
    return rec;
  }

  /** `withdrawal.cancel`: the user cancels its PROCESSING withdrawal (DELETE /api/v1/withdrawals/{withdrawalId}). @throws SandboxError 400100. */
  cancelWithdrawal(a: CommandArgs<'withdrawal.cancel'>, t: number): WithdrawalRecord {
    const w = this.withdrawals.get(a.withdrawalId);
    // another user's withdrawal is as unknown as a missing one
    if (!w || w.uid !== a.uid) throw new SandboxError('400100', `withdrawalId: no withdrawal ${a.withdrawalId} of this user`);
    if (w.status !== 'PROCESSING') throw new SandboxError('400100', `withdrawalId: withdrawal ${w.withdrawalId} is ${w.status}; only a PROCESSING withdrawal can be cancelled`);
    return this.endWithdrawal(w.withdrawalId, 'FAILURE', WITHDRAWAL_CANCELLED_REASON, t);
  }

  /** `withdrawal.settle` (SUCCESS) / `withdrawal.release` (FAILURE) of a PROCESSING withdrawal. @throws SandboxError 400100. */
  endWithdrawal(id: string, status: 'SUCCESS' | 'FAILURE', reason: string, t: number): WithdrawalRecord {
    const w = this.withdrawals.get(id);
    if (!w) throw new SandboxError('400100', `unknown withdrawalId ${id}`, 400);
    if (w.status !== 'PROCESSING') throw new SandboxError('400100', `withdrawal ${id} is already ${w.status}`, 400);
    if (status === 'SUCCESS') this.exchange.settleWithdrawal(w.holdId, w.fee);
    else this.exchange.releaseWithdrawal(w.holdId);
    w.status = status;
    w.failureReason = reason;
    w.updatedAt = t;
    return w;
  }

  /** Throws 260310 when the V4 UID/MAIL/PHONE rolling limits are exhausted. */
  private checkInnerWindow(uid: string, t: number): void {
    const w = this.innerWithdrawalWindows.get(uid);
    if (!w) return;
    if (t - w.longStart < DAY_MS && w.longCount >= 50) {
      const waitS = Math.ceil((w.longStart + DAY_MS - t) / 1000);
      throw new SandboxError('260310', `Withdrawals by UID, mail or phone are limited to 50 per 24 hours; retry in ${waitS} s`);
    }
    if (t - w.shortStart < 10_000 && w.shortCount >= 3) {
      const waitS = Math.ceil((w.shortStart + 10_000 - t) / 1000);
      throw new SandboxError('260310', `Withdrawals by UID, mail or phone are limited to 3 per 10 seconds; retry in ${waitS} s`);
    }
  }

  private bumpInnerWindow(uid: string, t: number): void {
    let w = this.innerWithdrawalWindows.get(uid);
    if (!w) {
      w = { shortStart: t, shortCount: 0, longStart: t, longCount: 0 };
      this.innerWithdrawalWindows.set(uid, w);
    }
    if (t - w.shortStart >= 10_000) {
      w.shortStart = t;
      w.shortCount = 0;
    }
    if (t - w.longStart >= DAY_MS) {
      w.longStart = t;
      w.longCount = 0;
    }
    w.shortCount++;
    w.longCount++;
  }

  /**
   * Deposit addresses of `uid` for `currency` (exact code), on `chainId` only when given, in
   * creation order (V1 and V3 creates alike). Read-only.
   */
  depositAddressesOf(uid: string, currency: string, chainId?: string): DepositAddressRecord[] {
    return this.depositAddresses.filter((a) => a.uid === uid && a.currency === currency && (chainId === undefined || a.chainId === chainId));
  }

  /**
   * The deposit-address listings (GET /api/v2/deposit-addresses, /api/v3/deposit-addresses): the user's
   * addresses of `currency` (its code as given or upper-cased) on `chain` when given (chainId, name or alias,
   * case-insensitive), each with its chain's contract address ('' when none). Read-only.
   * @throws SandboxError 400100 unknown currency or chain.
   */
  listDepositAddresses(uid: string, currency: string, chain: string | undefined): { rec: DepositAddressRecord; contractAddress: string }[] {
    const cur = this.world.currencyMap.get(currency) ?? this.world.currencyMap.get(currency.toUpperCase());
    if (!cur) throw new SandboxError('400100', `currency: ${currency} is not supported`);
    let chainId: string | undefined;
    if (chain !== undefined) {
      const c = resolveChain(cur, chain);
      if (!c) throw new SandboxError('400100', `chain: ${chain} is not supported for ${cur.currency}`);
      chainId = c.chainId;
    }
    const contract = new Map(cur.chains.map((c) => [c.chainId, c.contractAddress]));
    return this.depositAddressesOf(uid, cur.currency, chainId).map((rec) => ({ rec, contractAddress: contract.get(rec.chainId) ?? '' }));
  }

  /**
   * Resolve a currency + chain parameter (chainId, chain name or the spec's aliases, case-insensitive)
   * to the world's records. Throws 400100 for an unknown currency or chain.
   */
  chainOf(currency: string, chainParam: string | undefined): { currency: CurrencyInfo; chain: ChainInfo } {
    const cur = this.world.currencyMap.get(currency);
    if (!cur) throw new SandboxError('400100', `currency: ${currency} is not supported`);
    const chain = resolveChain(cur, chainParam);
    if (!chain) throw new SandboxError('400100', `chain: ${chainParam} is not supported for ${currency}`);
    return { currency: cur, chain };
  }

  /** Withdrawals that are due to settle at `now` (the server's timer executes `withdrawal.settle` for them). */
  dueWithdrawals(now: number): WithdrawalRecord[] {
    const out: WithdrawalRecord[] = [];
    for (const w of this.withdrawals.values()) if (w.status === 'PROCESSING' && w.settleAt <= now) out.push(w);
    return out;
  }

  /**
   * Drop deposit records older than `cutoff` (ms) and withdrawals that finished (SUCCESS / FAILURE) before
   * it; withdrawals in flight stay whatever their age. @returns how many records were dropped.
   */
  prune(cutoff: number): number {
    // deposits are in creation order: the old ones are a prefix
    let old = 0;
    while (old < this.deposits.length && this.deposits[old].createdAt < cutoff) old++;
    if (old > 0) this.deposits.splice(0, old);
    let n = old;
    for (const [id, w] of this.withdrawals) {
      if (w.status !== 'PROCESSING' && w.updatedAt < cutoff) {
        this.withdrawals.delete(id);
        n++;
      }
    }
    return n;
  }
}
