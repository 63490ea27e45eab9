/**
 * THE endpoint table: every fact about an endpoint (method, path template, permission, rate-limit
 * pool and weight, parameter schema, response schema, envelope form) lives here and nowhere else.
 * `SpotClient` generates its methods from it and the sandbox server routes with
 * {@link matchEndpoint}.
 *
 * - `permission`: 'public' (no key) | 'General' | 'Spot' (Spot Trading) | 'Transfer' — spec
 *   "Authentication"; endpoints the spec does not list follow KuCoin's docs.
 * - `pool` / `weight`: spec "Limits" ('management' is the spec's "Manage" pool); others per KuCoin.
 * - `params`: for GET/DELETE the schema of the merged path + query parameters (values may be
 *   strings, as parsed from a URL); for POST the schema of the JSON body (path params: none).
 * - `response`: the schema of the payload (`data` of the envelope).
 * - `envelope`: 'standard' = `{code, data}`; 'maybe-bare' = the payload may also arrive without
 *   the envelope (GET /api/v1/accounts as a bare array, level-2 with `sequence/time/bids/asks` at
 *   top level, as the spec shows). The sandbox always answers with the standard envelope.
 */
import type { z } from 'zod';
import * as S from './schemas';
import * as C from './schemas/classicOrders';
import * as H from './schemas/hfOrders';

/**
 * What an endpoint requires (spec "Authentication"): `'public'` (no key) or one permission of a key
 * ({@link S.KeyPermission}: General, Spot = Spot Trading, Transfer). Derived from the one list of key
 * permissions, so the table and the sandbox's users cannot disagree on the names.
 */
export type EndpointPermission = 'public' | S.KeyPermission;
/** Rate-limit pool (spec "Limits"). */
export type Pool = 'public' | 'spot' | 'management';
/** HTTP method used by the API. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** One row of the table. */
export interface EndpointDef {
  method: HttpMethod;
  /** Path template; `{name}` segments are path parameters. */
  path: string;
  permission: EndpointPermission;
  pool: Pool;
  weight: number;
  params: z.ZodType;
  response: z.ZodType;
  envelope: 'standard' | 'maybe-bare';
  /**
   * Optional hot-path validator equivalent to `response` (returns the parsed payload, or undefined
   * to fall back to the zod schema, which remains the validator of record).
   */
  fast?: (payload: unknown) => unknown;
  /** One-line description for UIs (request builder). */
  summary: string;
  /**
   * Set on the endpoints that move money or cancel everything: a placement, a cancel-all, a
   * withdrawal. A client built with a `moneyGuard` asks it before sending any of them.
   */
  moves?: MoneyAction;
}

/** What a money-moving endpoint does ({@link EndpointDef.moves}). */
export type MoneyAction = 'place' | 'cancelAll' | 'withdraw';

function def<const T extends Record<string, EndpointDef>>(t: T): T {
  return t;
}

