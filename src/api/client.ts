/**
 * `SpotClient`: the typed client of the spot exchange API, one method per endpoint of the table
 * (`./endpoints`), each a call of the machinery in ./clientCore.ts (validation, signing, rate limits,
 * retries, envelopes: its module doc), plus the iterators over paged lists.
 */
import type { ParamsOf, ResponseOf } from './endpoints';
import { ApiError, TransportError, ValidationError } from './errors';
import type {
  AnnouncementsQuery,
  CandlesQuery,
  DepositItem,
  DepositsQuery,
  DoneOrdersQuery,
  FillsQuery,
  HfFill,
  HfLedgerEntry,
  HfLedgersQuery,
  HfOrder,
  HistQuery,
  LedgerEntry,
  LedgersQuery,
  WithdrawalItem,
  WithdrawalsQuery,
} from './schemas';
import { SpotClientCore } from './clientCore';

export {
  RESIGN_AFTER_QUEUE_MS,
  SpotClientCore,
  type MoneyGuard,
  type MoneyRequest,
  type PreparedRequest,
  type PrepareOptions,
  type RequestLogEntry,
  type SendResult,
  type SigningExperiment,
  type SpotClientOptions,
} from './clientCore';

/** The typed API client (see module docstring; the call machinery: {@link SpotClientCore}). */
export class SpotClient extends SpotClientCore {
  // -------------------------------------------------------------------------------------------
  // One typed method per endpoint (all through the table)
  // -------------------------------------------------------------------------------------------

