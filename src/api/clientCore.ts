/**
 * The call machinery of `SpotClient` (client.ts), the typed client of the spot exchange API, driven entirely by
 * the endpoint table (`./endpoints`): no path, weight or pool literal lives here.
 *
 * Key rules (spec "General rules", "Authentication", "Limits", "Errors"):
 * - parameters are validated before anything is sent, every success payload after it ({@link ValidationError}
 *   side 'request' / 'response'); bodies are decoded losslessly (`./json`);
 * - a code other than "200000" is an {@link ApiError}, whatever the HTTP status;
 * - private endpoints are signed (`./signing`) with `now() + clockOffsetMs` ({@link SpotClientCore.syncTime});
 * - a client-side weight budget per pool (`./ratelimit`) queues requests instead of earning 429000;
 * - only GETs are ever sent twice; POST and DELETE (orders, cancels, withdrawals) are sent exactly once per
 *   call, and an answer that never arrived is a TransportError of kind 'ambiguous';
 * - secrets never appear in errors, in the `onRequest` log hook or in {@link SpotClientCore.prepare}'s output.
 * Retries, resyncs and the envelope variants accepted: docs/ARCHITECTURE.md "Call machinery
 * (`src/api/clientCore.ts`)".
 */
import type * as http from 'node:http';
import { ENDPOINTS, fillPath, type EndpointDef, type EndpointName, type MoneyAction, type ParamsOf, type Pool, type PoolQuota, type ResponseOf } from './endpoints';
import { ApiError, TransportError, ValidationError } from './errors';
import { RateLimiter, readRateLimitHeaders, type PoolBudget, type RateLimitHeaders } from './ratelimit';
import {
  describeZodError,
  NoParams,
  type KeyVersion,
} from './schemas';
import { buildQuery, maskKey, signPassphrase, signRequest, type Credentials, type QueryValue } from './signing';
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
   * requires the person's confirmation (src/host/moneyGate.ts). Default: none.
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

/**
 * A deliberate signing fault for ONE prepared request: the request builder's "Experiment" (a developer
 * sees each of KuCoin's signature diagnoses without a fake profile). The client applies it as asked;
 * the extension allows it on sandbox profiles only (src/features/requestBuilder/controller.ts).
 */
export interface SigningExperiment {
  /** Added to KC-API-TIMESTAMP, ms (so also to the prehash): beyond ±5 s the exchange answers 400002. */
  timestampOffsetMs?: number;
  /** Sent as KC-API-KEY-VERSION, with the passphrase encoded for that version (a mismatch → 400004). */
  keyVersion?: KeyVersion;
  /** KC-API-PASSPHRASE in plain text or as base64(HMAC-SHA256(secret, passphrase)), whatever the version. */
  passphraseEncoding?: 'plain' | 'hmac';
}

/** Options of {@link SpotClientCore.prepare}. */
export interface PrepareOptions {
  /** Validate params with the endpoint schema (default true). The request builder may send invalid requests on purpose. */
  validate?: boolean;
  /** Raw body string to send instead of JSON.stringify(params) (POST only; signed as is). */
  rawBody?: string;
  /** Sign this one request wrongly on purpose (see {@link SigningExperiment}); it is never re-signed. */
  experiment?: SigningExperiment;
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
/** Requests prepared with a {@link SigningExperiment}: sent as signed, never re-signed. */
const EXPERIMENTS = new WeakSet<PreparedRequest>();

/**
 * The call machinery of {@link SpotClient} (see module docstring): building, signing, rate-limiting,
 * sending, retrying and validating one request of the endpoint table. SpotClient adds one typed method per
 * endpoint (client.ts).
 */
export class SpotClientCore {
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
    const exp = opts.experiment;
    const timestamp = Math.round(this.now() + this.offsetMs) + (exp?.timestampOffsetMs !== undefined && Number.isFinite(exp.timestampOffsetMs) ? Math.round(exp.timestampOffsetMs) : 0);
    const base: Record<string, string> = { Accept: 'application/json' };
    if (ep.method === 'POST') base['Content-Type'] = 'application/json';
    const signed = ep.permission !== 'public';
    let headers = base;
    let shown = base;
    let prehash = '';
    if (signed) {
      const creds = this.#credentials;
      if (!creds) throw new Error(`${ep.method} ${ep.path} needs an API key with the ${ep.permission} permission; no credentials are configured`);
      const used = exp?.keyVersion ? { ...creds, keyVersion: exp.keyVersion } : creds;
      const s = signRequest({ credentials: used, timestamp, method: ep.method, pathWithRawQuery, body });
      headers = { ...base, ...s.headers };
      if (exp?.passphraseEncoding) headers['KC-API-PASSPHRASE'] = signPassphrase(creds.apiSecret, creds.apiPassphrase, exp.passphraseEncoding === 'plain' ? '1' : '2');
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
      keyVersion: exp?.keyVersion ?? this.#credentials?.keyVersion,
      clockOffsetMs: this.offsetMs,
      signed,
      pool: ep.pool,
      weight: ep.weight,
    };
    SECRET_HEADERS.set(prepared, headers);
    if (exp) EXPERIMENTS.add(prepared);
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
    if (prepared.signed && !EXPERIMENTS.has(prepared) && this.now() - queuedAt > RESIGN_AFTER_QUEUE_MS) this.resign(prepared, headers);
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
}
