/**
 * Shapes the funding feature works with. They are structural subsets of the wire schemas in
 * `src/api/schemas.ts` (Currency / Chain of GET /api/v3/currencies, Account of GET /api/v1/accounts,
 * withdrawal quotas of GET /api/v1/withdrawals/quotas), so the client's parsed objects can be
 * passed in directly. All amounts are decimal strings (spec "General rules" 2).
 */
import type { z } from 'zod';
import { ReasonOfTransfer as ReasonOfTransferSchema, type WithdrawType as WithdrawTypeSchema } from '../../../api/schemas';

/** One chain of a currency (spec "Chain (element of chains)"; extra real-KuCoin fields optional). */
export interface FundingChain {
  chainId: string;
  chainName: string;
  isDepositEnabled: boolean;
  isWithdrawEnabled: boolean;
  /** Minimum withdrawal amount, decimal string. */
  withdrawalMinSize: string;
  /** Minimum withdrawal fee, decimal string. */
  withdrawalMinFee: string;
  /** Withdrawal fee rate, decimal string ("0.001" = 0.1 %). */
  withdrawFeeRate: string;
  /** Maximum withdrawal fee; empty string or null when there is no cap. */
  withdrawMaxFee?: string | null;
  /** Digits after the point allowed in a withdrawal amount (real KuCoin field). */
  withdrawPrecision?: number | null;
  /** True when deposits/withdrawals on this chain need a memo/tag (real KuCoin field). */
  needTag?: boolean | null;
  /** Minimum deposit amount, decimal string, or null. */
  depositMinSize?: string | null;
  /** Block confirmations before a deposit is credited. */
  confirms?: number | null;
}

/** One currency of GET /api/v3/currencies (spec "Currency"). */
export interface FundingCurrency {
  currency: string;
  name?: string;
  fullName: string;
  /** Currency precision: digits after the point. */
  precision: number;
  chains?: FundingChain[] | null;
}

/** One account of GET /api/v1/accounts (spec "Account"). */
export interface FundingAccount {
  currency: string;
  type: string;
  balance: string;
  available: string;
  holds: string;
}

/** The subset of GET /api/v1/withdrawals/quotas `data` used for validation (real KuCoin fields). */
export interface FundingQuota {
  /** Remaining withdrawal quota in the currency, decimal string. */
  remainAmount?: string | null;
  /** Amount currently available for withdrawal, decimal string (informational). */
  availableAmount?: string | null;
}

/** Fee deduction chosen by the user: INTERNAL, EXTERNAL or omitted ("AUTO" = field not sent). Spec "Fee deduction rules". */
export type FeeDeduction = 'INTERNAL' | 'EXTERNAL' | 'AUTO';

/** Destination kind of a V4 withdrawal (`withdrawType`); ADDRESS may also go through V1. */
export type WithdrawType = z.infer<typeof WithdrawTypeSchema>;

/** Which endpoint carries the withdrawal: POST /api/v1/withdrawals or POST /api/v4/withdrawals. */
export type WithdrawApiVersion = 'V1' | 'V4';

/** The `reasonOfTransfer` values of POST /api/v4/withdrawals, in the spec's order (from the wire schema). */
export const REASONS_OF_TRANSFER = ReasonOfTransferSchema.options;

/** One `reasonOfTransfer` value. */
export type ReasonOfTransfer = (typeof REASONS_OF_TRANSFER)[number];

/** Recipient identity fields of POST /api/v4/withdrawals (spec "POST /api/v4/withdrawals (V4)"). */
export interface V4Recipient {
  receiverType: 'individual' | 'company';
  firstName?: string;
  lastName?: string;
  companyName?: string;
  /** Country value from GET /kyc/regions/v4. */
  country?: string;
  /** `ID_CARD` when country is TR, otherwise `PASSPORT`. */
  identityType?: 'ID_CARD' | 'PASSPORT';
  identityNo?: string;
  reasonOfTransfer?: ReasonOfTransfer;
  /** Recipient wallet: personal wallet or custodial platform name. */
  wallet?: string;
  /** Corporate tax number. */
  tin?: string;
}

/**
 * Everything the user chose for one withdrawal. `amount` is the amount withdrawn, fees excluded
 * (spec: "fees excluded"), a decimal string. `chain` is the chain's `chainId` (sent as `chain`).
 */
export interface WithdrawalDraft {
  currency: string;
  chain: string;
  withdrawType: WithdrawType;
  /** Address, UID, e-mail or phone number depending on `withdrawType`. */
  destination: string;
  memo?: string;
  amount: string;
  feeDeduction: FeeDeduction;
  apiVersion: WithdrawApiVersion;
  remark?: string;
  isInner?: boolean;
  /** Required for V4. */
  recipient?: V4Recipient;
}
