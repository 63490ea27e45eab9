/**
 * Wire schemas of accounts (spec "Account", "Base fee rates", "Inner transfer"; KuCoin's account
 * endpoints beyond the spec): fee rates, accounts and their types, regions, inner and universal
 * transfers, transfer quotas, the account and HF ledgers, and the account-mode / margin / futures
 * probes ccxt and the official SDK make.
 * Conventions as in src/api/schemas.ts (the index that re-exports this file).
 */
import { z } from 'zod';
import { AccountType, AmountInput, DecimalString, DigitString, ExactId, Millis, NullableDecimal, QueryInt, SymbolString, commaList, pageOf, paging, timeRange } from './primitives';

/** GET /api/v1/base-fee `data` (spec "Base fee rates"): decimal rates. */
export const BaseFee = z.object({ takerFeeRate: DecimalString, makerFeeRate: DecimalString });
/** Type of {@link BaseFee}. */
export type BaseFee = z.infer<typeof BaseFee>;

/**
 * The `type` of an account on the wire: `main`, `trade`, or `trade_hf` — what KuCoin answers for
 * GET /api/v1/accounts?type=trade_hf (the high-frequency spot trading account, which is SpotDesk's
 * and the sandbox's one trade account). Parsed to {@link AccountType}: `trade_hf` comes out as
 * `trade`, so every consumer sees `'main' | 'trade'`.
 */
export const WireAccountType = z.enum(['main', 'trade', 'trade_hf']).transform((t): AccountType => (t === 'trade_hf' ? 'trade' : t));

/** Account (spec "Account"): balances are decimal strings; balance = available + holds; `type` per {@link WireAccountType}. */
export const Account = z.object({
  id: z.string(),
  currency: z.string(),
  type: WireAccountType,
  balance: DecimalString,
  available: DecimalString,
  holds: DecimalString,
});
/** Type of {@link Account}. */
export type Account = z.infer<typeof Account>;
/** GET /api/v1/accounts payload (bare array, or the `data` of an envelope). */
export const AccountList = z.array(Account);

/**
 * GET /kyc/regions/v4 `data` (shape not shown in the spec or fixtures; SpotDesk's documented
 * choice): an array of `{code, name}` where `code` is the ISO 3166-1 alpha-2 value to send as the
 * V4 withdrawal `country` and `name` the display name, e.g. `{code: "TR", name: "Türkiye"}`.
 */
