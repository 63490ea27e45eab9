/**
 * `SpotClient`: the typed client of the spot exchange API, driven entirely by the endpoint table
 * (`./endpoints`): no path, weight or pool literal lives here.
 *
 * Behaviour (spec "General rules", "Authentication", "Limits", "Errors"):
 * - Every request's parameters are validated with the endpoint's zod schema before anything is
 *   sent ({@link ValidationError} side 'request'); every success payload is validated with the
 *   response schema ({@link ValidationError} side 'response'). Bodies are decoded losslessly
 *   (`./json`): exact ids come out as decimal strings.
 * - Envelope `{code:"200000", data}`; any other code → {@link ApiError}, whatever the HTTP status.
 *   GET /api/v1/accounts as a bare array and level-2 books at top level are accepted.
 * - Private endpoints are signed (`./signing`) with `timestamp = now() + clockOffsetMs`.
 *   {@link SpotClient.syncTime} measures the offset from GET /api/v1/timestamp. After a 400002
 *   (timestamp rejected) the client resyncs ONCE; a GET is then re-signed and retried once.
 * - Client-side weight budget per pool (`./ratelimit`): requests queue instead of earning 429000;
 *   the budget follows the `gw-ratelimit-*` headers. On 429000 the pool is exhausted until the
 *   reset, and a GET waits it out and is re-sent.
 * - Only GETs are ever sent twice (transport failures, HTTP 5xx with exponential backoff, 429000,
 *   400002). POST and DELETE (orders, cancels, withdrawals) are sent exactly once per call: after a
 *   429000 or 400002 the error is thrown (the clock/budget is already corrected, so the caller may
 *   safely send again), and an answer that never arrived is a TransportError of kind 'ambiguous'
 *   ("the request may have been executed").
 * - Secrets (API secret, passphrase, broker key, signatures) never appear in errors, in the
 *   `onRequest` log hook, or in {@link SpotClient.prepare}'s output.
 */
import type * as http from 'node:http';
import { ENDPOINTS, fillPath, type EndpointDef, type EndpointName, type MoneyAction, type ParamsOf, type Pool, type PoolQuota, type ResponseOf } from './endpoints';
import { ApiError, TransportError, ValidationError } from './errors';
import { RateLimiter, readRateLimitHeaders, type PoolBudget, type RateLimitHeaders } from './ratelimit';
import {
  describeZodError,
  NoParams,
  type CandlesQuery,
  type DepositItem,
  type DepositsQuery,
  type DoneOrdersQuery,
  type FillsQuery,
  type HfFill,
  type HfLedgerEntry,
  type HfLedgersQuery,
  type HfOrder,
  type KeyVersion,
  type LedgerEntry,
  type LedgersQuery,
  type WithdrawalItem,
  type WithdrawalsQuery,
} from './schemas';
import { buildQuery, maskKey, signRequest, type Credentials, type QueryValue } from './signing';
import { decodeEnvelope, defaultFetch, envelopeCode, httpExchange, keepAliveAgent, type FetchLike, type RawAnswer } from './transport';
import { parseJson } from './json';

/** What the `onRequest` hook receives for every attempt. Never contains header values or bodies. */
export interface RequestLogEntry {
  method: string;
  /** Path without the query string. */
  path: string;
  endpoint: EndpointName | undefined;
  /** Envelope code ("200000", "400005"…) or undefined (bare payload / transport failure). */
  code: string | undefined;
  /** HTTP status, undefined when no answer arrived. */
  httpStatus: number | undefined;
  latencyMs: number;
  weight: number;
  pool: Pool;
  /** 0 for the first attempt, 1.. for retries. */
  attempt: number;
  /** Transport failure kind, when there was one. */
  error?: TransportError['kind'];
  /**
   * The failure of this attempt as `ErrorClass: message` (a TransportError's message, or an
   * ApiError's `msg`), when it failed. Holds no header values or secrets (the errors never do).
   */
  errorMessage?: string;
}

/**
 * `ErrorClass: message` of a failed attempt for the request log: an ApiError's `msg` (its code is
 * logged apart), a TransportError's message (the request line and the reason), else the message.
 */
function errorLine(e: unknown): string {
  if (e instanceof ApiError) return `ApiError: ${e.msg || '(no message)'}`;
  if (e instanceof Error) return `${e.name}${e instanceof TransportError ? ` (${e.kind})` : ''}: ${e.message}`;
  return String(e);
}

/** Options of {@link SpotClient}. */
export interface SpotClientOptions {
  /** e.g. "https://api.kucoin.com" or "http://127.0.0.1:8123" (no trailing slash needed). */
  baseUrl: string;
  /** API credentials; without them only public endpoints can be called. */
  credentials?: Credentials;
  /** Per-request timeout in ms (default 10 000). */
  timeoutMs?: number;
  /** HTTP agent (default: a keep-alive agent for the base URL's protocol). */
  agent?: http.Agent;
  /** fetch implementation (default node-fetch 2). */
  fetch?: FetchLike;
  /** Clock in epoch ms (default Date.now). */
  now?: () => number;
  /** Wait primitive used for queuing/backoff (default setTimeout); tests inject a virtual clock. */
  sleep?: (ms: number) => Promise<void>;
  /** Log hook, called once per attempt. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Pool quota overrides (default POOL_QUOTAS). */
  quotas?: Partial<Record<Pool, PoolQuota>>;
  /**
   * Asked before every request to an endpoint that moves money ({@link EndpointDef.moves}: a
   * placement, a cancel-all, a withdrawal), in the same call that would send it; throwing refuses
   * the request and nothing is sent. SpotDesk's extension gives real profiles' clients a guard that
   * requires the person's confirmation (src/extension/moneyGate.ts). Default: none.
   */
  moneyGuard?: MoneyGuard;
  /** Retries of a GET after a transport failure or HTTP 5xx (default 2). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry (default 250). */
  retryBaseMs?: number;
  /** Re-sends of a GET after 429000 before giving up (default 3); POST/DELETE are never re-sent. */
  maxRateLimitRetries?: number;
}

/**
 * A request exactly as it would be sent (for the request-builder panel). Safe to display: headers
 * are the redacted form. `send()` finds the real headers in a private table, so only the very
 * object returned by `prepare()` can be sent (a copy, e.g. from a webview, must be prepared again).
 */