  /** Level-2 snapshot, 20 or 100 levels (GET /api/v1/market/orderbook/level2_{20,100}). */
  getLevel2(symbol: string, depth: 20 | 100 = 20): Promise<ResponseOf<'level2_20'>> {
    return depth === 100 ? this.call('level2_100', { symbol }) : this.call('level2_20', { symbol });
  }
  /** One page of HF fills (GET /api/v1/hf/fills); ids are exact strings. */
  getFills(query: FillsQuery): Promise<ResponseOf<'fills'>> {
    return this.call('fills', query);
  }
  /**
   * All HF fills matching `query`, newest first, following `lastId` page by page (limit ≤ 100,
   * default 100). Stops on a short/empty page or when `lastId` does not move.
   */
  iterateFills(query: FillsQuery): AsyncGenerator<HfFill, void, undefined> {
    return byLastId(query, 100, async (p) => {
      const page = await this.getFills({ ...query, ...p });
      return { items: page.items, next: page.lastId };
    });
  }
  /** One HF order (GET /api/v1/hf/orders/{orderId}?symbol=). */
  getOrder(symbol: string, orderId: string): Promise<ResponseOf<'order'>> {
    return this.call('order', { orderId, symbol });
  }
  /** Active HF orders of a pair (GET /api/v1/hf/orders/active). */
  getActiveOrders(symbol: string): Promise<ResponseOf<'activeOrders'>> {
    return this.call('activeOrders', { symbol });
  }
  /** All currencies (GET /api/v3/currencies). */
  getCurrencies(): Promise<ResponseOf<'currencies'>> {
    return this.call('currencies', {});
  }
  /** One currency, optionally one chain (GET /api/v3/currencies/{currency}?chain=). */
  getCurrency(currency: string, chain?: string): Promise<ResponseOf<'currency'>> {
    return this.call('currency', { currency, chain });
  }
  /** Base fee rates; currencyType "0" crypto (default) or "1" fiat (GET /api/v1/base-fee). */
  getBaseFee(currencyType?: '0' | '1'): Promise<ResponseOf<'baseFee'>> {
    return this.call('baseFee', { currencyType });
  }
  /** Fiat prices (GET /api/v1/prices). */
  getPrices(opts: { base?: string; currencies?: string[] | string } = {}): Promise<ResponseOf<'prices'>> {
    const currencies = Array.isArray(opts.currencies) ? opts.currencies.join(',') : opts.currencies;
    return this.call('prices', { base: opts.base, currencies });
  }
  /** Accounts (GET /api/v1/accounts). */
  getAccounts(filter: { currency?: string; type?: 'main' | 'trade' } = {}): Promise<ResponseOf<'accounts'>> {
    return this.call('accounts', filter);
  }
  /** Validate an order without creating it (POST /api/v1/hf/orders/test). */
  testOrder(order: ParamsOf<'testOrder'>): Promise<ResponseOf<'testOrder'>> {
    return this.call('testOrder', order);
  }
  /** Place an HF order (POST /api/v1/hf/orders). Never retried automatically. */
  placeOrder(order: ParamsOf<'placeOrder'>): Promise<ResponseOf<'placeOrder'>> {
    return this.call('placeOrder', order);
  }
  /** Cancel an HF order (DELETE /api/v1/hf/orders/{orderId}?symbol=). */
  cancelOrder(symbol: string, orderId: string): Promise<ResponseOf<'cancelOrder'>> {
    return this.call('cancelOrder', { orderId, symbol });
  }
  /** Cancel all HF orders of a pair (DELETE /api/v1/hf/orders?symbol=). */
  cancelAllOrders(symbol: string): Promise<ResponseOf<'cancelAllOrders'>> {
    return this.call('cancelAllOrders', { symbol });
  }
  /** Create a deposit address, V1 (POST /api/v1/deposit-addresses). */
  createDepositAddress(req: ParamsOf<'depositAddress'>): Promise<ResponseOf<'depositAddress'>> {
    return this.call('depositAddress', req);
  }
  /** Create a deposit address, V3 (POST /api/v3/deposit-address/create). */
  createDepositAddressV3(req: ParamsOf<'depositAddressV3'>): Promise<ResponseOf<'depositAddressV3'>> {
    return this.call('depositAddressV3', req);
  }
  /**
   * The deposit addresses the user already has for `currency`, optionally one `chain` (chain id,
   * e.g. `trx`), oldest first; `[]` when none was created (GET /api/v2/deposit-addresses).
   * Use it after a create answered "already exists" (260000).
   */
  getDepositAddresses(currency: string, chain?: string): Promise<ResponseOf<'depositAddressesV2'>> {
    return this.call('depositAddressesV2', { currency, chain });
  }
  /** Withdraw, V1 (POST /api/v1/withdrawals). Never retried automatically. */
  withdrawV1(req: ParamsOf<'withdrawV1'>): Promise<ResponseOf<'withdrawV1'>> {
    return this.call('withdrawV1', req);
  }
  /** Withdraw, V3 (POST /api/v3/withdrawals). Never retried automatically. */
  withdrawV3(req: ParamsOf<'withdrawV3'>): Promise<ResponseOf<'withdrawV3'>> {
    return this.call('withdrawV3', req);
  }
  /** Withdraw, V4 (POST /api/v4/withdrawals). Never retried automatically. */
  withdrawV4(req: ParamsOf<'withdrawV4'>): Promise<ResponseOf<'withdrawV4'>> {
    return this.call('withdrawV4', req);
  }
  /** Market names (GET /api/v1/markets). */
  getMarkets(): Promise<ResponseOf<'markets'>> {
    return this.call('markets', {});
  }
  /** Service status (GET /api/v1/status). */
  getStatus(): Promise<ResponseOf<'status'>> {
    return this.call('status', {});
  }
  /** Trading pairs, optionally of one market (GET /api/v2/symbols). */
  getSymbols(market?: string): Promise<ResponseOf<'symbols'>> {
    return this.call('symbols', { market });
  }
  /** Server time in ms (GET /api/v1/timestamp). */
  getServerTime(): Promise<number> {
    return this.call('serverTime', {});
  }
  /** All tickers (GET /api/v1/market/allTickers). */
  getAllTickers(): Promise<ResponseOf<'allTickers'>> {
    return this.call('allTickers', {});
  }
  /** Move funds between main and trade (POST /api/v2/accounts/inner-transfer). */
  innerTransfer(req: ParamsOf<'innerTransfer'>): Promise<ResponseOf<'innerTransfer'>> {
    return this.call('innerTransfer', req);
  }
  /** Withdrawal quotas and fees of a currency/chain (GET /api/v1/withdrawals/quotas). */
  getWithdrawalQuotas(currency: string, chain?: string): Promise<ResponseOf<'withdrawalQuotas'>> {
    return this.call('withdrawalQuotas', { currency, chain });
  }
  /** Countries accepted for V4 withdrawal identity (GET /kyc/regions/v4). */
  getRegions(): Promise<ResponseOf<'regions'>> {
    return this.call('regions', {});
  }
  /** Public websocket token (POST /api/v1/bullet-public); use it with `StreamClient` (./stream). */
  getBulletPublic(): Promise<ResponseOf<'bulletPublic'>> {
    return this.call('bulletPublic', {});
  }
  /** Private websocket token bound to the key's user (POST /api/v1/bullet-private, General permission). */
  getBulletPrivate(): Promise<ResponseOf<'bulletPrivate'>> {
    return this.call('bulletPrivate', {});
  }

