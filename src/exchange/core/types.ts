/**
 * Wire-shaped types of the sandbox exchange core (field names exactly as in the spec,
 * /work/shared/spec/spot-exchange-api.md). Decimal quantities are decimal strings, times are ms.
 */

/** Symbol trading rules (fields as in GET /api/v2/symbols). Decimal strings. */
export interface SymbolRules {
  symbol: string;
  baseCurrency: string;
  quoteCurrency: string;
  baseIncrement: string;
  priceIncrement: string;
  quoteIncrement: string;
  baseMinSize: string;
  baseMaxSize: string;
  quoteMinSize: string;
  quoteMaxSize: string;
  enableTrading: boolean;
  /** Fee currency; the core always charges fees in the quote currency (default = quoteCurrency). */
  feeCurrency?: string;
}

/** Self-trade prevention modes (KuCoin): decrease-and-cancel, cancel oldest, cancel newest, cancel both. */
export type Stp = 'DC' | 'CO' | 'CN' | 'CB';
/** Time in force. GTT uses `cancelAfter` (seconds). */
export type TimeInForce = 'GTC' | 'GTT' | 'IOC' | 'FOK';

/**
 * Order placement request, wire field names of POST /api/v1/hf/orders (types already schema-checked
 * by the server; the core checks the trading rules). Decimals are strings.
 */
export interface PlaceOrderRequest {
  clientOid?: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string;
  size?: string;
  funds?: string;
  timeInForce?: TimeInForce;
  /** GTT expiry in seconds after placement (only with timeInForce GTT). */
  cancelAfter?: number;
  postOnly?: boolean;
  hidden?: boolean;
  iceberg?: boolean;
  visibleSize?: string;
  stp?: Stp | '';
  remark?: string;
  tags?: string;
}

/** Result of a placement: the new order id (24 lowercase hex chars) and the echoed clientOid ('' when none). */
export interface PlaceOrderResult {
  orderId: string;
  clientOid: string;
}

/** HF order record (spec "HF order"), every field present. */
export interface HfOrder {
  id: string;
  symbol: string;
  opType: 'DEAL';
  type: 'limit' | 'market';
  side: 'buy' | 'sell';
  price: string;
  size: string;
  funds: string;
  dealSize: string;
  dealFunds: string;
  cancelledSize: string;
  cancelledFunds: string;
  remainSize: string;
  remainFunds: string;
  fee: string;
  feeCurrency: string;
  stp: string;
  timeInForce: string;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visibleSize: string;
  cancelAfter: number;
  channel: 'API';
  clientOid: string;
  remark: string;
  tags: string;
  active: boolean;
  inOrderBook: boolean;
  cancelExist: boolean;
  createdAt: number;
  lastUpdatedAt: number;
  tradeType: 'TRADE';
}

/** HF fill (spec "HF fill"), every field present. */
export interface HfFill {
  id: number;
  symbol: string;
  tradeId: number;
  orderId: string;
  counterOrderId: string;
  side: 'buy' | 'sell';
  liquidity: 'taker' | 'maker';
  forceTaker: boolean;
  price: string;
  size: string;
  funds: string;
  fee: string;
  feeRate: string;
  feeCurrency: string;
  stop: '';
  tradeType: 'TRADE';
  type: 'limit' | 'market';
  createdAt: number;
}

/** Query of GET /api/v1/hf/fills. Times in ms. */
export interface FillsQuery {
  symbol: string;
  orderId?: string;
  side?: 'buy' | 'sell';
  type?: 'limit' | 'market';
  startAt?: number;
  endAt?: number;
  lastId?: number;
  limit?: number;
}

/** Level-2 snapshot: asks low→high, bids high→low, [price, size] decimal strings. */
export interface Level2 {
  sequence: string;
  time: number;
  bids: [string, string][];
  asks: [string, string][];
}

/** One public trade (tape), side = taker side. */
export interface PublicTrade {
  symbol: string;
  tradeId: number;
  sequence: string;
  price: string;
  size: string;
  side: 'buy' | 'sell';
  time: number;
}

/** Account (spec "Account"). */
export interface Account {
  id: string;
  currency: string;
  type: 'main' | 'trade';
  balance: string;
  available: string;
  holds: string;
}

/** Account type. */
export type AccountType = 'main' | 'trade';
