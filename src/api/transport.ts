/**
 * HTTP transport of the client: one request over node-fetch 2 (Node's http module, keep-alive
 * agent), with a timeout, classified failures, and decoding of the API envelope.
 *
 * - {@link httpExchange}: sends exactly the given method/URL/headers/body once; returns status,
 *   headers, text and latency, or throws a {@link TransportError} (`timeout`, `network`, or
 *   `ambiguous` for non-GET requests whose answer never arrived — they may have been executed).
 *   Redirects are never followed by node-fetch (`redirect: 'manual'`): a signed request that gets a
 *   3xx throws TransportError `redirect` (its KC-API-* headers and body go nowhere else); a public
 *   GET follows at most {@link MAX_REDIRECTS} redirects within its own origin.
 * - {@link decodeEnvelope}: turns an answer into the payload: `{code:"200000", data}` → data;
 *   any other code → {@link ApiError} (whatever the HTTP status); a bare payload is accepted for
 *   endpoints whose `envelope` is 'maybe-bare'; non-JSON → TransportError 'non-json'.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import nodeFetch from 'node-fetch';
import { ApiError, TransportError } from './errors';
import { parseJson } from './json';

/** The subset of a fetch Response the transport uses. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The subset of fetch the transport uses (node-fetch 2 by default; injectable for tests). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; agent?: http.Agent; redirect?: 'manual' },
) => Promise<FetchResponseLike>;

/** The default fetch: node-fetch 2. */
export const defaultFetch: FetchLike = nodeFetch as unknown as FetchLike;

/**
 * A keep-alive agent for `baseUrl`'s protocol. Idle sockets are closed after 4 000 ms, before a
 * server's usual 5 000 ms keep-alive timeout (Node's default) can close them under a request that
 * is being written — which would turn a POST into an 'ambiguous' outcome for no reason.
 */
export function keepAliveAgent(baseUrl: string): http.Agent {
  const opts = { keepAlive: true, timeout: 4_000 };
  return baseUrl.startsWith('https:') ? new https.Agent(opts) : new http.Agent(opts);
}

/** One raw HTTP answer. */
export interface RawAnswer {
  status: number;
  /** Lower-case header getter. */
  header(name: string): string | null;
  contentType: string;
  text: string;
  latencyMs: number;
}

/** Input of {@link httpExchange}. */
export interface ExchangeInput {
  method: string;
  url: string;
  /** Path without query, for error messages. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  fetch: FetchLike;
  agent?: http.Agent;
  now: () => number;
  /** True when the request carries KC-API-* signature headers: then no redirect is ever followed. */
  signed?: boolean;
}

/** Redirects a public GET follows within its origin before the answer counts as a redirect error. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Errors proving the request never reached the server (safe to report as 'network' even for POST). */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function errCode(e: unknown): string | undefined {
  const o = e as { code?: unknown; errno?: unknown; cause?: { code?: unknown } } | undefined;
  const c = o?.code ?? o?.errno ?? o?.cause?.code;
  return typeof c === 'string' ? c : undefined;
}

/**
 * Send one request, once. Throws {@link TransportError}: `timeout` (GET), `network` (connection
 * failed, or the request provably never left), `ambiguous` (non-GET whose answer never arrived).
 */
export async function httpExchange(inp: ExchangeInput): Promise<RawAnswer> {
  const ctrl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctrl.abort();
  }, inp.timeoutMs);
  const t0 = inp.now();
  const idempotent = inp.method === 'GET';
  try {
    let url = inp.url;
    let res: FetchResponseLike;
    for (let hops = 0; ; hops++) {
      res = await inp.fetch(url, {
        method: inp.method,
        headers: inp.headers,
        body: inp.body === undefined || inp.body === '' ? undefined : inp.body,
        signal: ctrl.signal,
        agent: inp.agent,
        redirect: 'manual',
      });
      if (!REDIRECT_STATUSES.has(res.status)) break;
      const next = redirectTarget(url, res.headers.get('location'));
      await res.text().catch(() => ''); // release the keep-alive socket
      if (inp.signed || !idempotent || next === undefined || new URL(next).origin !== new URL(inp.url).origin || hops >= MAX_REDIRECTS) {
        throw TransportError.redirect(inp.method, inp.path, res.status, next ?? res.headers.get('location') ?? '', inp.signed === true);
      }
      url = next;
    }
    const text = await res.text();
    return {
      status: res.status,
      header: (n) => res.headers.get(n),
      contentType: res.headers.get('content-type') ?? '',
      text,
      latencyMs: Math.max(0, inp.now() - t0),
    };
  } catch (e) {
    if (e instanceof TransportError) throw e;
    if (timedOut) {
      if (idempotent) throw TransportError.timeout(inp.method, inp.path, inp.timeoutMs);
      throw TransportError.ambiguous(inp.method, inp.path, `no answer within ${inp.timeoutMs} ms`, e);
    }
    const code = errCode(e);
    if (idempotent || (code !== undefined && NOT_SENT.has(code))) throw TransportError.network(inp.method, inp.path, e);
    const why = e instanceof Error ? e.message : String(e);
    throw TransportError.ambiguous(inp.method, inp.path, `the connection failed before an answer arrived (${why})`, e);
  } finally {
    clearTimeout(timer);
  }
}

/** The absolute URL a Location header points to, resolved against `from`; undefined when absent or invalid. */
function redirectTarget(from: string, location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, from).toString();
  } catch {
    return undefined;
  }
}

/** Result of {@link decodeEnvelope}. */
export interface Decoded {
  /** The payload (`data`, or the bare body). */
  payload: unknown;
  /** The envelope code ("200000"), or undefined for a bare payload. */
  code: string | undefined;
}

/**
 * Decode an answer. `{code: "200000", data}` → `data`; `{code: other}` → throws {@link ApiError};
 * bare JSON accepted only when `maybeBare`; otherwise/unparsable → throws TransportError 'non-json'.
 */
export function decodeEnvelope(ans: RawAnswer, method: string, path: string, maybeBare: boolean): Decoded {
  let body: unknown;
  try {
    body = parseJson(ans.text);
  } catch {
    throw TransportError.nonJson(method, path, ans.status, ans.contentType, ans.text);
  }
  const code = envelopeCode(body);
  if (code !== undefined) {
    if (code !== '200000') {
      const msg = (body as { msg?: unknown }).msg;
      throw new ApiError({ code, msg: typeof msg === 'string' ? msg : '', httpStatus: ans.status, method, path });
    }
    return { payload: (body as { data?: unknown }).data, code };
  }
  if (maybeBare && ans.status >= 200 && ans.status < 300) return { payload: body, code: undefined };
  throw TransportError.nonJson(method, path, ans.status, ans.contentType, ans.text);
}

/** The `code` of an envelope-shaped body (string, or number converted), else undefined. */
export function envelopeCode(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const c = (body as { code?: unknown }).code;
  if (typeof c === 'string') return c;
  if (typeof c === 'number') return String(c);
  return undefined;
}