/** The endpoint table (see module docstring). Keys are stable names used by `SpotClient.prepare`. */
export const ENDPOINTS = def({
  level2_20: { method: 'GET', path: '/api/v1/market/orderbook/level2_20', permission: 'public', pool: 'public', weight: 2, params: S.SymbolQuery, response: S.Level2Book, fast: S.fastLevel2Book, envelope: 'maybe-bare', summary: 'Order book snapshot, 20 levels' },
  level2_100: { method: 'GET', path: '/api/v1/market/orderbook/level2_100', permission: 'public', pool: 'public', weight: 4, params: S.SymbolQuery, response: S.Level2Book, fast: S.fastLevel2Book, envelope: 'maybe-bare', summary: 'Order book snapshot, 100 levels' },
  allTickers: { method: 'GET', path: '/api/v1/market/allTickers', permission: 'public', pool: 'public', weight: 15, params: S.NoParams, response: S.AllTickers, envelope: 'standard', summary: 'All tickers' },
  symbols: { method: 'GET', path: '/api/v2/symbols', permission: 'public', pool: 'public', weight: 4, params: S.SymbolsQuery, response: S.SymbolList, envelope: 'standard', summary: 'Trading pairs and their increments' },
  currencies: { method: 'GET', path: '/api/v3/currencies', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.CurrencyList, envelope: 'standard', summary: 'Currencies with chains' },
  currency: { method: 'GET', path: '/api/v3/currencies/{currency}', permission: 'public', pool: 'public', weight: 3, params: S.CurrencyQuery, response: S.Currency, envelope: 'standard', summary: 'One currency with its chains' },
  prices: { method: 'GET', path: '/api/v1/prices', permission: 'public', pool: 'public', weight: 3, params: S.PricesQuery, response: S.FiatPrices, envelope: 'standard', summary: 'Fiat prices' },
  markets: { method: 'GET', path: '/api/v1/markets', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.MarketList, envelope: 'standard', summary: 'Market names' },
  status: { method: 'GET', path: '/api/v1/status', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.ServiceStatus, envelope: 'standard', summary: 'Service status' },
  serverTime: { method: 'GET', path: '/api/v1/timestamp', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.ServerTime, envelope: 'standard', summary: 'Server time (ms)' },
  /** Shape and weight not in the spec: SpotDesk's documented choice (array of {code, name}, public weight 3). */
  regions: { method: 'GET', path: '/kyc/regions/v4', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.RegionList, envelope: 'standard', summary: 'Countries allowed for V4 withdrawal identity' },
  bulletPublic: { method: 'POST', path: '/api/v1/bullet-public', permission: 'public', pool: 'public', weight: 10, params: S.NoParams, response: S.BulletToken, envelope: 'standard', summary: 'Public websocket token' },

  /** KuCoin "Get Private Token - Spot/Margin": General permission, management pool (KuCoin: weight 10). */
  bulletPrivate: { method: 'POST', path: '/api/v1/bullet-private', permission: 'General', pool: 'management', weight: 10, params: S.NoParams, response: S.BulletToken, envelope: 'standard', summary: 'Private websocket token (bound to the key\'s user)' },

  fills: { method: 'GET', path: '/api/v1/hf/fills', permission: 'General', pool: 'spot', weight: 2, params: S.FillsQuery, response: S.FillsPage, envelope: 'standard', summary: 'HF fills (paged by lastId)' },
  order: { method: 'GET', path: '/api/v1/hf/orders/{orderId}', permission: 'General', pool: 'spot', weight: 2, params: S.OrderPathQuery, response: S.HfOrder, envelope: 'standard', summary: 'One HF order' },
  activeOrders: { method: 'GET', path: '/api/v1/hf/orders/active', permission: 'General', pool: 'spot', weight: 2, params: S.SymbolQuery, response: S.HfOrderList, envelope: 'standard', summary: 'Active HF orders of a pair' },
  baseFee: { method: 'GET', path: '/api/v1/base-fee', permission: 'General', pool: 'spot', weight: 3, params: S.BaseFeeQuery, response: S.BaseFee, envelope: 'standard', summary: 'Base fee rates' },
  testOrder: { method: 'POST', path: '/api/v1/hf/orders/test', permission: 'Spot', pool: 'spot', weight: 1, params: S.PlaceOrderRequest, response: S.PlaceOrderResult, envelope: 'standard', summary: 'Validate an order without placing it' },
  placeOrder: { method: 'POST', path: '/api/v1/hf/orders', permission: 'Spot', pool: 'spot', weight: 1, params: S.PlaceOrderRequest, response: S.PlaceOrderResult, envelope: 'standard', summary: 'Place an HF order', moves: 'place' },
  cancelOrder: { method: 'DELETE', path: '/api/v1/hf/orders/{orderId}', permission: 'Spot', pool: 'spot', weight: 1, params: S.OrderPathQuery, response: S.CancelResult, envelope: 'standard', summary: 'Cancel an HF order' },
  cancelAllOrders: { method: 'DELETE', path: '/api/v1/hf/orders', permission: 'Spot', pool: 'spot', weight: 2, params: S.SymbolQuery, response: S.CancelAllResult, envelope: 'standard', summary: 'Cancel all HF orders of a pair', moves: 'cancelAll' },

  accounts: { method: 'GET', path: '/api/v1/accounts', permission: 'General', pool: 'management', weight: 5, params: S.AccountsQuery, response: S.AccountList, envelope: 'maybe-bare', summary: 'Accounts and balances' },
  innerTransfer: { method: 'POST', path: '/api/v2/accounts/inner-transfer', permission: 'General', pool: 'management', weight: 10, params: S.InnerTransferRequest, response: S.OrderIdResult, envelope: 'standard', summary: 'Move funds between main and trade' },
  depositAddress: { method: 'POST', path: '/api/v1/deposit-addresses', permission: 'General', pool: 'management', weight: 20, params: S.DepositAddressRequest, response: S.DepositAddress, envelope: 'standard', summary: 'Create a deposit address (V1)' },
  depositAddressV3: { method: 'POST', path: '/api/v3/deposit-address/create', permission: 'General', pool: 'management', weight: 20, params: S.DepositAddressRequest, response: S.DepositAddressV3, envelope: 'standard', summary: 'Create a deposit address (V3)' },
  /** KuCoin "Get Deposit Addresses (V2)": General, management pool, weight 5 (kucoin-universal-sdk `getDepositAddressV2`). */
  depositAddressesV2: { method: 'GET', path: '/api/v2/deposit-addresses', permission: 'General', pool: 'management', weight: 5, params: S.DepositAddressesQuery, response: S.DepositAddressList, envelope: 'standard', summary: 'Existing deposit addresses of a currency (V2)' },
  withdrawalQuotas: { method: 'GET', path: '/api/v1/withdrawals/quotas', permission: 'General', pool: 'management', weight: 20, params: S.WithdrawalQuotasQuery, response: S.WithdrawalQuotas, envelope: 'standard', summary: 'Withdrawal quotas and fees' },
  withdrawV1: { method: 'POST', path: '/api/v1/withdrawals', permission: 'Transfer', pool: 'management', weight: 5, params: S.WithdrawalV1Request, response: S.WithdrawalResult, envelope: 'standard', summary: 'Withdraw (V1, address)', moves: 'withdraw' },
  withdrawV3: { method: 'POST', path: '/api/v3/withdrawals', permission: 'Transfer', pool: 'management', weight: 5, params: S.WithdrawalV3Request, response: S.WithdrawalResult, envelope: 'standard', summary: 'Withdraw (V3, toAddress + withdrawType)', moves: 'withdraw' },
  withdrawV4: { method: 'POST', path: '/api/v4/withdrawals', permission: 'Transfer', pool: 'management', weight: 5, params: S.WithdrawalV4Request, response: S.WithdrawalResult, envelope: 'standard', summary: 'Withdraw (V4, with recipient identity)', moves: 'withdraw' },

  // --- KuCoin endpoints beyond the spec that real clients call. Permission, pool and weight
  // from kucoin-universal-sdk 1.3.0's API tables unless said otherwise ('Transfer' is the spec's name
  // of KuCoin's withdrawal permission).
  /** KuCoin unified account "Get Account Mode" (not in the SDK 1.3.0): ccxt 4.5 costs it 60 in a 2000/30 s pool, i.e. weight 30 of the management pool. */
  accountMode: { method: 'GET', path: '/api/ua/v1/account/mode', permission: 'General', pool: 'management', weight: 30, params: S.NoParams, response: S.AccountMode, envelope: 'standard', summary: 'Account mode (classic or unified)' },
  hfAccountOpened: { method: 'GET', path: '/api/v1/hf/accounts/opened', permission: 'General', pool: 'spot', weight: 30, params: S.NoParams, response: S.HfAccountOpened, envelope: 'standard', summary: 'Whether the spot account is high-frequency' },
  marginSymbols: { method: 'GET', path: '/api/v3/margin/symbols', permission: 'public', pool: 'public', weight: 3, params: S.MarginSymbolsQuery, response: S.MarginSymbols, envelope: 'standard', summary: 'Cross-margin symbols (none: spot only)' },
  isolatedSymbols: { method: 'GET', path: '/api/v1/isolated/symbols', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.IsolatedSymbols, envelope: 'standard', summary: 'Isolated-margin symbols (none: spot only)' },
  /** KuCoin futures "Get All Symbols" (futures host; a client pointed at the sandbox asks it here). */
  futuresContracts: { method: 'GET', path: '/api/v1/contracts/active', permission: 'public', pool: 'public', weight: 3, params: S.NoParams, response: S.FuturesContracts, envelope: 'standard', summary: 'Futures contracts (none: spot only)' },
  stats: { method: 'GET', path: '/api/v1/market/stats', permission: 'public', pool: 'public', weight: 15, params: S.SymbolQuery, response: S.Stats24h, envelope: 'standard', summary: '24 h statistics of a pair' },
  level1: { method: 'GET', path: '/api/v1/market/orderbook/level1', permission: 'public', pool: 'public', weight: 2, params: S.SymbolQuery, response: S.Level1, envelope: 'standard', summary: 'Best bid/ask and last trade of a pair' },
  tradeHistory: { method: 'GET', path: '/api/v1/market/histories', permission: 'public', pool: 'public', weight: 3, params: S.SymbolQuery, response: S.TradeHistory, envelope: 'standard', summary: 'The last 100 public trades of a pair' },
  candles: { method: 'GET', path: '/api/v1/market/candles', permission: 'public', pool: 'public', weight: 3, params: S.CandlesQuery, response: S.CandleList, envelope: 'standard', summary: 'Candles (klines), newest first' },
  level2Full: { method: 'GET', path: '/api/v3/market/orderbook/level2', permission: 'General', pool: 'spot', weight: 3, params: S.SymbolQuery, response: S.Level2Book, fast: S.fastLevel2Book, envelope: 'maybe-bare', summary: 'Full order book snapshot (signed)' },
  doneOrders: { method: 'GET', path: '/api/v1/hf/orders/done', permission: 'General', pool: 'spot', weight: 2, params: S.DoneOrdersQuery, response: S.DoneOrdersPage, envelope: 'standard', summary: 'Done HF orders (paged by lastId)' },
  orderByClientOid: { method: 'GET', path: '/api/v1/hf/orders/client-order/{clientOid}', permission: 'General', pool: 'spot', weight: 2, params: S.ClientOidPathQuery, response: S.HfOrder, envelope: 'standard', summary: 'One HF order by clientOid' },
  cancelOrderByClientOid: { method: 'DELETE', path: '/api/v1/hf/orders/client-order/{clientOid}', permission: 'Spot', pool: 'spot', weight: 1, params: S.ClientOidPathQuery, response: S.CancelByClientOidResult, envelope: 'standard', summary: 'Cancel an HF order by clientOid' },
  activeOrderSymbols: { method: 'GET', path: '/api/v1/hf/orders/active/symbols', permission: 'Spot', pool: 'spot', weight: 2, params: S.NoParams, response: S.ActiveOrderSymbols, envelope: 'standard', summary: 'Pairs with active HF orders' },
  tradeFees: { method: 'GET', path: '/api/v1/trade-fees', permission: 'General', pool: 'spot', weight: 3, params: S.TradeFeesQuery, response: S.TradeFeeList, envelope: 'standard', summary: "The user's fee rates of up to 10 pairs" },
  depositAddressV1: { method: 'GET', path: '/api/v1/deposit-addresses', permission: 'General', pool: 'management', weight: 5, params: S.DepositAddressesQuery, response: S.DepositAddressOrNull, envelope: 'standard', summary: 'The deposit address of a currency (V1)' },
  deposits: { method: 'GET', path: '/api/v1/deposits', permission: 'General', pool: 'management', weight: 5, params: S.DepositsQuery, response: S.DepositPage, envelope: 'standard', summary: 'Deposit history (paged)' },
  withdrawals: { method: 'GET', path: '/api/v1/withdrawals', permission: 'General', pool: 'management', weight: 20, params: S.WithdrawalsQuery, response: S.WithdrawalPage, envelope: 'standard', summary: 'Withdrawal history (paged)' },
  cancelWithdrawal: { method: 'DELETE', path: '/api/v1/withdrawals/{withdrawalId}', permission: 'Transfer', pool: 'management', weight: 20, params: S.WithdrawalIdPath, response: S.NullPayload, envelope: 'standard', summary: 'Cancel a processing withdrawal' },
  /** KuCoin "Flex Transfer": the SDK lists the FlexTransfers permission; the sandbox asks General, like the inner transfer (main ↔ trade only). */
  universalTransfer: { method: 'POST', path: '/api/v3/accounts/universal-transfer', permission: 'General', pool: 'management', weight: 4, params: S.UniversalTransferRequest, response: S.OrderIdResult, envelope: 'standard', summary: 'Move funds between main and trade (flex transfer)' },
  transferable: { method: 'GET', path: '/api/v1/accounts/transferable', permission: 'General', pool: 'management', weight: 20, params: S.TransferableQuery, response: S.Transferable, envelope: 'standard', summary: 'Transferable balance of an account' },
  ledgers: { method: 'GET', path: '/api/v1/accounts/ledgers', permission: 'General', pool: 'management', weight: 2, params: S.LedgersQuery, response: S.LedgerPage, envelope: 'standard', summary: 'Account ledger, main and trade (paged)' },
  hfLedgers: { method: 'GET', path: '/api/v1/hf/accounts/ledgers', permission: 'General', pool: 'spot', weight: 2, params: S.HfLedgersQuery, response: S.HfLedgerList, envelope: 'standard', summary: 'Account ledger, trade_hf (paged by lastId)' },

  // --- Market/reference, account and funding endpoints that bots use (KuCoin docs-new; permission, pool
  // and weight from kucoin-universal-sdk 1.3.0's API tables).
  symbol: { method: 'GET', path: '/api/v2/symbols/{symbol}', permission: 'public', pool: 'public', weight: 4, params: S.SymbolPath, response: S.SymbolInfo, envelope: 'standard', summary: 'One trading pair and its increments' },
  /** KuCoin "Get Currency" V2 (the path ccxt's docs point to): the same payload as V3 here. */
  currencyV2: { method: 'GET', path: '/api/v2/currencies/{currency}', permission: 'public', pool: 'public', weight: 3, params: S.CurrencyQuery, response: S.Currency, envelope: 'standard', summary: 'One currency with its chains (V2)' },
  announcements: { method: 'GET', path: '/api/v3/announcements', permission: 'public', pool: 'public', weight: 20, params: S.AnnouncementsQuery, response: S.AnnouncementPage, envelope: 'standard', summary: 'Exchange announcements (paged)' },
  myIp: { method: 'GET', path: '/api/v1/my-ip', permission: 'public', pool: 'public', weight: 0, params: S.NoParams, response: S.ClientIp, envelope: 'standard', summary: 'The IP address the exchange sees' },
  callAuctionLevel2_20: { method: 'GET', path: '/api/v1/market/orderbook/callauction/level2_20', permission: 'public', pool: 'public', weight: 2, params: S.SymbolQuery, response: S.Level2Book, envelope: 'standard', summary: 'Call-auction order book, 20 levels' },
  callAuctionLevel2_100: { method: 'GET', path: '/api/v1/market/orderbook/callauction/level2_100', permission: 'public', pool: 'public', weight: 2, params: S.SymbolQuery, response: S.Level2Book, envelope: 'standard', summary: 'Call-auction order book, 100 levels' },
  callAuctionInfo: { method: 'GET', path: '/api/v1/market/callauctionData', permission: 'public', pool: 'public', weight: 2, params: S.SymbolQuery, response: S.CallAuctionInfo, envelope: 'standard', summary: 'Call-auction estimates of a pair' },
  accountDetail: { method: 'GET', path: '/api/v1/accounts/{accountId}', permission: 'General', pool: 'management', weight: 5, params: S.AccountIdPath, response: S.AccountDetail, envelope: 'standard', summary: 'One account by id' },
  userInfo: { method: 'GET', path: '/api/v2/user-info', permission: 'General', pool: 'management', weight: 20, params: S.NoParams, response: S.UserInfo, envelope: 'standard', summary: 'Account summary (VIP level, sub-accounts)' },
  apiKeyInfo: { method: 'GET', path: '/api/v1/user/api-key', permission: 'General', pool: 'management', weight: 20, params: S.NoParams, response: S.ApiKeyInfo, envelope: 'standard', summary: "The calling key's permissions, IP whitelist and version" },
  depositAddressesV3: { method: 'GET', path: '/api/v3/deposit-addresses', permission: 'General', pool: 'management', weight: 5, params: S.DepositAddressesV3Query, response: S.DepositAddressV3List, envelope: 'standard', summary: 'Existing deposit addresses of a currency (V3)' },
  withdrawal: { method: 'GET', path: '/api/v1/withdrawals/{withdrawalId}', permission: 'General', pool: 'management', weight: 20, params: S.WithdrawalIdPath, response: S.WithdrawalDetail, envelope: 'standard', summary: 'One withdrawal by id' },
  histDeposits: { method: 'GET', path: '/api/v1/hist-deposits', permission: 'General', pool: 'management', weight: 5, params: S.HistQuery, response: S.HistDepositPage, envelope: 'standard', summary: 'Deposits before 2019-02-18 (V1, paged)' },
  histWithdrawals: { method: 'GET', path: '/api/v1/hist-withdrawals', permission: 'General', pool: 'management', weight: 20, params: S.HistQuery, response: S.HistWithdrawalPage, envelope: 'standard', summary: 'Withdrawals before 2019-02-18 (V1, paged)' },
  // --- stop and OCO orders (KuCoin "Add Stop Order" … "Get OCO Order List"): permission, pool and weight from
  // kucoin-universal-sdk 1.3.0's API tables (generate/spot/order/api_order.d.ts); schemas src/api/schemas/advancedOrders.ts
  stopOrderPlace: { method: 'POST', path: '/api/v1/stop-order', permission: 'Spot', pool: 'spot', weight: 1, params: S.StopOrderRequest, response: S.StopOrderResult, envelope: 'standard', summary: 'Place a stop order (waits for its trigger price)', moves: 'place' },
  stopOrderCancel: { method: 'DELETE', path: '/api/v1/stop-order/{orderId}', permission: 'Spot', pool: 'spot', weight: 3, params: S.AdvancedOrderIdPath, response: S.CancelledOrderIds, envelope: 'standard', summary: 'Cancel a stop order' },
  stopOrderCancelByClientOid: { method: 'DELETE', path: '/api/v1/stop-order/cancelOrderByClientOid', permission: 'Spot', pool: 'spot', weight: 5, params: S.StopClientOidQuery, response: S.CancelStopByClientOidResult, envelope: 'standard', summary: 'Cancel a stop order by clientOid' },
  stopOrderCancelBatch: { method: 'DELETE', path: '/api/v1/stop-order/cancel', permission: 'Spot', pool: 'spot', weight: 3, params: S.StopBatchCancelQuery, response: S.CancelledOrderIds, envelope: 'standard', summary: 'Cancel stop orders (all, of a pair, or by ids)', moves: 'cancelAll' },
  stopOrders: { method: 'GET', path: '/api/v1/stop-order', permission: 'General', pool: 'spot', weight: 8, params: S.StopOrdersQuery, response: S.StopOrderPage, envelope: 'standard', summary: 'Waiting stop orders (paged)' },
  stopOrder: { method: 'GET', path: '/api/v1/stop-order/{orderId}', permission: 'General', pool: 'spot', weight: 3, params: S.AdvancedOrderIdPath, response: S.StopOrder, envelope: 'standard', summary: 'One stop order' },
  stopOrderByClientOid: { method: 'GET', path: '/api/v1/stop-order/queryOrderByClientOid', permission: 'General', pool: 'spot', weight: 3, params: S.StopClientOidQuery, response: S.StopOrderList, envelope: 'standard', summary: 'Stop orders of a clientOid' },
  ocoPlace: { method: 'POST', path: '/api/v3/oco/order', permission: 'Spot', pool: 'spot', weight: 2, params: S.OcoOrderRequest, response: S.OcoOrderResult, envelope: 'standard', summary: 'Place an OCO order (take profit + stop loss)', moves: 'place' },
  ocoCancel: { method: 'DELETE', path: '/api/v3/oco/order/{orderId}', permission: 'Spot', pool: 'spot', weight: 3, params: S.AdvancedOrderIdPath, response: S.CancelledOrderIds, envelope: 'standard', summary: 'Cancel an OCO order' },
  ocoCancelByClientOid: { method: 'DELETE', path: '/api/v3/oco/client-order/{clientOid}', permission: 'Spot', pool: 'spot', weight: 3, params: S.OcoClientOidPath, response: S.CancelledOrderIds, envelope: 'standard', summary: 'Cancel an OCO order by clientOid' },
  ocoCancelBatch: { method: 'DELETE', path: '/api/v3/oco/orders', permission: 'Spot', pool: 'spot', weight: 3, params: S.OcoBatchCancelQuery, response: S.CancelledOrderIds, envelope: 'standard', summary: 'Cancel OCO orders (by ids, of a pair, or all)', moves: 'cancelAll' },
  ocoOrder: { method: 'GET', path: '/api/v3/oco/order/{orderId}', permission: 'General', pool: 'spot', weight: 2, params: S.AdvancedOrderIdPath, response: S.OcoOrder, envelope: 'standard', summary: 'One OCO order' },
  ocoOrderByClientOid: { method: 'GET', path: '/api/v3/oco/client-order/{clientOid}', permission: 'General', pool: 'spot', weight: 2, params: S.OcoClientOidPath, response: S.OcoOrder, envelope: 'standard', summary: 'One OCO order by clientOid' },
  ocoOrderDetail: { method: 'GET', path: '/api/v3/oco/order/details/{orderId}', permission: 'General', pool: 'spot', weight: 2, params: S.AdvancedOrderIdPath, response: S.OcoOrderDetail, envelope: 'standard', summary: 'One OCO order with its two legs' },
  ocoOrders: { method: 'GET', path: '/api/v3/oco/orders', permission: 'General', pool: 'spot', weight: 2, params: S.OcoOrdersQuery, response: S.OcoOrderPage, envelope: 'standard', summary: 'OCO orders (paged)' },
  // --- HF order variants and the classic (low-frequency) order API (KuCoin spot). Permission, pool
  // and weight from kucoin-universal-sdk 1.3.0's API tables (spot/order/api_order.d.ts).
  hfPlaceOrderSync: { method: 'POST', path: '/api/v1/hf/orders/sync', permission: 'Spot', pool: 'spot', weight: 1, params: S.PlaceOrderRequest, response: H.PlaceOrderSyncResult, envelope: 'standard', summary: 'Place an HF order and get it back after matching', moves: 'place' },
  hfPlaceMulti: { method: 'POST', path: '/api/v1/hf/orders/multi', permission: 'Spot', pool: 'spot', weight: 1, params: H.BatchOrdersRequest, response: H.BatchOrdersResult, envelope: 'standard', summary: 'Place up to 5 HF orders', moves: 'place' },
  hfPlaceMultiSync: { method: 'POST', path: '/api/v1/hf/orders/multi/sync', permission: 'Spot', pool: 'spot', weight: 1, params: H.BatchOrdersRequest, response: H.BatchOrdersSyncResult, envelope: 'standard', summary: 'Place up to 5 HF orders and get them back after matching', moves: 'place' },
  hfCancelOrderSync: { method: 'DELETE', path: '/api/v1/hf/orders/sync/{orderId}', permission: 'Spot', pool: 'spot', weight: 1, params: H.OrderIdSymbolQuery, response: H.CancelSyncResult, envelope: 'standard', summary: 'Cancel an HF order and get its final sizes' },
  hfCancelByClientOidSync: { method: 'DELETE', path: '/api/v1/hf/orders/sync/client-order/{clientOid}', permission: 'Spot', pool: 'spot', weight: 1, params: H.ClientOidSymbolQuery, response: H.CancelByClientOidSyncResult, envelope: 'standard', summary: 'Cancel an HF order by clientOid and get its final sizes' },
  hfCancelPartial: { method: 'DELETE', path: '/api/v1/hf/orders/cancel/{orderId}', permission: 'Spot', pool: 'spot', weight: 2, params: H.CancelPartialQuery, response: H.CancelPartialResult, envelope: 'standard', summary: 'Cancel part of an HF order (keeps its queue place)' },
  hfCancelAllSymbols: { method: 'DELETE', path: '/api/v1/hf/orders/cancelAll', permission: 'Spot', pool: 'spot', weight: 30, params: S.NoParams, response: H.CancelAllSymbolsResult, envelope: 'standard', summary: 'Cancel every HF order of every pair', moves: 'cancelAll' },
  hfAlterOrder: { method: 'POST', path: '/api/v1/hf/orders/alter', permission: 'Spot', pool: 'spot', weight: 1, params: H.AlterOrderRequest, response: H.AlterOrderResult, envelope: 'standard', summary: 'Modify an HF order (cancel + a new order with a new id)', moves: 'place' },
  hfActiveOrdersPage: { method: 'GET', path: '/api/v1/hf/orders/active/page', permission: 'General', pool: 'spot', weight: 2, params: H.ActiveOrdersPageQuery, response: H.ActiveOrdersPage, envelope: 'standard', summary: 'Active HF orders of a pair, one page' },
  hfSetDeadCancel: { method: 'POST', path: '/api/v1/hf/orders/dead-cancel-all', permission: 'Spot', pool: 'spot', weight: 2, params: H.SetDeadCancelRequest, response: H.SetDeadCancelResult, envelope: 'standard', summary: "Set, renew or unset the dead-man's switch (DCP)" },
  hfGetDeadCancel: { method: 'GET', path: '/api/v1/hf/orders/dead-cancel-all/query', permission: 'Spot', pool: 'spot', weight: 2, params: S.NoParams, response: H.DeadCancelSetting, envelope: 'standard', summary: "The dead-man's switch (DCP) setting" },
  classicPlaceOrder: { method: 'POST', path: '/api/v1/orders', permission: 'Spot', pool: 'spot', weight: 2, params: C.ClassicPlaceOrderRequest, response: C.ClassicPlaceOrderResult, envelope: 'standard', summary: 'Place an order (classic API)', moves: 'place' },
  classicTestOrder: { method: 'POST', path: '/api/v1/orders/test', permission: 'Spot', pool: 'spot', weight: 2, params: C.ClassicPlaceOrderRequest, response: C.ClassicPlaceOrderResult, envelope: 'standard', summary: 'Validate an order without placing it (classic API)' },
  classicPlaceMulti: { method: 'POST', path: '/api/v1/orders/multi', permission: 'Spot', pool: 'spot', weight: 3, params: C.ClassicBatchRequest, response: C.ClassicBatchResult, envelope: 'standard', summary: 'Place up to 5 orders of a pair (classic API)', moves: 'place' },
  classicCancelOrder: { method: 'DELETE', path: '/api/v1/orders/{orderId}', permission: 'Spot', pool: 'spot', weight: 3, params: C.ClassicOrderIdPath, response: C.ClassicCancelResult, envelope: 'standard', summary: 'Cancel an order (classic API)' },
  classicCancelByClientOid: { method: 'DELETE', path: '/api/v1/order/client-order/{clientOid}', permission: 'Spot', pool: 'spot', weight: 3, params: C.ClassicClientOidPath, response: C.ClassicCancelByClientOidResult, envelope: 'standard', summary: 'Cancel an order by clientOid (classic API)' },
  classicCancelAll: { method: 'DELETE', path: '/api/v1/orders', permission: 'Spot', pool: 'spot', weight: 20, params: C.ClassicCancelAllQuery, response: C.ClassicCancelResult, envelope: 'standard', summary: 'Cancel all orders, of a pair or of every pair (classic API)', moves: 'cancelAll' },
  classicOrders: { method: 'GET', path: '/api/v1/orders', permission: 'General', pool: 'spot', weight: 2, params: C.ClassicOrdersQuery, response: C.ClassicOrdersPage, envelope: 'standard', summary: 'Orders, active or done, paged (classic API)' },
  classicRecentOrders: { method: 'GET', path: '/api/v1/limit/orders', permission: 'General', pool: 'spot', weight: 3, params: S.NoParams, response: C.ClassicOrderList, envelope: 'standard', summary: 'Orders of the last 24 h (classic API)' },
  classicOrder: { method: 'GET', path: '/api/v1/orders/{orderId}', permission: 'General', pool: 'spot', weight: 2, params: C.ClassicOrderIdPath, response: C.ClassicOrder, envelope: 'standard', summary: 'One order (classic API)' },
  classicOrderByClientOid: { method: 'GET', path: '/api/v1/order/client-order/{clientOid}', permission: 'General', pool: 'spot', weight: 3, params: C.ClassicClientOidPath, response: C.ClassicOrder, envelope: 'standard', summary: 'One active order by clientOid (classic API)' },
  classicFills: { method: 'GET', path: '/api/v1/fills', permission: 'General', pool: 'spot', weight: 10, params: C.ClassicFillsQuery, response: C.ClassicFillsPage, envelope: 'standard', summary: 'Fills, paged (classic API)' },
  classicRecentFills: { method: 'GET', path: '/api/v1/limit/fills', permission: 'General', pool: 'spot', weight: 20, params: S.NoParams, response: C.ClassicFillList, envelope: 'standard', summary: 'Fills of the last 24 h (classic API)' },
});