export interface PreparedRequest {
  endpoint: EndpointName;
  method: string;
  /** Full URL with the percent-encoded query. */
  url: string;
  /** Path without query. */
  path: string;
  /** Path + `?` + raw (un-encoded) query: what is signed. */
  pathWithRawQuery: string;
  /** Exact body string ('' for GET/DELETE). */
  body: string;
  /** The signed string (timestamp + METHOD + pathWithRawQuery + body), '' for public endpoints. */
  prehash: string;
  /** Headers with KC-API-KEY masked and sign/passphrase `<redacted>`. */
  headers: Record<string, string>;
  /** KC-API-TIMESTAMP used (epoch ms, clock + offset). */
  timestamp: number;
  keyVersion: KeyVersion | undefined;
  clockOffsetMs: number;
  signed: boolean;
  pool: Pool;
  weight: number;
}

/** Options of {@link SpotClient.prepare}. */
export interface PrepareOptions {
  /** Validate params with the endpoint schema (default true). The request builder may send invalid requests on purpose. */
  validate?: boolean;
  /** Raw body string to send instead of JSON.stringify(params) (POST only; signed as is). */
  rawBody?: string;
}

/** Result of {@link SpotClient.send}: the answer, whatever its code. */
export interface SendResult {
  status: number;
  /** Envelope code when the body is an envelope. */
  code: string | undefined;
  bodyText: string;
  contentType: string;
  latencyMs: number;
  rateLimit: RateLimitHeaders | undefined;
}

/** A request about to move money, as a {@link MoneyGuard} sees it (nothing has been sent yet). */
export interface MoneyRequest {
  action: MoneyAction;
  endpoint: EndpointName;
  method: string;
  /** Path without query. */
  path: string;
  /** The exact body that would be sent ('' for DELETE). */
  body: string;
}

/** See {@link SpotClientOptions.moneyGuard}: returns to allow the request, throws to refuse it. */
export type MoneyGuard = (request: MoneyRequest) => void;

/** A signed request that waited longer than this (ms) for its pool's budget is signed again before it is sent. */
export const RESIGN_AFTER_QUEUE_MS = 1_000;

const SECRET_HEADERS = new WeakMap<PreparedRequest, Record<string, string>>();

/** The typed API client (see module docstring). */
export class SpotClient {
  readonly baseUrl: string;
  readonly #credentials: Credentials | undefined;
  private readonly timeoutMs: number;
  private readonly agent: http.Agent;
  private readonly ownAgent: boolean;
  private readonly fetchImpl: FetchLike;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onRequest?: (entry: RequestLogEntry) => void;
  private readonly limiter: RateLimiter;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly maxRateLimitRetries: number;
  readonly #moneyGuard: MoneyGuard | undefined;
  private offsetMs = 0;

  constructor(opts: SpotClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.#credentials = opts.credentials ? { ...opts.credentials } : undefined;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.ownAgent = !opts.agent;
    this.agent = opts.agent ?? keepAliveAgent(this.baseUrl);
    this.fetchImpl = opts.fetch ?? defaultFetch;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.onRequest = opts.onRequest;
    this.limiter = new RateLimiter({ quotas: opts.quotas, now: this.now, sleep: this.sleep });
    this.maxRetries = opts.maxRetries ?? 2;
    this.retryBaseMs = opts.retryBaseMs ?? 250;
    this.maxRateLimitRetries = opts.maxRateLimitRetries ?? 3;
    this.#moneyGuard = opts.moneyGuard;
  }

  /** True when credentials were given (private endpoints can be called). */
  get hasCredentials(): boolean {
    return this.#credentials !== undefined;
  }

  /** The API key masked for display (`5c2d…1734`), undefined without credentials. */
  get maskedApiKey(): string | undefined {
    return this.#credentials ? maskKey(this.#credentials.apiKey) : undefined;
  }

  /** Server time minus local time, in ms (0 until {@link syncTime}). */
  get clockOffsetMs(): number {
    return this.offsetMs;
  }

  /** Set the server-time offset (ms) explicitly. */
  setClockOffset(ms: number): void {
    this.offsetMs = Math.round(ms);
  }

  /**
   * Measure the server-time offset with GET /api/v1/timestamp (midpoint of the round trip) and
   * use it for KC-API-TIMESTAMP from now on. @returns the new offset in ms.
   */
  async syncTime(): Promise<number> {
    const t0 = this.now();
    const server = await this.call('serverTime', {});
    const t1 = this.now();
    this.offsetMs = Math.round(server - (t0 + t1) / 2);
    return this.offsetMs;
  }

  /** Per-pool client-side budget: `{limit, remaining, resetAt}` (resetAt epoch ms, 0 = no window open). */
  budget(): Record<Pool, PoolBudget> {
    return this.limiter.budget();
  }

  /** Close keep-alive sockets of the agent the client created (no-op for an injected agent). */
  close(): void {
    if (this.ownAgent) this.agent.destroy();
  }

  // -------------------------------------------------------------------------------------------
  // Building and sending
  // -------------------------------------------------------------------------------------------

