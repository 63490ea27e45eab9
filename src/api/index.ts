/**
 * Public surface of SpotDesk's API client (`src/api`): schemas, decimal helpers, lossless JSON,
 * signing, typed errors, the endpoint table, rate limiting, transport and `SpotClient`; the
 * WebSocket feed's schemas, `StreamClient` and the L2 book keeper.
 * `decimal` is re-exported as a namespace (`Decimal.add(...)`) because its names are generic.
 */
export * from './schemas';
export * from './errors';
export * from './signing';
export * from './endpoints';
export * from './json';
export * from './ratelimit';
export * from './transport';
export * from './client';
export * from './withdrawalFee';
export * from './streamSchemas';
export * from './stream';
export * from './l2Book';
export * as Decimal from './decimal';
