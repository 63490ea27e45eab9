/**
 * Fee quotes for the withdrawal UI: what the recipient gets and what the main account pays for
 * each fee-deduction choice (spec "Fee deduction rules" 1–4). The arithmetic is NOT here: it is the
 * single fee function `computeWithdrawalFee` of src/api/withdrawalFee.ts, shared with the sandbox.
 * This module only adapts its inputs and turns its outcomes into sentences. Pure.
 */
import * as D from '../../../api/decimal';
import { computeWithdrawalFee, WithdrawalFeeError } from '../../../api/withdrawalFee';
import { isLightning } from './chains';
import type { FeeDeduction, FundingChain, WithdrawApiVersion, WithdrawType } from './types';

/** Priced withdrawal: decimal strings in the withdrawn currency. */
export interface WithdrawalQuote {
  /** The user's choice (AUTO = `feeDeductType` omitted). */
  requested: FeeDeduction;
  /** Deduction that applies (for AUTO: decided by the main balance, rule 3; Lightning V4: INTERNAL). */
  deduction: 'INTERNAL' | 'EXTERNAL';
  fee: string;
  /** Amount the recipient receives. */
  receiveAmount: string;
  /** Total leaving the main account: amount (INTERNAL) or amount + fee (EXTERNAL). */
  accountPays: string;
}

/** Inputs of {@link quoteWithdrawal}. */
export interface QuoteInput {
  /** Amount withdrawn, fees excluded, decimal string. */
  amount: string;
  feeDeduction: FeeDeduction;
  chain: FundingChain;
  /** Amount precision (digits): chain `withdrawPrecision`, else currency `precision`. */
  precision: number;
  /** Available funds of the main account, decimal string. */
  mainAvailable: string;
  apiVersion: WithdrawApiVersion;
  /** Destination kind; UID/MAIL/PHONE are inner (fee-free) withdrawals. Default ADDRESS. */
  withdrawType?: WithdrawType;
  /** `isInner` flag of the request (fee-free). */
  isInner?: boolean;
}

/** Large enough to cover any amount: used to price a withdrawal the balance cannot fund yet. */
const UNLIMITED = '1' + '0'.repeat(40);

/**
 * Price a withdrawal. When main lacks funds the quote is still returned (priced as if funded, with
 * AUTO resolving to INTERNAL as rule 3 would) so the caller can report the shortfall; rule
 * violations that no balance fixes (amount format, minimum, Lightning EXTERNAL, INTERNAL with
 * amount ≤ fee) come back as `{error}` with the fee module's message.
 */
export function quoteWithdrawal(q: QuoteInput): WithdrawalQuote | { error: string; code: string } {
  const base = {
    amount: q.amount,
    precision: q.precision,
    withdrawalMinSize: q.chain.withdrawalMinSize,
    withdrawalMinFee: q.chain.withdrawalMinFee,
    withdrawFeeRate: q.chain.withdrawFeeRate,
    withdrawMaxFee: q.chain.withdrawMaxFee ?? null,
    feeDeductType: q.feeDeduction === 'AUTO' ? undefined : q.feeDeduction,
    isInner: q.isInner === true || (q.withdrawType !== undefined && q.withdrawType !== 'ADDRESS'),
    lightning: isLightning(q.chain),
    version: q.apiVersion === 'V1' ? ('v1' as const) : ('v4' as const),
  };
  const attempt = (available: string) => {
    const r = computeWithdrawalFee({ ...base, available });
    return { requested: q.feeDeduction, deduction: r.feeDeductType, fee: r.fee, receiveAmount: r.receiveAmount, accountPays: r.totalDebit };
  };
  try {
    return attempt(q.mainAvailable);
  } catch (e) {
    if (!(e instanceof WithdrawalFeeError)) throw e;
    if (e.code !== '200004') return { error: e.message, code: e.code };
    // Not funded: price it anyway. AUTO with too little for amount + fee resolves to INTERNAL (rule 3).
    try {
      return attempt(q.feeDeduction === 'AUTO' ? D.normalize(q.amount) : UNLIMITED);
    } catch (e2) {
      if (e2 instanceof WithdrawalFeeError) return { error: e2.message, code: e2.code };
      throw e2;
    }
  }
}

/** "recipient gets X CUR, account pays Y CUR (fee Z CUR)" for one quote. */
export function describeQuote(q: WithdrawalQuote, currency: string): string {
  return `recipient gets ${q.receiveAmount} ${currency}, account pays ${q.accountPays} ${currency} (fee ${q.fee} ${currency})`;
}

/** One fee-deduction option for a picker: label, explanation in amounts, or why it is unavailable. */
export interface DeductionOption {
  value: FeeDeduction;
  /** In a person's words: "Recipient pays the fee", "I pay the fee", "Automatic". */
  label: string;
  /** The API term (`feeDeductType`), shown as detail: "INTERNAL", "EXTERNAL", "AUTO (feeDeductType omitted)". */
  term: string;
  /** "recipient gets X, account pays Y" or the rule that forbids it. */
  detail: string;
  quote?: WithdrawalQuote;
  disabled?: string;
}

/**
 * The three fee-deduction choices explained in amounts for `input` (its `feeDeduction` is ignored):
 * INTERNAL (fee from the amount, rule 1), EXTERNAL (fee from main, rule 2), automatic (omitted,
 * rule 3, resolved against the main balance). Lightning on V4 marks EXTERNAL unavailable (rule 4).
 */
export function deductionOptions(input: Omit<QuoteInput, 'feeDeduction'>, currency: string): DeductionOption[] {
  const labels: Record<FeeDeduction, string> = {
    INTERNAL: 'Recipient pays the fee',
    EXTERNAL: 'I pay the fee',
    AUTO: 'Automatic: I pay it if main can, else the recipient',
  };
  const terms: Record<FeeDeduction, string> = {
    INTERNAL: 'INTERNAL — fee taken from the amount',
    EXTERNAL: 'EXTERNAL — fee paid from the main account',
    AUTO: 'AUTO — feeDeductType omitted',
  };
  return (['INTERNAL', 'EXTERNAL', 'AUTO'] as const).map((value) => {
    const r = quoteWithdrawal({ ...input, feeDeduction: value });
    if ('error' in r) return { value, label: labels[value], term: terms[value], detail: r.error, disabled: r.error };
    const resolved = value === 'AUTO' ? ` → ${r.deduction === 'EXTERNAL' ? 'I pay the fee' : 'the recipient pays the fee'}` : '';
    return { value, label: labels[value], term: terms[value], detail: describeQuote(r, currency) + resolved, quote: r };
  });
}
