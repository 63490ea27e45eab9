/**
 * The agent-based market of the sandbox (profiles `realistic` and `volatile`; `quiet` is sim.ts). One small
 * module per agent — noiseTrader.ts (Hawkes arrivals, power-law sizes), momentum.ts, meanReversion.ts,
 * informed.ts, arbitrage.ts (triangular), marketMaker.ts (inventory-skewed ladders) — over the fair-price
 * model (model.ts); executor.ts turns their intents into engine orders; scheduler.ts runs them live as
 * journaled `market.batch` commands (batch.ts); history.ts builds the first start's 3 × 24 h of history
 * (`market.history`). Profiles and per-symbol activity: profiles.ts. Calibration measures: stylizedFacts.ts.
 */
export { applyBatch, batchTarget } from './commands';
export { buildMarketHistory, startMarket, type MarketOptions, type MarketSimulation } from './scheduler';
export { isMarketProfile, MARKET_PROFILES, type MarketProfileName } from './profiles';