/** Name of an endpoint of the table. */
export type EndpointName = keyof typeof ENDPOINTS;
/** Input (caller-side) parameter type of an endpoint. */
export type ParamsOf<N extends EndpointName> = z.input<(typeof ENDPOINTS)[N]['params']>;
/** Parsed payload type of an endpoint. */
export type ResponseOf<N extends EndpointName> = z.output<(typeof ENDPOINTS)[N]['response']>;
/**
 * Parameters of an endpoint as its `params` schema outputs them (`z.output`: defaults applied, query
 * integers as numbers, exact ids as strings): what the sandbox's route handler receives.
 */
export type ParsedParamsOf<N extends EndpointName> = z.output<(typeof ENDPOINTS)[N]['params']>;
/**
 * Payload of an endpoint in the form a server may SEND it: what its `response` schema accepts
 * (`z.input`; e.g. fill ids as JSON numbers, which the client reads back as exact strings). The
 * sandbox's route handlers return this type, so a handler of the wrong shape fails to compile.
 */
export type WireResponseOf<N extends EndpointName> = z.input<(typeof ENDPOINTS)[N]['response']>;

/** Rate-limit quota of a pool: `limit` weight per `windowMs`. */
export interface PoolQuota {
  limit: number;
  windowMs: number;
}

/** Default pool quotas (weight per 30 000 ms): public 2000, spot 4000, management 2000. */
export const POOL_QUOTAS: Readonly<Record<Pool, PoolQuota>> = Object.freeze({
  public: { limit: 2000, windowMs: 30_000 },
  spot: { limit: 4000, windowMs: 30_000 },
  management: { limit: 2000, windowMs: 30_000 },
});

