/**
 * Handlers of the public API, one per row of the endpoint table (src/api/endpoints.ts `ENDPOINTS`;
 * the table gives method, path, permission, pool, weight and parameter schema — the server repeats
 * none of it). Each handler receives the parameters already validated by the row's `params`
 * schema and returns the payload (`data` of the `{code: "200000", data}` envelope), or throws
 * `SandboxError` / `ExchangeError` (business errors → HTTP 200 + code).
 *
 * Mutating handlers call `state.exec` (which journals) — never the engine directly.
 */
import * as D from '../../api/decimal';
import type { EndpointName, ParsedParamsOf, WireResponseOf } from '../../api/endpoints';
import type * as S from '../../api/schemas';
import { checkWithdrawalDestination, INCORRECT_WITHDRAWAL_ADDRESS } from '../../api/withdrawalAddress';
import { sampleDepositAddress } from './depositAddresses';
import { marketUsdPrices, usdPriceOf } from './market/fiatPrices';
import type { Feed } from './feed';
import { doneOrdersPage, hfLedgerList, ledgerPage } from './history';
import { REFDATA_HANDLERS } from './refdata';
import { ADVANCED_HANDLERS } from './orders/advancedRoutes';
import { CLASSIC_ORDER_HANDLERS } from './orders/classic';
import { checkCanCancel, checkCanPlace, fillWithTax, requireSymbol, uidOf, withTax } from './orders/common';
import { HF_ORDER_HANDLERS } from './orders/hf';
import { candleStats } from './marketStats';
import { windowStats } from './feed/publisher';
import { randomHex, SandboxError, SandboxState, UserRecord, WithdrawalRecord, type DepositAddressRecord } from './state';
import { normalizeMarket, resolveChain, type SymbolInfo } from './world';

/** Context of one API request to endpoint `N`. */
export interface RouteContext<N extends EndpointName = EndpointName> {
  state: SandboxState;
  /** Authenticated user (private endpoints only). */
  user?: UserRecord;
  /** Params validated by the row's `params` schema (query + path for GET/DELETE; JSON body for POST). */
  params: ParsedParamsOf<N>;
  /** Base URL of this server (for bullet-public). */
  baseUrl: string;
  /** The WebSocket feed (tokens of bullet-public / bullet-private). */
  feed?: Feed;
  /** The caller's address as the socket has it (GET /api/v1/my-ip). */
  clientIp?: string;
}

/** The route handler of endpoint `N`: its parsed params in, its wire payload (`data`) out. */
export type Handler<N extends EndpointName> = (ctx: RouteContext<N>) => WireResponseOf<N>;

/** One handler per row of the endpoint table, each typed by its own row. */
export type Handlers = { [N in EndpointName]: Handler<N> };

export { E_SERVICE_STATUS } from './orders/common';

/**
 * Code and message of POST /api/v1/deposit-addresses when the user already has an address for that
 * currency and chain (KuCoin answers `{"code":"260000","msg":"Deposit address already exists."}`,
 * HTTP 200 — as recorded in ccxt's KuCoin error map). Fetch it with GET /api/v2/deposit-addresses.
 */
export const E_DEPOSIT_ADDRESS_EXISTS = '260000';
/** Message of {@link E_DEPOSIT_ADDRESS_EXISTS}. */
export const DEPOSIT_ADDRESS_EXISTS_MSG = 'Deposit address already exists.';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The uid of a signed read of one symbol's orders or fills: checks the credentials (400001) and
 * the symbol (900001), then brings the clock up to date (GTT expiries) so the read sees them.
 */
function userSymbolRead(ctx: RouteContext, symbol: string): string {
  const uid = uidOf(ctx);
  requireSymbol(ctx.state, symbol);
  ctx.state.syncClock();
  return uid;
}

/**
 * POST /api/v1/deposit-addresses (`onePerChain`: KuCoin keeps one address per currency and chain
 * for the V1 create and refuses a second with 260000) and POST /api/v3/deposit-address/create:
 * the new address record of `uid`. Throws 400100 for an unknown currency or chain, 260200 when
 * deposits are suspended on the chain.
 */
