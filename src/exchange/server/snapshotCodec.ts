/**
 * JSON text of snapshot records (the exchange core's SnapshotRecord and the sandbox state sections' records):
 * plain JSON, plus what JSON cannot carry, each as a one-key object:
 * - `{"$f64": base64}` / `{"$i32": base64}`: a Float64Array / Int32Array, its bytes little-endian (the byte
 *   order of every platform Node runs the sandbox on: x86-64, ARM64);
 * - `{"$num": "Infinity" | "-Infinity" | "NaN"}`: a non-finite number;
 * - `{"$big": "123"}`: a BigInt.
 * Every finite number is written as JSON writes it (the shortest text that reads back to the same double), so
 * the round trip is exact.
 */

function replacer(_key: string, v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : { $num: String(v) };
  if (typeof v === 'bigint') return { $big: v.toString() };
  if (v instanceof Float64Array) return { $f64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (v instanceof Int32Array) return { $i32: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  return v;
}

/** A copy of the bytes of `b64` in a fresh (aligned) ArrayBuffer. */
function bytes(b64: string, width: number): ArrayBuffer {
  const buf = Buffer.from(b64, 'base64');
  if (buf.length % width !== 0) throw new Error('snapshot: typed array of a length that is no multiple of its element');
  const out = new ArrayBuffer(buf.length);
  new Uint8Array(out).set(buf);
  return out;
}

function reviver(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  // one-key objects only (a plain object of the records never has a key starting with $)
  if (typeof o.$f64 === 'string') return new Float64Array(bytes(o.$f64, 8));
  if (typeof o.$i32 === 'string') return new Int32Array(bytes(o.$i32, 4));
  if (typeof o.$num === 'string') {
    if (o.$num === 'Infinity') return Infinity;
    if (o.$num === '-Infinity') return -Infinity;
    if (o.$num === 'NaN') return NaN;
    throw new Error(`snapshot: bad number ${o.$num}`);
  }
  if (typeof o.$big === 'string') {
    if (!/^-?\d+$/.test(o.$big)) throw new Error(`snapshot: bad BigInt ${o.$big}`);
    return BigInt(o.$big);
  }
  return v;
}

/** The JSON text of one record (a single line: JSON.stringify never emits a raw newline). */
export function encodeSnapshotRecord(rec: unknown): string {
  return JSON.stringify(rec, replacer);
}

/**
 * Replace the tagged values in `v` (parsed JSON) by what {@link reviver} makes of them, bottom-up as
 * JSON.parse's reviver would: @returns `v` changed in place, or its replacement.
 */
function revive(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') {
        const y = revive(x);
        if (y !== x) v[i] = y;
      }
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x !== null && typeof x === 'object') {
      const y = revive(x);
      // defineProperty: an own key named __proto__ (JSON.parse makes one) must not hit the setter
      if (y !== x) Object.defineProperty(o, k, { value: y, writable: true, enumerable: true, configurable: true });
    }
  }
  return reviver('', o);
}

/**
 * The record of {@link encodeSnapshotRecord}'s text. @throws SyntaxError / Error on bad text.
 *
 * A text without `"$` holds no tagged value (every tag is a key starting with `$`): it is parsed as plain
 * JSON. One with tags is parsed as plain JSON too and then walked for its objects (what JSON.parse's reviver
 * would do, without calling back for every string and number of the record and every array index, which
 * made a restart's snapshot read several times slower: the engine's trade tapes are such records).
 */
export function decodeSnapshotRecord(text: string): unknown {
  const v: unknown = JSON.parse(text);
  return text.includes('"$') ? revive(v) : v;
}
