/**
 * The withdrawal guard's words and the exact request bodies (spec "POST /api/v1/withdrawals (V1)",
 * "POST /api/v4/withdrawals (V4)"). The summary shown before the typed confirmation lists amount,
 * fee, amount received, the FULL destination (with an "Address check: NOT VERIFIED" line when the
 * chain's address format is unknown), chain, memo and API version; the confirmation asks for the
 * last 6 characters of the destination. Pure.
 */
import { checkWithdrawalDestination } from '../../../api/withdrawalAddress';
import type { WithdrawalQuote } from './quote';
import type { FundingChain, V4Recipient, WithdrawalDraft } from './types';

/** Number of trailing destination characters the user must re-type to confirm. */
export const CONFIRM_SUFFIX_LENGTH = 6;

/** The characters to re-type: the last 6 of the destination (the whole destination if shorter). */
export function confirmationSuffix(destination: string): string {
  return destination.slice(-CONFIRM_SUFFIX_LENGTH);
}

/** True when `typed` equals the destination's last 6 characters exactly (case-sensitive, no trimming inside). */
export function confirmationMatches(destination: string, typed: string): boolean {
  return typed.trim() === confirmationSuffix(destination);
}

/** One labelled line of the summary. */
export interface SummaryLine {
  label: string;
  value: string;
}

/** Everything the confirmation step shows. */
export interface WithdrawalSummary {
  /** Title, e.g. "Withdraw 10 USDT via V1 (POST /api/v1/withdrawals)". */
  title: string;
  lines: SummaryLine[];
  /** The characters to re-type. */
  suffix: string;
  /** Method + path that will be called. */
  endpoint: string;
}

const DESTINATION_LABEL: Record<WithdrawalDraft['withdrawType'], string> = {
  ADDRESS: 'Address',
  UID: 'KuCoin UID',
  MAIL: 'E-mail',
  PHONE: 'Phone',
};

/** Endpoint path of a draft's API version. */
export function endpointOf(draft: Pick<WithdrawalDraft, 'apiVersion'>): '/api/v1/withdrawals' | '/api/v4/withdrawals' {
  return draft.apiVersion === 'V1' ? '/api/v1/withdrawals' : '/api/v4/withdrawals';
}

/**
 * For an address on a chain whose format SpotDesk does not know (src/api/withdrawalAddress.ts:
 * only the characters could be checked), a line saying so plainly; nothing otherwise.
 */
function addressCheckLine(draft: WithdrawalDraft, chain: Pick<FundingChain, 'chainId' | 'chainName'>): SummaryLine[] {
  if (draft.withdrawType !== 'ADDRESS' || checkWithdrawalDestination('ADDRESS', draft.destination, chain.chainId).verified) return [];
  return [
    {
      label: 'Address check',
      value: `NOT VERIFIED — SpotDesk knows no address format for ${chain.chainName}, so only the characters were checked. Compare the address with the recipient's, character by character: a withdrawal to a wrong address cannot be undone.`,
    },
  ];
}