  // --- KuCoin endpoints beyond the spec (what real bots and clients call: documented by KuCoin, not in the spec) ---

  /** Account mode: `selfAccountMode` CLASSIC or UNIFIED (GET /api/ua/v1/account/mode). */
  getAccountMode(): Promise<ResponseOf<'accountMode'>> {
    return this.call('accountMode', {});
  }
  /** Whether the spot account is high-frequency (GET /api/v1/hf/accounts/opened). */
  isHfAccount(): Promise<boolean> {
    return this.call('hfAccountOpened', {});
  }
  /** Cross-margin symbols (GET /api/v3/margin/symbols). */
  getMarginSymbols(symbol?: string): Promise<ResponseOf<'marginSymbols'>> {
    return this.call('marginSymbols', { symbol });
  }
  /** Isolated-margin symbols (GET /api/v1/isolated/symbols). */
  getIsolatedSymbols(): Promise<ResponseOf<'isolatedSymbols'>> {
    return this.call('isolatedSymbols', {});
  }
  /** Active futures contracts (GET /api/v1/contracts/active, on the futures host of a real KuCoin). */
  getFuturesContracts(): Promise<ResponseOf<'futuresContracts'>> {
    return this.call('futuresContracts', {});
  }
  /** 24 h statistics of a pair (GET /api/v1/market/stats). */
  getStats(symbol: string): Promise<ResponseOf<'stats'>> {
    return this.call('stats', { symbol });
  }
  /** Best bid/ask and the last trade of a pair (GET /api/v1/market/orderbook/level1). */
  getLevel1(symbol: string): Promise<ResponseOf<'level1'>> {
    return this.call('level1', { symbol });
  }
  /** The last 100 public trades of a pair, oldest first; `time` in ns as an exact string (GET /api/v1/market/histories). */
  getTradeHistory(symbol: string): Promise<ResponseOf<'tradeHistory'>> {
    return this.call('tradeHistory', { symbol });
  }
  /**
   * Candles, newest first, at most 1500: `[start (s), open, close, high, low, volume, turnover]`
   * (GET /api/v1/market/candles; `startAt`/`endAt` in seconds). Page back in time with `endAt`.
   */
  getCandles(query: CandlesQuery): Promise<ResponseOf<'candles'>> {
    return this.call('candles', query);
  }
  /** The full order book, signed (GET /api/v3/market/orderbook/level2). */
  getFullOrderBook(symbol: string): Promise<ResponseOf<'level2Full'>> {
    return this.call('level2Full', { symbol });
  }
  /** One page of done HF orders, newest first (GET /api/v1/hf/orders/done). */
  getDoneOrders(query: DoneOrdersQuery): Promise<ResponseOf<'doneOrders'>> {
    return this.call('doneOrders', query);
  }
  /**
   * All done HF orders matching `query`, newest first, following `lastId` page by page (limit ≤ 100,
   * default 100). Stops on a short or empty page or when `lastId` does not move.
   */
  iterateDoneOrders(query: DoneOrdersQuery): AsyncGenerator<HfOrder, void, undefined> {
    return byLastId(query, 100, async (p) => {
      const page = await this.getDoneOrders({ ...query, ...p });
      return { items: page.items, next: page.lastId };
    });
  }
  /** One HF order by clientOid (GET /api/v1/hf/orders/client-order/{clientOid}?symbol=). */
  getOrderByClientOid(symbol: string, clientOid: string): Promise<ResponseOf<'orderByClientOid'>> {
    return this.call('orderByClientOid', { clientOid, symbol });
  }
  /** Cancel an HF order by clientOid (DELETE /api/v1/hf/orders/client-order/{clientOid}?symbol=). Never retried. */
  cancelOrderByClientOid(symbol: string, clientOid: string): Promise<ResponseOf<'cancelOrderByClientOid'>> {
    return this.call('cancelOrderByClientOid', { clientOid, symbol });
  }
  /** The pairs with active HF orders (GET /api/v1/hf/orders/active/symbols). */
  async getActiveOrderSymbols(): Promise<string[]> {
    return (await this.call('activeOrderSymbols', {})).symbols;
  }