function createDepositAddress(ctx: RouteContext<'depositAddress' | 'depositAddressV3'>, onePerChain: boolean): DepositAddressRecord {
  const uid = uidOf(ctx);
  const p = ctx.params;
  const { currency, chain } = ctx.state.chainOf(p.currency, p.chain);
  if (!chain.isDepositEnabled) throw new SandboxError('260200', `deposit of ${currency.currency} on ${chain.chainName} is suspended`);
  if (onePerChain && ctx.state.depositAddressesOf(uid, currency.currency, chain.chainId).length > 0) throw new SandboxError(E_DEPOSIT_ADDRESS_EXISTS, DEPOSIT_ADDRESS_EXISTS_MSG);
  return ctx.state.run('depositAddress.create', { uid, currency: currency.currency, chainId: chain.chainId, to: depositTarget(p.to), address: makeAddress(chain.chainId), memo: memoFor(chain.needTag) });
}

function requireFeed(feed: Feed | undefined): Feed {
  if (!feed) throw new SandboxError('404000', 'this sandbox runs without its WebSocket feed', 404);
  return feed;
}

/** A well-formed random deposit address for the chain (generated before exec: journaled with the command). */
function makeAddress(chainId: string): string {
  return sampleDepositAddress(chainId);
}

function memoFor(needTag: boolean): string {
  return needTag ? String(1_000_000_000 + (parseInt(randomHex(4), 16) % 1_000_000_000)) : '';
}

/** Tickers of GET /api/v1/market/allTickers, computed from the engine's public trade tape (last 24 h). */
export function computeTickers(state: SandboxState): WireResponseOf<'allTickers'> {
  const now = state.now();
  return { time: now, ticker: state.world.symbols.map((s) => tickerOf(state, s, now)) };
}

/**
 * The ticker of one symbol over the 24 h before `now` (ms), from the engine's public trade tape, or from the
 * 1-minute candles where that tape does not reach back (marketStats.ts): best bid/ask, high, low, volume (base), volume value (quote), last price, change since the first
 * trade of the 24 h, average price; the base fee rates (0.001) and the symbol's coefficients.
 */
function tickerOf(state: SandboxState, s: SymbolInfo, now: number): S.Ticker {
  const ex = state.exchange;
  const bba = ex.bestBidAsk(s.symbol);
  const all = ex.trades(s.symbol);
  const day = candleStats(state, s.symbol, now - DAY_MS, s.quoteIncrement, all) ?? windowStats(all, now - DAY_MS, s.quoteIncrement);
  const lastTrade = all.length ? all.reduce((a, b) => (b.time > a.time || (b.time === a.time && b.tradeId > a.tradeId) ? b : a)) : undefined;
  const last = lastTrade ? lastTrade.price : day.last;
  const { high, low, vol, volValue, changePrice, changeRate } = day;
  const rates = { taker: '0.001', maker: '0.001' };
  return {
    symbol: s.symbol,
    symbolName: s.symbol,
    buy: bba.bestBid,
    bestBidSize: bba.bestBidSize,
    sell: bba.bestAsk,
    bestAskSize: bba.bestAskSize,
    changeRate: changeRate ?? '0',
    changePrice: changePrice ?? '0',
    high,
    low,
    vol,
    volValue,
    last,
    averagePrice: day.averagePrice,
    takerFeeRate: rates.taker,
    makerFeeRate: rates.maker,
    takerCoefficient: s.takerFeeCoefficient,
    makerCoefficient: s.makerFeeCoefficient,
  };
}

function withdrawalArgs(
  ctx: RouteContext<'withdrawV1' | 'withdrawV3' | 'withdrawV4'>,
  version: WithdrawalRecord['version'],
  p: ParsedParamsOf<'withdrawV1' | 'withdrawV3' | 'withdrawV4'>,
  toAddress: string,
  withdrawType: S.WithdrawType,
): WithdrawalRecord {
  const uid = uidOf(ctx);
  if (p.memo !== undefined && !/^[A-Za-z0-9 _:.-]{0,64}$/.test(p.memo)) throw new SandboxError('400100', 'memo: must be at most 64 letters, digits, spaces or _:.-');
  const { chain } = ctx.state.chainOf(p.currency, p.chain);
  // The rule SpotDesk checks before sending (src/api/withdrawalAddress.ts); KuCoin answers the same.
  if (!checkWithdrawalDestination(withdrawType, toAddress, chain.chainId).ok) throw new SandboxError('400100', INCORRECT_WITHDRAWAL_ADDRESS);
  return ctx.state.run('withdrawal.create', {
    withdrawalId: randomHex(12),
    uid,
    version,
    currency: p.currency,
    chainId: chain.chainId,
    withdrawType,
    toAddress,
    memo: p.memo ?? '',
    isInner: p.isInner ?? false,
    remark: p.remark ?? '',
    amount: p.amount,
    ...(p.feeDeductType ? { feeDeductType: p.feeDeductType } : {}),
  });
}

