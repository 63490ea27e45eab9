/**
 * Wire schemas of funding (spec "Deposit address", "Withdrawals"; KuCoin's funding endpoints beyond the
 * spec): deposit addresses (V1, V2, V3), withdrawal requests (V1, V3, V4) and results, withdrawal quotas,
 * the deposit and withdrawal histories, with their queries.
 * Conventions as in src/api/schemas.ts (the index that re-exports this file).
 */
import { z } from 'zod';
import { AmountInput, DecimalString, Millis, pageOf, paging, timeRange } from './primitives';

/**
 * POST /api/v1/deposit-addresses `data` (spec "Deposit address"). `memo` may be null (real payload);
 * `chainId`, `to` (MAIN/TRADE) and `currency` are extras real payloads carry.
 */
export const DepositAddress = z.object({
  address: z.string(),
  memo: z.string().nullable(),
  chain: z.string(),
  chainId: z.string().optional(),
  to: z.string().optional(),
  currency: z.string().optional(),
});
/** Type of {@link DepositAddress}. */
export type DepositAddress = z.infer<typeof DepositAddress>;

/** POST /api/v3/deposit-address/create `data` (KuCoin v3): `to` is upper case (MAIN/TRADE). */
export const DepositAddressV3 = z.object({
  address: z.string(),
  memo: z.string().nullable(),
  chainId: z.string(),
  to: z.string(),
  expirationDate: Millis,
  currency: z.string(),
  chainName: z.string(),
});
/** Type of {@link DepositAddressV3}. */
export type DepositAddressV3 = z.infer<typeof DepositAddressV3>;

/**
 * One element of GET /api/v2/deposit-addresses `data` (KuCoin "Get Deposit Addresses (V2)"): an
 * address the user already created, e.g. `{address: "0x0202…7c", memo: "", chain: "ERC20",
 * chainId: "eth", to: "MAIN", currency: "ETH", contractAddress: ""}`. `chain` is the chain NAME,
 * `chainId` the chain id; `memo` is "" when the chain needs none (null accepted, as the V1 create
 * sends it); `to` is MAIN|TRADE; `contractAddress` the token contract ("" for native coins). The
 * kucoin-universal-sdk model marks every field optional; SpotDesk requires `address` and `chain`.
 */
export const DepositAddressEntry = DepositAddress.extend({
  contractAddress: z.string().nullable().optional(),
});
/** Type of {@link DepositAddressEntry}. */
export type DepositAddressEntry = z.infer<typeof DepositAddressEntry>;
/** GET /api/v2/deposit-addresses `data`: the user's addresses of a currency (and chain), oldest first; `[]` when none. */
export const DepositAddressList = z.array(DepositAddressEntry);
/** Type of {@link DepositAddressList}. */
export type DepositAddressList = z.infer<typeof DepositAddressList>;

/** Withdrawal creation result (all versions): `{withdrawalId}`. */
export const WithdrawalResult = z.object({ withdrawalId: z.string() });
/** Type of {@link WithdrawalResult}. */
export type WithdrawalResult = z.infer<typeof WithdrawalResult>;

/** GET /api/v1/withdrawals/quotas `data` (KuCoin): decimal strings; `reason` null unless blocked. */
export const WithdrawalQuotas = z.object({
  currency: z.string(),
  limitBTCAmount: DecimalString,
  usedBTCAmount: DecimalString,
  quotaCurrency: z.string(),
  limitQuotaCurrencyAmount: DecimalString,
  usedQuotaCurrencyAmount: DecimalString,
  remainAmount: DecimalString,
  availableAmount: DecimalString,
  withdrawMinFee: DecimalString,
  innerWithdrawMinFee: DecimalString,
  withdrawMinSize: DecimalString,
  isWithdrawEnabled: z.boolean(),
  precision: z.number().int(),
  chain: z.string(),
  reason: z.string().nullable(),
  lockedAmount: DecimalString,
});
/** Type of {@link WithdrawalQuotas}. */
export type WithdrawalQuotas = z.infer<typeof WithdrawalQuotas>;

