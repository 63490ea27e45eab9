/**
 * Account endpoints beyond the spec: one account by id (GET /api/v1/accounts/{accountId}), the
 * account summary (GET /api/v2/user-info) and the calling key (GET /api/v1/user/api-key). Read-only.
 * Behaviour and codes: docs/sandbox.md "Account".
 */
import { SandboxError } from '../state';
import { callerOf, type RefHandler } from './context';

/**
 * The account summary of every sandbox user: VIP level 0, no sub-accounts, and the sub-account
 * limits of KuCoin's VIP 0 (5 default sub-accounts, no extra ones). Sandbox users cannot create
 * sub-accounts, so the counts stay 0.
 */
export const USER_INFO = Object.freeze({
  level: 0,
  subQuantity: 0,
  spotSubQuantity: 0,
  marginSubQuantity: 0,
  futuresSubQuantity: 0,
  optionSubQuantity: 0,
  maxSubQuantity: 5,
  maxDefaultSubQuantity: 5,
  maxSpotSubQuantity: 0,
  maxMarginSubQuantity: 0,
  maxFuturesSubQuantity: 0,
  maxOptionSubQuantity: 0,
});

/** Handlers of the account rows. */
export const ACCOUNT_HANDLERS: { [N in 'accountDetail' | 'userInfo' | 'apiKeyInfo']: RefHandler<N> } = {
  accountDetail: (ctx) => {
    const uid = callerOf(ctx).uid;
    // only the caller's own accounts: another user's id is as unknown as a made-up one
    const a = ctx.state.exchange.accounts(uid).find((x) => x.id === ctx.params.accountId);
    if (!a) throw new SandboxError('400100', `accountId: ${ctx.params.accountId} is not an account of this user`);
    return { currency: a.currency, balance: a.balance, available: a.available, holds: a.holds };
  },
  userInfo: (ctx) => {
    callerOf(ctx);
    return { ...USER_INFO };
  },
  apiKeyInfo: (ctx) => {
    const u = callerOf(ctx);
    // KuCoin's permission names, comma-separated; the sandbox's keys have no IP whitelist (the field is then absent)
    return { remark: u.label, apiKey: u.apiKey, apiVersion: Number(u.keyVersion), permission: u.permissions.join(','), createdAt: u.createdAt, uid: Number(u.uid), isMaster: true };
  },
};
