/**
 * Display rendering of a signed request: the prehash string split into its four parts, the body
 * bytes, and the KC-API-* headers with the key masked. Signing itself lives in
 * `src/api/signing.ts` (prehash = timestamp + METHOD + path-with-raw-query + body); this module
 * only explains what was signed. Pure and `vscode`-free; the API secret never enters it.
 */

/**
 * What the extension shows of a prepared (signed) request. Built from `SpotClient.prepare()`;
 * `headers` are the redacted form (no secret, passphrase masked), `timestamp` is ms as sent in
 * KC-API-TIMESTAMP, `clockOffsetMs` is server time − local time (ms) when measured.
 */
export interface PreparedView {
  method: string;
  url: string;
  pathWithRawQuery: string;
  /** Exact body string sent and signed ('' for GET/DELETE). */
  body: string;
  prehash: string;
  headers: Record<string, string>;
  timestamp: string;
  keyVersion: string;
  clockOffsetMs: number | null;
  /**
   * Server clock − local clock in ms as last measured with GET /api/v1/timestamp (round-trip
   * midpoint), when measured; `clockOffsetMs` is the offset the client applied when signing.
   */
  measuredOffsetMs?: number;
}

/** One labelled part of the prehash string. */
export interface PrehashPart {
  label: 'timestamp' | 'method' | 'path' | 'body';
  text: string;
}

/** Rendering of the prehash: parts (when it splits as expected) and a whitespace-visible form. */
export interface PrehashRendering {
  parts: PrehashPart[];
  /** True when prehash === timestamp + method + pathWithRawQuery + body. */
  consistent: boolean;
  /** The prehash with invisible characters made visible (· space, → tab, ⏎ newline). */
  visible: string;
  /** UTF-8 length of the prehash in bytes. */
  bytes: number;
}

/** Make whitespace visible: space → "·", tab → "→", CR → "␍", LF → "⏎"; other characters unchanged. */
export function showWhitespace(s: string): string {
  return s.replace(/ /g, '·').replace(/\t/g, '→').replace(/\r/g, '␍').replace(/\n/g, '⏎');
}

/** UTF-8 byte length of a string (what the server hashes). */
export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/**
 * Split a prehash into timestamp / METHOD / path-with-raw-query / body parts.
 * @param p the prepared request; `consistent` is false when its prehash is not the
 *   concatenation of its own parts (then `parts` holds the whole prehash as `body`-less parts).
 */
export function renderPrehash(p: Pick<PreparedView, 'prehash' | 'timestamp' | 'method' | 'pathWithRawQuery' | 'body'>): PrehashRendering {
  const expected = `${p.timestamp}${p.method.toUpperCase()}${p.pathWithRawQuery}${p.body}`;
  const consistent = expected === p.prehash;
  const parts: PrehashPart[] = consistent
    ? [
        { label: 'timestamp', text: p.timestamp },
        { label: 'method', text: p.method.toUpperCase() },
        { label: 'path', text: p.pathWithRawQuery },
        ...(p.body ? [{ label: 'body' as const, text: p.body }] : []),
      ]
    : [{ label: 'path', text: p.prehash }];
  return { parts, consistent, visible: showWhitespace(p.prehash), bytes: utf8Length(p.prehash) };
}

/**
 * Mask a credential for display like `maskKey` of src/api/signing.ts: the first 4 and last 4
 * characters of values longer than 8 ("5c2d…1734"), otherwise "…".
 */
export function maskValue(v: string): string {
  return v.length <= 8 ? '…' : `${v.slice(0, 4)}…${v.slice(-4)}`;
}

/** Header names whose values are credentials (masked unless secrets are explicitly included). */
export const SECRET_HEADERS = ['KC-API-KEY', 'KC-API-PASSPHRASE'] as const;

/** One header line for display. */
export interface HeaderLine {
  name: string;
  value: string;
  masked: boolean;
}

/**
 * Header lines for display, KC-API-* first in a fixed order. KC-API-KEY and KC-API-PASSPHRASE
 * are always masked here (even if the caller passed an unredacted map), so this output is safe
 * for a webview or log. Header name matching is case-insensitive; names are shown as given.
 */
export function renderHeaders(headers: Record<string, string>): HeaderLine[] {
  const order = ['KC-API-KEY', 'KC-API-SIGN', 'KC-API-TIMESTAMP', 'KC-API-PASSPHRASE', 'KC-API-KEY-VERSION'];
  const rank = (n: string) => {
    const i = order.indexOf(n.toUpperCase());
    return i < 0 ? order.length : i;
  };
  return Object.keys(headers)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => {
      const secret = (SECRET_HEADERS as readonly string[]).includes(name.toUpperCase());
      const value = headers[name];
      return { name, value: secret ? maskSecretHeader(name, value) : value, masked: secret };
    });
}

function maskSecretHeader(name: string, value: string): string {
  if (name.toUpperCase() === 'KC-API-PASSPHRASE') return '•••• (passphrase never shown)';
  return value.includes('…') || value === '<redacted>' ? value : maskValue(value);
}

/** Quote a string for a POSIX shell with single quotes ('it'\''s'). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Render a request as a `curl` command line.
 *
 * @param req method, full URL, headers and exact body string.
 * @param includeSecrets when false (default) KC-API-KEY and KC-API-PASSPHRASE are masked as in
 *   {@link renderHeaders}; when true the values are emitted as given (the caller must pass the
 *   unredacted headers and must have asked the user first).
 * @returns a single-line-per-option command joined with " \\\n  ".
 */
export function renderCurl(
  req: { method: string; url: string; headers: Record<string, string>; body: string },
  includeSecrets = false,
): string {
  const lines = [`curl -sS -X ${req.method.toUpperCase()} ${shellQuote(req.url)}`];
  const hdrs = includeSecrets
    ? Object.keys(req.headers).map((name) => ({ name, value: req.headers[name] }))
    : renderHeaders(req.headers);
  for (const h of hdrs) lines.push(`-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  if (req.body) lines.push(`--data-raw ${shellQuote(req.body)}`);
  return lines.join(' \\\n  ');
}
