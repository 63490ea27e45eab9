/**
 * The sandbox's static world: currencies with chains, symbols, markets, fiat prices and the initial
 * order books, built from the bundled seed files in ./seed (origin: ./seed/SOURCES.md).
 *
 * Spec rules implemented here: `SC` is accepted as `USDS`; the ETH, NEO and TRX markets are merged
 * into `ALTS` (GET /api/v1/markets, GET /api/v2/symbols); chain parameters accept the chainId, the
 * chain name and the spec's aliases (USDT OMNI/ERC20/TRC20 default ERC20; BTC Native/Segwit/TRC20,
 * parameter forms btc/bech32/trx, default Native), case-insensitively.
 */
import * as D from '../../api/decimal';
import type * as S from '../../api/schemas';
import currenciesSeed from './seed/currencies.json';
import symbolsSeed from './seed/symbols.json';
import pricesSeed from './seed/prices.json';
import marketsSeed from './seed/markets.json';
import btcBook from './seed/level2-BTC-USDT.json';

/**
 * Chain of a currency: the wire {@link S.Chain} of GET /api/v3/currencies, with the KuCoin extras
 * that every seeded chain carries (`withdrawPrecision`, `maxWithdraw`, `maxDeposit`, `needTag`) required.
 */
export type ChainInfo = S.Chain & Required<Pick<S.Chain, 'withdrawPrecision' | 'maxWithdraw' | 'maxDeposit' | 'needTag'>>;

/** Currency: the wire {@link S.Currency} of GET /api/v3/currencies, its chains as {@link ChainInfo}. */
export type CurrencyInfo = Omit<S.Currency, 'chains'> & { chains: ChainInfo[] };

/**
 * Symbol: the wire {@link S.SymbolInfo} of GET /api/v2/symbols (market already merged: ETH/NEO/TRX →
 * ALTS); every seeded symbol has a `minFunds`.
 */
export type SymbolInfo = S.SymbolInfo & { minFunds: string };

/** The world the sandbox serves. */
export interface World {
  currencies: CurrencyInfo[];
  currencyMap: Map<string, CurrencyInfo>;
  symbols: SymbolInfo[];
  symbolMap: Map<string, SymbolInfo>;
  /** Market names of GET /api/v1/markets. */
  markets: string[];
  /** USD prices (decimal strings) by currency code (GET /api/v1/prices base USD). */
  usdPrices: Map<string, string>;
}

/** Markets merged into ALTS (spec GET /api/v1/markets). */
export const MERGED_INTO_ALTS = new Set(['ETH', 'NEO', 'TRX']);

/**
 * Normalise a `market` query value: `SC` → `USDS`, `ETH`/`NEO`/`TRX` → `ALTS`; others unchanged.
 */
export function normalizeMarket(m: string): string {
  const u = m.toUpperCase();
  if (u === 'SC') return 'USDS';
  if (MERGED_INTO_ALTS.has(u)) return 'ALTS';
  return m;
}

/** Build the world from the bundled seed files. Pure and deterministic. */
export function buildWorld(): World {
  const currencies = JSON.parse(JSON.stringify(currenciesSeed)) as CurrencyInfo[];
  const symbols = (JSON.parse(JSON.stringify(symbolsSeed)) as SymbolInfo[]).map((s) => ({ ...s, market: normalizeMarket(s.market) }));
  const usdPrices = new Map<string, string>();
  for (const [k, v] of Object.entries((pricesSeed as { data: Record<string, string> }).data)) usdPrices.set(k, v);
  if (!usdPrices.has('BTCP')) usdPrices.set('BTCP', '0.5');
  return {
    currencies,
    currencyMap: new Map(currencies.map((c) => [c.currency, c])),
    symbols,
    symbolMap: new Map(symbols.map((s) => [s.symbol, s])),
    markets: [...(marketsSeed as { data: string[] }).data],
    usdPrices,
  };
}

/** Aliases of chain parameters per currency (lower-case alias → chainId). */
const CHAIN_ALIASES: Record<string, Record<string, string>> = {
  BTC: { native: 'btc', btc: 'btc', segwit: 'bech32', 'btc-segwit': 'bech32', bech32: 'bech32', trc20: 'trx', trx: 'trx', lightning: 'btcln' },
  USDT: { omni: 'omni', erc20: 'eth', eth: 'eth', trc20: 'trx', trx: 'trx', bep20: 'bsc', bsc: 'bsc', solana: 'sol', sol: 'sol', near: 'near' },
};
/** Default chain when the parameter is omitted (spec: USDT ERC20, BTC Native); otherwise the first chain. */
const DEFAULT_CHAIN: Record<string, string> = { BTC: 'btc', USDT: 'eth' };

