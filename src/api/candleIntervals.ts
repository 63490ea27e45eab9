/**
 * KuCoin's candle intervals (GET /api/v1/market/candles `type`: 1min … 1week) and their length in
 * seconds, finest first. One table for the sandbox's candles (src/exchange/server/marketTape.ts)
 * and the market panel's live candles (src/features/market/model/candles.ts). Pure: no imports.
 */
export const CANDLE_SECONDS = Object.freeze({
  '1min': 60,
  '3min': 180,
  '5min': 300,
  '15min': 900,
  '30min': 1800,
  '1hour': 3600,
  '2hour': 7200,
  '4hour': 14_400,
  '6hour': 21_600,
  '8hour': 28_800,
  '12hour': 43_200,
  '1day': 86_400,
  '1week': 604_800,
} as const);
