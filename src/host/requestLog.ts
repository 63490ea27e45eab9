/**
 * The lines of the SpotDesk output channel's request log (pure: no `vscode`, unit-tested). One
 * line per attempt, from what the client's `onRequest` hook reports — never headers, bodies or
 * KC-API-* values ({@link redact} blanks any that would slip in).
 *
 * An answered request: `GET /api/v1/accounts  → 200000  HTTP 200  12 ms  weight 5 (management)`.
 * A failed one says which error and why, and which attempt it was:
 * `GET /api/v2/symbols  → TransportError (network): GET /api/v2/symbols: network error: … ECONNREFUSED …  1 ms  attempt 2  weight 4 (public)`.
 */

/** One request as reported by the client's `onRequest` hook (src/api/client.ts RequestLogEntry). */
export interface RequestLogEntry {
  method: string;
  path: string;
  code?: string;
  httpStatus?: number;
  latencyMs?: number;
  weight?: number;
  pool?: string;
  /** 0 for the first attempt, 1.. for retries. */
  attempt?: number;
  /** Transport failure kind (`network`, `timeout`, `non-json`, `ambiguous`), when there was one. */
  error?: string;
  /** `ErrorClass: message` of a failed attempt. */
  errorMessage?: string;
}

/**
 * The log line of `e` and its level: `warn` for a failure (an error, or an envelope code other
 * than 200000), `info` otherwise.
 */
export function requestLogLine(e: RequestLogEntry): { level: 'info' | 'warn'; line: string } {
  const failed = e.errorMessage !== undefined || e.error !== undefined || (e.code !== undefined && e.code !== '200000');
  const outcome = e.code ?? (e.errorMessage ? '' : e.error ? `${e.error} error` : '?');
  const parts = [`${e.method} ${e.path}`, `→ ${[outcome, e.errorMessage].filter((x) => x).join(' ')}`];
  if (e.httpStatus !== undefined) parts.push(`HTTP ${e.httpStatus}`);
  if (e.latencyMs !== undefined) parts.push(`${Math.round(e.latencyMs)} ms`);
  if (e.attempt) parts.push(`attempt ${e.attempt + 1}`);
  if (e.weight !== undefined) parts.push(`weight ${e.weight}${e.pool ? ` (${e.pool})` : ''}`);
  return { level: failed ? 'warn' : 'info', line: redact(parts.join('  ')) };
}

/**
 * Defence in depth for log lines: blank out anything that looks like a KC-API-* header value
 * (`KC-API-SIGN: …`, `"KC-API-KEY":"…"`). The client's hook never reports headers, so this
 * should never trigger.
 */
export function redact(line: string): string {
  return line.replace(/(KC-API-[A-Z-]+"?\s*[:=]\s*"?)[^\s",}]+/gi, '$1***');
}
