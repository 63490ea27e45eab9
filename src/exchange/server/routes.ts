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
import type { EndpointName, ResponseOf } from '../../api/endpoints';
import type * as S from '../../api/schemas';
import { checkWithdrawalDestination, INCORRECT_WITHDRAWAL_ADDRESS } from '../../api/withdrawalAddress';
import { sampleDepositAddress } from './depositAddresses';
import { randomHex, SandboxError, SandboxState, UserRecord, WithdrawalRecord } from './state';
import { normalizeMarket, resolveChain } from './world';

/** Context of one API request. */
export interface RouteContext {
  state: SandboxState;
  /** Authenticated user (private endpoints only). */
  user?: UserRecord;
  /** Validated params (query + path for GET/DELETE; JSON body for POST). */
  params: Record<string, unknown>;
  /** Base URL of this server (for bullet-public). */
  baseUrl: string;
}

/** A route handler: returns the `data` payload. */
export type Handler = (ctx: RouteContext) => unknown;

/** Code answered when the service status forbids an operation (sandbox choice, documented in docs/sandbox.md). */
export const E_SERVICE_STATUS = '400350';

/**
 * Code and message of POST /api/v1/deposit-addresses when the user already has an address for that
 * currency and chain (KuCoin answers `{"code":"260000","msg":"Deposit address already exists."}`,
 * HTTP 200 — as recorded in ccxt's KuCoin error map). Fetch it with GET /api/v2/deposit-addresses.
 */
export const E_DEPOSIT_ADDRESS_EXISTS = '260000';
/** Message of {@link E_DEPOSIT_ADDRESS_EXISTS}. */
export const DEPOSIT_ADDRESS_EXISTS_MSG = 'Deposit address already exists.';

const DAY_MS = 24 * 3600 * 1000;

function requireSymbol(state: SandboxState, symbol: string): void {
  if (!state.world.symbolMap.has(symbol)) throw new SandboxError('900001', 'symbol not exists!');
}

function uidOf(ctx: RouteContext): string {
  if (!ctx.user) throw new SandboxError('400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE', 401);
  return ctx.user.uid;
}

function checkCanPlace(state: SandboxState): void {
  const s = state.status;
  if (s.status === 'cancelonly') throw new SandboxError(E_SERVICE_STATUS, `The service is in cancel-only mode: orders can be cancelled but not placed${s.msg ? ` (${s.msg})` : ''}`);
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

function checkCanCancel(state: SandboxState): void {
  const s = state.status;
  if (s.status === 'close') throw new SandboxError(E_SERVICE_STATUS, `The service is closed: trading is stopped${s.msg ? ` (${s.msg})` : ''}`);
}

/** A well-formed random deposit address for the chain (generated before exec: journaled with the command). */
function makeAddress(chainId: string): string {
  return sampleDepositAddress(chainId);
}

function memoFor(needTag: boolean): string {
  return needTag ? String(1_000_000_000 + (parseInt(randomHex(4), 16) % 1_000_000_000)) : '';
}

/** Tickers of GET /api/v1/market/allTickers, computed from the engine's public trade tape (last 24 h). */
export function computeTickers(state: SandboxState): ResponseOf<'allTickers'> {
  const now = state.now();
  const ticker: S.Ticker[] = [];
  for (const s of state.world.symbols) {
    const ex = state.exchange;
    const bba = ex.bestBidAsk(s.symbol);
    const all = ex.trades(s.symbol);
    const day = all.filter((t) => t.time > now - DAY_MS);
    let high: string | null = null;
    let low: string | null = null;
    let vol = '0';
    let volValue = '0';
    for (const t of day) {
      if (high === null || D.cmp(t.price, high) > 0) high = t.price;
      if (low === null || D.cmp(t.price, low) < 0) low = t.price;
      vol = D.add(vol, t.size);
      volValue = D.add(volValue, D.mul(t.price, t.size));
    }
    const lastTrade = all.length ? all.reduce((a, b) => (b.time > a.time || (b.time === a.time && b.tradeId > a.tradeId) ? b : a)) : undefined;
    const firstDay = day.length ? day.reduce((a, b) => (b.time < a.time || (b.time === a.time && b.tradeId < a.tradeId) ? b : a)) : undefined;
    const last = lastTrade ? lastTrade.price : null;
    let changePrice: string | null = null;
    let changeRate: string | null = null;
    if (firstDay && last) {
      changePrice = D.sub(last, firstDay.price);
      changeRate = D.divDown(changePrice, firstDay.price, 4);
    }
    const rates = { taker: '0.001', maker: '0.001' };
    ticker.push({
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
      volValue: D.roundDown(volValue, s.quoteIncrement),
      last,
      averagePrice: D.isZero(vol) ? null : D.divDown(volValue, vol, 8),
      takerFeeRate: rates.taker,
      makerFeeRate: rates.maker,
      takerCoefficient: s.takerFeeCoefficient,
      makerCoefficient: s.makerFeeCoefficient,
    });
  }
  return { time: now, ticker };
}

function withdrawalArgs(
  ctx: RouteContext,
  version: 'v1' | 'v3' | 'v4',
  p: { currency: string; amount: string; memo?: string; isInner?: boolean; remark?: string; chain?: string; feeDeductType?: 'INTERNAL' | 'EXTERNAL' },
  toAddress: string,
  withdrawType: 'ADDRESS' | 'UID' | 'MAIL' | 'PHONE',
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
  }) as WithdrawalRecord;
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

