/**
 * Pre-submission validation of a withdrawal draft (spec "POST /api/v1/withdrawals (V1)",
 * "POST /api/v4/withdrawals (V4)", "Fee deduction rules", "Funds model"). Everything is checked
 * with exact decimal strings (src/api/decimal.ts); fees come from the single fee function in
 * src/api/withdrawalFee.ts through {@link quoteWithdrawal}. Pure: no vscode, no Node APIs.
 */
import * as D from '../../../api/decimal';
import { checkWithdrawalDestination } from '../../../api/withdrawalAddress';
import { amountPrecision, needsMemo } from './chains';
import { quoteWithdrawal, type WithdrawalQuote } from './quote';
import type { FundingAccount, FundingChain, FundingCurrency, FundingQuota, WithdrawalDraft } from './types';
import { REASONS_OF_TRANSFER } from './types';

/** One problem found in a draft: the field it concerns and a sentence for the user. */
export interface ValidationIssue {
  field: 'currency' | 'chain' | 'withdrawType' | 'destination' | 'memo' | 'amount' | 'feeDeduction' | 'apiVersion' | 'recipient';
  message: string;
}

/**
 * Suggestion to move funds from `trade` to `main` before withdrawing (spec "Funds model": funds in
 * trade cannot be withdrawn directly). `amount` is the shortfall in main, a decimal string.
 */
export interface TransferSuggestion {
  currency: string;
  amount: string;
}

/** Outcome of {@link validateWithdrawal}. */
export interface ValidationResult {
  ok: boolean;
  issues: ValidationIssue[];
  /** Fee and amounts for the chosen deduction, when the amount could be priced. */
  quote?: WithdrawalQuote;
  /** Set when main lacks funds but main + trade would cover the withdrawal. */
  transfer?: TransferSuggestion;
}

/** Facts about the account the draft is checked against. */
export interface ValidationContext {
  currency: FundingCurrency;
  chain: FundingChain;
  /** Accounts of the currency (main and trade); missing accounts count as zero. */
  accounts: readonly FundingAccount[];
  /** GET /api/v1/withdrawals/quotas data; quota not checked when absent. */
  quota?: FundingQuota | null;
}

/** Available funds of the `type` account of `currency` ("0" when there is none). */
export function availableOf(accounts: readonly FundingAccount[], currency: string, type: 'main' | 'trade'): string {
  const a = accounts.find((x) => x.currency === currency && x.type === type);
  return a ? D.normalize(a.available) : '0';
}

/**
 * Validate the destination for its `withdrawType` with the rule the sandbox applies too
 * (src/api/withdrawalAddress.ts): for ADDRESS the format and checksum of the chain `chainId`
 * (generic syntax when the chain has no known format), UID digits, e-mail shape, E.164 phone.
 * @returns an issue message or undefined.
 */
export function checkDestination(type: WithdrawalDraft['withdrawType'], destination: string, chainId?: string): string | undefined {
  const r = checkWithdrawalDestination(type, destination, chainId);
  return r.ok ? undefined : r.reason;
}

/**
 * {@link checkDestination} on `chain`, and when an ADDRESS fails there but passes the format of
 * another of the currency's `chains` (e.g. an EVM 0x… address while TRC20 is chosen), the message
 * says so: "This looks like an ERC20 address; you chose TRC20." — the usual cause of a lost
 * withdrawal is the wrong network, not a typo. Chains without a known format never match.
 * @param chains the currency's (withdraw-enabled) chains.
 * @returns an issue message or undefined.
 */