let testOrderSeq = 0;
const TEST_ORDER_PREFIX = `e${randomHex(4).slice(1)}`;
/** Order id answered by the order test: 24 hex chars, never the id of a real order (different prefix). */
function nextTestOrderId(): string {
  return TEST_ORDER_PREFIX + (++testOrderSeq).toString(16).padStart(16, '0');
}

/** Regions of GET /kyc/regions/v4 (shape chosen by src/api/schemas `Region`). */
export const REGIONS: S.Region[] = [
  { code: 'TR', name: 'Türkiye' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'JP', name: 'Japan' },
  { code: 'SG', name: 'Singapore' },
  { code: 'AU', name: 'Australia' },
  { code: 'BR', name: 'Brazil' },
  { code: 'IN', name: 'India' },
  { code: 'NG', name: 'Nigeria' },
];

/** The deposit address record's `to` (MAIN | TRADE) for a request's `to` (main | trade, any case; default main). */
function depositTarget(to: string | undefined): 'MAIN' | 'TRADE' {
  return to !== undefined && to.toLowerCase() === 'trade' ? 'TRADE' : 'MAIN';
}


/** 400100 naming `currency` when it is given and unknown. */
function checkCurrency(state: SandboxState, currency: string | undefined): void {
  if (currency !== undefined && !state.world.currencyMap.has(currency)) throw new SandboxError('400100', `currency: ${currency} is not supported`);
}

/** True when `t` (ms) lies in [startAt, endAt] (each bound optional). */
function inRange(t: number, startAt: number | undefined, endAt: number | undefined): boolean {
  return (startAt === undefined || t >= startAt) && (endAt === undefined || t <= endAt);
}

/**
 * One page (KuCoin `currentPage`/`pageSize`, defaults 1 and 50) of `list` (already in answer order),
 * each element mapped by `item`; a page past the end is empty.
 */
function page<T, U>(list: readonly T[], currentPage: number | undefined, pageSize: number | undefined, item: (x: T) => U) {
  const cp = currentPage ?? 1;
  const ps = pageSize ?? 50;
  const start = (cp - 1) * ps;
  return { currentPage: cp, pageSize: ps, totalNum: list.length, totalPage: Math.ceil(list.length / ps), items: list.slice(start, start + ps).map(item) };
}

/** A withdrawal record in the form of GET /api/v1/withdrawals. */
function withdrawalItem(w: WithdrawalRecord): S.WithdrawalItem {
  return {
    id: w.withdrawalId,
    currency: w.currency,
    chain: w.chainId,
    status: w.status,
    address: w.toAddress,
    memo: w.memo,
    isInner: w.isInner || w.withdrawType !== 'ADDRESS',
    amount: w.amount,
    fee: w.fee,
    walletTxId: w.status === 'SUCCESS' ? `sbx-${w.withdrawalId}` : null,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    remark: w.status === 'FAILURE' ? w.failureReason : w.remark,
  };
}

/** A flex-transfer account type (MAIN, TRADE or TRADE_HF, any case) as the ledger's account, or 400100 naming `field`. */
function flexAccount(field: string, v: string): S.AccountType {
  const u = v.toUpperCase();
  if (u === 'MAIN') return 'main';
  if (u === 'TRADE' || u === 'TRADE_HF') return 'trade';
  throw new SandboxError('400100', `${field}: ${v} is not an account of the sandbox (MAIN or TRADE)`);
}

/**
 * The handler of every endpoint of the table: {@link Handlers} makes the compiler check coverage and,
 * per row, the params each handler reads and the payload it returns.
 */
