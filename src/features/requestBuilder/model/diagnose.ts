/**
 * Error diagnosis for the request builder: turns a failed order test / placement
 * (`{code, msg}` envelope, real KuCoin codes 400002/400003/400004/400005/400007/400100/429000)
 * into an explanation in words, using what was signed and, for 400002, the skew measured against
 * GET /api/v1/timestamp. Pure and `vscode`-free.
 */
import { showWhitespace, type PreparedView } from './signatureView';
import { validateOrder, type RuleIssue, type SymbolRules } from '../../../api/orderRules';

/** The tolerated gap between KC-API-TIMESTAMP and the server clock (KuCoin: 5 s). */
export const TIMESTAMP_WINDOW_MS = 5000;

/** Input of {@link diagnose}. */
export interface DiagnosisInput {
  /** HTTP status of the response. */
  status: number;
  /** API `code` of the envelope (string), when the body had one. */
  code: string | undefined;
  /** API `msg` of the envelope, when present. */
  msg: string | undefined;
  /** What was signed and sent. */
  prepared: PreparedView;
  /**
   * Clock skew measured right after the failure: server time (GET /api/v1/timestamp) minus the
   * signing clock (local clock at the round trip's midpoint + the client's offset), in ms.
   * Undefined if not measured.
   */
  measuredSkewMs?: number;
  /** The request body as an object (for 400100 field analysis). */
  order?: Record<string, unknown>;
  /** Rules of the order's symbol (for 400100 field analysis). */
  rules?: SymbolRules;
}

/** An explanation of a failure (or success) for display as plain text. */
export interface Diagnosis {
  /** Short headline, e.g. "Signature rejected (400005)". */
  title: string;
  severity: 'ok' | 'error' | 'warning';
  /** Paragraphs / bullet items of explanation, plain text. */
  details: string[];
  /** The request field at fault (400100), when one could be determined. */
  field?: string;
}

function fmtMs(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const a = Math.abs(ms);
  return a >= 1000 ? `${sign}${(a / 1000).toFixed(3)} s` : `${sign}${a} ms`;
}

/** Field names KuCoin and the sandbox mention in 400100 messages. */
const FIELD_WORDS = [
  'clientOid', 'symbol', 'side', 'type', 'price', 'size', 'funds', 'timeInForce', 'cancelAfter',
  'postOnly', 'hidden', 'iceberg', 'visibleSize', 'stp', 'remark', 'tags',
];

/**
 * Find the request field named in an exchange message ("Order size below the minimum
 * requirement." → `size`, "priceIncrement invalid" → `price`, "funds is invalid" → `funds`).
 * Longest names first so `visibleSize` wins over `size`. Returns undefined if none is named.
 */
export function fieldFromMessage(msg: string | undefined): string | undefined {
  if (!msg) return undefined;
  const lower = msg.toLowerCase();
  const aliases: [string, string][] = [
    ['priceincrement', 'price'],
    ['baseincrement', 'size'],
    ['basemin', 'size'],
    ['basemax', 'size'],
    ['quoteincrement', 'funds'],
    ['quotemin', 'funds'],
    ['quotemax', 'funds'],
    ['minfunds', 'funds'],
    ['client oid', 'clientOid'],
    ['time in force', 'timeInForce'],
  ];
  for (const [word, field] of aliases) if (lower.includes(word)) return field;
  const byLength = [...FIELD_WORDS].sort((a, b) => b.length - a.length);
  for (const f of byLength) {
    if (new RegExp(`\\b${f}\\b`, 'i').test(msg)) return f;
  }
  return undefined;
}

/**
 * Explain a response in words.
 *
 * - 200000: success.
 * - 400005: shows what was signed (whitespace made visible) and the usual causes: encoded vs raw
 *   query string, body re-serialized after signing, wrong secret, stray whitespace.
 * - 400002: the measured skew against the server clock vs the 5 s window.
 * - 400004 / 400003: passphrase or key-version mismatch / unknown key.
 * - 400007: the key lacks the Spot Trading permission.
 * - 400100: the field at fault (named in `msg`, else the first local rule violation).
 * - 429000: rate limit.
 * - other codes: the message as given.
 */