/** The handler of every endpoint of the table (the Record type makes the compiler check coverage). */
export const HANDLERS: Record<EndpointName, Handler> = {
  level2_20: ({ state, params }) => {
    requireSymbol(state, params.symbol as string);
    state.syncClock();
    return state.exchange.level2(params.symbol as string, 20);
  },
  level2_100: ({ state, params }) => {
    requireSymbol(state, params.symbol as string);
    state.syncClock();
    return state.exchange.level2(params.symbol as string, 100);
  },
  allTickers: ({ state }) => {
    state.syncClock();
    return computeTickers(state);
  },
  symbols: ({ state, params }) => {
    const m = params.market as string | undefined;
    if (m === undefined || m === '') return state.world.symbols;
    const market = normalizeMarket(m);
    return state.world.symbols.filter((s) => s.market.toLowerCase() === market.toLowerCase());
  },
  currencies: ({ state }) => state.world.currencies,
  currency: ({ state, params }) => {
    const code = params.currency as string;
    const cur = state.world.currencyMap.get(code) ?? state.world.currencyMap.get(code.toUpperCase());
    if (!cur) throw new SandboxError('400100', `currency: ${code} is not supported`);
    const chainParam = params.chain as string | undefined;
    if (chainParam === undefined || chainParam === '') return cur;
    const chain = resolveChain(cur, chainParam);
    if (!chain) throw new SandboxError('400100', `chain: ${chainParam} is not supported for ${cur.currency}`);
    return { ...cur, chains: [chain] };
  },
  prices: ({ state, params }) => {
    const base = ((params.base as string | undefined) || 'USD').toUpperCase();
    // Sandbox: fiat rates against USD (fixed, documented).
    const fiat: Record<string, string> = { USD: '1', EUR: '0.92', GBP: '0.79', JPY: '149.5', CNY: '7.1', TRY: '34.3' };
    const rate = fiat[base];
    if (!rate) throw new SandboxError('400100', `base: ${base} is not a supported fiat currency (${Object.keys(fiat).join(', ')})`);
    const wanted = (params.currencies as string | undefined)?.split(',').map((c) => c.trim()).filter(Boolean);
    const out: Record<string, string> = {};
    const codes = wanted && wanted.length ? wanted : [...state.world.usdPrices.keys()];
    for (const c of codes) {
      const p = state.world.usdPrices.get(c);
      if (p !== undefined) out[c] = D.fromUnitsFixed(D.toUnits(D.mul(p, rate), 16, 'down'), 16);
    }
    return out;
  },
  markets: ({ state }) => state.world.markets,
  status: ({ state }) => ({ status: state.status.status, msg: state.status.msg }),
  serverTime: ({ state }) => state.now(),
  regions: () => REGIONS,
  bulletPublic: ({ baseUrl }) => ({
    // The sandbox has no websocket feed: this token is well-formed but the endpoint refuses upgrades.
    token: `sandbox-${randomHex(16)}`,
    instanceServers: [{ endpoint: baseUrl.replace(/^http/, 'ws') + '/ws', encrypt: false, protocol: 'websocket', pingInterval: 18000, pingTimeout: 10000 }],
  }),

  fills: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params;
    requireSymbol(ctx.state, p.symbol as string);
    ctx.state.syncClock();
    return ctx.state.exchange.fills(uid, {
      symbol: p.symbol as string,
      ...(p.orderId !== undefined ? { orderId: p.orderId as string } : {}),
      ...(p.side !== undefined ? { side: p.side as 'buy' | 'sell' } : {}),
      ...(p.type !== undefined ? { type: p.type as 'limit' | 'market' } : {}),
      ...(p.startAt !== undefined ? { startAt: p.startAt as number } : {}),
      ...(p.endAt !== undefined ? { endAt: p.endAt as number } : {}),
      ...(p.lastId !== undefined ? { lastId: Number(p.lastId) } : {}),
      ...(p.limit !== undefined ? { limit: p.limit as number } : {}),
    });
  },
  order: (ctx) => {
    const uid = uidOf(ctx);
    requireSymbol(ctx.state, ctx.params.symbol as string);
    ctx.state.syncClock();
    // The engine applies the spec's 3 × 24 h window to done orders (400100 "order not exists").
    return ctx.state.exchange.getOrder(uid, ctx.params.symbol as string, ctx.params.orderId as string);
  },
  activeOrders: (ctx) => {
    const uid = uidOf(ctx);
    requireSymbol(ctx.state, ctx.params.symbol as string);
    ctx.state.syncClock();
    return ctx.state.exchange.activeOrders(uid, ctx.params.symbol as string);
  },
  baseFee: (ctx) => {
    const uid = uidOf(ctx);
    const r = ctx.state.exchange.feeRates(uid);
    return { takerFeeRate: r.takerFeeRate, makerFeeRate: r.makerFeeRate };
  },
  testOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const req = ctx.params as S.PlaceOrderRequest;
    requireSymbol(ctx.state, req.symbol);
    ctx.state.syncClock();
    ctx.state.exchange.validateOrder(uid, req as never);
    // Same response shape as placement; no order is created (an id outside the engine's id space).
    return { orderId: nextTestOrderId(), clientOid: req.clientOid ?? '' };
  },
  placeOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanPlace(ctx.state);
    const req = ctx.params as S.PlaceOrderRequest;
    requireSymbol(ctx.state, req.symbol);
    return ctx.state.run('order.place', { uid, req: { ...req } });
  },
  cancelOrder: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    requireSymbol(ctx.state, ctx.params.symbol as string);
    const r = ctx.state.run('order.cancel', { uid, symbol: ctx.params.symbol as string, orderId: ctx.params.orderId as string }) as { orderId: string };
    return { orderId: r.orderId };
  },
  cancelAllOrders: (ctx) => {
    const uid = uidOf(ctx);
    checkCanCancel(ctx.state);
    requireSymbol(ctx.state, ctx.params.symbol as string);
    ctx.state.run('order.cancelAll', { uid, symbol: ctx.params.symbol as string });
    return 'success';
  },

  accounts: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as { currency?: string; type?: 'main' | 'trade' };
    return ctx.state.exchange.accounts(uid, { ...(p.currency ? { currency: p.currency } : {}), ...(p.type ? { type: p.type } : {}) });
  },
  innerTransfer: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as S.InnerTransferRequest;
    if (!ctx.state.world.currencyMap.has(p.currency)) throw new SandboxError('400100', `currency: ${p.currency} is not supported`);
    return ctx.state.run('transfer', { uid, clientOid: p.clientOid, currency: p.currency, from: p.from, to: p.to, amount: p.amount });
  },
  depositAddress: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as S.DepositAddressRequest;
    const { currency, chain } = ctx.state.chainOf(p.currency, p.chain);
    if (!chain.isDepositEnabled) throw new SandboxError('260200', `deposit of ${currency.currency} on ${chain.chainName} is suspended`);
    // KuCoin keeps one address per (currency, chain) for the V1 create: a second one is refused.
    if (ctx.state.depositAddressesOf(uid, currency.currency, chain.chainId).length > 0) throw new SandboxError(E_DEPOSIT_ADDRESS_EXISTS, DEPOSIT_ADDRESS_EXISTS_MSG);
    const to = (p.to ?? 'main').toUpperCase() as 'MAIN' | 'TRADE';
    const rec = ctx.state.run('depositAddress.create', { uid, currency: currency.currency, chainId: chain.chainId, to, address: makeAddress(chain.chainId), memo: memoFor(chain.needTag) }) as ReturnType<SandboxState['depositAddresses']['at']> & object;
    return { address: rec.address, memo: rec.memo, chain: rec.chainName, chainId: rec.chainId, to: rec.to, currency: rec.currency };
  },
  depositAddressV3: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as S.DepositAddressRequest;
    const { currency, chain } = ctx.state.chainOf(p.currency, p.chain);
    if (!chain.isDepositEnabled) throw new SandboxError('260200', `deposit of ${currency.currency} on ${chain.chainName} is suspended`);
    const to = (p.to ?? 'main').toUpperCase() as 'MAIN' | 'TRADE';
    const rec = ctx.state.run('depositAddress.create', { uid, currency: currency.currency, chainId: chain.chainId, to, address: makeAddress(chain.chainId), memo: memoFor(chain.needTag) }) as ReturnType<SandboxState['depositAddresses']['at']> & object;
    return { address: rec.address, memo: rec.memo, chainId: rec.chainId, to: rec.to, expirationDate: 0, currency: rec.currency, chainName: rec.chainName };
  },
  depositAddressesV2: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as { currency: string; chain?: string };
    const cur = ctx.state.world.currencyMap.get(p.currency) ?? ctx.state.world.currencyMap.get(p.currency.toUpperCase());
    if (!cur) throw new SandboxError('400100', `currency: ${p.currency} is not supported`);
    let chainId: string | undefined;
    if (p.chain !== undefined) {
      const chain = resolveChain(cur, p.chain);
      if (!chain) throw new SandboxError('400100', `chain: ${p.chain} is not supported for ${cur.currency}`);
      chainId = chain.chainId;
    }
    const contract = new Map(cur.chains.map((c) => [c.chainId, c.contractAddress]));
    return ctx.state.depositAddressesOf(uid, cur.currency, chainId).map((a) => ({
      address: a.address,
      memo: a.memo,
      chain: a.chainName,
      chainId: a.chainId,
      to: a.to,
      currency: a.currency,
      contractAddress: contract.get(a.chainId) ?? '',
    }));
  },
  withdrawalQuotas: (ctx) => {
    const uid = uidOf(ctx);
    const p = ctx.params as { currency: string; chain?: string };
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
    const p = ctx.params as S.WithdrawalV1Request;
    const w = withdrawalArgs(ctx, 'v1', p, p.address, 'ADDRESS');
    return { withdrawalId: w.withdrawalId };
  },
  withdrawV3: (ctx) => {
    const p = ctx.params as S.WithdrawalV3Request;
    const w = withdrawalArgs(ctx, 'v3', p, p.toAddress, p.withdrawType);
    return { withdrawalId: w.withdrawalId };
  },
  withdrawV4: (ctx) => {
    const p = ctx.params as S.WithdrawalV4Request;
    const w = withdrawalArgs(ctx, 'v4', p, p.toAddress, p.withdrawType);
    return { withdrawalId: w.withdrawalId };
  },
};
