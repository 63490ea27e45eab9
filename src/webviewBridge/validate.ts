/**
 * A small, zod-free schema library for the messages that cross a webview boundary. It is the ONE
 * validation style of SpotDesk's webview protocols (src/webviewBridge/protocol.ts): the same
 * schema validates a message in the webview bundle and in the extension, and zod (≈ 450 KB
 * minified) stays out of the webview bundles.
 *
 * A {@link Schema} parses `unknown` into a typed value or says why it cannot, with the path of the
 * offending field ("draft.price: expected a string of at most 200 characters"). Object schemas
 * return a NEW object with only their declared keys (unknown keys are dropped, like zod's default);
 * arrays return new arrays; `custom` schemas return the value as it came (for large, already
 * checked data such as the order book's levels). Parsing never throws.
 *
 * Pure: no `vscode`, no DOM, no Node APIs.
 */

/** Outcome of {@link Schema.parse}. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Parses `unknown` into `T` (see the module docs). */
export interface Schema<T> {
  /**
   * Parse `x`. `path` names it in the error message (default "value").
   * @returns `{ok: true, value}` or `{ok: false, error}`; never throws.
   */
  parse(x: unknown, path?: string): Parsed<T>;
  /** True for schemas made by {@link optional}: the key may be absent in an {@link object}. */
  readonly isOptional?: boolean;
}

/** The type a schema parses to. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** A map of field name → schema, as given to {@link object}. */
export type Shape = Record<string, Schema<unknown>>;

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { readonly isOptional: true } ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type of a {@link Shape}: keys of {@link optional} schemas are optional. */
export type InferShape<S extends Shape> = Simplify<
  { readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { readonly [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

const OK_UNDEFINED: Parsed<undefined> = { ok: true, value: undefined };

function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

function fail(path: string | undefined, expected: string): Parsed<never> {
  return { ok: false, error: `${path ?? 'value'}: expected ${expected}` };
}

function make<T>(parse: (x: unknown, path?: string) => Parsed<T>): Schema<T> {
  return { parse };
}

/** True for a plain object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * A string of at most `max` characters (default 1000), at least `min` (default 0), matching
 * `pattern` when given (test `pattern` against the whole string: anchor it).
 */
export function string(o: { max?: number; min?: number; pattern?: RegExp; what?: string } = {}): Schema<string> {
  const max = o.max ?? 1000;
  const min = o.min ?? 0;
  const what = o.what ?? `a string of ${min ? `${min} to ` : 'at most '}${max} characters${o.pattern ? ` matching ${String(o.pattern)}` : ''}`;
  return make((x, path) =>
    typeof x === 'string' && x.length <= max && x.length >= min && (!o.pattern || o.pattern.test(x)) ? ok(x) : fail(path, what),
  );
}

/**
 * A finite number; `int` requires a safe integer; `min`/`max` bound it (inclusive).
 */
export function number(o: { int?: boolean; min?: number; max?: number } = {}): Schema<number> {
  const what = `${o.int ? 'an integer' : 'a number'}${o.min !== undefined ? ` ≥ ${o.min}` : ''}${o.max !== undefined ? ` ≤ ${o.max}` : ''}`;
  return make((x, path) =>
    typeof x === 'number' &&
    Number.isFinite(x) &&
    (!o.int || Number.isSafeInteger(x)) &&
    (o.min === undefined || x >= o.min) &&
    (o.max === undefined || x <= o.max)
      ? ok(x)
      : fail(path, what),
  );
}

/** A duration or epoch time in ms: a safe integer ≥ 0. */
export const ms: Schema<number> = number({ int: true, min: 0 });

/** `true` or `false`. */
export function boolean(): Schema<boolean> {
  return make((x, path) => (typeof x === 'boolean' ? ok(x) : fail(path, 'true or false')));
}

/** Exactly one of `values` (compared with `===`). */
export function oneOf<const V extends string | number | boolean>(values: readonly V[]): Schema<V> {
  const what = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return make((x, path) => ((values as readonly unknown[]).includes(x) ? ok(x as V) : fail(path, what)));
}

/** `s`, or `null`. */
export function nullable<T>(s: Schema<T>): Schema<T | null> {
  return make((x, path) => (x === null ? ok(null) : s.parse(x, path)));
}

/** `s`, or absent (`undefined`); in an {@link object} the key is optional. */
export function optional<T>(s: Schema<T>): Schema<T | undefined> & { readonly isOptional: true } {
  return { parse: (x, path) => (x === undefined ? OK_UNDEFINED : s.parse(x, path)), isOptional: true };
}

/** An array of at most `max` (default 1000) elements, each parsed by `item` (a new array). */
export function array<T>(item: Schema<T>, o: { max?: number } = {}): Schema<T[]> {
  const max = o.max ?? 1000;
  return make((x, path) => {
    if (!Array.isArray(x) || x.length > max) return fail(path, `an array of at most ${max} elements`);
    const out: T[] = new Array<T>(x.length);
    for (let i = 0; i < x.length; i++) {
      const r = item.parse(x[i], `${path ?? 'value'}[${i}]`);
      if (!r.ok) return r;
      out[i] = r.value;
    }
    return ok(out);
  });
}

/** An object with at most `maxKeys` (default 100) string keys, each value parsed by `value` (a new object). */
export function record<T>(value: Schema<T>, o: { maxKeys?: number } = {}): Schema<Record<string, T>> {
  const maxKeys = o.maxKeys ?? 100;
  return make((x, path) => {
    if (!isRecord(x)) return fail(path, 'an object');
    const keys = Object.keys(x);
    if (keys.length > maxKeys) return fail(path, `an object of at most ${maxKeys} keys`);
    const out: Record<string, T> = {};
    for (const k of keys) {
      const r = value.parse(x[k], `${path ?? 'value'}.${k}`);
      if (!r.ok) return r;
      out[k] = r.value;
    }
    return ok(out);
  });
}

/**
 * An object with exactly the keys of `shape` (those of {@link optional} schemas may be absent).
 * Returns a NEW object holding only the declared keys; unknown keys are dropped.
 */
export function object<S extends Shape>(shape: S): Schema<InferShape<S>> {
  const keys = Object.keys(shape);
  return make((x, path) => {
    if (!isRecord(x)) return fail(path, 'an object');
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = x[k];
      const r = shape[k].parse(v, path === undefined ? k : `${path}.${k}`);
      if (!r.ok) return r;
      if (r.value !== undefined || k in x) out[k] = r.value;
    }
    return ok(out as InferShape<S>);
  });
}

/**
 * A value accepted by the type guard `guard`, returned as it came (no copy): for large data
 * already checked by a dedicated, fast function (e.g. the order book's price levels).
 */
export function custom<T>(guard: (x: unknown) => x is T, what: string): Schema<T> {
  return make((x, path) => (guard(x) ? ok(x) : fail(path, what)));
}

/** `s`, further restricted by `check` (which gets the parsed value). */
export function refine<T>(s: Schema<T>, check: (v: T) => boolean, what: string): Schema<T> {
  return make((x, path) => {
    const r = s.parse(x, path);
    return !r.ok || check(r.value) ? r : fail(path, what);
  });
}

/** The value of `s.parse(x)`, or undefined when it does not parse. */
export function parseOrUndefined<T>(s: Schema<T>, x: unknown): T | undefined {
  const r = s.parse(x);
  return r.ok ? r.value : undefined;
}
