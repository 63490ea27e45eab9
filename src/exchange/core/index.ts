/** Sandbox exchange core: deterministic matching engine + ledger (no I/O, injected clock). */
export * from './errors';
export * from './types';
export * from './exchange';
