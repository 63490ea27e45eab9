/**
 * Wire-shaped types of the sandbox exchange core. Every shape here is DERIVED from the zod wire
 * schemas of src/api/schemas.ts (the single source of truth, spec "Resources and their fields"),
 * through type-only imports: nothing of zod reaches the engine at run time. Where the engine is
 * narrower than the wire (fill ids are JSON numbers, a placement always echoes `clientOid`), the
 * type is the schema's type narrowed, so a field added to a schema shows up here and the compiler
 * points at every engine view that does not produce it yet.
 *
 * Decimal quantities are decimal strings, times are ms.
 */
import type { z } from 'zod';
import type * as S from '../../api/schemas';

/**
 * Symbol trading rules the engine needs: these fields of GET /api/v2/symbols ({@link S.SymbolInfo}),
 * decimal strings. `feeCurrency` may be left out: the core always charges fees in the quote currency.
 */
export type SymbolRules = Pick<
  S.SymbolInfo,
  | 'symbol'
  | 'baseCurrency'
  | 'quoteCurrency'
  | 'baseIncrement'
  | 'priceIncrement'
  | 'quoteIncrement'
  | 'baseMinSize'
  | 'baseMaxSize'
  | 'quoteMinSize'
  | 'quoteMaxSize'
  | 'enableTrading'
> &
  Partial<Pick<S.SymbolInfo, 'feeCurrency'>>;

/** Self-trade prevention mode of an order request ('' = none; DC, CO, CN, CB): {@link S.Stp}. */
export type Stp = z.infer<typeof S.Stp>;
/** Time in force of an order request (GTT uses `cancelAfter`, seconds): {@link S.TimeInForce}. */
export type TimeInForce = z.infer<typeof S.TimeInForce>;

/**
 * Order placement request: the PARSED form of POST /api/v1/hf/orders ({@link S.PlaceOrderRequest}
 * after zod: unknown fields stripped, `cancelAfter: -1` already turned into "absent"). The server
 * checks the schema; the core checks the trading rules.
 */
export type PlaceOrderRequest = S.PlaceOrderRequest;

/** Result of a placement: the new order id (24 lowercase hex chars) and the echoed clientOid ('' when none). */
export type PlaceOrderResult = Required<S.PlaceOrderResult>;

/** HF order record (spec "HF order", {@link S.HfOrder}), every field present. */
export type HfOrder = S.HfOrder;

/**
 * HF fill (spec "HF fill"): the wire form {@link S.HfFill} accepts (`z.input`), with `id` and
 * `tradeId` as the JSON numbers the engine sends (the client reads them back as exact strings).
 */
export type HfFill = z.input<typeof S.HfFill> & { id: number; tradeId: number };

/**
 * Query of GET /api/v1/hf/fills as parsed by {@link S.FillsQuery} (times in ms, `limit` a number),
 * with `lastId` as the engine's numeric fill id.
 */
export type FillsQuery = Omit<z.output<typeof S.FillsQuery>, 'lastId'> & { lastId?: number };

/** Level-2 snapshot ({@link S.Level2Book}): asks low→high, bids high→low, [price, size] decimal strings. */
export type Level2 = S.Level2Book;

/**
 * One public trade (tape), side = taker side. Kept here on purpose: it is the engine's own record
 * for tickers and the market simulation; no endpoint of the table serves it as such.
 */
export interface PublicTrade {
  symbol: string;
  tradeId: number;
  sequence: string;
  price: string;
  size: string;
  side: S.HfFill['side'];
  time: number;
}

/** Account (spec "Account", {@link S.Account}). */
export type Account = S.Account;

/** Account type ({@link S.AccountType}): 'main' | 'trade'. */
export type AccountType = S.AccountType;
