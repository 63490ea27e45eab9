/**
 * Zod 4 wire schemas for every resource and request body of the spot exchange API (spec "Resources and their
 * fields" and "Endpoints", plus the KuCoin endpoints SpotDesk adds): the single source of truth for the client
 * (`SpotClient` validates every response with them) and for the sandbox (it validates request bodies and query
 * strings with the request schemas and turns a failure into `400100` via {@link describeZodError}).
 *
 * Key conventions: decimal quantities are plain decimal strings (`isDecimal` of ./decimal), never `Number`;
 * timestamps are integer milliseconds; exact ids the wire sends as JSON numbers come out as decimal strings
 * (decode bodies with `parseJson` of ./json); unknown keys are stripped, in responses and in requests. All of
 * them, with the `null` rule: docs/ARCHITECTURE.md "Wire schemas (`src/api/schemas.ts`)".
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
