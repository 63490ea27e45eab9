/**
 * Lossless JSON decoding of API bodies.
 *
 * `JSON.parse` rounds numeric literals beyond double precision: the published GET /api/v1/hf/fills
 * example carries `"tradeId": 11029373945659392` (> 2^53); a neighbouring id such as
 * 11029373945659393 would silently become …392. SpotDesk's choice: **every numeric literal whose
 * digits do not survive a round trip through a double (lossless-json `isSafeNumber`) is decoded as
 * its exact decimal string** (`"11029373945659393"`); all other numbers stay `number` (and
 * `String(n)` gives their literal back). The schemas accept ids in both forms and output strings
 * (`ExactId` in `./schemas`); decimal request fields (`AmountInput`) accept strings and numbers.
 *
 * Fast path: a cheap scan looks for a numeric literal with 16 or more digit/point characters after
 * `:`, `,` or `[` (the only places a number token can start). Only when one exists is the body
 * parsed with `lossless-json`; otherwise plain `JSON.parse` is used. The scan may report false
 * positives (a string containing `:1234567890123456`), which only costs speed, never correctness:
 * a literal of ≤ 15 significant digits is always exactly representable.
 *
 * Depth: `JSON.parse` (V8) does not recurse, but lossless-json and any walk over the result do; a
 * text of a few KB of `[` would exhaust the stack ("Maximum call stack size exceeded"). Texts nested
 * deeper than {@link MAX_JSON_DEPTH} are refused before the lossless parse ({@link jsonDepthExceeds},
 * one linear scan); the sandbox checks every request body and WebSocket message with it.
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
