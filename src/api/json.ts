/**
 * Lossless JSON decoding of API bodies.
 *
 * `JSON.parse` rounds numeric literals beyond double precision (the published GET /api/v1/hf/fills example
 * carries `"tradeId": 11029373945659392`, > 2^53). SpotDesk's rule: **every numeric literal whose digits do not
 * survive a round trip through a double (lossless-json `isSafeNumber`) is decoded as its exact decimal
 * string**; all other numbers stay `number`. The schemas accept ids in both forms and output strings
 * (`ExactId` in `./schemas`).
 *
 * A cheap scan sends only bodies with a long numeric literal to `lossless-json`, the others to `JSON.parse` (a
 * false positive costs speed, never correctness). Texts nested deeper than {@link MAX_JSON_DEPTH} are refused
 * before the lossless parse ({@link jsonDepthExceeds}); the sandbox checks every request body and WebSocket
 * message with it. The scan and why the depth matters: docs/ARCHITECTURE.md "Lossless JSON (`src/api/json.ts`)".
 */
import { isSafeNumber, parse as losslessParse } from 'lossless-json';

/** Matches a number token of ≥ 16 digit/point characters at a position where a JSON value starts. */
const LONG_NUMBER = /(?:^|[:,[])\s*-?[\d.]{16,}/;

/** True when `text` may hold a numeric literal that `JSON.parse` would not decode exactly. */
export function needsLossless(text: string): boolean {
  return LONG_NUMBER.test(text);
}

/**
 * Deepest nesting of arrays and objects accepted (64): the API's deepest documented shape is 3 levels,
 * and lossless-json recurses once per level.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `text` nests arrays/objects deeper than `limit` levels, counting `[` and `{` (and their
 * closers) outside strings; escapes inside strings are honoured. One linear scan, no allocation; it
 * does not validate the JSON (a malformed text that stays within the limit is left to the parser).
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** Number parser for lossless-json: safe numbers → number; anything else → its exact literal text. */
function parseNumber(value: string): number | string {
  return isSafeNumber(value) ? Number(value) : value;
}

/**
 * Parse JSON text. Numbers whose literal a double cannot reproduce (integers above 2^53, decimals
 * with more than ~15-17 significant digits) come out as their exact decimal **string**; all other
 * values are as `JSON.parse` gives them.
 * @throws SyntaxError when `text` is not valid JSON, or when it needs the lossless parser and nests
 *   deeper than {@link MAX_JSON_DEPTH} levels (which that recursive parser cannot take).
 */
export function parseJson(text: string): unknown {
  if (!needsLossless(text)) return JSON.parse(text);
  if (jsonDepthExceeds(text)) throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  return losslessParse(text, null, parseNumber);
}
