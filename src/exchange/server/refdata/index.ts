/**
 * The handlers of the market/reference, account and funding rows that bots use beyond the spec
 * (endpoints.ts, "Market/reference, account and funding endpoints"), listed by routes.ts.
 */
import { ACCOUNT_HANDLERS } from './account';
import { FUNDING_HANDLERS } from './funding';
import { MARKET_HANDLERS } from './market';

/** Every handler of this folder, by endpoint name. */
export const REFDATA_HANDLERS = { ...MARKET_HANDLERS, ...ACCOUNT_HANDLERS, ...FUNDING_HANDLERS };
