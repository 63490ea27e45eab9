/**
 * Typed errors of the API client (spec "Errors"; KuCoin error codes for the rest).
 *
 * - {@link ApiError}: the server answered with an envelope whose `code` is not `"200000"`
 *   (whatever the HTTP status). Carries `code`, `msg`, `httpStatus`, `method`, `path` (path only,
 *   never the query string's secrets — there are none — and never header values).
 * - {@link TransportError}: no usable API answer: `timeout`, `network`, `non-json` (e.g. an HTML
 *   502 page from a proxy) or `ambiguous` (a POST whose response never arrived: it MAY have been
 *   executed; SpotDesk never retries it automatically) or `redirect` (the server answered a 3xx that
 *   SpotDesk does not follow: any redirect of a signed request, and a public one to another origin).
 *
 * Neither error ever contains an API secret, passphrase, signature or key.
 */

/** Well-known KuCoin error codes SpotDesk reacts to. */
export const ErrorCodes = {
  success: '200000',
  insufficientBalance: '200004',
  withdrawWhitelist: '260325',
  invalidTimestamp: '400002',
  parameter: '400100',
  rateLimit: '429000',
  symbolNotFound: '900001',
} as const;

/** An API error answer `{code, msg}` (code ≠ "200000"). */
export class ApiError extends Error {
  /** KuCoin error code as a string, e.g. "400005". */
  readonly code: string;
  /** The server's message (`msg`), '' when absent. */
  readonly msg: string;
  /** HTTP status of the answer (KuCoin sends errors with 200, 400, 401, 429, …). */
  readonly httpStatus: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** Request path without the query string, e.g. "/api/v1/hf/orders". */
  readonly path: string;

  constructor(init: { code: string; msg?: string; httpStatus: number; method: string; path: string }) {
    super(`${init.method} ${init.path} failed: ${init.code}${init.msg ? ` ${init.msg}` : ''} (HTTP ${init.httpStatus})`);
    this.name = 'ApiError';
    this.code = init.code;
    this.msg = init.msg ?? '';
    this.httpStatus = init.httpStatus;
    this.method = init.method;
    this.path = init.path;
  }

  /** 400001–400007: missing/invalid key, timestamp, passphrase, signature, IP or permission. */
  get isAuthError(): boolean {
    const n = Number(this.code);
    return n >= 400001 && n <= 400007;
  }
  /** 400002: KC-API-TIMESTAMP outside the server's window (clock skew). */
  get isTimestampError(): boolean {
    return this.code === ErrorCodes.invalidTimestamp;
  }
  /** 400100: a request parameter is invalid (the message names the field in the sandbox). */
  get isParameterError(): boolean {
    return this.code === ErrorCodes.parameter;
  }
  /** 429000: a rate-limit pool is exhausted. */
  get isRateLimit(): boolean {
    return this.code === ErrorCodes.rateLimit;
  }
  /** 200004: insufficient balance. */
  get isInsufficientBalance(): boolean {
    return this.code === ErrorCodes.insufficientBalance;
  }
  /** 260325: withdrawal whitelist on and the address (with chain) is not a favorite. */
  get isWithdrawWhitelist(): boolean {
    return this.code === ErrorCodes.withdrawWhitelist;
  }
  /** 900001: the symbol does not exist. */
  get isSymbolNotFound(): boolean {
    return this.code === ErrorCodes.symbolNotFound;
  }
}

/** Kind of a transport failure. */
export type TransportErrorKind = 'timeout' | 'network' | 'non-json' | 'ambiguous' | 'redirect';

/** A failure to obtain a usable API answer (no envelope). See the module docstring for the kinds. */
export class TransportError extends Error {
  /** What went wrong. */
  readonly kind: TransportErrorKind;
  /** HTTP method of the request. */
  readonly method: string;
  /** Request path without the query string. */
  readonly path: string;
  /** HTTP status when an answer arrived (non-json), else undefined. */
  readonly httpStatus?: number;
  /** Start of the body of a non-JSON answer (≤ 200 chars, for diagnostics), else undefined. */
  readonly bodySnippet?: string;
  /** Where a `redirect` answer pointed (its Location header, resolved against the request URL). */
  readonly location?: string;