export function diagnose(input: DiagnosisInput): Diagnosis {
  const { code, msg, prepared: p } = input;
  const said = msg ? `The exchange said: "${msg}".` : 'The exchange gave no message.';
  switch (code) {
    case '200000':
      return { title: 'Accepted (200000)', severity: 'ok', details: ['The exchange accepted the signature and the order parameters.'] };
    case '400005': {
      const details = [
        said,
        `Signed string (prehash, whitespace shown as · ⏎ →): ${showWhitespace(p.prehash)}`,
        `= timestamp "${p.timestamp}" + method "${p.method.toUpperCase()}" + path "${p.pathWithRawQuery}" + body ${p.body ? `(${p.body.length} chars)` : '(empty)'}.`,
        'The query string was signed in a different form than sent (e.g. percent-encoded on one side, raw on the other, or parameters reordered): sign exactly the path and query as they appear on the wire.',
        'The body was re-serialized after signing (different key order, spacing or number formatting): send the exact string that was signed.',
        'The API secret is wrong (copied with a missing character, or it belongs to another key).',
        'Leading/trailing whitespace or a newline in the secret, the key or the body.',
      ];
      if (/%[0-9A-Fa-f]{2}/.test(p.pathWithRawQuery)) details.push('Note: this path contains percent-encoded characters; the server verifies against the raw query it received.');
      if (p.body !== p.body.trim()) details.push('Note: this body has leading or trailing whitespace.');
      return { title: 'Signature rejected (400005)', severity: 'error', details };
    }
    case '400002': {
      const details = [said, `KC-API-TIMESTAMP sent: ${p.timestamp} ms.`];
      if (input.measuredSkewMs !== undefined) {
        const skew = input.measuredSkewMs;
        details.push(`Measured against GET /api/v1/timestamp: the server clock is ${fmtMs(skew)} relative to the signing clock (this machine's clock + the offset used).`);
        details.push(
          Math.abs(skew) > TIMESTAMP_WINDOW_MS
            ? `That exceeds the ${TIMESTAMP_WINDOW_MS / 1000} s window the exchange accepts: synchronize the system clock (e.g. enable NTP), or let the client correct timestamps by the measured offset.`
            : `That is within the ${TIMESTAMP_WINDOW_MS / 1000} s window now; the skew at signing time was larger (clock jumped, or the request was delayed or replayed). Retry.`,
        );
      } else {
        details.push(`The timestamp differs from the server clock by more than ${TIMESTAMP_WINDOW_MS / 1000} s; the skew could not be measured.`);
      }
      if (p.clockOffsetMs !== null) details.push(`Clock offset used when signing: ${fmtMs(p.clockOffsetMs)}.`);
      return { title: 'Timestamp rejected (400002)', severity: 'error', details };
    }
    case '400004':
      return {
        title: 'Passphrase rejected (400004)',
        severity: 'error',
        details: [
          said,
          `Key version sent: KC-API-KEY-VERSION ${p.keyVersion}.`,
          'Either the passphrase is not the one chosen when the key was created, or the key version does not match the key: version 1 sends the passphrase in plain text; versions 2 and 3 send base64(HMAC-SHA256(secret, passphrase)). A v2/v3 key signed as v1 (or the reverse) fails with this code.',
          ...(p.keyVersion !== '1' ? ['With key version 2/3 the passphrase header is signed with the API secret, so a wrong secret also ends here (before the signature is checked).'] : []),
        ],
      };
    case '400003':
      return { title: 'Unknown API key (400003)', severity: 'error', details: [said, 'The KC-API-KEY is not known to this exchange: check the profile (sandbox keys do not work on the live exchange and vice versa) and that the key was not deleted.'] };
    case '400007':
      return {
        title: 'Missing permission (400007)',
        severity: 'error',
        details: [said, 'The API key was created without the "Spot Trading" permission, which POST /api/v1/hf/orders and /api/v1/hf/orders/test require. Create a key with Spot Trading enabled (or edit the key\'s permissions) and store it in the profile.'],
      };
    case '400100': {
      let field = fieldFromMessage(msg);
      const details = [said];
      let local: RuleIssue | undefined;
      if (input.order) {
        const issues = validateOrder(input.order, input.rules ? { symbols: new Map([[input.rules.symbol, input.rules]]) } : {});
        local = issues.find((i) => i.severity === 'error' && (field === undefined || i.field === field));
      }
      if (!field && local?.field) field = local.field;
      if (field) details.push(`Field at fault: "${field}"${input.order && field in input.order ? ` = ${JSON.stringify(input.order[field])}` : ' (absent)'}.`);
      if (local) details.push(`Local check: ${local.message}`);
      if (!field && !local) details.push('No field was named and the local rule checks pass: compare the body with the symbol rules (GET /api/v2/symbols).');
      return { title: 'Invalid parameter (400100)', severity: 'error', details, ...(field ? { field } : {}) };
    }
    case '429000':
      return { title: 'Rate limited (429000)', severity: 'warning', details: [said, 'The request weight quota of the pool is used up: wait for the reset shown in gw-ratelimit-reset (ms) and retry.'] };
    default:
      return {
        title: code ? `Failed (${code})` : `HTTP ${input.status}`,
        severity: 'error',
        details: [said, code ? 'No specific diagnosis for this code.' : 'The response had no API envelope (network error, proxy or wrong base URL?).'],
      };
  }
}