/** Names of the `{param}` segments of a path template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/**
 * Path segments that KuCoin uses right after a templated prefix of the table (key: the prefix) for
 * endpoints the sandbox does not implement. A path parameter never takes one of these values, nor a
 * literal segment that another row has at the same place after the same prefix (`done`, `active`,
 * `client-order`, `test`, `sync`, `multi`, `cancel`, `cancelAll`, `alter`, `dead-cancel-all` …): such a
 * path names an endpoint, not an id, so it answers 404000 ("not found") instead of being read as, say,
 * order id "done". Empty today: every KuCoin sub-resource of the HF orders is a row of the table.
 */
export const KUCOIN_RESERVED_SEGMENTS: Readonly<Record<string, readonly string[]>> = {};

interface Compiled {
  name: EndpointName;
  def: EndpointDef;
  re: RegExp;
  params: string[];
  literal: boolean;
  /** Per path parameter (same order as `params`): values that name an endpoint instead. */
  reserved: ReadonlySet<string>[];
}

/**
 * Literal words that rows of the table have at segment `index` after the same `prefix` segments,
 * plus {@link KUCOIN_RESERVED_SEGMENTS}.
 */
function reservedAt(prefix: string[], index: number): Set<string> {
  const out = new Set(KUCOIN_RESERVED_SEGMENTS[prefix.join('/')] ?? []);
  for (const d of Object.values(ENDPOINTS) as EndpointDef[]) {
    const segs = d.path.split('/');
    if (segs.length <= index || /^\{\w+\}$/.test(segs[index])) continue;
    if (prefix.every((p, i) => segs[i] === p)) out.add(segs[index]);
  }
  return out;
}

