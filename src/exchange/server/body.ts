/**
 * The JSON request body of the REST and admin APIs ({@link parseBody}): one parser for both, in its
 * own module so that the REST pipeline (./http.ts) and the admin API (./admin.ts) share it without
 * importing each other.
 */
import { isSafeNumber, parse as losslessParse, isLosslessNumber } from 'lossless-json';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../api/json';
import { SandboxError } from './state';

/** Preceding character + optional spaces + a number that may not survive JSON.parse (long digit run, long fraction, exponent). */
const MAYBE_LOSSY_NUMBER = /[:,[]\s*-?(?:\d{16,}|\d+\.\d{15,}|[\d.]+[eE])/;

/**
 * True when a JSON.parse result holds a number anywhere (or is nested deeper than 32 levels, which
 * is then treated as "may hold one"). Without numbers no literal can have lost precision.
 */
function holdsNumber(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return true;
  if (v === null || typeof v !== 'object') return false;
  if (depth > 32) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsNumber(v[i], depth + 1)) return true;
    return false;
  }
  for (const k in v) if (holdsNumber((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

function checkNums(x: unknown, path: string): void {
  if (isLosslessNumber(x)) {
    if (!isSafeNumber(x.value)) throw new SandboxError('400100', `${path || '(body)'}: the number ${x.value} cannot be represented exactly; send it as a decimal string`, 400);
  } else if (Array.isArray(x)) x.forEach((e, i) => checkNums(e, `${path}[${i}]`));
  else if (x && typeof x === 'object') for (const [k, e] of Object.entries(x)) checkNums(e, path ? `${path}.${k}` : k);
}

/**
 * Parse a JSON request body: must be a JSON object, nested at most MAX_JSON_DEPTH (64) levels (checked
 * by a linear scan before any parsing: the lossless check recurses); numbers that JSON.parse would
 * round are rejected (send decimals as strings).
 * @throws SandboxError 400100 (HTTP 400) for an empty body, nesting deeper than 64 levels, malformed
 *   JSON, a non-object, or a lossy number.
 */
export function parseBody(text: string): unknown {
  if (text.trim() === '') throw new SandboxError('400100', 'request body: must be a JSON object, got an empty body', 400);
  if (jsonDepthExceeds(text)) throw new SandboxError('400100', `request body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`, 400);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new SandboxError('400100', `request body: malformed JSON (${(e as Error).message})`, 400);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new SandboxError('400100', 'request body: must be a JSON object', 400);
  // Slow path (lossless-json) only when the body holds numbers AND a long digit run / exponent exists.
  if (holdsNumber(v, 0) && MAYBE_LOSSY_NUMBER.test(text)) checkNums(losslessParse(text), '');
  return v;
}

