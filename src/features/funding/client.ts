/**
 * The part of `SpotClient` (src/api/client.ts) the funding feature calls. A structural subset so
 * the commands depend on exactly these endpoints: GET /api/v3/currencies, POST
 * /api/v1/deposit-addresses, GET /api/v2/deposit-addresses, POST /api/v1/withdrawals, POST /api/v4/withdrawals, GET
 * /api/v1/withdrawals/quotas, GET /api/v1/accounts, POST /api/v2/accounts/inner-transfer,
 * GET /kyc/regions/v4.
 */
import type { SpotClient } from '../../api/client';

/** Funding endpoints of the client. */
export type FundingClient = Pick<
  SpotClient,
  'getCurrencies' | 'createDepositAddress' | 'getDepositAddresses' | 'withdrawV1' | 'withdrawV4' | 'getWithdrawalQuotas' | 'getAccounts' | 'innerTransfer' | 'getRegions'
>;
