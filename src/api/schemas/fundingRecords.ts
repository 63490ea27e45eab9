/**
 * Wire schemas of KuCoin's funding endpoints beyond the spec: the deposit addresses of a currency
 * (GET /api/v3/deposit-addresses), one withdrawal (GET /api/v1/withdrawals/{withdrawalId}) and the
 * V1 histories from before 2019-02-18 (GET /api/v1/hist-deposits, GET /api/v1/hist-withdrawals).
 * Shapes from KuCoin's docs-new examples as kucoin-universal-sdk 1.3.0 publishes them
 * (test/fixtures/kucoin/beyond-spec/). Conventions: ../schemas.ts (decimal strings, ms times).
 */
import { z } from 'zod';
import { DepositAddressV3, WithdrawalItem, WithdrawalStatusValue } from './funding';
import { DecimalString, PositiveDecimalString, pageOf, paging, timeRange } from './primitives';

/**
 * Query of GET /api/v3/deposit-addresses: `currency`, optional `chain` (chainId, name or alias) and
 * `amount` (KuCoin: only for Lightning invoices; accepted and ignored by the sandbox).
 */
export const DepositAddressesV3Query = z.object({ currency: z.string().min(1), chain: z.string().min(1).optional(), amount: PositiveDecimalString.optional() });
/** Input type of {@link DepositAddressesV3Query}. */
export type DepositAddressesV3Query = z.input<typeof DepositAddressesV3Query>;

/**
 * One address of GET /api/v3/deposit-addresses: a {@link DepositAddressV3} (address, chainId, `to` MAIN |
 * TRADE, currency, chain name) whose memo is a string ('' when none) and expirationDate an integer (0:
 * never), with the token's contract address on that chain ('' for a native coin).
 */
export const DepositAddressV3Entry = DepositAddressV3.extend({ memo: z.string(), expirationDate: z.number().int(), contractAddress: z.string() });
/** Type of {@link DepositAddressV3Entry}. */
export type DepositAddressV3Entry = z.infer<typeof DepositAddressV3Entry>;
/** GET /api/v3/deposit-addresses `data`: every address of the currency (of the chain when given). */
export const DepositAddressV3List = z.array(DepositAddressV3Entry);

/** Status of a withdrawal in GET /api/v1/withdrawals/{withdrawalId}: the statuses of the withdrawal history. */
export const WithdrawalDetailStatus = WithdrawalStatusValue;

/**
 * GET /api/v1/withdrawals/{withdrawalId} `data` (KuCoin "Get Withdrawal History By ID"): a
 * {@link WithdrawalItem} (without `chain`, `updatedAt`, `arrears`) with its owner `uid` (a number), chain
 * id and name, status and failure reason, destination, amount and fee (decimal strings), wallet transaction id (null until known), remark,
 * creation time (ms), whether it can still be cancelled (`cancelType`: CANCELABLE,
 * CANCELING, NON_CANCELABLE) and the fee return fields KuCoin adds (null here).
 */
export const WithdrawalDetail = WithdrawalItem.omit({ chain: true, updatedAt: true, arrears: true }).extend({
  id: z.string(),
  uid: z.number().int(),
  chainId: z.string(),
  chainName: z.string(),
  currencyName: z.string(),
  failureReason: z.string(),
  failureReasonMsg: z.string().nullable(),
  addressRemark: z.string().nullable(),
  cancelType: z.enum(['CANCELABLE', 'CANCELING', 'NON_CANCELABLE']),
  taxes: z.unknown().nullable().optional(),
  taxDescription: z.string().nullable().optional(),
  returnStatus: z.string().nullable().optional(),
  returnAmount: DecimalString.nullable().optional(),
  returnCurrency: z.string().nullable().optional(),
});
/** Type of {@link WithdrawalDetail}. */
export type WithdrawalDetail = z.infer<typeof WithdrawalDetail>;

/** Status of a V1 (pre-2019) deposit or withdrawal: PROCESSING, SUCCESS, FAILURE. */
export const HistStatus = z.enum(['PROCESSING', 'SUCCESS', 'FAILURE']);

/**
 * Query of GET /api/v1/hist-deposits and /api/v1/hist-withdrawals: optional `currency`, `status`,
 * `startAt`/`endAt` (KuCoin documents ms; ccxt sends `startAt` in seconds — both are accepted, as
 * bounds of the same records), `currentPage`, `pageSize` (10..500).
 */
export const HistQuery = timeRange({ currency: z.string().min(1).optional(), status: HistStatus.optional(), ...paging });
/** Input type of {@link HistQuery}. */
export type HistQuery = z.input<typeof HistQuery>;

/** One V1 deposit of GET /api/v1/hist-deposits: `createAt` in SECONDS (as KuCoin's V1 records), amount a decimal string. */
export const HistDepositItem = z.object({
  currency: z.string(),
  createAt: z.number().int(),
  amount: DecimalString,
  walletTxId: z.string(),
  isInner: z.boolean(),
  status: HistStatus,
});
/** Type of {@link HistDepositItem}. */
export type HistDepositItem = z.infer<typeof HistDepositItem>;
/** GET /api/v1/hist-deposits `data`: a page of {@link HistDepositItem}. */
export const HistDepositPage = pageOf(HistDepositItem);
/** Type of {@link HistDepositPage}. */
export type HistDepositPage = z.infer<typeof HistDepositPage>;

/** One V1 withdrawal of GET /api/v1/hist-withdrawals: a {@link HistDepositItem} with its destination `address`. */
export const HistWithdrawalItem = HistDepositItem.extend({ address: z.string() });
/** Type of {@link HistWithdrawalItem}. */
export type HistWithdrawalItem = z.infer<typeof HistWithdrawalItem>;
/** GET /api/v1/hist-withdrawals `data`: a page of {@link HistWithdrawalItem}. */
export const HistWithdrawalPage = pageOf(HistWithdrawalItem);
/** Type of {@link HistWithdrawalPage}. */
export type HistWithdrawalPage = z.infer<typeof HistWithdrawalPage>;
