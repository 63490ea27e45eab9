/**
 * The sandbox's HTTP request pipeline (node:http). For every request:
 *
 *  1. route with `matchEndpoint` (src/api/endpoints.ts) — unknown path/method → HTTP 404, 404000;
 *     `/sandbox/v1/*` goes to the admin API (admin.ts);
 *  2. POST needs `Content-Type: application/json` → else HTTP 415, 415000 (the bullet endpoints take
 *     no body: theirs is ignored);
 *  3. body read with a 1 MB cap (Content-Length checked first; nothing beyond the cap is buffered)
 *     → HTTP 413, 400100, answered once the rest of the body was read and dropped (up to 8 MiB in all
 *     or 2 s: DISCARD_BODY_BYTES / DISCARD_BODY_MS) so that a client writing the whole body first
 *     still reads the answer; the connection is then closed;
 *  4. private endpoints: signature auth (auth.ts) → 400001/400002/400003/400004/400005 (HTTP 401,
 *     400002 HTTP 400), permission → 400007 (HTTP 403);
 *  5. rate limit of the row's pool with the row's weight: public per IP, spot/management per user →
 *     HTTP 429, 429000;
 *  6. JSON parse (nesting ≤ 64 levels, checked first) + validation with the row's `params` schema → HTTP 400, 400100 naming the field
 *     (hot rows first try a fast validator of fastparams.ts that accepts a subset of the schema with
 *     the same output; anything it is unsure of goes through the zod schema, the validator of record);
 *  7. handler (routes.ts) → `{code: "200000", data}`; business errors (ExchangeError, SandboxError
 *     with status 200) → HTTP 200 `{code, msg}`;
 *  8. any unexpected exception → HTTP 500 `{code: "500000", msg}` and logged; the server never crashes.
 *
 * Every response (errors included) carries gw-ratelimit-limit / -remaining / -reset (ms).
 *
 * Hot path (bench/server.bench.ts): no promise or named closure per request (the body is read with
 * callbacks), literal routes are cached, per-user key material is cached (src/api/signing.ts `keyMaterial`), and the
 * lossless-json check runs only when the body holds a number that may have lost precision.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { matchEndpoint, pathExists, POOL_QUOTAS, type EndpointMatch, type EndpointName, type ParsedParamsOf, type Pool, type PoolQuota } from '../../api/endpoints';
import { describeZodError } from '../../api/schemas';
import { ExchangeError } from '../core';
import { authenticate } from './auth';
import { FAST_PARAMS } from './fastparams';
import { RateLimiter, RateLimitOption, RateLimitState } from './ratelimit';
import type { Feed } from './feed';
import { runHandler } from './routes';
import { SandboxError, SandboxState, UserRecord } from './state';
import { handleAdmin, AdminContext } from './admin';
import { parseBody } from './body';

export { parseBody } from './body';

/** Maximum accepted request body, bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The `msg` of the 413 answer (REST and admin API). */
const TOO_LARGE_MSG = `request body exceeds ${MAX_BODY_BYTES} bytes (1 MB)`;

/** Options of {@link createRequestHandler}. */
export interface PipelineOptions {
  state: SandboxState;
  adminToken: string;
  /** Base URL, e.g. http://127.0.0.1:8100 (filled in once listening). */
  baseUrl: () => string;
  /** Log sink (one line per event; never receives secrets). */
  log: (line: string) => void;
  /** Pool quotas; default POOL_QUOTAS. `false` disables rate limiting (headers still sent). */
  rateLimits?: RateLimitOption;
  /** Called after the admin API moved the clock (e.g. to settle due withdrawals). */
  onClockMoved?: () => void;
  /** Called before the admin API moves a manual clock to `t` (ms) (a replay's `advanceTo`, mirror mode). */
  beforeClockMove?: (t: number) => void;
  /** The WebSocket feed (its tokens are handed out by the bullet endpoints). */
  feed?: Feed;
  /** Serves admin POST /sandbox/v1/reset (reset.ts); without it that route is 404. */
  onReset?: AdminContext['onReset'];
}

