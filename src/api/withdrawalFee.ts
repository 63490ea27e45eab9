/**
 * Withdrawal fee and receive-amount math — the ONE copy shared by the sandbox server
 * (src/exchange/server) and the extension's funding UI (src/features/funding/model imports it from here).
 * Pure: no I/O, decimal strings only (src/api/decimal.ts).
 *
 * Spec "POST /api/v1/withdrawals" / "POST /api/v4/withdrawals", fee deduction rules:
 *  1. `INTERNAL`: the fee is deducted from the withdrawn amount (recipient gets amount − fee).
 *  2. `EXTERNAL`: the fee is deducted from the main account (recipient gets amount; main pays amount + fee).
 *  3. omitted: EXTERNAL if main's available balance covers amount + fee, otherwise INTERNAL.
 *  4. V4 only: the Lightning network can only deduct internally (EXTERNAL → error, omitted → INTERNAL).
 * Fee of a chain: max(withdrawalMinFee, amount × withdrawFeeRate), capped by withdrawMaxFee when that is
 * a non-empty decimal, rounded UP to the amount precision. Inner (isInner / by UID, mail, phone) withdrawals
 * are free (KuCoin's `innerWithdrawMinFee` "0").
 */
import * as D from './decimal';

/** Inputs of {@link computeWithdrawalFee}. All amounts are decimal strings. */
export interface WithdrawalFeeInput {
  /** Requested amount, fees excluded (spec: positive, a multiple of the amount precision). */
  amount: string;
  /** Amount precision in decimal places (chain `withdrawPrecision`, else currency `precision`). */
  precision: number;
  /** Chain `withdrawalMinSize`. */
  withdrawalMinSize: string;
  /** Chain `withdrawalMinFee`. */
  withdrawalMinFee: string;
  /** Chain `withdrawFeeRate` ("0" or "" when none). */
  withdrawFeeRate: string;
  /** Chain `withdrawMaxFee`; null/empty = no cap. */
  withdrawMaxFee?: string | null;
  /** Requested deduction; undefined = omitted (rule 3). */
  feeDeductType?: 'INTERNAL' | 'EXTERNAL';
  /** Available balance of the `main` account in this currency. */
  available: string;
  /** Inner withdrawal (no fee). */
  isInner?: boolean;
  /** Chain is the Lightning network. */
  lightning?: boolean;
  /** API version ('v1' | 'v3' | 'v4'); rule 4 applies to V4 (and V3, which shares V4's fields). */
  version?: 'v1' | 'v3' | 'v4';
}

/** Result of {@link computeWithdrawalFee}. */
export interface WithdrawalFeeResult {
  /** Fee charged, in the currency. */
  fee: string;
  /** Deduction actually applied. */
  feeDeductType: 'INTERNAL' | 'EXTERNAL';
  /** What the recipient gets. */
  receiveAmount: string;
  /** What leaves the main account in total (amount, or amount + fee for EXTERNAL). */
  totalDebit: string;
}

/** A rule violation: `code` is the KuCoin-style code the sandbox answers with, `message` names the field. */
export class WithdrawalFeeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WithdrawalFeeError';
  }
}

/** The fee of a chain for `amount`: max(minFee, amount × rate) capped by maxFee, rounded up to `precision`. */
export function chainWithdrawalFee(amount: string, precision: number, minFee: string, rate: string, maxFee?: string | null): string {
  const inc = D.precisionIncrement(precision);
  let fee = D.max(minFee || '0', D.mulUp(amount, rate || '0', precision));
  if (maxFee && D.isDecimal(maxFee) && D.cmp(maxFee, '0') > 0) fee = D.min(fee, maxFee);
  return D.roundUp(fee, inc);
}

/**
 * Validate the amount and compute fee, deduction, receive amount and total debit.
 * @throws WithdrawalFeeError '400100' (amount not positive / not a multiple of the precision / below
 *   withdrawalMinSize / EXTERNAL on Lightning / INTERNAL with amount ≤ fee) or '200004'
 *   (main's available balance does not cover the debit).
 */
export function computeWithdrawalFee(input: WithdrawalFeeInput): WithdrawalFeeResult {
  const { amount, precision } = input;
  if (!D.isDecimal(amount) || D.cmp(amount, '0') <= 0) throw new WithdrawalFeeError('400100', 'amount must be a positive decimal');
  const inc = D.precisionIncrement(precision);
  if (!D.isMultipleOf(amount, inc)) throw new WithdrawalFeeError('400100', `amount must be a multiple of the precision ${inc}`);
  if (D.cmp(amount, input.withdrawalMinSize || '0') < 0) {
    throw new WithdrawalFeeError('400100', `amount must be at least withdrawalMinSize ${D.normalize(input.withdrawalMinSize)}`);
  }
  const fee = input.isInner ? '0' : chainWithdrawalFee(amount, precision, input.withdrawalMinFee, input.withdrawFeeRate, input.withdrawMaxFee);
  let deduct = input.feeDeductType;
  if (input.lightning && input.version !== 'v1') {
    if (deduct === 'EXTERNAL') throw new WithdrawalFeeError('400100', 'feeDeductType EXTERNAL is not supported on the Lightning network (internal deduction only)');
    deduct = 'INTERNAL';
  }
  if (deduct === undefined) deduct = D.cmp(input.available, D.add(amount, fee)) >= 0 ? 'EXTERNAL' : 'INTERNAL';
  if (deduct === 'INTERNAL') {
    if (D.cmp(amount, fee) <= 0 && D.cmp(fee, '0') > 0) {
      throw new WithdrawalFeeError('400100', `amount must exceed the fee ${fee} when the fee is deducted from it`);
    }
    if (D.cmp(input.available, amount) < 0) throw new WithdrawalFeeError('200004', 'Balance insufficient!');
    return { fee, feeDeductType: 'INTERNAL', receiveAmount: D.sub(amount, fee), totalDebit: D.normalize(amount) };
  }
  const total = D.add(amount, fee);
  if (D.cmp(input.available, total) < 0) throw new WithdrawalFeeError('200004', 'Balance insufficient!');
  return { fee, feeDeductType: 'EXTERNAL', receiveAmount: D.normalize(amount), totalDebit: total };
}
