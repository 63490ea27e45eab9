/**
 * The sandbox's HTTP request pipeline (node:http). For every request:
 *
 *  1. route with `matchEndpoint` (src/api/endpoints.ts) — unknown path/method → HTTP 404, 404000;
 *     `/sandbox/v1/*` goes to the admin API (admin.ts);
 *  2. POST needs `Content-Type: application/json` → else HTTP 415, 415000;
 *  3. body read with a 1 MB cap (Content-Length checked first; a streamed body is cut off at the cap
 *     without buffering the rest) → HTTP 413, 400100;
 *  4. private endpoints: signature auth (auth.ts) → 400001/400002/400003/400004/400005 (HTTP 401,
 *     400002 HTTP 400), permission → 400007 (HTTP 403);
 *  5. rate limit of the row's pool with the row's weight: public per IP, spot/management per user →
 *     HTTP 429, 429000;
 *  6. JSON parse + validation with the row's `params` schema → HTTP 400, 400100 naming the field;
 *  7. handler (routes.ts) → `{code: "200000", data}`; business errors (ExchangeError, SandboxError
 *     with status 200) → HTTP 200 `{code, msg}`;
 *  8. any unexpected exception → HTTP 500 `{code: "500000", msg}` and logged; the server never crashes.
 *
 * Every response (errors included) carries gw-ratelimit-limit / -remaining / -reset (ms).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSafeNumber, parse as losslessParse, isLosslessNumber } from 'lossless-json';
import { matchEndpoint, pathExists, POOL_QUOTAS, type Pool, type PoolQuota } from '../../api/endpoints';
import { describeZodError } from '../../api/schemas';
import { ExchangeError } from '../core';
import { authenticate, AuthContext } from './auth';
import { RateLimiter, RateLimitOption, RateLimitState } from './ratelimit';
import { HANDLERS } from './routes';
import { SandboxError, SandboxState } from './state';
import { handleAdmin, AdminContext } from './admin';

/** Maximum accepted request body, bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

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
}

/** A JSON response. */
interface Reply {
  status: number;
  body: unknown;
  rate?: RateLimitState;
}

/** Thrown while reading a body that exceeds the cap. */
class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (e) => {
      if (done) return;
      done = true;
      reject(e);
    });
  });
}

function envelopeError(code: string, msg: string, status: number): Reply {
  return { status, body: { code, msg } };
}

/** Parse a JSON request body; numbers that JSON.parse would round are rejected (send decimals as strings). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') throw new SandboxError('400100', 'request body: must be a JSON object, got an empty body', 400);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new SandboxError('400100', `request body: malformed JSON (${(e as Error).message})`, 400);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new SandboxError('400100', 'request body: must be a JSON object', 400);
  // Slow path only when a long digit run exists: make sure no numeric literal lost precision.
  if (/[:,[]\s*-?(?:\d{16,}|\d+\.\d{15,}|[\d.]+[eE])/.test(text)) {
    const checkNums = (x: unknown, path: string): void => {
      if (isLosslessNumber(x)) {
        if (!isSafeNumber(x.value)) throw new SandboxError('400100', `${path || '(body)'}: the number ${x.value} cannot be represented exactly; send it as a decimal string`, 400);
      } else if (Array.isArray(x)) x.forEach((e, i) => checkNums(e, `${path}[${i}]`));
      else if (x && typeof x === 'object') for (const [k, e] of Object.entries(x)) checkNums(e, path ? `${path}.${k}` : k);
    };
    checkNums(losslessParse(text), '');
  }
  return v;
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

const SAFE_PATH_PARAM = /^[A-Za-z0-9_.-]{1,64}$/;

function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Build the node:http request listener of the sandbox.
 * @returns `(req, res) => void`; never throws, never rejects.
 */