export const Region = z.object({ code: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'), name: z.string() });
/** Type of {@link Region}. */
export type Region = z.infer<typeof Region>;
/** GET /kyc/regions/v4 `data`. */
export const RegionList = z.array(Region);

/**
 * POST /api/v2/accounts/inner-transfer body: move `amount` of `currency` between main and trade.
 * `from`/`to` take `main`, `trade` or `trade_hf` (KuCoin's high-frequency trading account, the same
 * account as `trade` here; ccxt sends it for HF users) and come out as {@link AccountType}.
 */
export const InnerTransferRequest = z
  .object({
    clientOid: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 characters of letters, digits, "_" or "-"'),
    currency: z.string().min(1),
    from: WireAccountType,
    to: WireAccountType,
    amount: AmountInput,
  })
  .superRefine((o, ctx) => {
    if (o.from === o.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must differ from from' });
  });
/** Parsed type of {@link InnerTransferRequest}. */
export type InnerTransferRequest = z.infer<typeof InnerTransferRequest>;

/** Query of GET /api/v1/base-fee: `currencyType` "0" crypto (default) or "1" fiat. */
export const BaseFeeQuery = z.object({ currencyType: z.union([z.literal(0), z.literal(1), z.enum(['0', '1'])]).optional() });

/**
 * The `type` values GET /api/v1/accounts accepts (KuCoin's documented account types: `main`,
 * `trade`, `trade_hf`, `margin`, `isolated`, `pool` (ccxt's "mining"), `option`). SpotDesk's
 * accounts are `main` and `trade` (= `trade_hf`); the others answer an empty list, as KuCoin does
 * for a user without such an account.
 */
export const AccountsQueryType = z.enum(['main', 'trade', 'trade_hf', 'margin', 'isolated', 'pool', 'option']);

/**
 * Query of GET /api/v1/accounts: optional `currency`, `type` ({@link AccountsQueryType}; kept as
 * given, since the answer labels the accounts with the type that was asked for).
 */
export const AccountsQuery = z.object({ currency: z.string().optional(), type: AccountsQueryType.optional() });

// --- account mode and HF probes --------------------------------------------------------------

/**
 * GET /api/ua/v1/account/mode `data` (KuCoin unified account "Get Account Mode"; what ccxt asks
 * first): `selfAccountMode` is `CLASSIC` or `UNIFIED`; the sub-account uid lists per mode. The
 * sandbox answers `{selfAccountMode: "CLASSIC", unifiedSubAccount: [], classicSubAccount: []}`.
 */
export const AccountMode = z.object({
  selfAccountMode: z.string(),
  unifiedSubAccount: z.array(z.string()).optional(),
  classicSubAccount: z.array(z.string()).optional(),
});
/** Type of {@link AccountMode}. */
export type AccountMode = z.infer<typeof AccountMode>;

/** GET /api/v1/hf/accounts/opened `data` (KuCoin "Get Account Type - Spot"): true when the spot account is high-frequency (the sandbox: always). */
export const HfAccountOpened = z.boolean();

/** One cross-margin symbol of GET /api/v3/margin/symbols (KuCoin "Get Symbols - Cross Margin"). */
export const MarginSymbol = z.object({
  symbol: z.string(),
  name: z.string(),
  enableTrading: z.boolean(),
  market: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  baseIncrement: DecimalString,
  baseMinSize: DecimalString,
  baseMaxSize: DecimalString,
  quoteIncrement: DecimalString,
  quoteMinSize: DecimalString,
  quoteMaxSize: DecimalString,
  priceIncrement: DecimalString,
  feeCurrency: z.string(),
  priceLimitRate: DecimalString,
  minFunds: NullableDecimal,
});
/** Query of GET /api/v3/margin/symbols: optional `symbol`. */
export const MarginSymbolsQuery = z.object({ symbol: SymbolString.optional() });
/** GET /api/v3/margin/symbols `data`: `{timestamp (ms), items}`; the sandbox (spot only) lists none. */
export const MarginSymbols = z.object({ timestamp: Millis, items: z.array(MarginSymbol) });
/** Type of {@link MarginSymbols}. */
export type MarginSymbols = z.infer<typeof MarginSymbols>;

/** One isolated-margin symbol of GET /api/v1/isolated/symbols (KuCoin "Get Symbols - Isolated Margin"). */
export const IsolatedSymbol = z.object({
  symbol: z.string(),
  symbolName: z.string(),
  baseCurrency: z.string(),
  quoteCurrency: z.string(),
  maxLeverage: z.number().int(),
  flDebtRatio: DecimalString,
  tradeEnable: z.boolean(),
  autoRenewMaxDebtRatio: DecimalString,
  baseBorrowEnable: z.boolean(),
  quoteBorrowEnable: z.boolean(),
  baseTransferInEnable: z.boolean(),
  quoteTransferInEnable: z.boolean(),
  baseBorrowCoefficient: DecimalString.optional(),
  quoteBorrowCoefficient: DecimalString.optional(),
});
/** GET /api/v1/isolated/symbols `data`; the sandbox (spot only) lists none. */
export const IsolatedSymbols = z.array(IsolatedSymbol);

/**
 * One futures contract of GET /api/v1/contracts/active (KuCoin futures "Get All Symbols"). SpotDesk
 * reads only these identifying fields (the rest are stripped); the sandbox, a spot exchange, lists none.
 */
export const FuturesContract = z.object({
  symbol: z.string(),
  rootSymbol: z.string().optional(),
  type: z.string().optional(),
  baseCurrency: z.string().optional(),
  quoteCurrency: z.string().optional(),
  settleCurrency: z.string().optional(),
  status: z.string().optional(),
});
/** GET /api/v1/contracts/active `data`. */
export const FuturesContracts = z.array(FuturesContract);

/**
 * POST /api/v3/accounts/universal-transfer body (KuCoin "Flex Transfer"): `clientOid` (1-64 of
 * letters, digits, "_" or "-"; idempotency key), `currency`, `amount` (positive decimal), `type`
 * INTERNAL | PARENT_TO_SUB | SUB_TO_PARENT, `fromAccountType`/`toAccountType` (MAIN, TRADE, …),
 * optional `fromUserId`, `toUserId`, `fromAccountTag`, `toAccountTag`. The sandbox has no
 * sub-accounts and only MAIN and TRADE accounts: its route accepts INTERNAL MAIN ↔ TRADE only.
 */
export const UniversalTransferRequest = z
  .object({
    clientOid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 characters of letters, digits, "_" or "-"'),
    currency: z.string().min(1),
    amount: AmountInput,
    type: z.enum(['INTERNAL', 'PARENT_TO_SUB', 'SUB_TO_PARENT']),
    fromAccountType: z.string().min(1),
    toAccountType: z.string().min(1),
    fromUserId: z.string().optional(),
    toUserId: z.string().optional(),
    fromAccountTag: z.string().optional(),
    toAccountTag: z.string().optional(),
  });
/** Parsed type of {@link UniversalTransferRequest}. */
export type UniversalTransferRequest = z.infer<typeof UniversalTransferRequest>;

/** Query of GET /api/v1/accounts/transferable: `currency`, `type` (MAIN, TRADE or TRADE_HF, any case), optional `tag`. */
export const TransferableQuery = z.object({
  currency: z.string().min(1),
  type: z
    .string()
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(['MAIN', 'TRADE', 'TRADE_HF'], { message: 'must be MAIN, TRADE or TRADE_HF (the sandbox has no margin or isolated accounts)' })),
  tag: z.string().optional(),
});

/** GET /api/v1/accounts/transferable `data` (KuCoin "Get Transfer Quotas"): decimal strings. */
export const Transferable = z.object({ currency: z.string(), balance: DecimalString, available: DecimalString, holds: DecimalString, transferable: DecimalString });
/** Type of {@link Transferable}. */
export type Transferable = z.infer<typeof Transferable>;

/** Direction of a ledger entry. */
export const LedgerDirection = z.enum(['in', 'out']);

/**
 * One entry of GET /api/v1/accounts/ledgers (KuCoin "Get Account Ledgers - Spot/Margin"): `id`,
 * `amount` (absolute change) and `fee` and `balance` (after) as decimal strings, `accountType`
 * (MAIN, TRADE…), `bizType` (DEPOSIT, WITHDRAW, TRANSFER, TRADE_EXCHANGE…), `direction` in|out,
 * `createdAt` ms, `context` a JSON text or ''.
 */
export const LedgerEntry = z.object({
  id: z.string(),
  currency: z.string(),
  amount: DecimalString,
  fee: DecimalString,
  balance: DecimalString,
  accountType: z.string(),
  bizType: z.string(),
  direction: LedgerDirection,
  createdAt: Millis,
  context: z.string().nullable(),
});
/** Type of {@link LedgerEntry}. */
export type LedgerEntry = z.infer<typeof LedgerEntry>;
/** GET /api/v1/accounts/ledgers `data`: a page of {@link LedgerEntry}, newest first. */
export const LedgerPage = pageOf(LedgerEntry);
/** Type of {@link LedgerPage}. */
export type LedgerPage = z.infer<typeof LedgerPage>;

/** Query of GET /api/v1/accounts/ledgers: `currency` (≤ 10, comma-separated), `direction`, `bizType`, `startAt`/`endAt` (ms), `currentPage`, `pageSize`. */
export const LedgersQuery = timeRange({
  currency: commaList(z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'is not a currency code'), 10, 'currencies').optional(),
  direction: LedgerDirection.optional(),
  bizType: z.string().min(1).optional(),
  ...paging,
});
/** Input type of {@link LedgersQuery}. */
export type LedgersQuery = z.input<typeof LedgersQuery>;

/**
 * One entry of GET /api/v1/hf/accounts/ledgers (KuCoin "Get Account Ledgers - trade_hf"): as
 * {@link LedgerEntry} plus `tax`, with `id` an exact id string, `accountType` TRADE_HF and
 * `createdAt` sent as a digit string (parsed to ms).
 */
export const HfLedgerEntry = z.object({
  id: ExactId,
  currency: z.string(),
  amount: DecimalString,
  fee: DecimalString,
  tax: DecimalString.optional(),
  balance: DecimalString,
  accountType: z.string(),
  bizType: z.string(),
  direction: LedgerDirection,
  createdAt: z.union([Millis, DigitString]).transform(Number),
  context: z.string().nullable(),
});
/** Type of {@link HfLedgerEntry}. */
export type HfLedgerEntry = z.infer<typeof HfLedgerEntry>;
/** GET /api/v1/hf/accounts/ledgers `data`: entries newest first. */
export const HfLedgerList = z.array(HfLedgerEntry);

/** bizType values of the trade_hf ledger query (KuCoin). */
export const HfLedgerBizType = z.enum(['TRADE_EXCHANGE', 'TRANSFER', 'SUB_TRANSFER', 'RETURNED_FEES', 'DEDUCTION_FEES', 'OTHER']);

/** Query of GET /api/v1/hf/accounts/ledgers: `currency` (≤ 10), `direction`, `bizType`, `lastId` (entries with a smaller id), `limit` 1..200 (default 100), `startAt`/`endAt` (ms). */
export const HfLedgersQuery = timeRange({
  currency: commaList(z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'is not a currency code'), 10, 'currencies').optional(),
  direction: LedgerDirection.optional(),
  bizType: HfLedgerBizType.optional(),
  lastId: ExactId.optional(),
  limit: QueryInt.pipe(z.number().int().min(1, 'must be 1..200').max(200, 'must be 1..200')).optional(),
});
/** Input type of {@link HfLedgersQuery}. */
export type HfLedgersQuery = z.input<typeof HfLedgersQuery>;