  /**
   * Build (validate, serialize once, sign) the exact request for `name` with `params`.
   * @throws ValidationError (side 'request') when params fail the schema and `validate` is not false.
   * @throws Error when the endpoint is private and the client has no credentials.
   */
  prepare<N extends EndpointName>(name: N, params: ParamsOf<N>, opts: PrepareOptions = {}): PreparedRequest {
    const ep: EndpointDef = ENDPOINTS[name];
    let values: Record<string, unknown> = (params ?? {}) as Record<string, unknown>;
    if (opts.validate !== false) {
      const r = ep.params.safeParse(values);
      if (!r.success) throw new ValidationError('request', name, describeZodError(r.error));
      values = r.data as Record<string, unknown>;
    }
    let path: string;
    let query: Record<string, unknown> = {};
    let body = '';
    if (ep.method === 'POST') {
      path = ep.path;
      // a POST without parameters (bullet-public) sends no body at all
      body = opts.rawBody ?? (ep.params === NoParams && Object.keys(values).length === 0 ? '' : JSON.stringify(values));
    } else {
      ({ path, query } = fillPath(ep.path, values));
    }
    const q = buildQuery(query as Record<string, QueryValue>);
    const pathWithRawQuery = q.raw ? `${path}?${q.raw}` : path;
    const url = this.baseUrl + (q.encoded ? `${path}?${q.encoded}` : path);
    const timestamp = Math.round(this.now() + this.offsetMs);
    const base: Record<string, string> = { Accept: 'application/json' };
    if (ep.method === 'POST') base['Content-Type'] = 'application/json';
    const signed = ep.permission !== 'public';
    let headers = base;
    let shown = base;
    let prehash = '';
    if (signed) {
      const creds = this.#credentials;
      if (!creds) throw new Error(`${ep.method} ${ep.path} needs an API key with the ${ep.permission} permission; no credentials are configured`);
      const s = signRequest({ credentials: creds, timestamp, method: ep.method, pathWithRawQuery, body });
      headers = { ...base, ...s.headers };
      shown = { ...base, ...s.redactedHeaders };
      prehash = s.prehash;
    }
    const prepared: PreparedRequest = {
      endpoint: name,
      method: ep.method,
      url,
      path,
      pathWithRawQuery,
      body,
      prehash,
      headers: shown,
      timestamp,
      keyVersion: this.#credentials?.keyVersion,
      clockOffsetMs: this.offsetMs,
      signed,
      pool: ep.pool,
      weight: ep.weight,
    };
    SECRET_HEADERS.set(prepared, headers);
    return prepared;
  }

  /**
   * Send a request built by {@link prepare} exactly once (budget applies; no retry) and return
   * the answer without throwing for API errors (the request builder shows them).
   * @throws TransportError when no answer arrived or the prepared object is not this client's.
   */
  async send(prepared: PreparedRequest): Promise<SendResult> {
    const ans = await this.exchange(prepared, 0);
    let code: string | undefined;
    try {
      code = envelopeCode(parseJson(ans.text));
    } catch {
      code = undefined;
    }
    return {
      status: ans.status,
      code,
      bodyText: ans.text,
      contentType: ans.contentType,
      latencyMs: ans.latencyMs,
      rateLimit: readRateLimitHeaders(ans.header),
    };
  }

  /**
   * The real header values of a request built by {@link prepare} (signature, signed passphrase,
   * full API key) — for an explicit, user-confirmed "copy with secrets" only. The API secret itself
   * is never a header and never returned. Returns undefined for an object this client did not prepare.
   */
  unredactedHeaders(prepared: PreparedRequest): Record<string, string> | undefined {
    const h = SECRET_HEADERS.get(prepared);
    return h ? { ...h } : undefined;
  }