export function checkDestinationOn(type: WithdrawalDraft['withdrawType'], destination: string, chain: Pick<FundingChain, 'chainId' | 'chainName'> | undefined, chains: readonly Pick<FundingChain, 'chainId' | 'chainName'>[]): string | undefined {
  const issue = checkDestination(type, destination, chain?.chainId);
  if (!issue || type !== 'ADDRESS' || !chain) return issue;
  const fits = chains.filter((c) => c.chainId !== chain.chainId && checkWithdrawalDestination('ADDRESS', destination, c.chainId).verified && checkWithdrawalDestination('ADDRESS', destination, c.chainId).ok);
  if (!fits.length) return issue;
  const names = fits.map((c) => c.chainName);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return `This looks like ${/^[AEIOU]/i.test(list) ? 'an' : 'a'} ${list} address; you chose ${chain.chainName}. Go Back to pick ${names.length === 1 ? 'that chain' : 'its chain'}, or check the address.`;
}

/**
 * Check the amount alone: a plain decimal, positive, a multiple of the amount precision
 * (10^-precision) and at least the chain's `withdrawalMinSize`.
 * @returns an issue message or undefined.
 */
export function checkAmount(amount: string, currency: FundingCurrency, chain: FundingChain): string | undefined {
  if (!D.isDecimal(amount)) return `"${amount}" is not a plain decimal number (digits, optional point; no exponent).`;
  if (!(D.cmp(amount, '0') > 0)) return 'The amount must be positive.';
  const digits = amountPrecision(currency, chain);
  const inc = D.precisionIncrement(digits);
  if (!D.isMultipleOf(amount, inc)) return `The amount must be a multiple of ${inc} (${digits} decimal places for ${currency.currency} on ${chain.chainName}).`;
  if (D.cmp(amount, chain.withdrawalMinSize) < 0) return `The minimum withdrawal on ${chain.chainName} is ${D.normalize(chain.withdrawalMinSize)} ${currency.currency}.`;
  return undefined;
}

/**
 * Validate a complete draft before it is summarised and confirmed.
 * Checks: chain enabled for withdrawals; destination per type; memo when the chain needs one;
 * UID/MAIL/PHONE only through V4; amount (see {@link checkAmount}); fee deduction allowed
 * (Lightning: internal only, spec rule 4); INTERNAL leaves the recipient a positive amount;
 * the main account's available funds cover what leaves it (amount, plus the fee when the account
 * pays it), with a trade→main transfer suggested when trade would cover the shortfall;
 * the amount is within the remaining withdrawal quota; V4 recipient fields.
 */
