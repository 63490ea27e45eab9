/**
 * The world of a mirror (or replay) sandbox: the seeded world (src/exchange/server/world.ts) with the upstream's
 * rows of the mirrored symbols and their currencies (GET /api/v2/symbols, GET /api/v3/currencies, as
 * `fetchUpstreamWorld` reads them, upstream.ts) in place of the seeded ones: the increments, minimums and
 * precisions the upstream's book is quoted in. Currencies the sandbox knows keep their chains (deposit and
 * withdrawal simulation) and take the upstream's precision; new ones get their upstream chains with the
 * fields the sandbox needs filled (`withdrawPrecision` = precision, no max, no tag unless the row says so).
 */
import type * as S from '../../../api/schemas';
import { buildWorld, normalizeMarket, type ChainInfo, type CurrencyInfo, type SymbolInfo, type World } from '../world';
import type { MirrorWorldData } from './upstream';

/** The chain fields the sandbox requires, filled where the upstream's row lacks them. */
function chainInfo(c: S.Chain, precision: number): ChainInfo {
  return { ...c, withdrawPrecision: c.withdrawPrecision ?? precision, maxWithdraw: c.maxWithdraw ?? null, maxDeposit: c.maxDeposit ?? null, needTag: c.needTag ?? false };
}

/**
 * Merge the upstream's rows into `base` (default: a fresh seeded world). Pure.
 * @throws Error when a symbol's base or quote currency is in neither the upstream's rows nor the seeded world.
 */
export function buildMirrorWorld(data: Pick<MirrorWorldData, 'symbols' | 'currencies'>, base: World = buildWorld()): World {
  const currencies = [...base.currencies];
  for (const c of data.currencies) {
    const i = currencies.findIndex((x) => x.currency === c.currency);
    if (i >= 0) currencies[i] = { ...currencies[i], precision: c.precision };
    else currencies.push({ ...c, chains: (c.chains ?? []).map((ch) => chainInfo(ch, c.precision)) } as CurrencyInfo);
  }
  const currencyMap = new Map(currencies.map((c) => [c.currency, c]));
  const symbols = [...base.symbols];
  for (const s of data.symbols) {
    for (const cur of [s.baseCurrency, s.quoteCurrency]) {
      if (!currencyMap.has(cur)) throw new Error(`mirror world: currency ${cur} of ${s.symbol} is unknown`);
    }
    const row: SymbolInfo = { ...s, market: normalizeMarket(s.market), minFunds: s.minFunds ?? s.quoteMinSize };
    const i = symbols.findIndex((x) => x.symbol === s.symbol);
    if (i >= 0) symbols[i] = row;
    else symbols.push(row);
  }
  const markets = [...base.markets];
  for (const s of symbols) if (!markets.includes(s.market)) markets.push(s.market);
  return { currencies, currencyMap, symbols, symbolMap: new Map(symbols.map((s) => [s.symbol, s])), markets, usdPrices: new Map(base.usdPrices) };
}