/** Thrown while reading a body that exceeds the cap. */
class BodyTooLarge extends Error {}

/**
 * An oversized body is read and discarded up to this many bytes in all (its first bytes included)
 * before the 413 answer: a client that writes the whole body before reading (node:http's
 * `req.end(body)`) would otherwise lose the answer to EPIPE / ECONNRESET when the server closes a
 * socket that still holds unread request bytes. A body declared larger is answered at once.
 */
export const DISCARD_BODY_BYTES = 8 * 1024 * 1024;

/** … and for at most this long (ms, wall clock), so a slow sender cannot hold the answer back. */
export const DISCARD_BODY_MS = 2000;

/**
 * Read and drop the rest of `req`'s body until it ends, `DISCARD_BODY_BYTES` were received in all
 * (`received` counts those already read), `DISCARD_BODY_MS` passed, or the request fails or closes;
 * then call `then` (once).
 */
function discardRest(req: IncomingMessage, received: number, then: () => void): void {
  let n = received;
  let over = false;
  const finish = (): void => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('error', finish);
    req.off('close', finish);
    then();
  };
  const onData = (c: Buffer): void => {
    n += c.length;
    if (n > DISCARD_BODY_BYTES) finish();
  };
  const timer = setTimeout(finish, DISCARD_BODY_MS);
  req.on('data', onData);
  req.on('end', finish);
  req.on('error', finish);
  req.on('close', finish);
  req.resume();
}

/**
 * Read a request body (UTF-8) with a byte cap, callback style (no promise per request): calls
 * `done(null, text)` on 'end', or `done(BodyTooLarge)` when Content-Length or the bytes received
 * exceed `limit` (nothing beyond the cap is buffered; the rest of the body is read and dropped first,
 * see {@link DISCARD_BODY_BYTES}, so the client gets to read the 413 answer), or `done(err)` on a
 * stream error. `done` is called at most once.
 */
function readBody(req: IncomingMessage, limit: number, done: (err: Error | null, body: string) => void): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    if (Number(declared) > DISCARD_BODY_BYTES) done(new BodyTooLarge(), '');
    else discardRest(req, 0, () => done(new BodyTooLarge(), ''));
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  const onData = (c: Buffer): void => {
    size += c.length;
    if (size > limit) {
      finished = true;
      first = undefined;
      chunks = undefined;
      req.off('data', onData);
      discardRest(req, size, () => done(new BodyTooLarge(), ''));
      return;
    }
    if (first === undefined) first = c;
    else (chunks ??= [first]).push(c);
  };
  req.on('data', onData);
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(null, chunks !== undefined ? Buffer.concat(chunks).toString('utf8') : first !== undefined ? first.toString('utf8') : '');
  });
  req.on('error', (e: Error) => {
    if (finished) return;
    finished = true;
    done(e, '');
  });
}

/** Collect query parameters; duplicated keys are rejected. */
function parseQuery(rawQuery: string): Record<string, string> {
  const out: Record<string, string> = {};
  const sp = new URLSearchParams(rawQuery);
  for (const [k, v] of sp) {
    if (Object.prototype.hasOwnProperty.call(out, k)) throw new SandboxError('400100', `${k}: given more than once`, 400);
    out[k] = v;
  }
  return out;
}

/** POST endpoints that take no body: any body (and Content-Type) is ignored, as KuCoin does (clients send none, `{}` or `null`). */
const BODYLESS = new Set<string>(['bulletPublic', 'bulletPrivate']);

const SAFE_PATH_PARAM = /^[A-Za-z0-9_.-]{1,64}$/;
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/;