export const HANDLERS: Handlers = {
  level2_20: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    state.syncClock();
    return state.exchange.level2(params.symbol, 20);
  },
  level2_100: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    state.syncClock();
    return state.exchange.level2(params.symbol, 100);
  },
  allTickers: ({ state }) => {
    state.syncClock();
    return computeTickers(state);
  },
  symbols: ({ state, params }) => {
    const m = params.market;
    if (m === undefined || m === '') return state.world.symbols;
    const market = normalizeMarket(m);
    return state.world.symbols.filter((s) => s.market.toLowerCase() === market.toLowerCase());
  },
  currencies: ({ state }) => state.world.currencies,
  currency: ({ state, params }) => {
    const code = params.currency;
    const cur = state.world.currencyMap.get(code) ?? state.world.currencyMap.get(code.toUpperCase());
    if (!cur) throw new SandboxError('400100', `currency: ${code} is not supported`);
    const chainParam = params.chain;
    if (chainParam === undefined || chainParam === '') return cur;
    const chain = resolveChain(cur, chainParam);
    if (!chain) throw new SandboxError('400100', `chain: ${chainParam} is not supported for ${cur.currency}`);
    return { ...cur, chains: [chain] };
  },
  prices: ({ state, params }) => {
    const base = (params.base || 'USD').toUpperCase();
    // Sandbox: fiat rates against USD (fixed, documented); USD prices follow the market.
    const fiat: Record<string, string> = { USD: '1', EUR: '0.92', GBP: '0.79', JPY: '149.5', CNY: '7.1', TRY: '34.3' };
    const rate = fiat[base];
    if (!rate) throw new SandboxError('400100', `base: ${base} is not a supported fiat currency (${Object.keys(fiat).join(', ')})`);
    const wanted = params.currencies?.split(',').map((c) => c.trim()).filter(Boolean);
    const out: Record<string, string> = {};
    const codes = wanted && wanted.length ? wanted : [...state.world.usdPrices.keys()];
    // Follow the sandbox's own market: last trades through the USDT pairs (market/fiatPrices.ts).
    state.syncClock();
    const market = marketUsdPrices(state.world, (symbol) => state.exchange.lastTrade(symbol)?.price);
    for (const c of codes) {
      const p = usdPriceOf(state.world, market, c);
      if (p !== undefined) out[c] = D.fromUnitsFixed(D.toUnits(D.mul(p, rate), 16, 'down'), 16);
    }
    return out;
  },
  markets: ({ state }) => state.world.markets,
  status: ({ state }) => ({ status: state.status.status, msg: state.status.msg }),
  serverTime: ({ state }) => state.now(),
  regions: () => REGIONS,
  bulletPublic: ({ feed, baseUrl }) => requireFeed(feed).bullet('public', '', baseUrl),
  bulletPrivate: (ctx) => requireFeed(ctx.feed).bullet('private', uidOf(ctx), ctx.baseUrl),

  fills: (ctx) => {
    const p = ctx.params;
    const uid = userSymbolRead(ctx, p.symbol);
    const page = ctx.state.exchange.fills(uid, {
      symbol: p.symbol,
      ...(p.orderId !== undefined ? { orderId: p.orderId } : {}),
      ...(p.side !== undefined ? { side: p.side } : {}),
      ...(p.type !== undefined ? { type: p.type } : {}),
      ...(p.startAt !== undefined ? { startAt: p.startAt } : {}),
      ...(p.endAt !== undefined ? { endAt: p.endAt } : {}),
      // the engine's fill ids are numbers; the wire's lastId is an exact digit string
      ...(p.lastId !== undefined ? { lastId: Number(p.lastId) } : {}),
      ...(p.limit !== undefined ? { limit: p.limit } : {}),
    });
    return { ...page, items: page.items.map(fillWithTax) };
  },
  order: (ctx) => {
    const uid = userSymbolRead(ctx, ctx.params.symbol);
    // The engine applies the spec's 3 × 24 h window to done orders (400100 "order not exists").
    return withTax(ctx.state.exchange.getOrder(uid, ctx.params.symbol, ctx.params.orderId));
  },
  activeOrders: (ctx) => {
    const uid = userSymbolRead(ctx, ctx.params.symbol);
    return ctx.state.exchange.activeOrders(uid, ctx.params.symbol).map(withTax);
  },
  baseFee: (ctx) => {
    const uid = uidOf(ctx);
    const r = ctx.state.exchange.feeRates(uid);
    return { takerFeeRate: r.takerFeeRate, makerFeeRate: r.makerFeeRate };
  },
  testOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const req = ctx.params;
    requireSymbol(ctx.state, req.symbol);
    ctx.state.syncClock();
    ctx.state.exchange.validateOrder(uid, req);
    // Same response shape as placement; no order is created (an id outside the engine's id space).
    return { orderId: nextTestOrderId(), clientOid: req.clientOid ?? '' };
  },
  placeOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const req = ctx.params;
    requireSymbol(ctx.state, req.symbol);
    return ctx.state.run('order.place', { uid, req: { ...req } });
  },
  cancelOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    requireSymbol(ctx.state, ctx.params.symbol);
    const r = ctx.state.run('order.cancel', { uid, symbol: ctx.params.symbol, orderId: ctx.params.orderId });
    return { orderId: r.orderId };
  },
  cancelAllOrders: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    requireSymbol(ctx.state, ctx.params.symbol);
    ctx.state.run('order.cancelAll', { uid, symbol: ctx.params.symbol });
    return 'success';
  },

  accounts: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    // margin, isolated, pool, option: account types the sandbox has none of (an empty list, as KuCoin answers such a user)
    if (p.type !== undefined && p.type !== 'main' && p.type !== 'trade' && p.type !== 'trade_hf') return [];
    // trade_hf is KuCoin's high-frequency trade account: here the one trade account, labelled as asked
    const type = p.type === 'trade_hf' ? 'trade' : p.type;
    const list = ctx.state.exchange.accounts(uid, { ...(p.currency ? { currency: p.currency } : {}), ...(type ? { type } : {}) });
    return p.type === 'trade_hf' ? list.map((a) => ({ ...a, type: 'trade_hf' as const })) : list;
  },
  innerTransfer: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    if (!ctx.state.world.currencyMap.has(p.currency)) throw new SandboxError('400100', `currency: ${p.currency} is not supported`);
    return ctx.state.run('transfer', { uid, clientOid: p.clientOid, currency: p.currency, from: p.from, to: p.to, amount: p.amount });
  },
  depositAddress: (ctx) => {
    const rec = createDepositAddress(ctx, true);
    return { address: rec.address, memo: rec.memo, chain: rec.chainName, chainId: rec.chainId, to: rec.to, currency: rec.currency };
  },
  depositAddressV3: (ctx) => {
    const rec = createDepositAddress(ctx, false);
    return { address: rec.address, memo: rec.memo, chainId: rec.chainId, to: rec.to, expirationDate: 0, currency: rec.currency, chainName: rec.chainName };
  },
  depositAddressesV2: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    return ctx.state.listDepositAddresses(uid, p.currency, p.chain).map(({ rec: a, contractAddress }) => ({
      address: a.address,
      memo: a.memo,
      chain: a.chainName,
      chainId: a.chainId,
      to: a.to,
      currency: a.currency,
      contractAddress: contractAddress,
    }));
  },
  withdrawalQuotas: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    const { currency, chain } = ctx.state.chainOf(p.currency, p.chain);
    const main = ctx.state.exchange.accounts(uid, { currency: currency.currency, type: 'main' })[0];
    const available = main ? main.available : '0';
    const prec = chain.withdrawPrecision ?? currency.precision;
    let locked = '0';
    for (const w of ctx.state.withdrawals.values()) if (w.uid === uid && w.currency === currency.currency && w.status === 'PROCESSING') locked = D.add(locked, w.totalDebit);
    return {
      currency: currency.currency,
      limitBTCAmount: '100',
      usedBTCAmount: '0',
      quotaCurrency: 'USDT',
      limitQuotaCurrencyAmount: '999999',
      usedQuotaCurrencyAmount: '0',
      remainAmount: '100',
      availableAmount: D.roundDown(available, D.precisionIncrement(prec)),
      withdrawMinFee: chain.withdrawalMinFee,
      innerWithdrawMinFee: '0',
      withdrawMinSize: chain.withdrawalMinSize,
      isWithdrawEnabled: chain.isWithdrawEnabled,
      precision: prec,
      chain: chain.chainName,
      reason: chain.isWithdrawEnabled ? null : 'Withdrawal is suspended on this chain',
      lockedAmount: locked,
    };
  },
  withdrawV1: (ctx) => {
    const p = ctx.params;
    const w = withdrawalArgs(ctx, 'v1', p, p.address, 'ADDRESS');
    return { withdrawalId: w.withdrawalId };
  },
  withdrawV3: (ctx) => {
    const p = ctx.params;
    const w = withdrawalArgs(ctx, 'v3', p, p.toAddress, p.withdrawType);
    return { withdrawalId: w.withdrawalId };
  },
  withdrawV4: (ctx) => {
    const p = ctx.params;
    const w = withdrawalArgs(ctx, 'v4', p, p.toAddress, p.withdrawType);
    return { withdrawalId: w.withdrawalId };
  },

  // --- beyond the spec ---

  accountMode: () => ({ selfAccountMode: 'CLASSIC', unifiedSubAccount: [], classicSubAccount: [] }),
  hfAccountOpened: () => true,
  marginSymbols: ({ state }) => ({ timestamp: state.now(), items: [] }),
  isolatedSymbols: () => [],
  futuresContracts: () => [],
  stats: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    state.syncClock();
    const now = state.now();
    const t = tickerOf(state, state.world.symbolMap.get(params.symbol) as SymbolInfo, now);
    return {
      time: now,
      symbol: t.symbol,
      buy: t.buy,
      sell: t.sell,
      changeRate: t.changeRate,
      changePrice: t.changePrice,
      high: t.high,
      low: t.low,
      vol: t.vol,
      volValue: t.volValue,
      last: t.last,
      averagePrice: t.averagePrice,
      takerFeeRate: t.takerFeeRate,
      makerFeeRate: t.makerFeeRate,
      takerCoefficient: t.takerCoefficient,
      makerCoefficient: t.makerCoefficient,
    };
  },
  level1: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    state.syncClock();
    const bba = state.exchange.bestBidAsk(params.symbol);
    const recent = state.tape.recentTrades(params.symbol, state.historyStart());
    const last = recent[recent.length - 1];
    return {
      time: state.now(),
      sequence: String(state.exchange.sequence(params.symbol)),
      price: last ? last.price : null,
      size: last ? last.size : null,
      bestBid: bba.bestBid,
      bestBidSize: bba.bestBidSize,
      bestAsk: bba.bestAsk,
      bestAskSize: bba.bestAskSize,
    };
  },
  tradeHistory: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    // KuCoin sends `time` in nanoseconds (a JSON number above 2^53); ms × 10^6 prints its exact digits
    return state.tape.recentTrades(params.symbol, state.historyStart()).map((t) => ({ sequence: t.sequence, price: t.price, size: t.size, side: t.side, time: t.time * 1_000_000 }));
  },
  candles: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    return state.tape.candles(params.symbol, params.type, params.startAt ?? 0, params.endAt ?? 0, state.historyStart());
  },
  level2Full: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    state.syncClock();
    return state.exchange.level2(params.symbol, Number.MAX_SAFE_INTEGER);
  },
  doneOrders: (ctx) => {
    const uid = userSymbolRead(ctx, ctx.params.symbol);
    return doneOrdersPage(ctx.state, uid, ctx.params);
  },
  orderByClientOid: (ctx) => {
    const uid = userSymbolRead(ctx, ctx.params.symbol);
    return withTax(ctx.state.exchange.getOrderByClientOid(uid, ctx.params.symbol, ctx.params.clientOid));
  },
  cancelOrderByClientOid: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    requireSymbol(ctx.state, ctx.params.symbol);
    return ctx.state.run('order.cancelByClientOid', { uid, symbol: ctx.params.symbol, clientOid: ctx.params.clientOid });
  },
  activeOrderSymbols: (ctx) => {
    const uid = uidOf(ctx);
    ctx.state.syncClock();
    return { symbols: ctx.state.world.symbols.filter((s) => ctx.state.exchange.activeOrders(uid, s.symbol).length > 0).map((s) => s.symbol) };
  },
  tradeFees: (ctx) => {
    const uid = uidOf(ctx);
    for (const sym of ctx.params.symbols) if (!ctx.state.world.symbolMap.has(sym)) throw new SandboxError('400100', `symbols: ${sym} is not a trading pair of this exchange`);
    const r = ctx.state.exchange.feeRates(uid);
    return ctx.params.symbols.map((symbol) => ({ symbol, takerFeeRate: r.takerFeeRate, makerFeeRate: r.makerFeeRate }));
  },
  depositAddressV1: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    const { currency, chain } = ctx.state.chainOf(p.currency, p.chain);
    const a = ctx.state.depositAddressesOf(uid, currency.currency, chain.chainId)[0];
    return a ? { address: a.address, memo: a.memo, chain: a.chainName, chainId: a.chainId, to: a.to, currency: a.currency } : null;
  },
  deposits: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    checkCurrency(ctx.state, p.currency);
    const list = ctx.state.deposits.filter((d) => d.uid === uid && (p.currency === undefined || d.currency === p.currency) && (p.status === undefined || p.status === 'SUCCESS') && inRange(d.createdAt, p.startAt, p.endAt));
    return page(
      list.reverse(), // newest first
      p.currentPage,
      p.pageSize,
      (d) => ({
        currency: d.currency,
        chain: d.chainId,
        status: 'SUCCESS' as const,
        address: d.address,
        memo: d.memo,
        isInner: false,
        amount: d.amount,
        fee: '0',
        walletTxId: `sbx-${d.depositId}`,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        remark: '',
        arrears: false,
      }),
    );
  },
  withdrawals: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    checkCurrency(ctx.state, p.currency);
    const list: WithdrawalRecord[] = [];
    for (const w of ctx.state.withdrawals.values()) {
      if (w.uid === uid && (p.currency === undefined || w.currency === p.currency) && (p.status === undefined || w.status === p.status) && inRange(w.createdAt, p.startAt, p.endAt)) list.push(w);
    }
    return page(list.reverse(), p.currentPage, p.pageSize, withdrawalItem);
  },
  cancelWithdrawal: (ctx) => {
    const uid = uidOf(ctx);
    ctx.state.run('withdrawal.cancel', { uid, withdrawalId: ctx.params.withdrawalId });
    return null;
  },
  universalTransfer: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    if (p.type !== 'INTERNAL') throw new SandboxError('400100', `type: ${p.type} needs sub-accounts, which the sandbox does not have; use INTERNAL`);
    if (p.fromUserId !== undefined && p.fromUserId !== uid) throw new SandboxError('400100', 'fromUserId: an INTERNAL transfer stays within your own account');
    if (p.toUserId !== undefined && p.toUserId !== uid) throw new SandboxError('400100', 'toUserId: an INTERNAL transfer stays within your own account');
    const from = flexAccount('fromAccountType', p.fromAccountType);
    const to = flexAccount('toAccountType', p.toAccountType);
    if (from === to) throw new SandboxError('400100', 'toAccountType: must differ from fromAccountType');
    if (!ctx.state.world.currencyMap.has(p.currency)) throw new SandboxError('400100', `currency: ${p.currency} is not supported`);
    const r = ctx.state.run('transfer', { uid, clientOid: p.clientOid, currency: p.currency, from, to, amount: p.amount });
    return { orderId: r.orderId };
  },
  transferable: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    if (!ctx.state.world.currencyMap.has(p.currency)) throw new SandboxError('400100', `currency: ${p.currency} is not supported`);
    const a = ctx.state.exchange.accounts(uid, { currency: p.currency, type: p.type === 'MAIN' ? 'main' : 'trade' })[0];
    const bal = a ?? { balance: '0', available: '0', holds: '0' };
    return { currency: p.currency, balance: bal.balance, available: bal.available, holds: bal.holds, transferable: bal.available };
  },
  ledgers: (ctx) => {
    const uid = uidOf(ctx);
    return ledgerPage(ctx.state, uid, ctx.params);
  },
  hfLedgers: (ctx) => {
    const uid = uidOf(ctx);
    return hfLedgerList(ctx.state, uid, ctx.params);
  },

  ...REFDATA_HANDLERS,
  ...ADVANCED_HANDLERS,
  // --- HF order variants and the classic order API (orders/hf.ts, orders/classic.ts) ---
  ...HF_ORDER_HANDLERS,
  ...CLASSIC_ORDER_HANDLERS,
};

/**
 * Run the handler of endpoint `name`. `ctx.params` must be what that same row's `params` schema (or
 * its fast validator, which has the same output) produced: the pipeline (http.ts) guarantees it.
 */
export function runHandler<N extends EndpointName>(name: N, ctx: RouteContext<N>): WireResponseOf<N> {
  const handler: Handler<N> = HANDLERS[name];
  return handler(ctx);
}