  /** One attempt: budget, HTTP exchange, budget update from headers, log. */
  private async exchange(prepared: PreparedRequest, attempt: number): Promise<RawAnswer> {
    const headers = SECRET_HEADERS.get(prepared);
    if (!headers) throw new Error('this request was not prepared by this client (or is a copy); call prepare() again');
    const action = (ENDPOINTS[prepared.endpoint] as EndpointDef).moves;
    if (action && this.#moneyGuard) this.#moneyGuard({ action, endpoint: prepared.endpoint, method: prepared.method, path: prepared.path, body: prepared.body });
    const queuedAt = this.now();
    await this.limiter.acquire(prepared.pool, prepared.weight);
    // A request that waited for the pool's budget carries a stale KC-API-TIMESTAMP (the exchange accepts
    // 5 s): sign it again, with the same body and path, just before it leaves.
    if (prepared.signed && this.now() - queuedAt > RESIGN_AFTER_QUEUE_MS) this.resign(prepared, headers);
    const t0 = this.now();
    let ans: RawAnswer;
    try {
      ans = await httpExchange({
        method: prepared.method,
        url: prepared.url,
        path: prepared.path,
        headers,
        body: prepared.body,
        timeoutMs: this.timeoutMs,
        fetch: this.fetchImpl,
        agent: this.agent,
        now: this.now,
        signed: prepared.signed,
      });
    } catch (e) {
      this.log(prepared, attempt, undefined, undefined, this.now() - t0, e instanceof TransportError ? e.kind : 'network', e);
      throw e;
    }
    this.limiter.update(prepared.pool, readRateLimitHeaders(ans.header));
    return ans;
  }

  /**
   * Sign `prepared` again with the current clock (+ offset): its timestamp, prehash and shown
   * headers are updated in place, and `headers` (its real headers) get the new KC-API-* values.
   */
  private resign(prepared: PreparedRequest, headers: Record<string, string>): void {
    const creds = this.#credentials;
    if (!creds) return;
    const timestamp = Math.round(this.now() + this.offsetMs);
    const s = signRequest({ credentials: creds, timestamp, method: prepared.method, pathWithRawQuery: prepared.pathWithRawQuery, body: prepared.body });
    Object.assign(headers, s.headers);
    prepared.headers = { ...prepared.headers, ...s.redactedHeaders };
    prepared.timestamp = timestamp;
    prepared.prehash = s.prehash;
    prepared.clockOffsetMs = this.offsetMs;
  }

  private log(p: PreparedRequest, attempt: number, code: string | undefined, httpStatus: number | undefined, latencyMs: number, error?: TransportError['kind'], failure?: unknown): void {
    if (!this.onRequest) return;
    try {
      const errorMessage = failure === undefined ? undefined : errorLine(failure);
      this.onRequest({ method: p.method, path: p.path, endpoint: p.endpoint, code, httpStatus, latencyMs, weight: p.weight, pool: p.pool, attempt, ...(error ? { error } : {}), ...(errorMessage ? { errorMessage } : {}) });
    } catch {
      // a failing log hook must not break requests
    }
  }

  private backoff(attempt: number): number {
    return Math.min(5_000, this.retryBaseMs * 2 ** attempt);
  }

  /**
   * Call endpoint `name` with `params` and return its validated payload (see module docstring for
   * retries, resync and queuing).
   * @throws ValidationError | ApiError | TransportError
   */
  async call<N extends EndpointName>(name: N, params: ParamsOf<N>): Promise<ResponseOf<N>> {
    const ep: EndpointDef = ENDPOINTS[name];
    let attempt = 0;
    let retries = 0;
    let rateLimitRetries = 0;
    let resynced = false;
    for (;;) {
      const prepared = this.prepare(name, params);
      let ans: RawAnswer;
      try {
        ans = await this.exchange(prepared, attempt);
      } catch (e) {
        if (ep.method === 'GET' && e instanceof TransportError && retries < this.maxRetries) {
          await this.sleep(this.backoff(retries++));
          attempt++;
          continue;
        }
        throw e;
      }
      if (ep.method === 'GET' && ans.status >= 500 && retries < this.maxRetries) {
        this.log(prepared, attempt, undefined, ans.status, ans.latencyMs);
        await this.sleep(this.backoff(retries++));
        attempt++;
        continue;
      }
      let payload: unknown;
      try {
        const d = decodeEnvelope(ans, ep.method, prepared.path, ep.envelope === 'maybe-bare');
        this.log(prepared, attempt, d.code, ans.status, ans.latencyMs);
        payload = d.payload;
      } catch (e) {
        this.log(prepared, attempt, e instanceof ApiError ? e.code : undefined, ans.status, ans.latencyMs, e instanceof TransportError ? e.kind : undefined, e);
        if (e instanceof ApiError) {
          if (e.isRateLimit) {
            this.limiter.exhaust(ep.pool, readRateLimitHeaders(ans.header)?.reset);
            if (ep.method === 'GET' && rateLimitRetries < this.maxRateLimitRetries) {
              rateLimitRetries++;
              attempt++;
              continue; // the next acquire() waits out the reset
            }
          }
          if (e.isTimestampError && !resynced && this.#credentials) {
            resynced = true;
            await this.syncTime();
            if (ep.method === 'GET') {
              attempt++;
              continue;
            }
          }
        }
        if (e instanceof TransportError && e.kind === 'non-json' && ep.method !== 'GET' && ans.status >= 500) {
          throw TransportError.ambiguous(ep.method, prepared.path, `${e.message.replace(/^\S+ \S+: /, '').replace(/;.*$/, '')} (a gateway error)`);
        }
        throw e;
      }
      const quick = ep.fast?.(payload);
      if (quick !== undefined) return quick as ResponseOf<N>;
      const r = ep.response.safeParse(payload);
      if (!r.success) throw new ValidationError('response', name, describeZodError(r.error));
      return r.data as ResponseOf<N>;
    }
  }

  // -------------------------------------------------------------------------------------------
  // One typed method per endpoint (all through the table)
  // -------------------------------------------------------------------------------------------

  /** Level-2 snapshot, 20 or 100 levels (GET /api/v1/market/orderbook/level2_{20,100}). */
  getLevel2(symbol: string, depth: 20 | 100 = 20): Promise<ResponseOf<'level2_20'>> {
    return depth === 100 ? this.call('level2_100', { symbol }) : this.call('level2_20', { symbol });
  }
  /** One page of HF fills (GET /api/v1/hf/fills); ids are exact strings. */
  getFills(query: FillsQuery): Promise<ResponseOf<'fills'>> {
    return this.call('fills', query);
  }
  /**
   * All HF fills matching `query`, newest first, following `lastId` page by page (limit ≤ 100,
   * default 100). Stops on a short/empty page or when `lastId` does not move.
   */
  iterateFills(query: FillsQuery): AsyncGenerator<HfFill, void, undefined> {
    return this.byLastId(query, 100, async (p) => {
      const page = await this.getFills({ ...query, ...p });
      return { items: page.items, next: page.lastId };
    });
  }
  /** One HF order (GET /api/v1/hf/orders/{orderId}?symbol=). */
  getOrder(symbol: string, orderId: string): Promise<ResponseOf<'order'>> {
    return this.call('order', { orderId, symbol });
  }
  /** Active HF orders of a pair (GET /api/v1/hf/orders/active). */
  getActiveOrders(symbol: string): Promise<ResponseOf<'activeOrders'>> {
    return this.call('activeOrders', { symbol });
  }
  /** All currencies (GET /api/v3/currencies). */
  getCurrencies(): Promise<ResponseOf<'currencies'>> {
    return this.call('currencies', {});
  }
  /** One currency, optionally one chain (GET /api/v3/currencies/{currency}?chain=). */
  getCurrency(currency: string, chain?: string): Promise<ResponseOf<'currency'>> {
    return this.call('currency', { currency, chain });
  }
  /** Base fee rates; currencyType "0" crypto (default) or "1" fiat (GET /api/v1/base-fee). */
  getBaseFee(currencyType?: '0' | '1'): Promise<ResponseOf<'baseFee'>> {
    return this.call('baseFee', { currencyType });
  }
  /** Fiat prices (GET /api/v1/prices). */
  getPrices(opts: { base?: string; currencies?: string[] | string } = {}): Promise<ResponseOf<'prices'>> {
    const currencies = Array.isArray(opts.currencies) ? opts.currencies.join(',') : opts.currencies;
    return this.call('prices', { base: opts.base, currencies });
  }
  /** Accounts (GET /api/v1/accounts). */
  getAccounts(filter: { currency?: string; type?: 'main' | 'trade' } = {}): Promise<ResponseOf<'accounts'>> {
    return this.call('accounts', filter);
  }
  /** Validate an order without creating it (POST /api/v1/hf/orders/test). */
  testOrder(order: ParamsOf<'testOrder'>): Promise<ResponseOf<'testOrder'>> {
    return this.call('testOrder', order);
  }
  /** Place an HF order (POST /api/v1/hf/orders). Never retried automatically. */
  placeOrder(order: ParamsOf<'placeOrder'>): Promise<ResponseOf<'placeOrder'>> {
    return this.call('placeOrder', order);
  }
  /** Cancel an HF order (DELETE /api/v1/hf/orders/{orderId}?symbol=). */
  cancelOrder(symbol: string, orderId: string): Promise<ResponseOf<'cancelOrder'>> {
    return this.call('cancelOrder', { orderId, symbol });
  }
  /** Cancel all HF orders of a pair (DELETE /api/v1/hf/orders?symbol=). */
  cancelAllOrders(symbol: string): Promise<ResponseOf<'cancelAllOrders'>> {
    return this.call('cancelAllOrders', { symbol });
  }
  /** Create a deposit address, V1 (POST /api/v1/deposit-addresses). */
  createDepositAddress(req: ParamsOf<'depositAddress'>): Promise<ResponseOf<'depositAddress'>> {
    return this.call('depositAddress', req);
  }
  /** Create a deposit address, V3 (POST /api/v3/deposit-address/create). */
  createDepositAddressV3(req: ParamsOf<'depositAddressV3'>): Promise<ResponseOf<'depositAddressV3'>> {
    return this.call('depositAddressV3', req);
  }
  /**
   * The deposit addresses the user already has for `currency`, optionally one `chain` (chain id,
   * e.g. `trx`), oldest first; `[]` when none was created (GET /api/v2/deposit-addresses).
   * Use it after a create answered "already exists" (260000).
   */
  getDepositAddresses(currency: string, chain?: string): Promise<ResponseOf<'depositAddressesV2'>> {
    return this.call('depositAddressesV2', { currency, chain });
  }
  /** Withdraw, V1 (POST /api/v1/withdrawals). Never retried automatically. */
  withdrawV1(req: ParamsOf<'withdrawV1'>): Promise<ResponseOf<'withdrawV1'>> {
    return this.call('withdrawV1', req);
  }
  /** Withdraw, V3 (POST /api/v3/withdrawals). Never retried automatically. */
  withdrawV3(req: ParamsOf<'withdrawV3'>): Promise<ResponseOf<'withdrawV3'>> {
    return this.call('withdrawV3', req);
  }
  /** Withdraw, V4 (POST /api/v4/withdrawals). Never retried automatically. */
  withdrawV4(req: ParamsOf<'withdrawV4'>): Promise<ResponseOf<'withdrawV4'>> {
    return this.call('withdrawV4', req);
  }
  /** Market names (GET /api/v1/markets). */
  getMarkets(): Promise<ResponseOf<'markets'>> {
    return this.call('markets', {});
  }
  /** Service status (GET /api/v1/status). */
  getStatus(): Promise<ResponseOf<'status'>> {
    return this.call('status', {});
  }
  /** Trading pairs, optionally of one market (GET /api/v2/symbols). */
  getSymbols(market?: string): Promise<ResponseOf<'symbols'>> {
    return this.call('symbols', { market });
  }
  /** Server time in ms (GET /api/v1/timestamp). */
  getServerTime(): Promise<number> {
    return this.call('serverTime', {});
  }
  /** All tickers (GET /api/v1/market/allTickers). */
  getAllTickers(): Promise<ResponseOf<'allTickers'>> {
    return this.call('allTickers', {});
  }
  /** Move funds between main and trade (POST /api/v2/accounts/inner-transfer). */
  innerTransfer(req: ParamsOf<'innerTransfer'>): Promise<ResponseOf<'innerTransfer'>> {
    return this.call('innerTransfer', req);
  }
  /** Withdrawal quotas and fees of a currency/chain (GET /api/v1/withdrawals/quotas). */
  getWithdrawalQuotas(currency: string, chain?: string): Promise<ResponseOf<'withdrawalQuotas'>> {
    return this.call('withdrawalQuotas', { currency, chain });
  }
  /** Countries accepted for V4 withdrawal identity (GET /kyc/regions/v4). */
  getRegions(): Promise<ResponseOf<'regions'>> {
    return this.call('regions', {});
  }
  /** Public websocket token (POST /api/v1/bullet-public); use it with `StreamClient` (./stream). */
  getBulletPublic(): Promise<ResponseOf<'bulletPublic'>> {
    return this.call('bulletPublic', {});
  }
  /** Private websocket token bound to the key's user (POST /api/v1/bullet-private, General permission). */
  getBulletPrivate(): Promise<ResponseOf<'bulletPrivate'>> {
    return this.call('bulletPrivate', {});
  }

  // --- KuCoin endpoints beyond the spec (issue 21) ---

  /** Account mode: `selfAccountMode` CLASSIC or UNIFIED (GET /api/ua/v1/account/mode). */
  getAccountMode(): Promise<ResponseOf<'accountMode'>> {
    return this.call('accountMode', {});
  }
  /** Whether the spot account is high-frequency (GET /api/v1/hf/accounts/opened). */
  isHfAccount(): Promise<boolean> {
    return this.call('hfAccountOpened', {});
  }
  /** Cross-margin symbols (GET /api/v3/margin/symbols). */
  getMarginSymbols(symbol?: string): Promise<ResponseOf<'marginSymbols'>> {
    return this.call('marginSymbols', { symbol });
  }
  /** Isolated-margin symbols (GET /api/v1/isolated/symbols). */
  getIsolatedSymbols(): Promise<ResponseOf<'isolatedSymbols'>> {
    return this.call('isolatedSymbols', {});
  }
  /** Active futures contracts (GET /api/v1/contracts/active, on the futures host of a real KuCoin). */
  getFuturesContracts(): Promise<ResponseOf<'futuresContracts'>> {
    return this.call('futuresContracts', {});
  }
  /** 24 h statistics of a pair (GET /api/v1/market/stats). */
  getStats(symbol: string): Promise<ResponseOf<'stats'>> {
    return this.call('stats', { symbol });
  }
  /** Best bid/ask and the last trade of a pair (GET /api/v1/market/orderbook/level1). */
  getLevel1(symbol: string): Promise<ResponseOf<'level1'>> {
    return this.call('level1', { symbol });
  }
  /** The last 100 public trades of a pair, oldest first; `time` in ns as an exact string (GET /api/v1/market/histories). */
  getTradeHistory(symbol: string): Promise<ResponseOf<'tradeHistory'>> {
    return this.call('tradeHistory', { symbol });
  }
  /**
   * Candles, newest first, at most 1500: `[start (s), open, close, high, low, volume, turnover]`
   * (GET /api/v1/market/candles; `startAt`/`endAt` in seconds). Page back in time with `endAt`.
   */
  getCandles(query: CandlesQuery): Promise<ResponseOf<'candles'>> {
    return this.call('candles', query);
  }
  /** The full order book, signed (GET /api/v3/market/orderbook/level2). */
  getFullOrderBook(symbol: string): Promise<ResponseOf<'level2Full'>> {
    return this.call('level2Full', { symbol });
  }
  /** One page of done HF orders, newest first (GET /api/v1/hf/orders/done). */
  getDoneOrders(query: DoneOrdersQuery): Promise<ResponseOf<'doneOrders'>> {
    return this.call('doneOrders', query);
  }
  /**
   * All done HF orders matching `query`, newest first, following `lastId` page by page (limit ≤ 100,
   * default 100). Stops on a short or empty page or when `lastId` does not move.
   */
  iterateDoneOrders(query: DoneOrdersQuery): AsyncGenerator<HfOrder, void, undefined> {
    return this.byLastId(query, 100, async (p) => {
      const page = await this.getDoneOrders({ ...query, ...p });
      return { items: page.items, next: page.lastId };
    });
  }
  /** One HF order by clientOid (GET /api/v1/hf/orders/client-order/{clientOid}?symbol=). */
  getOrderByClientOid(symbol: string, clientOid: string): Promise<ResponseOf<'orderByClientOid'>> {
    return this.call('orderByClientOid', { clientOid, symbol });
  }
  /** Cancel an HF order by clientOid (DELETE /api/v1/hf/orders/client-order/{clientOid}?symbol=). Never retried. */
  cancelOrderByClientOid(symbol: string, clientOid: string): Promise<ResponseOf<'cancelOrderByClientOid'>> {
    return this.call('cancelOrderByClientOid', { clientOid, symbol });
  }
  /** The pairs with active HF orders (GET /api/v1/hf/orders/active/symbols). */
  async getActiveOrderSymbols(): Promise<string[]> {
    return (await this.call('activeOrderSymbols', {})).symbols;
  }

  // --- stop and OCO orders (KuCoin /api/v1/stop-order, /api/v3/oco; schemas src/api/schemas/advancedOrders.ts)

  /** Place a stop order (POST /api/v1/stop-order): it waits for `stopPrice` (`stop` loss: at or below, entry: at or above; default loss). */
  placeStopOrder(req: ParamsOf<'stopOrderPlace'>): Promise<ResponseOf<'stopOrderPlace'>> {
    return this.call('stopOrderPlace', req);
  }
  /** Cancel a waiting stop order (DELETE /api/v1/stop-order/{orderId}); an OCO leg's id cancels its OCO order. @returns the cancelled ids. */
  async cancelStopOrder(orderId: string): Promise<string[]> {
    return (await this.call('stopOrderCancel', { orderId })).cancelledOrderIds;
  }
  /** Cancel the waiting stop order of a clientOid (DELETE /api/v1/stop-order/cancelOrderByClientOid). */
  cancelStopOrderByClientOid(clientOid: string, symbol?: string): Promise<ResponseOf<'stopOrderCancelByClientOid'>> {
    return this.call('stopOrderCancelByClientOid', { clientOid, symbol });
  }
  /** Cancel waiting stop orders: all, of `symbol`, or `orderIds` (comma-separated) (DELETE /api/v1/stop-order/cancel). @returns the cancelled ids. */
  async cancelStopOrders(query: ParamsOf<'stopOrderCancelBatch'> = {}): Promise<string[]> {
    return (await this.call('stopOrderCancelBatch', query)).cancelledOrderIds;
  }
  /** One page of waiting stop orders, newest first (GET /api/v1/stop-order). */
  getStopOrders(query: ParamsOf<'stopOrders'> = {}): Promise<ResponseOf<'stopOrders'>> {
    return this.call('stopOrders', query);
  }
  /** One stop order (GET /api/v1/stop-order/{orderId}). */
  getStopOrder(orderId: string): Promise<ResponseOf<'stopOrder'>> {
    return this.call('stopOrder', { orderId });
  }
  /** The stop orders of a clientOid (GET /api/v1/stop-order/queryOrderByClientOid). */
  getStopOrdersByClientOid(clientOid: string, symbol?: string): Promise<ResponseOf<'stopOrderByClientOid'>> {
    return this.call('stopOrderByClientOid', { clientOid, symbol });
  }
  /** Place an OCO order (POST /api/v3/oco/order): a limit leg at `price` and a stop leg (`stopPrice` → `limitPrice`). */
  placeOcoOrder(req: ParamsOf<'ocoPlace'>): Promise<ResponseOf<'ocoPlace'>> {
    return this.call('ocoPlace', req);
  }
  /** Cancel an OCO order (DELETE /api/v3/oco/order/{orderId}). @returns its legs' ids. */
  async cancelOcoOrder(orderId: string): Promise<string[]> {
    return (await this.call('ocoCancel', { orderId })).cancelledOrderIds;
  }
  /** Cancel an OCO order by clientOid (DELETE /api/v3/oco/client-order/{clientOid}). @returns its legs' ids. */
  async cancelOcoOrderByClientOid(clientOid: string): Promise<string[]> {
    return (await this.call('ocoCancelByClientOid', { clientOid })).cancelledOrderIds;
  }
  /** Cancel OCO orders: `orderIds`, else all of `symbol`, else all (DELETE /api/v3/oco/orders). @returns the legs' ids. */
  async cancelOcoOrders(query: ParamsOf<'ocoCancelBatch'> = {}): Promise<string[]> {
    return (await this.call('ocoCancelBatch', query)).cancelledOrderIds;
  }
  /** One OCO order (GET /api/v3/oco/order/{orderId}). */
  getOcoOrder(orderId: string): Promise<ResponseOf<'ocoOrder'>> {
    return this.call('ocoOrder', { orderId });
  }
  /** One OCO order by clientOid (GET /api/v3/oco/client-order/{clientOid}). */
  getOcoOrderByClientOid(clientOid: string): Promise<ResponseOf<'ocoOrderByClientOid'>> {
    return this.call('ocoOrderByClientOid', { clientOid });
  }
  /** One OCO order with its two legs (GET /api/v3/oco/order/details/{orderId}). */
  getOcoOrderDetail(orderId: string): Promise<ResponseOf<'ocoOrderDetail'>> {
    return this.call('ocoOrderDetail', { orderId });
  }
  /** One page of OCO orders, newest first (GET /api/v3/oco/orders). */
  getOcoOrders(query: ParamsOf<'ocoOrders'> = {}): Promise<ResponseOf<'ocoOrders'>> {
    return this.call('ocoOrders', query);
  }
  /** The user's fee rates of 1 to 10 pairs (GET /api/v1/trade-fees?symbols=). */
  getTradeFees(symbols: readonly string[]): Promise<ResponseOf<'tradeFees'>> {
    return this.call('tradeFees', { symbols: symbols.join(',') });
  }
  /** The deposit address of a currency (and chain), or null when none was created (GET /api/v1/deposit-addresses). */
  getDepositAddress(currency: string, chain?: string): Promise<ResponseOf<'depositAddressV1'>> {
    return this.call('depositAddressV1', { currency, chain });
  }
  /** One page of the deposit history, newest first (GET /api/v1/deposits). */
  getDeposits(query: DepositsQuery = {}): Promise<ResponseOf<'deposits'>> {
    return this.call('deposits', query);
  }
  /** Every deposit matching `query`, newest first, page after page (pageSize default 100). */
  iterateDeposits(query: DepositsQuery = {}): AsyncGenerator<DepositItem, void, undefined> {
    return this.pages((p) => this.getDeposits({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** One page of the withdrawal history, newest first (GET /api/v1/withdrawals). */
  getWithdrawals(query: WithdrawalsQuery = {}): Promise<ResponseOf<'withdrawals'>> {
    return this.call('withdrawals', query);
  }
  /** Every withdrawal matching `query`, newest first, page after page (pageSize default 100). */
  iterateWithdrawals(query: WithdrawalsQuery = {}): AsyncGenerator<WithdrawalItem, void, undefined> {
    return this.pages((p) => this.getWithdrawals({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** Cancel a withdrawal that is still processing; its hold is released (DELETE /api/v1/withdrawals/{withdrawalId}). Never retried. */
  async cancelWithdrawal(withdrawalId: string): Promise<void> {
    await this.call('cancelWithdrawal', { withdrawalId });
  }
  /** Move funds between accounts with a flex transfer (POST /api/v3/accounts/universal-transfer). Never retried. */
  universalTransfer(req: ParamsOf<'universalTransfer'>): Promise<ResponseOf<'universalTransfer'>> {
    return this.call('universalTransfer', req);
  }
  /** Transferable balance of an account (GET /api/v1/accounts/transferable; `type` MAIN, TRADE or TRADE_HF). */
  getTransferable(currency: string, type: 'MAIN' | 'TRADE' | 'TRADE_HF'): Promise<ResponseOf<'transferable'>> {
    return this.call('transferable', { currency, type });
  }
  /** One page of the main/trade account ledger, newest first (GET /api/v1/accounts/ledgers). */
  getLedgers(query: LedgersQuery = {}): Promise<ResponseOf<'ledgers'>> {
    return this.call('ledgers', query);
  }
  /** Every ledger entry matching `query`, newest first, page after page (pageSize default 100). */
  iterateLedgers(query: LedgersQuery = {}): AsyncGenerator<LedgerEntry, void, undefined> {
    return this.pages((p) => this.getLedgers({ ...query, ...p }), query.pageSize, query.currentPage);
  }
  /** One page of the trade_hf account ledger, newest first (GET /api/v1/hf/accounts/ledgers). */
  getHfLedgers(query: HfLedgersQuery = {}): Promise<ResponseOf<'hfLedgers'>> {
    return this.call('hfLedgers', query);
  }
  /** Every trade_hf ledger entry matching `query`, newest first, following `lastId` (limit default 200). */
  iterateHfLedgers(query: HfLedgersQuery = {}): AsyncGenerator<HfLedgerEntry, void, undefined> {
    return this.byLastId(query, 200, async (p) => {
      const page = await this.getHfLedgers({ ...query, ...p });
      // the list has no cursor field: the next page is the entries below the last one's id
      return { items: page, next: page.length > 0 ? page[page.length - 1].id : null };
    });
  }

  // --- HF order variants (KuCoin spot "Pro account"; rows hf* of the endpoint table) -------------------

  /** Place an HF order and get it back after matching (POST /api/v1/hf/orders/sync). */
  placeOrderSync(order: ParamsOf<'hfPlaceOrderSync'>): Promise<ResponseOf<'hfPlaceOrderSync'>> {
    return this.call('hfPlaceOrderSync', order);
  }
  /** Place up to 5 HF orders, each on its own pair; a refused one fails alone (POST /api/v1/hf/orders/multi). */
  placeOrders(orderList: ParamsOf<'hfPlaceMulti'>['orderList']): Promise<ResponseOf<'hfPlaceMulti'>> {
    return this.call('hfPlaceMulti', { orderList });
  }
  /** {@link placeOrders}, each placed order back after matching (POST /api/v1/hf/orders/multi/sync). */
  placeOrdersSync(orderList: ParamsOf<'hfPlaceMultiSync'>['orderList']): Promise<ResponseOf<'hfPlaceMultiSync'>> {
    return this.call('hfPlaceMultiSync', { orderList });
  }
  /** Cancel an HF order and get its final sizes (DELETE /api/v1/hf/orders/sync/{orderId}?symbol=). */
  cancelOrderSync(symbol: string, orderId: string): Promise<ResponseOf<'hfCancelOrderSync'>> {
    return this.call('hfCancelOrderSync', { orderId, symbol });
  }
  /** Cancel an HF order by clientOid and get its final sizes (DELETE /api/v1/hf/orders/sync/client-order/{clientOid}?symbol=). */
  cancelOrderByClientOidSync(symbol: string, clientOid: string): Promise<ResponseOf<'hfCancelByClientOidSync'>> {
    return this.call('hfCancelByClientOidSync', { clientOid, symbol });
  }
  /** Cancel `cancelSize` (decimal string) of an HF order; it keeps its queue place (DELETE /api/v1/hf/orders/cancel/{orderId}). */
  cancelPartialOrder(symbol: string, orderId: string, cancelSize: string): Promise<ResponseOf<'hfCancelPartial'>> {
    return this.call('hfCancelPartial', { orderId, symbol, cancelSize });
  }
  /** Cancel every HF order of every pair (DELETE /api/v1/hf/orders/cancelAll): `{succeedSymbols, failedSymbols}`. */
  cancelAllOrdersOfAllSymbols(): Promise<ResponseOf<'hfCancelAllSymbols'>> {
    return this.call('hfCancelAllSymbols', {});
  }
  /**
   * Modify an HF order (POST /api/v1/hf/orders/alter): KuCoin cancels it and places a new order, whose id
   * comes back as `newOrderId` (null when `newSize` is not above the dealt size: only cancelled).
   */
  alterOrder(req: ParamsOf<'hfAlterOrder'>): Promise<ResponseOf<'hfAlterOrder'>> {
    return this.call('hfAlterOrder', req);
  }
  /** One page of the active HF orders of a pair, newest first (GET /api/v1/hf/orders/active/page). */
  getActiveOrdersPage(query: ParamsOf<'hfActiveOrdersPage'>): Promise<ResponseOf<'hfActiveOrdersPage'>> {
    return this.call('hfActiveOrdersPage', query);
  }
  /**
   * Set (`timeout` 5..86400 s), renew or unset (−1) the dead-man's switch over `symbols` (none: every pair)
   * (POST /api/v1/hf/orders/dead-cancel-all): `{currentTime, triggerTime}` in seconds.
   */
  setDeadCancel(timeout: number, symbols: readonly string[] = []): Promise<ResponseOf<'hfSetDeadCancel'>> {
    return this.call('hfSetDeadCancel', { timeout, ...(symbols.length > 0 ? { symbols: symbols.join(',') } : {}) });
  }
  /** The dead-man's switch, or null when none is set (GET /api/v1/hf/orders/dead-cancel-all/query). */
  getDeadCancel(): Promise<ResponseOf<'hfGetDeadCancel'>> {
    return this.call('hfGetDeadCancel', {});
  }

  // --- the classic (low-frequency) order API (rows classic* of the endpoint table) -------------------

  /** Place an order through the classic API (POST /api/v1/orders; clientOid required). */
  placeClassicOrder(order: ParamsOf<'classicPlaceOrder'>): Promise<ResponseOf<'classicPlaceOrder'>> {
    return this.call('classicPlaceOrder', order);
  }
  /** Validate an order through the classic API; nothing is created (POST /api/v1/orders/test). */
  testClassicOrder(order: ParamsOf<'classicTestOrder'>): Promise<ResponseOf<'classicTestOrder'>> {
    return this.call('classicTestOrder', order);
  }
  /** Place up to 5 orders of one pair through the classic API (POST /api/v1/orders/multi). */
  placeClassicOrders(symbol: string, orderList: ParamsOf<'classicPlaceMulti'>['orderList']): Promise<ResponseOf<'classicPlaceMulti'>> {
    return this.call('classicPlaceMulti', { symbol, orderList });
  }
  /** One page of orders, active or done (GET /api/v1/orders). */
  getClassicOrders(query: ParamsOf<'classicOrders'> = {}): Promise<ResponseOf<'classicOrders'>> {
    return this.call('classicOrders', query);
  }
  /** The orders of the last 24 h, at most 1000 (GET /api/v1/limit/orders). */
  getRecentClassicOrders(): Promise<ResponseOf<'classicRecentOrders'>> {
    return this.call('classicRecentOrders', {});
  }
  /** One order by id, any pair (GET /api/v1/orders/{orderId}). */
  getClassicOrder(orderId: string): Promise<ResponseOf<'classicOrder'>> {
    return this.call('classicOrder', { orderId });
  }
  /** One ACTIVE order by clientOid, any pair (GET /api/v1/order/client-order/{clientOid}). */
  getClassicOrderByClientOid(clientOid: string): Promise<ResponseOf<'classicOrderByClientOid'>> {
    return this.call('classicOrderByClientOid', { clientOid });
  }
  /** Cancel an order by id (DELETE /api/v1/orders/{orderId}): `{cancelledOrderIds}`. */
  cancelClassicOrder(orderId: string): Promise<ResponseOf<'classicCancelOrder'>> {
    return this.call('classicCancelOrder', { orderId });
  }
  /** Cancel an order by clientOid (DELETE /api/v1/order/client-order/{clientOid}). */
  cancelClassicOrderByClientOid(clientOid: string): Promise<ResponseOf<'classicCancelByClientOid'>> {
    return this.call('classicCancelByClientOid', { clientOid });
  }
  /** Cancel every order of `symbol`, or of every pair (DELETE /api/v1/orders): `{cancelledOrderIds}`. */
  cancelAllClassicOrders(query: ParamsOf<'classicCancelAll'> = {}): Promise<ResponseOf<'classicCancelAll'>> {
    return this.call('classicCancelAll', query);
  }
  /** One page of fills (GET /api/v1/fills). */
  getClassicFills(query: ParamsOf<'classicFills'> = {}): Promise<ResponseOf<'classicFills'>> {
    return this.call('classicFills', query);
  }
  /** The fills of the last 24 h, at most 1000 (GET /api/v1/limit/fills). */
  getRecentClassicFills(): Promise<ResponseOf<'classicRecentFills'>> {
    return this.call('classicRecentFills', {});
  }

  /**
   * Items of a list paged by `lastId` (HF fills, done HF orders, the trade_hf ledger), page by page
   * from `query.lastId`: `get` is asked for `{limit, lastId?}` (limit = `query.limit` capped at
   * `maxLimit`, default `maxLimit`; no `lastId` on the first page unless the query has one) and
   * answers the page's items and the next page's cursor. Stops on a short page, a null cursor, or
   * a cursor that does not move.
   */
  private async *byLastId<T>(
    query: { limit?: number | string; lastId?: number | string | bigint },
    maxLimit: number,
    get: (page: { limit: number; lastId?: string }) => Promise<{ items: readonly T[]; next: string | null }>,
  ): AsyncGenerator<T, void, undefined> {
    const limit = Math.min(maxLimit, Number(query.limit ?? maxLimit));
    let lastId = query.lastId === undefined ? undefined : String(query.lastId);
    for (;;) {
      const page = await get({ limit, ...(lastId !== undefined ? { lastId } : {}) });
      for (const it of page.items) yield it;
      if (page.items.length < limit || page.next === null || page.next === lastId) return;
      lastId = page.next;
    }
  }

  /** Items of a `currentPage`/`pageSize` list, page by page from `startPage`, until the last page. */
  private async *pages<T>(get: (p: { currentPage: number; pageSize: number }) => Promise<{ totalPage: number; items: T[] }>, pageSize: number | string = 100, startPage: number | string = 1): AsyncGenerator<T, void, undefined> {
    for (let currentPage = Number(startPage); ; currentPage++) {
      const page = await get({ currentPage, pageSize: Number(pageSize) });
      for (const it of page.items) yield it;
      if (page.items.length === 0 || currentPage >= page.totalPage) return;
    }
  }
}

/** Re-exported so that `import { SpotClient, ApiError } from './client'` works. */
export { ApiError, TransportError, ValidationError };