/** Deposit address request (POST /api/v1/deposit-addresses, /api/v3/deposit-address/create): `to` is main|trade, any case. */
export const DepositAddressRequest = z.object({
  currency: z.string().min(1),
  chain: z.string().min(1).optional(),
  to: z.string().regex(/^(main|trade)$/i, 'must be main or trade').optional(),
  amount: AmountInput.optional(),
});
/** Type of {@link DepositAddressRequest}. */
export type DepositAddressRequest = z.infer<typeof DepositAddressRequest>;

/** Fee deduction type of withdrawals: INTERNAL (from amount) or EXTERNAL (from main account). */
export const FeeDeductType = z.enum(['INTERNAL', 'EXTERNAL']);
/** Type of {@link FeeDeductType}. */
export type FeeDeductType = z.infer<typeof FeeDeductType>;
/** Withdrawal destination kind (V3/V4; V1 is always ADDRESS). */
export const WithdrawType = z.enum(['ADDRESS', 'UID', 'MAIL', 'PHONE']);
/** Type of {@link WithdrawType}. */
export type WithdrawType = z.infer<typeof WithdrawType>;

const withdrawalCommon = {
  currency: z.string().min(1),
  amount: AmountInput,
  memo: z.string().optional(),
  isInner: z.boolean().optional(),
  remark: z.string().optional(),
  chain: z.string().min(1).optional(),
  feeDeductType: FeeDeductType.optional(),
};

/** POST /api/v1/withdrawals body (spec "POST /api/v1/withdrawals (V1)"); `amount` string or number → decimal string. */
export const WithdrawalV1Request = z.object({ ...withdrawalCommon, address: z.string().min(1) });
/** Parsed type of {@link WithdrawalV1Request}. */
export type WithdrawalV1Request = z.infer<typeof WithdrawalV1Request>;

/** POST /api/v3/withdrawals body (KuCoin V3): `toAddress` + `withdrawType`. */
export const WithdrawalV3Request = z.object({ ...withdrawalCommon, toAddress: z.string().min(1), withdrawType: WithdrawType });
/** Parsed type of {@link WithdrawalV3Request}. */
export type WithdrawalV3Request = z.infer<typeof WithdrawalV3Request>;

/** Reason of transfer values of V4 withdrawals. */
export const ReasonOfTransfer = z.enum([
  'TRADING_IN_OTHER_PLATFORMS',
  'TRANSFER_TO_THE_COLD_WALLET_FOR_CUSTODY',
  'FUTURES_ACTIVITIES_IN_OTHER_PLATFORMS',
  'ATTENDENCE_TO_THE_CRYPTO_AIRDROP',
  'TRANSFER_TO_THE_THIRD_PARTIES',
  'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM',
  'OTHER',
]);

/**
 * POST /api/v4/withdrawals body (spec "POST /api/v4/withdrawals (V4)"). Rules:
 * receiverType `company` requires `companyName`; `individual` requires `firstName` and `lastName`;
 * `identityType`, when given, must be ID_CARD for country TR and PASSPORT otherwise; the Lightning
 * network (chain `btcln`) only allows feeDeductType INTERNAL (or omitted).
 */
export const WithdrawalV4Request = z
  .object({
    ...withdrawalCommon,
    toAddress: z.string().min(1),
    withdrawType: WithdrawType,
    wallet: z.string().optional(),
    receiverType: z.enum(['individual', 'company']),
    companyName: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    country: z.string().optional(),
    identityType: z.enum(['ID_CARD', 'PASSPORT']).optional(),
    identityNo: z.string().optional(),
    reasonOfTransfer: ReasonOfTransfer.optional(),
    tin: z.string().optional(),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (o.receiverType === 'company' && !o.companyName) issue('companyName', 'is required when receiverType is company');
    if (o.receiverType === 'individual') {
      if (!o.firstName) issue('firstName', 'is required when receiverType is individual');
      if (!o.lastName) issue('lastName', 'is required when receiverType is individual');
    }
    if (o.identityType !== undefined) {
      const want = o.country === 'TR' ? 'ID_CARD' : 'PASSPORT';
      if (o.identityType !== want) issue('identityType', `must be ${want} when country is ${o.country ?? 'not TR'}`);
    }
    if (o.chain !== undefined && o.chain.toLowerCase() === 'btcln' && o.feeDeductType === 'EXTERNAL') {
      issue('feeDeductType', 'the Lightning network can only deduct the fee internally');
    }
  });
