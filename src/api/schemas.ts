/**
 * Zod 4 wire schemas for every resource and request body of the spot exchange API
 * (spec "Resources and their fields" and "Endpoints", plus the KuCoin endpoints SpotDesk adds).
 *
 * These schemas are the single source of truth for the client (`SpotClient` validates every
 * response with them) and for the sandbox (it validates request bodies/query strings with the
 * request schemas and turns a failure into `400100` via {@link describeZodError}).
 *
 * Conventions:
 * - Decimal quantities are plain decimal strings (`isDecimal` from `./decimal`: no exponent, no
 *   NaN, no `+`); they stay strings after parsing. Never `Number`.
 * - Timestamps are integers in **milliseconds**.
 * - Exact ids that the wire sends as JSON numbers (fill `id`, `tradeId`, `lastId`) are accepted as a
 *   safe integer, a digit string or a bigint, and always come OUT as an exact decimal **string**
 *   (e.g. `tradeId === '11029373945659392'`). Decode bodies with `./json` (`parseJson`) so that
 *   ids above 2^53 arrive as strings and keep every digit; an unsafe JSON number that already lost
 *   precision is rejected rather than silently rounded.
 * - Response objects strip unknown keys (zod's default); the extra fields real payloads carry and
 *   that SpotDesk shows (e.g. `withdrawPrecision`, `needTag`, `maxWithdraw`, `tax`) are declared.
 * - Request schemas also **accept and strip** unknown fields (KuCoin ignores them).
 * - Where real payloads send `null` for a string the spec types as string (HF order `stp`, `tags`,
 *   …), the schema accepts `null` and keeps it (`string | null`); treat `null` like `''`.
 *
 * This file is the index: the schemas live in one file per resource family under ./schemas/, all
 * re-exported here (imports elsewhere name this module).
 */
export * from './schemas/primitives';
export * from './schemas/common';
export * from './schemas/marketData';
export * from './schemas/accounts';
export * from './schemas/funding';
export * from './schemas/orders';
export * from './schemas/reference';
export * from './schemas/accountInfo';
export * from './schemas/fundingRecords';
export * from './schemas/advancedOrders';