/** Build the confirmation summary of a validated draft and its quote. */
export function buildSummary(draft: WithdrawalDraft, chain: Pick<FundingChain, 'chainId' | 'chainName'>, quote: WithdrawalQuote): WithdrawalSummary {
  const cur = draft.currency;
  // Plain words first, the API term (feeDeductType) after.
  const deduction =
    quote.requested === 'AUTO'
      ? `automatic (feeDeductType omitted) → ${quote.deduction === 'EXTERNAL' ? 'I pay it, from the main account' : 'the recipient, from the amount'}`
      : quote.deduction === 'INTERNAL'
        ? 'the recipient (INTERNAL: taken from the amount)'
        : 'I pay it (EXTERNAL: from the main account, on top of the amount)';
  const lines: SummaryLine[] = [
    { label: 'Amount', value: `${draft.amount} ${cur}` },
    { label: 'Fee', value: `${quote.fee} ${cur}` },
    { label: 'Who pays the fee', value: deduction },
    { label: 'Recipient receives', value: `${quote.receiveAmount} ${cur}` },
    { label: 'Main account pays', value: `${quote.accountPays} ${cur}` },
    { label: DESTINATION_LABEL[draft.withdrawType], value: draft.destination },
    ...addressCheckLine(draft, chain),
    { label: 'Chain', value: `${chain.chainName} (${chain.chainId})` },
    { label: 'Memo', value: draft.memo ? draft.memo : '(none)' },
    { label: 'API version', value: `${draft.apiVersion} — POST ${endpointOf(draft)}` },
  ];
  const r = draft.recipient;
  if (draft.apiVersion === 'V4' && r) {
    lines.push({ label: 'Recipient', value: r.receiverType === 'company' ? `company: ${r.companyName ?? ''}` : `individual: ${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() });
    if (r.country) lines.push({ label: 'Country', value: r.country });
    if (r.identityType) lines.push({ label: 'Identity', value: `${r.identityType} ${r.identityNo ?? ''}`.trim() });
    if (r.reasonOfTransfer) lines.push({ label: 'Reason', value: r.reasonOfTransfer });
  }
  return {
    title: `Withdraw ${draft.amount} ${cur} via ${draft.apiVersion} (POST ${endpointOf(draft)})`,
    lines,
    suffix: confirmationSuffix(draft.destination),
    endpoint: `POST ${endpointOf(draft)}`,
  };
}

/** Summary as plain text, one "Label: value" per line (for a modal's detail). */
export function summaryText(s: WithdrawalSummary): string {
  return s.lines.map((l) => `${l.label}: ${l.value}`).join('\n');
}

/** Body of POST /api/v1/withdrawals (field names per the spec; amount as an exact decimal string). */
export interface V1Body {
  currency: string;
  address: string;
  amount: string;
  chain: string;
  memo?: string;
  isInner?: boolean;
  remark?: string;
  feeDeductType?: 'INTERNAL' | 'EXTERNAL';
}

/** Body of POST /api/v4/withdrawals: the destination and amount fields plus the recipient fields. */
export interface V4Body extends V4Recipient {
  currency: string;
  toAddress: string;
  amount: string;
  chain: string;
  withdrawType: WithdrawalDraft['withdrawType'];
  memo?: string;
  isInner?: boolean;
  remark?: string;
  feeDeductType?: 'INTERNAL' | 'EXTERNAL';
}

/**
 * The exact request body for a draft: V1 `{currency, address, amount, chain, memo?, isInner?,
 * remark?, feeDeductType?}` or V4 with `toAddress`, `withdrawType` and the recipient fields.
 * `feeDeductType` is omitted for AUTO (rule 3). Optional empty strings are left out.
 * @throws Error when a V4 draft has no recipient.
 */
export function buildRequest(draft: WithdrawalDraft): { version: 'V1'; body: V1Body } | { version: 'V4'; body: V4Body } {
  const common = {
    currency: draft.currency,
    amount: draft.amount,
    chain: draft.chain,
    ...(draft.memo ? { memo: draft.memo } : {}),
    ...(draft.isInner !== undefined ? { isInner: draft.isInner } : {}),
    ...(draft.remark ? { remark: draft.remark } : {}),
    ...(draft.feeDeduction !== 'AUTO' ? { feeDeductType: draft.feeDeduction } : {}),
  };
  if (draft.apiVersion === 'V1') return { version: 'V1', body: { ...common, address: draft.destination } };
  const r = draft.recipient;
  if (!r) throw new Error('a V4 withdrawal needs the recipient fields');
  const opt = <K extends string>(k: K, v: string | undefined) => (v && v.trim() ? ({ [k]: v.trim() } as Record<K, string>) : {});
  return {
    version: 'V4',
    body: {
      ...common,
      toAddress: draft.destination,
      withdrawType: draft.withdrawType,
      receiverType: r.receiverType,
      ...opt('firstName', r.firstName),
      ...opt('lastName', r.lastName),
      ...opt('companyName', r.companyName),
      ...opt('country', r.country),
      ...(r.identityType ? { identityType: r.identityType } : {}),
      ...opt('identityNo', r.identityNo),
      ...(r.reasonOfTransfer ? { reasonOfTransfer: r.reasonOfTransfer } : {}),
      ...opt('wallet', r.wallet),
      ...opt('tin', r.tin),
    },
  };
}

/** What the deposit-address result view shows (spec "Deposit address" + the chain's facts). */
export interface DepositAddressView {
  currency: string;
  address: string;
  /** Empty string when none. */
  memo: string;
  chain: string;
  chainId?: string;
  /** Minimum deposit, decimal string, or null when the chain publishes none. */
  depositMinSize: string | null;
  confirms: number | null;
  /** Shown prominently when a memo is present. */
  memoWarning?: string;
  /** True when this is the address the user already had (the create answered "already exists"). */
  existing?: boolean;
  /** One line shown above the address when `existing`: says it is the existing address. */
  note?: string;
  /**
   * True on the sandbox profile: the address exists only in the simulated exchange, on no
   * blockchain. The panel says so, draws no QR code (a wallet must not scan it) and offers
   * "Simulate a Deposit…" instead.
   */
  simulated?: boolean;
}

/**
 * Build the deposit-address view: normalises a null memo to "" and adds the warning that a
 * deposit without the memo may not be credited (spec "Deposit address").
 */
export function depositAddressView(
  currency: string,
  res: { address: string; memo?: string | null; chain: string; chainId?: string },
  chain?: Pick<FundingChain, 'depositMinSize' | 'confirms'>,
): DepositAddressView {
  const memo = res.memo ?? '';
  return {
    currency,
    address: res.address,
    memo,
    chain: res.chain,
    chainId: res.chainId,
    depositMinSize: chain?.depositMinSize ?? null,
    confirms: chain?.confirms ?? null,
    memoWarning: memo
      ? `This address needs the memo ${memo}. A deposit sent without it may not be credited — always include the memo (also called tag or note) when sending ${currency}.`
      : undefined,
  };
}

/** One element of GET /api/v2/deposit-addresses as the funding feature reads it (structural subset of `DepositAddressEntry`). */
export interface ExistingAddress {
  address: string;
  memo?: string | null;
  /** Chain name, e.g. "TRC20". */
  chain: string;
  chainId?: string;
}

/**
 * The address of `chain` in a GET /api/v2/deposit-addresses list: matched by `chainId`, or by chain
 * name when the entry has no `chainId` (case-insensitive); the first (oldest) when several match.
 * Undefined when the list has none for that chain.
 */
export function findExistingAddress<T extends ExistingAddress>(list: readonly T[], chain: Pick<FundingChain, 'chainId' | 'chainName'>): T | undefined {
  const id = chain.chainId.toLowerCase();
  const name = chain.chainName.toLowerCase();
  return list.find((a) => (a.chainId !== undefined && a.chainId !== '' ? a.chainId.toLowerCase() === id : a.chain.toLowerCase() === name));
}

/**
 * The view of an address the user already had: exactly {@link depositAddressView} (address, memo,
 * chain, memo warning, minimum deposit, confirmations) plus `existing: true` and a `note` saying it
 * is the existing address, e.g. "This is your existing USDT deposit address on TRC20: the exchange
 * keeps one address per currency and chain, so no new one was created."
 */
export function existingDepositAddressView(
  currency: string,
  entry: ExistingAddress,
  chain?: Pick<FundingChain, 'depositMinSize' | 'confirms'>,
): DepositAddressView {
  const v = depositAddressView(currency, entry, chain);
  return {
    ...v,
    existing: true,
    note: `This is your existing ${currency} deposit address on ${v.chain}: the exchange keeps one address per currency and chain, so no new one was created.`,
  };
}