/** Parsed type of {@link WithdrawalV4Request}. */
export type WithdrawalV4Request = z.infer<typeof WithdrawalV4Request>;

/** Query of GET /api/v2/deposit-addresses: `currency` (required), optional `chain` (chain id such as `trx`; the sandbox also takes the name). */
export const DepositAddressesQuery = z.object({ currency: z.string().min(1), chain: z.string().min(1).optional() });
/** Query of GET /api/v1/withdrawals/quotas: `currency`, optional `chain`. */
export const WithdrawalQuotasQuery = z.object({ currency: z.string().min(1), chain: z.string().optional() });

// --- funding -------------------------------------------------------------------------------------

/**
 * GET /api/v1/deposit-addresses `data` (KuCoin "Get Deposit Address (V1)"): the address of the
 * currency (and chain; default chain when omitted) — the first one created — or `null` when none exists.
 */
export const DepositAddressOrNull = DepositAddress.nullable();

/** Status of a deposit (KuCoin): PROCESSING, SUCCESS, FAILURE. */
export const DepositStatus = z.enum(['PROCESSING', 'SUCCESS', 'FAILURE']);
/** Status of a withdrawal (KuCoin): REVIEW, PROCESSING, WALLET_PROCESSING, SUCCESS, FAILURE. */
export const WithdrawalStatusValue = z.enum(['REVIEW', 'PROCESSING', 'WALLET_PROCESSING', 'SUCCESS', 'FAILURE']);
/** Type of {@link WithdrawalStatusValue}. */
export type WithdrawalStatusValue = z.infer<typeof WithdrawalStatusValue>;

/**
 * One deposit of GET /api/v1/deposits (KuCoin "Get Deposit History"): amounts decimal strings, times
 * ms, `chain` the chain id ('' when unknown), `walletTxId` null until known.
 */
export const DepositItem = z.object({
  currency: z.string(),
  chain: z.string(),
  status: DepositStatus,
  address: z.string(),
  memo: z.string(),
  isInner: z.boolean(),
  amount: DecimalString,
  fee: DecimalString,
  walletTxId: z.string().nullable(),
  createdAt: Millis,
  updatedAt: Millis,
  remark: z.string(),
  arrears: z.boolean().optional(),
});
/** Type of {@link DepositItem}. */
export type DepositItem = z.infer<typeof DepositItem>;
/** GET /api/v1/deposits `data`: a page of {@link DepositItem}, newest first. */
export const DepositPage = pageOf(DepositItem);
/** Type of {@link DepositPage}. */
export type DepositPage = z.infer<typeof DepositPage>;

/** Query of GET /api/v1/deposits: optional `currency`, `status`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const DepositsQuery = timeRange({ currency: z.string().min(1).optional(), status: DepositStatus.optional(), ...paging });
/** Input type of {@link DepositsQuery}. */
export type DepositsQuery = z.input<typeof DepositsQuery>;

/**
 * One withdrawal of GET /api/v1/withdrawals (KuCoin "Get Withdrawal History"): the fields of a
 * {@link DepositItem} with a withdrawal's `status`, plus `id` the withdrawalId (kucoin-universal-sdk has
 * it; the published example omits it); `amount` as requested and `fee` (decimal strings), `chain` the
 * chain id, times ms.
 */
export const WithdrawalItem = DepositItem.extend({ id: z.string().optional(), status: WithdrawalStatusValue });
/** Type of {@link WithdrawalItem}. */
export type WithdrawalItem = z.infer<typeof WithdrawalItem>;
/** GET /api/v1/withdrawals `data`: a page of {@link WithdrawalItem}, newest first. */
export const WithdrawalPage = pageOf(WithdrawalItem);
/** Type of {@link WithdrawalPage}. */
export type WithdrawalPage = z.infer<typeof WithdrawalPage>;

/** Query of GET /api/v1/withdrawals: optional `currency`, `status`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const WithdrawalsQuery = timeRange({ currency: z.string().min(1).optional(), status: WithdrawalStatusValue.optional(), ...paging });
/** Input type of {@link WithdrawalsQuery}. */
export type WithdrawalsQuery = z.input<typeof WithdrawalsQuery>;

/** Path of DELETE /api/v1/withdrawals/{withdrawalId}. */
export const WithdrawalIdPath = z.object({ withdrawalId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a withdrawal id (letters and digits)') });
