/**
 * Wire schemas of KuCoin's account endpoints beyond the spec: one account by id
 * (GET /api/v1/accounts/{accountId}), the account summary (GET /api/v2/user-info) and the calling
 * key (GET /api/v1/user/api-key). Shapes from KuCoin's docs-new examples and kucoin-universal-sdk
 * 1.3.0's models (account/account). Conventions: ../schemas.ts (decimal strings, ms times).
 */
import { z } from 'zod';
import { DecimalString, Millis } from './primitives';

/** Path of GET /api/v1/accounts/{accountId}: the account's id (as GET /api/v1/accounts lists it). */
export const AccountIdPath = z.object({ accountId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be an account id (letters and digits)') });

/** GET /api/v1/accounts/{accountId} `data`: the account's currency and balances (balance = available + holds). */
export const AccountDetail = z.object({ currency: z.string(), balance: DecimalString, available: DecimalString, holds: DecimalString });
/** Type of {@link AccountDetail}. */
export type AccountDetail = z.infer<typeof AccountDetail>;

/**
 * GET /api/v2/user-info `data` (KuCoin "Get Account Summary Info"): VIP level and the counts and
 * limits of sub-accounts (all integers).
 */
export const UserInfo = z.object({
  level: z.number().int(),
  subQuantity: z.number().int(),
  spotSubQuantity: z.number().int(),
  marginSubQuantity: z.number().int(),
  futuresSubQuantity: z.number().int(),
  optionSubQuantity: z.number().int(),
  maxSubQuantity: z.number().int(),
  maxDefaultSubQuantity: z.number().int(),
  maxSpotSubQuantity: z.number().int(),
  maxMarginSubQuantity: z.number().int(),
  maxFuturesSubQuantity: z.number().int(),
  maxOptionSubQuantity: z.number().int(),
});
/** Type of {@link UserInfo}. */
export type UserInfo = z.infer<typeof UserInfo>;

/**
 * GET /api/v1/user/api-key `data` (KuCoin "Get Apikey Info"): the calling key's remark, key,
 * version (KC-API-KEY-VERSION as a number), permissions (comma-separated KuCoin names: General,
 * Spot, Margin, Futures, InnerTransfer, Transfer, Earn), IP whitelist (comma-separated; absent when
 * none), creation time (ms), owner uid (a number), whether it is a master account's key, and the
 * sub-account name (sub-account keys only). Never the secret or the passphrase.
 */
export const ApiKeyInfo = z.object({
  remark: z.string(),
  apiKey: z.string(),
  apiVersion: z.number().int(),
  permission: z.string(),
  ipWhitelist: z.string().optional(),
  createdAt: Millis,
  uid: z.number().int(),
  isMaster: z.boolean(),
  subName: z.string().optional(),
});
/** Type of {@link ApiKeyInfo}. */
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;