export function createRequestHandler(opts: PipelineOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { state } = opts;
  const rl = opts.rateLimits;
  const quotas: Record<Pool, PoolQuota> = { ...POOL_QUOTAS };
  if (rl) for (const p of ['public', 'spot', 'management'] as const) if (rl[p]) quotas[p] = rl[p];
  const limiter = new RateLimiter(quotas, () => state.now(), rl !== false && !(rl && rl.disabled));

  const send = (res: ServerResponse, reply: Reply, closeConn = false): void => {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(reply.body);
    const rate = reply.rate;
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
    };
    if (rate) {
      headers['gw-ratelimit-limit'] = rate.limit;
      headers['gw-ratelimit-remaining'] = rate.remaining;
      headers['gw-ratelimit-reset'] = rate.resetMs;
    }
    if (closeConn) headers.Connection = 'close';
    res.writeHead(reply.status, headers);
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const ip = clientIp(req);
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const pathname = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
    const publicRate = () => limiter.peek(ip, 'public');

    if (pathname.startsWith('/sandbox/')) {
      let body = '';
      try {
        body = method === 'GET' || method === 'DELETE' ? '' : await readBody(req, MAX_BODY_BYTES);
      } catch (e) {
        if (e instanceof BodyTooLarge) {
          send(res, { ...envelopeError('400100', `request body exceeds ${MAX_BODY_BYTES} bytes`, 413), rate: publicRate() }, true);
          return;
        }
        throw e;
      }
      const ctx: AdminContext = { state, adminToken: opts.adminToken, log: opts.log, onClockMoved: opts.onClockMoved };
      const r = handleAdmin(ctx, req, method, pathname, rawQuery, body);
      send(res, { ...r, rate: publicRate() });
      return;
    }

    const match = matchEndpoint(method, pathname);
    if (!match) {
      const msg = pathExists(pathname) ? `${method} is not supported on ${pathname}` : `${pathname} not found`;
      send(res, { ...envelopeError('404000', msg, 404), rate: publicRate() });
      return;
    }
    const ep = match.endpoint;

    if (method === 'POST' && match.name !== 'bulletPublic') {
      const ct = String(req.headers['content-type'] ?? '').toLowerCase();
      if (!/^application\/json\s*(;|$)/.test(ct)) {
        send(res, { ...envelopeError('415000', 'Content-Type must be application/json', 415), rate: publicRate() }, true);
        return;
      }
    }

    let body = '';
    if (method === 'POST') {
      try {
        body = await readBody(req, MAX_BODY_BYTES);
      } catch (e) {
        if (e instanceof BodyTooLarge) {
          send(res, { ...envelopeError('400100', `request body exceeds ${MAX_BODY_BYTES} bytes (1 MB)`, 413), rate: publicRate() }, true);
          return;
        }
        throw e;
      }
    }

    let auth: AuthContext | undefined;
    let rate: RateLimitState;
    if (ep.permission === 'public') {
      rate = limiter.take(ip, 'public', ep.weight);
    } else {
      try {
        auth = authenticate(state, req.headers, method, pathname, rawQuery, body, ep.permission);
      } catch (e) {
        if (e instanceof SandboxError) {
          send(res, { ...envelopeError(e.code, e.msg, e.httpStatus), rate: publicRate() });
          return;
        }
        throw e;
      }
      rate = limiter.take(auth.user.uid, ep.pool, ep.weight);
    }
    if (!rate.allowed) {
      send(res, { ...envelopeError('429000', 'Too Many Requests', 429), rate });
      return;
    }

    let params: Record<string, unknown>;
    try {
      let input: unknown;
      if (method === 'POST') input = match.name === 'bulletPublic' ? {} : parseBody(body);
      else {
        for (const [k, v] of Object.entries(match.pathParams)) {
          if (!SAFE_PATH_PARAM.test(v) || v === '.' || v === '..') throw new SandboxError('400100', `${k}: invalid path parameter`, 400);
        }
        input = { ...parseQuery(rawQuery), ...match.pathParams };
      }
      const parsed = ep.params.safeParse(input);
      if (!parsed.success) throw new SandboxError('400100', describeZodError(parsed.error), 400);
      params = parsed.data as Record<string, unknown>;
    } catch (e) {
      if (e instanceof SandboxError) {
        send(res, { ...envelopeError(e.code, e.msg, e.httpStatus), rate });
        return;
      }
      throw e;
    }

    try {
      const data = HANDLERS[match.name]({ state, user: auth?.user, params, baseUrl: opts.baseUrl() });
      send(res, { status: 200, body: { code: '200000', data }, rate });
    } catch (e) {
      if (e instanceof ExchangeError) {
        send(res, { ...envelopeError(e.code, e.msg, 200), rate });
        return;
      }
      if (e instanceof SandboxError) {
        send(res, { ...envelopeError(e.code, e.msg, e.httpStatus), rate });
        return;
      }
      throw e;
    }
  };

  return (req, res) => {
    handle(req, res).catch((e: unknown) => {
      opts.log(`sandbox: internal error on ${req.method} ${(req.url ?? '').split('?')[0]}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      let rate: RateLimitState | undefined;
      try {
        rate = limiter.peek(req.socket.remoteAddress ?? 'unknown', 'public');
      } catch {
        rate = undefined;
      }
      send(res, { status: 500, body: { code: '500000', msg: 'Internal error of the sandbox (logged)' }, rate }, true);
    });
  };
}