  constructor(init: {
    kind: TransportErrorKind;
    method: string;
    path: string;
    message: string;
    httpStatus?: number;
    bodySnippet?: string;
    location?: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.name = 'TransportError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.httpStatus = init.httpStatus;
    this.bodySnippet = init.bodySnippet;
    this.location = init.location;
  }

  /** Timed out after `timeoutMs` (a GET; a POST timeout is reported as 'ambiguous'). */
  static timeout(method: string, path: string, timeoutMs: number): TransportError {
    return new TransportError({ kind: 'timeout', method, path, message: `${method} ${path}: no answer within ${timeoutMs} ms (timeout)` });
  }

  /** Connection failed (refused, reset, DNS…) before any answer. */
  static network(method: string, path: string, cause: unknown): TransportError {
    const why = cause instanceof Error ? cause.message : String(cause);
    return new TransportError({ kind: 'network', method, path, message: `${method} ${path}: network error: ${why}`, cause });
  }

  /**
   * The server answered, but not with the API's JSON (e.g. an HTML 502 from a proxy): "the server
   * answered HTTP 502 with an HTML page, not the API's JSON…".
   */
  static nonJson(method: string, path: string, httpStatus: number, contentType: string, body: string): TransportError {
    const html = /html/i.test(contentType) || /^\s*</.test(body);
    const what = html ? 'an HTML page' : body.trim() === '' ? 'an empty body' : `a non-JSON body (${contentType || 'no content type'})`;
    return new TransportError({
      kind: 'non-json',
      method,
      path,
      httpStatus,
      bodySnippet: body.slice(0, 200),
      message: `${method} ${path}: the server answered HTTP ${httpStatus} with ${what}, not the API's JSON; a proxy or gateway in front of the API may be failing, or the base URL is wrong`,
    });
  }

  /**
   * A POST whose answer never arrived (timeout or connection lost after sending): the request may
   * have been executed. Never retried automatically; check the order/withdrawal list first.
   */
  static ambiguous(method: string, path: string, why: string, cause?: unknown): TransportError {
    return new TransportError({
      kind: 'ambiguous',
      method,
      path,
      cause,
      message: `${method} ${path}: ${why}; the request may have been executed by the server. It was NOT retried: check your orders/withdrawals before sending it again`,
    });
  }

  /**
   * The server answered a redirect (HTTP `httpStatus`, Location `location`) that was not followed:
   * a signed request is never re-sent elsewhere (its KC-API-* headers and body could be replayed by
   * the new host within the timestamp window), and a public one only within its own origin.
   */
  static redirect(method: string, path: string, httpStatus: number, location: string, signed: boolean): TransportError {
    const to = location || '(no Location header)';
    const message = signed
      ? `${method} ${path}: the exchange answered a redirect (HTTP ${httpStatus}) to ${to}; SpotDesk does not forward signed requests. Check the profile's base URL`
      : `${method} ${path}: the exchange answered a redirect (HTTP ${httpStatus}) to ${to}, another origin or a non-GET request; SpotDesk follows public redirects only within the same origin. Check the profile's base URL`;
    return new TransportError({ kind: 'redirect', method, path, httpStatus, location, message });
  }
}

/** True when `e` is an {@link ApiError} (optionally with the given code). */
export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

/**
 * A request or response that does not match its zod schema. `side: 'request'` is raised by the
 * client before sending (nothing was sent); `side: 'response'` means the server answered success
 * with a payload SpotDesk cannot trust. `detail` is "field: why" (see `describeZodError`).
 */
export class ValidationError extends Error {
  readonly side: 'request' | 'response';
  /** Endpoint name of the table (e.g. "placeOrder"). */
  readonly endpoint: string;
  /** "field: why; field2: why". */
  readonly detail: string;

  constructor(side: 'request' | 'response', endpoint: string, detail: string) {
    super(side === 'request' ? `invalid ${endpoint} request: ${detail}` : `unexpected ${endpoint} response: ${detail}`);
    this.name = 'ValidationError';
    this.side = side;
    this.endpoint = endpoint;
    this.detail = detail;
  }
}