const COMPILED: Compiled[] = (Object.keys(ENDPOINTS) as EndpointName[])
  .map((name) => {
    const d: EndpointDef = ENDPOINTS[name];
    const params = pathParamNames(d.path);
    const src = d.path.split(/\{\w+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)');
    const segs = d.path.split('/');
    const reserved = segs.flatMap((seg, i) => (/^\{\w+\}$/.test(seg) ? [reservedAt(segs.slice(0, i), i)] : []));
    return { name, def: d, re: new RegExp(`^${src}/?$`), params, literal: params.length === 0, reserved };
  })
  // literal paths win over templates (GET /api/v1/hf/orders/active vs /api/v1/hf/orders/{orderId})
  .sort((a, b) => Number(b.literal) - Number(a.literal));

/** Result of {@link matchEndpoint}. */
export interface EndpointMatch {
  name: EndpointName;
  endpoint: EndpointDef;
  /** Decoded path parameters, e.g. `{orderId: '6717422bd51c29000775ea03'}`. */
  pathParams: Record<string, string>;
}

/**
 * Resolve `method` + `pathname` (no query string) to an endpoint of the table, with its decoded
 * path parameters. Literal paths take precedence over templated ones. Returns undefined when no
 * endpoint matches (the sandbox answers 404); {@link pathExists} tells a wrong method from an unknown path.
 */
export function matchEndpoint(method: string, pathname: string): EndpointMatch | undefined {
  const m = method.toUpperCase();
  for (const c of COMPILED) {
    if (c.def.method !== m) continue;
    const hit = c.re.exec(pathname);
    if (!hit) continue;
    const pathParams: Record<string, string> = {};
    try {
      c.params.forEach((p, i) => (pathParams[p] = decodeURIComponent(hit[i + 1])));
    } catch {
      return undefined;
    }
    if (c.params.some((p, i) => c.reserved[i].has(pathParams[p]))) continue;
    return { name: c.name, endpoint: c.def, pathParams };
  }
  return undefined;
}

/**
 * True when some endpoint has this path under any method (lets the sandbox answer "method not
 * supported" vs "not found"); a reserved segment in a parameter's place does not count.
 */
export function pathExists(pathname: string): boolean {
  return COMPILED.some((c) => {
    const hit = c.re.exec(pathname);
    if (!hit) return false;
    return !c.params.some((_, i) => {
      let v: string;
      try {
        v = decodeURIComponent(hit[i + 1]);
      } catch {
        return true;
      }
      return c.reserved[i].has(v);
    });
  });
}

/**
 * Split caller params of a GET/DELETE endpoint into the concrete path (path params substituted,
 * percent-encoded) and the remaining query params (insertion order kept).
 * @throws Error when a path parameter is missing.
 */
export function fillPath(template: string, params: Record<string, unknown>): { path: string; query: Record<string, unknown> } {
  const query: Record<string, unknown> = { ...params };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = query[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name} for ${template}`);
    delete query[name];
    return encodeURIComponent(String(v));
  });
  return { path, query };
}