/**
 * Resolve a chain parameter (chainId, chainName or alias; case-insensitive; undefined/'' = default).
 * @returns the chain, or undefined when the currency has no such chain.
 */
export function resolveChain(cur: CurrencyInfo, param: string | undefined): ChainInfo | undefined {
  if (param === undefined || param === '') {
    const def = DEFAULT_CHAIN[cur.currency];
    return (def && cur.chains.find((c) => c.chainId === def)) || cur.chains[0];
  }
  const p = param.toLowerCase();
  const alias = CHAIN_ALIASES[cur.currency]?.[p];
  if (alias) return cur.chains.find((c) => c.chainId === alias);
  return cur.chains.find((c) => c.chainId.toLowerCase() === p || c.chainName.toLowerCase() === p);
}

/** Seeded 32-bit PRNG (mulberry32) for deterministic initial books. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Digits after the point of an increment ("0.001" → 3). */
function digitsOf(inc: string): number {
  return D.fractionDigits(D.normalize(inc));
}

/**
 * Reference mid price of a symbol in its quote currency (decimal string on the price grid):
 * BTC-USDT from the level-2 capture, others from the USD price map (base / quote).
 */
export function referencePrice(world: World, s: SymbolInfo): string | undefined {
  if (s.symbol === 'BTC-USDT') {
    const b = btcBook.data;
    return D.roundDown(D.divDown(D.add(b.bids[0][0], b.asks[0][0]), '2', 12), s.priceIncrement);
  }
  const bp = world.usdPrices.get(s.baseCurrency);
  const qp = world.usdPrices.get(s.quoteCurrency);
  if (!bp || !qp || D.isZero(qp)) return undefined;
  const px = D.roundDown(D.divDown(bp, qp, digitsOf(s.priceIncrement) + 4), s.priceIncrement);
  return D.isZero(px) ? undefined : px;
}

/** One seeded resting order. */
export interface SeedOrder {
  symbol: string;
  side: S.PlaceOrderRequest['side'];
  price: string;
  size: string;
}

/** Levels per side of each seeded book. */
export const SEED_LEVELS = 25;

/**
 * Initial resting orders for every tradable symbol: the BTC-USDT capture's levels verbatim, then
 * SEED_LEVELS levels per side spaced ~0.05 % around the reference price, sizes worth 50–2000 USD
 * (seeded PRNG), on the symbol's increments and ≥ baseMinSize / minFunds.
 */
export function seedBookOrders(world: World, seed: number): SeedOrder[] {
  const rng = mulberry32(seed);
  const out: SeedOrder[] = [];
  for (const s of world.symbols) {
    if (!s.enableTrading) continue;
    const mid = referencePrice(world, s);
    if (!mid) continue;
    const baseUsd = world.usdPrices.get(s.baseCurrency) ?? '1';
    let step = D.roundUp(D.mul(mid, '0.0005'), s.priceIncrement);
    if (D.isZero(step)) step = s.priceIncrement;
    const sized = (px: string): string => {
      const usd = String(50 + Math.floor(rng() * 1950));
      let size = D.roundDown(D.divDown(usd, baseUsd, digitsOf(s.baseIncrement) + 2), s.baseIncrement);
      if (D.cmp(size, s.baseMinSize) < 0) size = s.baseMinSize;
      const minFundsSize = D.roundUp(D.divDown(s.minFunds, px, digitsOf(s.baseIncrement) + 2), s.baseIncrement);
      return D.max(size, D.add(minFundsSize, s.baseIncrement));
    };
    let bestBid = D.sub(mid, s.priceIncrement);
    let bestAsk = D.add(mid, s.priceIncrement);
    if (s.symbol === 'BTC-USDT') {
      for (const [p, q] of btcBook.data.bids) out.push({ symbol: s.symbol, side: 'buy', price: p, size: q });
      for (const [p, q] of btcBook.data.asks) out.push({ symbol: s.symbol, side: 'sell', price: p, size: q });
      bestBid = btcBook.data.bids[btcBook.data.bids.length - 1][0];
      bestAsk = btcBook.data.asks[btcBook.data.asks.length - 1][0];
    }
    for (let i = 1; i <= SEED_LEVELS; i++) {
      const off = D.mul(step, String(i));
      const bid = D.sub(bestBid, off);
      const ask = D.add(bestAsk, off);
      if (D.cmp(bid, '0') > 0) out.push({ symbol: s.symbol, side: 'buy', price: bid, size: sized(bid) });
      out.push({ symbol: s.symbol, side: 'sell', price: ask, size: sized(ask) });
    }
  }
  return out;
}