  // --- stop and OCO orders (KuCoin /api/v1/stop-order, /api/v3/oco; schemas src/api/schemas/advancedOrders.ts)

  /** Place a stop order (POST /api/v1/stop-order): it waits for `stopPrice` (`stop` loss: at or below, entry: at or above; default loss). */
  placeStopOrder(req: ParamsOf<'stopOrderPlace'>): Promise<ResponseOf<'stopOrderPlace'>> {
    return this.call('stopOrderPlace', req);
  }
  /** Cancel a waiting stop order (DELETE /api/v1/stop-order/{orderId}); an OCO leg's id cancels its OCO order. @returns the cancelled ids. */
  async cancelStopOrder(orderId: string): Promise<string[]> {
    return (await this.call('stopOrderCancel', { orderId })).cancelledOrderIds;
  }
  /** Cancel the waiting stop order of a clientOid (DELETE /api/v1/stop-order/cancelOrderByClientOid). */
  cancelStopOrderByClientOid(clientOid: string, symbol?: string): Promise<ResponseOf<'stopOrderCancelByClientOid'>> {
    return this.call('stopOrderCancelByClientOid', { clientOid, symbol });
  }
  /** Cancel waiting stop orders: all, of `symbol`, or `orderIds` (comma-separated) (DELETE /api/v1/stop-order/cancel). @returns the cancelled ids. */
  async cancelStopOrders(query: ParamsOf<'stopOrderCancelBatch'> = {}): Promise<string[]> {
    return (await this.call('stopOrderCancelBatch', query)).cancelledOrderIds;
  }
  /** One page of waiting stop orders, newest first (GET /api/v1/stop-order). */
  getStopOrders(query: ParamsOf<'stopOrders'> = {}): Promise<ResponseOf<'stopOrders'>> {
    return this.call('stopOrders', query);
  }
  /** One stop order (GET /api/v1/stop-order/{orderId}). */
  getStopOrder(orderId: string): Promise<ResponseOf<'stopOrder'>> {
    return this.call('stopOrder', { orderId });
  }
  /** The stop orders of a clientOid (GET /api/v1/stop-order/queryOrderByClientOid). */
  getStopOrdersByClientOid(clientOid: string, symbol?: string): Promise<ResponseOf<'stopOrderByClientOid'>> {
    return this.call('stopOrderByClientOid', { clientOid, symbol });
  }
  /** Place an OCO order (POST /api/v3/oco/order): a limit leg at `price` and a stop leg (`stopPrice` → `limitPrice`). */
  placeOcoOrder(req: ParamsOf<'ocoPlace'>): Promise<ResponseOf<'ocoPlace'>> {
    return this.call('ocoPlace', req);
  }
  /** Cancel an OCO order (DELETE /api/v3/oco/order/{orderId}). @returns its legs' ids. */
  async cancelOcoOrder(orderId: string): Promise<string[]> {
    return (await this.call('ocoCancel', { orderId })).cancelledOrderIds;
  }
  /** Cancel an OCO order by clientOid (DELETE /api/v3/oco/client-order/{clientOid}). @returns its legs' ids. */
  async cancelOcoOrderByClientOid(clientOid: string): Promise<string[]> {
    return (await this.call('ocoCancelByClientOid', { clientOid })).cancelledOrderIds;
  }
  /** Cancel OCO orders: `orderIds`, else all of `symbol`, else all (DELETE /api/v3/oco/orders). @returns the legs' ids. */
  async cancelOcoOrders(query: ParamsOf<'ocoCancelBatch'> = {}): Promise<string[]> {
    return (await this.call('ocoCancelBatch', query)).cancelledOrderIds;
  }
  /** One OCO order (GET /api/v3/oco/order/{orderId}). */
  getOcoOrder(orderId: string): Promise<ResponseOf<'ocoOrder'>> {
    return this.call('ocoOrder', { orderId });
  }
  /** One OCO order by clientOid (GET /api/v3/oco/client-order/{clientOid}). */
  getOcoOrderByClientOid(clientOid: string): Promise<ResponseOf<'ocoOrderByClientOid'>> {
    return this.call('ocoOrderByClientOid', { clientOid });
  }
  /** One OCO order with its two legs (GET /api/v3/oco/order/details/{orderId}). */
  getOcoOrderDetail(orderId: string): Promise<ResponseOf<'ocoOrderDetail'>> {
    return this.call('ocoOrderDetail', { orderId });
  }
  /** One page of OCO orders, newest first (GET /api/v3/oco/orders). */
  getOcoOrders(query: ParamsOf<'ocoOrders'> = {}): Promise<ResponseOf<'ocoOrders'>> {
    return this.call('ocoOrders', query);
  }
  /** The user's fee rates of 1 to 10 pairs (GET /api/v1/trade-fees?symbols=). */
  getTradeFees(symbols: readonly string[]): Promise<ResponseOf<'tradeFees'>> {
    return this.call('tradeFees', { symbols: symbols.join(',') });
  }
  /** The deposit address of a currency (and chain), or null when none was created (GET /api/v1/deposit-addresses). */
  getDepositAddress(currency: string, chain?: string): Promise<ResponseOf<'depositAddressV1'>> {
    return this.call('depositAddressV1', { currency, chain });
  }
  /** One page of the deposit history, newest first (GET /api/v1/deposits). */
  getDeposits(query: DepositsQuery = {}): Promise<ResponseOf<'deposits'>> {
    return this.call('deposits', query);
  }
  /** Every deposit matching `query`, newest first, page after page (pageSize default 100). */
  iterateDeposits(query: DepositsQuery = {}): AsyncGenerator<DepositItem, void, undefined> {
    return pages((p) => this.getDeposits({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** One page of the withdrawal history, newest first (GET /api/v1/withdrawals). */
  getWithdrawals(query: WithdrawalsQuery = {}): Promise<ResponseOf<'withdrawals'>> {
    return this.call('withdrawals', query);
  }
  /** Every withdrawal matching `query`, newest first, page after page (pageSize default 100). */
  iterateWithdrawals(query: WithdrawalsQuery = {}): AsyncGenerator<WithdrawalItem, void, undefined> {
    return pages((p) => this.getWithdrawals({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** Cancel a withdrawal that is still processing; its hold is released (DELETE /api/v1/withdrawals/{withdrawalId}). Never retried. */
  async cancelWithdrawal(withdrawalId: string): Promise<void> {
    await this.call('cancelWithdrawal', { withdrawalId });
  }
  /** Move funds between accounts with a flex transfer (POST /api/v3/accounts/universal-transfer). Never retried. */
  universalTransfer(req: ParamsOf<'universalTransfer'>): Promise<ResponseOf<'universalTransfer'>> {
    return this.call('universalTransfer', req);
  }
  /** Transferable balance of an account (GET /api/v1/accounts/transferable; `type` MAIN, TRADE or TRADE_HF). */
  getTransferable(currency: string, type: 'MAIN' | 'TRADE' | 'TRADE_HF'): Promise<ResponseOf<'transferable'>> {
    return this.call('transferable', { currency, type });
  }
  /** One page of the main/trade account ledger, newest first (GET /api/v1/accounts/ledgers). */
  getLedgers(query: LedgersQuery = {}): Promise<ResponseOf<'ledgers'>> {
    return this.call('ledgers', query);
  }
  /** Every ledger entry matching `query`, newest first, page after page (pageSize default 100). */
  iterateLedgers(query: LedgersQuery = {}): AsyncGenerator<LedgerEntry, void, undefined> {
    return pages((p) => this.getLedgers({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** One page of the trade_hf account ledger, newest first (GET /api/v1/hf/accounts/ledgers). */
  getHfLedgers(query: HfLedgersQuery = {}): Promise<ResponseOf<'hfLedgers'>> {
    return this.call('hfLedgers', query);
  }
  /** Every trade_hf ledger entry matching `query`, newest first, following `lastId` (limit default 200). */
  iterateHfLedgers(query: HfLedgersQuery = {}): AsyncGenerator<HfLedgerEntry, void, undefined> {
    return byLastId(query, 200, async (p) => {
      const page = await this.getHfLedgers({ ...query, ...p });
      // the list has no cursor field: the next page is the entries below the last one's id
      return { items: page, next: page.length > 0 ? page[page.length - 1].id : null };
    });
  }

  // --- market/reference, account and funding beyond the spec (KuCoin docs-new) ---

  /** One trading pair and its increments (GET /api/v2/symbols/{symbol}); 900001 for an unknown pair. */
  getSymbol(symbol: string): Promise<ResponseOf<'symbol'>> {
    return this.call('symbol', { symbol });
  }
  /** One currency with its chains, V2 path (GET /api/v2/currencies/{currency}; only `chain` when given). */
  getCurrencyV2(currency: string, chain?: string): Promise<ResponseOf<'currencyV2'>> {
    return this.call('currencyV2', { currency, chain });
  }
  /** One page of the exchange's announcements, newest first (GET /api/v3/announcements). */
  getAnnouncements(query: AnnouncementsQuery = {}): Promise<ResponseOf<'announcements'>> {
    return this.call('announcements', query);
  }
  /** The IP address the exchange sees for this client (GET /api/v1/my-ip). */
  getMyIp(): Promise<string> {
    return this.call('myIp', {});
  }
  /** The call-auction order book of a pair, 20 or 100 levels (GET /api/v1/market/orderbook/callauction/level2_{size}). */
  getCallAuctionBook(symbol: string, size: 20 | 100 = 20): Promise<ResponseOf<'callAuctionLevel2_20'>> {
    return this.call(size === 100 ? 'callAuctionLevel2_100' : 'callAuctionLevel2_20', { symbol });
  }
  /** The call-auction estimates of a pair; null estimates when it trades continuously (GET /api/v1/market/callauctionData). */
  getCallAuctionInfo(symbol: string): Promise<ResponseOf<'callAuctionInfo'>> {
    return this.call('callAuctionInfo', { symbol });
  }
  /** One of the user's accounts by id (GET /api/v1/accounts/{accountId}). */
  getAccountDetail(accountId: string): Promise<ResponseOf<'accountDetail'>> {
    return this.call('accountDetail', { accountId });
  }
  /** The account summary: VIP level and sub-account counts (GET /api/v2/user-info). */
  getUserInfo(): Promise<ResponseOf<'userInfo'>> {
    return this.call('userInfo', {});
  }
  /** The calling key's permissions, IP whitelist and version (GET /api/v1/user/api-key). */
  getApiKeyInfo(): Promise<ResponseOf<'apiKeyInfo'>> {
    return this.call('apiKeyInfo', {});
  }
  /** Every deposit address of a currency (of a chain when given), V3 (GET /api/v3/deposit-addresses). */
  getDepositAddressesV3(currency: string, chain?: string): Promise<ResponseOf<'depositAddressesV3'>> {
    return this.call('depositAddressesV3', { currency, chain });
  }
  /** One withdrawal by id, with its status and fee (GET /api/v1/withdrawals/{withdrawalId}). */
  getWithdrawal(withdrawalId: string): Promise<ResponseOf<'withdrawal'>> {
    return this.call('withdrawal', { withdrawalId });
  }
  /** One page of the V1 deposit history (before 2019-02-18; GET /api/v1/hist-deposits). */
  getHistDeposits(query: HistQuery = {}): Promise<ResponseOf<'histDeposits'>> {
    return this.call('histDeposits', query);
  }
  /** One page of the V1 withdrawal history (before 2019-02-18; GET /api/v1/hist-withdrawals). */
  getHistWithdrawals(query: HistQuery = {}): Promise<ResponseOf<'histWithdrawals'>> {
    return this.call('histWithdrawals', query);
  }

  // --- HF order variants (KuCoin spot "Pro account"; rows hf* of the endpoint table) -------------------

  /** Place an HF order and get it back after matching (POST /api/v1/hf/orders/sync). */
  placeOrderSync(order: ParamsOf<'hfPlaceOrderSync'>): Promise<ResponseOf<'hfPlaceOrderSync'>> {
    return this.call('hfPlaceOrderSync', order);
  }
  /** Place up to 5 HF orders, each on its own pair; a refused one fails alone (POST /api/v1/hf/orders/multi). */
  placeOrders(orderList: ParamsOf<'hfPlaceMulti'>['orderList']): Promise<ResponseOf<'hfPlaceMulti'>> {
    return this.call('hfPlaceMulti', { orderList });
  }
  /** {@link placeOrders}, each placed order back after matching (POST /api/v1/hf/orders/multi/sync). */
  placeOrdersSync(orderList: ParamsOf<'hfPlaceMultiSync'>['orderList']): Promise<ResponseOf<'hfPlaceMultiSync'>> {
    return this.call('hfPlaceMultiSync', { orderList });
  }
  /** Cancel an HF order and get its final sizes (DELETE /api/v1/hf/orders/sync/{orderId}?symbol=). */
  cancelOrderSync(symbol: string, orderId: string): Promise<ResponseOf<'hfCancelOrderSync'>> {
    return this.call('hfCancelOrderSync', { orderId, symbol });
  }
  /** Cancel an HF order by clientOid and get its final sizes (DELETE /api/v1/hf/orders/sync/client-order/{clientOid}?symbol=). */
  cancelOrderByClientOidSync(symbol: string, clientOid: string): Promise<ResponseOf<'hfCancelByClientOidSync'>> {
    return this.call('hfCancelByClientOidSync', { clientOid, symbol });
  }
  /** Cancel `cancelSize` (decimal string) of an HF order; it keeps its queue place (DELETE /api/v1/hf/orders/cancel/{orderId}). */
  cancelPartialOrder(symbol: string, orderId: string, cancelSize: string): Promise<ResponseOf<'hfCancelPartial'>> {
    return this.call('hfCancelPartial', { orderId, symbol, cancelSize });
  }
  /** Cancel every HF order of every pair (DELETE /api/v1/hf/orders/cancelAll): `{succeedSymbols, failedSymbols}`. */
  cancelAllOrdersOfAllSymbols(): Promise<ResponseOf<'hfCancelAllSymbols'>> {
    return this.call('hfCancelAllSymbols', {});
  }
  /**
   * Modify an HF order (POST /api/v1/hf/orders/alter): KuCoin cancels it and places a new order, whose id
   * comes back as `newOrderId` (null when `newSize` is not above the dealt size: only cancelled).
   */
  alterOrder(req: ParamsOf<'hfAlterOrder'>): Promise<ResponseOf<'hfAlterOrder'>> {
    return this.call('hfAlterOrder', req);
  }
  /** One page of the active HF orders of a pair, newest first (GET /api/v1/hf/orders/active/page). */
  getActiveOrdersPage(query: ParamsOf<'hfActiveOrdersPage'>): Promise<ResponseOf<'hfActiveOrdersPage'>> {
    return this.call('hfActiveOrdersPage', query);
  }
  /**
   * Set (`timeout` 5..86400 s), renew or unset (−1) the dead-man's switch over `symbols` (none: every pair)
   * (POST /api/v1/hf/orders/dead-cancel-all): `{currentTime, triggerTime}` in seconds.
   */
  setDeadCancel(timeout: number, symbols: readonly string[] = []): Promise<ResponseOf<'hfSetDeadCancel'>> {
    return this.call('hfSetDeadCancel', { timeout, ...(symbols.length > 0 ? { symbols: symbols.join(',') } : {}) });
  }
  /** The dead-man's switch, or null when none is set (GET /api/v1/hf/orders/dead-cancel-all/query). */
  getDeadCancel(): Promise<ResponseOf<'hfGetDeadCancel'>> {
    return this.call('hfGetDeadCancel', {});
  }

  // --- the classic (low-frequency) order API (rows classic* of the endpoint table) -------------------

  /** Place an order through the classic API (POST /api/v1/orders; clientOid required). */
  placeClassicOrder(order: ParamsOf<'classicPlaceOrder'>): Promise<ResponseOf<'classicPlaceOrder'>> {
    return this.call('classicPlaceOrder', order);
  }
  /** Validate an order through the classic API; nothing is created (POST /api/v1/orders/test). */
  testClassicOrder(order: ParamsOf<'classicTestOrder'>): Promise<ResponseOf<'classicTestOrder'>> {
    return this.call('classicTestOrder', order);
  }
  /** Place up to 5 orders of one pair through the classic API (POST /api/v1/orders/multi). */
  placeClassicOrders(symbol: string, orderList: ParamsOf<'classicPlaceMulti'>['orderList']): Promise<ResponseOf<'classicPlaceMulti'>> {
    return this.call('classicPlaceMulti', { symbol, orderList });
  }
  /** One page of orders, active or done (GET /api/v1/orders). */
  getClassicOrders(query: ParamsOf<'classicOrders'> = {}): Promise<ResponseOf<'classicOrders'>> {
    return this.call('classicOrders', query);
  }
  /** The orders of the last 24 h, at most 1000 (GET /api/v1/limit/orders). */
  getRecentClassicOrders(): Promise<ResponseOf<'classicRecentOrders'>> {
    return this.call('classicRecentOrders', {});
  }
  /** One order by id, any pair (GET /api/v1/orders/{orderId}). */
  getClassicOrder(orderId: string): Promise<ResponseOf<'classicOrder'>> {
    return this.call('classicOrder', { orderId });
  }
  /** One ACTIVE order by clientOid, any pair (GET /api/v1/order/client-order/{clientOid}). */
  getClassicOrderByClientOid(clientOid: string): Promise<ResponseOf<'classicOrderByClientOid'>> {
    return this.call('classicOrderByClientOid', { clientOid });
  }
  /** Cancel an order by id (DELETE /api/v1/orders/{orderId}): `{cancelledOrderIds}`. */
  cancelClassicOrder(orderId: string): Promise<ResponseOf<'classicCancelOrder'>> {
    return this.call('classicCancelOrder', { orderId });
  }
  /** Cancel an order by clientOid (DELETE /api/v1/order/client-order/{clientOid}). */
  cancelClassicOrderByClientOid(clientOid: string): Promise<ResponseOf<'classicCancelByClientOid'>> {
    return this.call('classicCancelByClientOid', { clientOid });
  }
  /** Cancel every order of `symbol`, or of every pair (DELETE /api/v1/orders): `{cancelledOrderIds}`. */
  cancelAllClassicOrders(query: ParamsOf<'classicCancelAll'> = {}): Promise<ResponseOf<'classicCancelAll'>> {
    return this.call('classicCancelAll', query);
  }
  /** One page of fills (GET /api/v1/fills). */
  getClassicFills(query: ParamsOf<'classicFills'> = {}): Promise<ResponseOf<'classicFills'>> {
    return this.call('classicFills', query);
  }
  /** The fills of the last 24 h, at most 1000 (GET /api/v1/limit/fills). */
  getRecentClassicFills(): Promise<ResponseOf<'classicRecentFills'>> {
    return this.call('classicRecentFills', {});
  }
}


/** Re-exported so that `import { SpotClient, ApiError } from './client'` works. */
export { ApiError, TransportError, ValidationError };

/**
 * Items of a list paged by `lastId` (HF fills, done HF orders, the trade_hf ledger), page by page
 * from `query.lastId`: `get` is asked for `{limit, lastId?}` (limit = `query.limit` capped at
 * `maxLimit`, default `maxLimit`; no `lastId` on the first page unless the query has one) and
 * answers the page's items and the next page's cursor. Stops on a short page, a null cursor, or
 * a cursor that does not move.
 */
async function* byLastId<T>(
  query: { limit?: number | string; lastId?: number | string | bigint },
  maxLimit: number,
  get: (page: { limit: number; lastId?: string }) => Promise<{ items: readonly T[]; next: string | null }>,
): AsyncGenerator<T, void, undefined> {
  const limit = Math.min(maxLimit, Number(query.limit ?? maxLimit));
  let lastId = query.lastId === undefined ? undefined : String(query.lastId);
  for (;;) {
    const page = await get({ limit, ...(lastId !== undefined ? { lastId } : {}) });
    for (const it of page.items) yield it;
    if (page.items.length < limit || page.next === null || page.next === lastId) return;
    lastId = page.next;
  }
}

/** Items of a `currentPage`/`pageSize` list, page by page from `startPage`, until the last page. */
async function* pages<T>(get: (p: { currentPage: number; pageSize: number }) => Promise<{ totalPage: number; items: T[] }>, pageSize: number | string = 100, startPage: number | string = 1): AsyncGenerator<T, void, undefined> {
  for (let currentPage = Number(startPage); ; currentPage++) {
    const page = await get({ currentPage, pageSize: Number(pageSize) });
    for (const it of page.items) yield it;
    if (page.items.length === 0 || currentPage >= page.totalPage) return;
  }
}