function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Routing with a cache of the literal (parameter-free) paths: `matchEndpoint` of the endpoint table
 * decides; its answers for paths without path parameters are remembered per method (bounded: at
 * most the table's literal paths, with and without a trailing slash). Matches carrying path
 * parameters are not cached.
 */
class Router {
  private readonly literal = new Map<string, Map<string, EndpointMatch>>();

  match(method: string, pathname: string): EndpointMatch | undefined {
    let byPath = this.literal.get(method);
    const hit = byPath?.get(pathname);
    if (hit !== undefined) return hit;
    const m = matchEndpoint(method, pathname);
    if (m !== undefined && Object.keys(m.pathParams).length === 0) {
      if (byPath === undefined) this.literal.set(method, (byPath = new Map()));
      byPath.set(pathname, m);
    }
    return m;
  }
}

/** The `{code: "200000", data}` envelope text; `data: undefined` is left out, as JSON.stringify does. */
function okText(data: unknown): string {
  const d = JSON.stringify(data);
  return d === undefined ? '{"code":"200000"}' : `{"code":"200000","data":${d}}`;
}

function errorText(code: string, msg: string): string {
  return JSON.stringify({ code, msg });
}

/**
 * Build the node:http request listener of the sandbox.
 * @returns `(req, res) => void`; never throws (exceptions become HTTP 500, logged).
 */
export function createRequestHandler(opts: PipelineOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { state } = opts;
  const rl = opts.rateLimits;
  const quotas: Record<Pool, PoolQuota> = { ...POOL_QUOTAS };
  if (rl) for (const p of ['public', 'spot', 'management'] as const) if (rl[p]) quotas[p] = rl[p];
  const limiter = new RateLimiter(quotas, () => state.now(), rl !== false && !(rl && rl.disabled));
  const router = new Router();

  /** Write one JSON response: status, Content-Type, Content-Length, gw-ratelimit-* (when known). */
  function send(res: ServerResponse, status: number, text: string, rate: RateLimitState | undefined, closeConn = false): void {
    if (res.headersSent || res.destroyed) return;
    const headers: OutgoingHttpHeader[] = ['Content-Type', 'application/json', 'Content-Length', Buffer.byteLength(text)];
    if (rate) headers.push('gw-ratelimit-limit', rate.limit, 'gw-ratelimit-remaining', rate.remaining, 'gw-ratelimit-reset', rate.resetMs);
    if (closeConn) headers.push('Connection', 'close');
    res.writeHead(status, headers); // flat [name, value, …] list: no header object to build
    res.end(text);
  }

  /** An error envelope with the caller IP's public pool in the headers. */
  function sendPublicError(req: IncomingMessage, res: ServerResponse, code: string, msg: string, status: number, closeConn = false): void {
    send(res, status, errorText(code, msg), limiter.peek(clientIp(req), 'public'), closeConn);
  }

  /** Last resort: HTTP 500, logged; the server keeps running. */
  function fail(req: IncomingMessage, res: ServerResponse, e: unknown): void {
    try {
      opts.log(`sandbox: internal error on ${req.method} ${(req.url ?? '').split('?')[0]}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    } catch {
      // a failing log sink must not take the server down
    }
    let rate: RateLimitState | undefined;
    try {
      rate = limiter.peek(clientIp(req), 'public');
    } catch {
      rate = undefined;
    }
    send(res, 500, errorText('500000', 'Internal error of the sandbox (logged)'), rate, true);
  }

  function handleAdminRequest(req: IncomingMessage, res: ServerResponse, method: string, pathname: string, rawQuery: string): void {
    const run = (body: string): void => {
      const ctx: AdminContext = { state, adminToken: opts.adminToken, log: opts.log, onClockMoved: opts.onClockMoved, beforeClockMove: opts.beforeClockMove, onReset: opts.onReset };
      const r = handleAdmin(ctx, req, method, pathname, rawQuery, body);
      send(res, r.status, JSON.stringify(r.body), limiter.peek(clientIp(req), 'public'));
    };
    if (method === 'GET' || method === 'DELETE') {
      run('');
      return;
    }
    readBody(req, MAX_BODY_BYTES, (err, body) => {
      try {
        if (err instanceof BodyTooLarge) sendPublicError(req, res, '400100', TOO_LARGE_MSG, 413, true);
        else if (err) throw err;
        else run(body);
      } catch (e) {
        fail(req, res, e);
      }
    });
  }

  /** Steps 4-8 of the module docstring, once the body (POST) is in. */
  function afterBody(req: IncomingMessage, res: ServerResponse, method: string, pathname: string, rawQuery: string, match: EndpointMatch, body: string): void {
    const ep = match.endpoint;
    let user: UserRecord | undefined;
    let rate: RateLimitState;
    if (ep.permission === 'public') {
      rate = limiter.take(clientIp(req), 'public', ep.weight);
    } else {
      try {
        user = authenticate(state, req.headers, method, pathname, rawQuery, body, ep.permission).user;
      } catch (e) {
        if (e instanceof SandboxError) {
          sendPublicError(req, res, e.code, e.msg, e.httpStatus);
          return;
        }
        throw e;
      }
      rate = limiter.take(user.uid, ep.pool, ep.weight);
    }
    if (!rate.allowed) {
      send(res, 429, errorText('429000', 'Too Many Requests'), rate);
      return;
    }

    let params: ParsedParamsOf<EndpointName> | undefined;
    try {
      let input: unknown;
      if (method === 'POST') input = BODYLESS.has(match.name) ? {} : parseBody(body);
      else {
        for (const k in match.pathParams) {
          const v = match.pathParams[k];
          if (!SAFE_PATH_PARAM.test(v) || v === '.' || v === '..') throw new SandboxError('400100', `${k}: invalid path parameter`, 400);
        }
        input = rawQuery === '' ? { ...match.pathParams } : { ...parseQuery(rawQuery), ...match.pathParams };
      }
      const fast = FAST_PARAMS[match.name];
      if (fast !== undefined) params = fast(input);
      if (params === undefined) {
        const parsed = ep.params.safeParse(input);
        if (!parsed.success) throw new SandboxError('400100', describeZodError(parsed.error), 400);
        // The row's own schema checked it: the one place where its output type is asserted.
        params = parsed.data as ParsedParamsOf<EndpointName>;
      }
    } catch (e) {
      if (e instanceof SandboxError) {
        send(res, e.httpStatus, errorText(e.code, e.msg), rate);
        return;
      }
      throw e;
    }

    let text: string;
    try {
      text = okText(runHandler(match.name, { state, user, params, baseUrl: opts.baseUrl(), feed: opts.feed, clientIp: clientIp(req) }));
    } catch (e) {
      if (e instanceof ExchangeError) {
        send(res, 200, errorText(e.code, e.msg), rate);
        return;
      }
      if (e instanceof SandboxError) {
        send(res, e.httpStatus, errorText(e.code, e.msg), rate);
        return;
      }
      throw e;
    }
    send(res, 200, text, rate);
  }

  /** Steps 1-3 of the module docstring; a POST continues in afterBody once its body is read. */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const pathname = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);

    if (pathname.startsWith('/sandbox/')) {
      handleAdminRequest(req, res, method, pathname, rawQuery);
      return;
    }

    const match = router.match(method, pathname);
    if (match === undefined) {
      const msg = pathExists(pathname) ? `${method} is not supported on ${pathname}` : `${pathname} not found`;
      sendPublicError(req, res, '404000', msg, 404);
      return;
    }

    if (method !== 'POST') {
      afterBody(req, res, method, pathname, rawQuery, match, '');
      return;
    }
    if (!BODYLESS.has(match.name)) {
      const ct = req.headers['content-type'];
      if (ct !== 'application/json' && !JSON_CONTENT_TYPE.test(String(ct ?? '').toLowerCase())) {
        sendPublicError(req, res, '415000', 'Content-Type must be application/json', 415, true);
        return;
      }
    }
    readBody(req, MAX_BODY_BYTES, (err, body) => {
      try {
        if (err instanceof BodyTooLarge) sendPublicError(req, res, '400100', TOO_LARGE_MSG, 413, true);
        else if (err) throw err;
        else afterBody(req, res, method, pathname, rawQuery, match, body);
      } catch (e) {
        fail(req, res, e);
      }
    });
  }

  return (req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      fail(req, res, e);
    }
  };
}