export function validateWithdrawal(draft: WithdrawalDraft, ctx: ValidationContext): ValidationResult {
  const issues: ValidationIssue[] = [];
  const { currency, chain } = ctx;
  if (draft.currency !== currency.currency) issues.push({ field: 'currency', message: `Draft currency ${draft.currency} does not match ${currency.currency}.` });
  if (draft.chain !== chain.chainId) issues.push({ field: 'chain', message: `Draft chain ${draft.chain} does not match ${chain.chainId}.` });
  if (!chain.isWithdrawEnabled) issues.push({ field: 'chain', message: `Withdrawals of ${currency.currency} on ${chain.chainName} are disabled.` });

  const destIssue = checkDestinationOn(draft.withdrawType, draft.destination, chain, currency.chains ?? []);
  if (destIssue) issues.push({ field: 'destination', message: destIssue });
  if (draft.withdrawType === 'ADDRESS' && needsMemo(chain) && !(draft.memo ?? '').trim()) {
    issues.push({ field: 'memo', message: `${chain.chainName} needs a memo/tag for ${currency.currency}; without it the funds may be lost.` });
  }
  if (draft.withdrawType !== 'ADDRESS' && draft.apiVersion !== 'V4') {
    issues.push({ field: 'apiVersion', message: `Withdrawals by ${draft.withdrawType} exist only in V4 (POST /api/v4/withdrawals).` });
  }

  const amountIssue = checkAmount(draft.amount, currency, chain);
  let quote: WithdrawalQuote | undefined;
  let transfer: TransferSuggestion | undefined;
  if (amountIssue) {
    issues.push({ field: 'amount', message: amountIssue });
  } else {
    const mainAvail = availableOf(ctx.accounts, currency.currency, 'main');
    const tradeAvail = availableOf(ctx.accounts, currency.currency, 'trade');
    const q = quoteWithdrawal({
      amount: draft.amount,
      feeDeduction: draft.feeDeduction,
      chain,
      precision: amountPrecision(currency, chain),
      mainAvailable: mainAvail,
      apiVersion: draft.apiVersion,
      withdrawType: draft.withdrawType,
      isInner: draft.isInner,
    });
    if ('error' in q) {
      issues.push({ field: 'feeDeduction', message: q.error });
    } else {
      quote = q;
      if (D.cmp(q.accountPays, mainAvail) > 0) {
        const shortfall = D.sub(q.accountPays, mainAvail);
        const feeNote = q.deduction === 'EXTERNAL' ? ` (${draft.amount} + fee ${q.fee})` : '';
        if (D.cmp(tradeAvail, shortfall) >= 0) {
          transfer = { currency: currency.currency, amount: shortfall };
          issues.push({ field: 'amount', message: `Main has ${mainAvail} ${currency.currency} available but the withdrawal needs ${q.accountPays}${feeNote}. Trade holds ${tradeAvail}: transfer ${shortfall} from trade to main first.` });
        } else {
          issues.push({ field: 'amount', message: `Main has ${mainAvail} ${currency.currency} available but the withdrawal needs ${q.accountPays}${feeNote}.` });
        }
      }
    }
    const remain = ctx.quota?.remainAmount;
    if (remain !== undefined && remain !== null && D.isDecimal(remain) && D.cmp(draft.amount, remain) > 0) {
      issues.push({ field: 'amount', message: `The amount exceeds the remaining withdrawal quota of ${D.normalize(remain)} ${currency.currency}.` });
    }
  }

  if (draft.apiVersion === 'V4') issues.push(...checkRecipient(draft));
  return { ok: issues.length === 0, issues, quote, transfer };
}

/**
 * V4 recipient rules: receiverType individual needs firstName and lastName, company needs
 * companyName; identityType is ID_CARD when country is TR and PASSPORT otherwise (when an identity
 * is given, identityNo is required); reasonOfTransfer one of the spec's values.
 */
export function checkRecipient(draft: Pick<WithdrawalDraft, 'recipient'>): ValidationIssue[] {
  const r = draft.recipient;
  const out: ValidationIssue[] = [];
  if (!r) return [{ field: 'recipient', message: 'V4 withdrawals need the recipient (receiverType and names).' }];
  if (r.receiverType === 'individual') {
    if (!r.firstName?.trim() || !r.lastName?.trim()) out.push({ field: 'recipient', message: 'An individual recipient needs a first and a last name.' });
  } else if (r.receiverType === 'company') {
    if (!r.companyName?.trim()) out.push({ field: 'recipient', message: 'A company recipient needs the company name.' });
  } else {
    out.push({ field: 'recipient', message: 'receiverType must be individual or company.' });
  }
  if (r.country !== undefined && r.identityType !== undefined) {
    const expected = identityTypeFor(r.country);
    if (r.identityType !== expected) out.push({ field: 'recipient', message: `For country ${r.country} the identity type is ${expected}.` });
  }
  if (r.identityType !== undefined && !r.identityNo?.trim()) out.push({ field: 'recipient', message: `Enter the ${r.identityType === 'ID_CARD' ? 'ID card' : 'passport'} number.` });
  if (r.reasonOfTransfer !== undefined && !(REASONS_OF_TRANSFER as readonly string[]).includes(r.reasonOfTransfer)) {
    out.push({ field: 'recipient', message: `reasonOfTransfer must be one of ${REASONS_OF_TRANSFER.join(', ')}.` });
  }
  return out;
}

/** Identity document type for a country (spec V4 `identityType`): `ID_CARD` for TR, otherwise `PASSPORT`. */
export function identityTypeFor(country: string): 'ID_CARD' | 'PASSPORT' {
  return country.toUpperCase() === 'TR' ? 'ID_CARD' : 'PASSPORT';
}
