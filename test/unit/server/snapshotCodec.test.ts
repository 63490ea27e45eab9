/**
 * The snapshot record codec (src/exchange/server/snapshotCodec.ts): every value a record may hold — typed
 * arrays, BigInts, non-finite numbers, nested at any depth in arrays and objects, beside plain strings that
 * look like tags — reads back equal to what was written, and the decoder (plain JSON.parse, then a walk of the
 * tagged records) gives exactly what JSON.parse with the per-value reviver gave before.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import { decodeSnapshotRecord, encodeSnapshotRecord } from '../../../src/exchange/server/snapshotCodec';

/** The decoder as it was: JSON.parse with a reviver called for every value (the reference). */
function reference(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (typeof o.$f64 === 'string') {
      const b = Buffer.from(o.$f64, 'base64');
      const out = new ArrayBuffer(b.length);
      new Uint8Array(out).set(b);
      return new Float64Array(out);
    }
    if (typeof o.$i32 === 'string') {
      const b = Buffer.from(o.$i32, 'base64');
      const out = new ArrayBuffer(b.length);
      new Uint8Array(out).set(b);
      return new Int32Array(out);
    }
    if (typeof o.$num === 'string') return Number(o.$num);
    if (typeof o.$big === 'string') return BigInt(o.$big);
    return v;
  });
}

const leaf = fc.oneof(
  fc.string(),
  fc.constantFrom('$f64', '"$', '{"$num":"NaN"}', '$'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt(),
  fc.float64Array({ maxLength: 5 }),
  fc.int32Array({ maxLength: 5 }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('$x', 'k', '__proto__')), tie('v'), { maxKeys: 4 })),
})).v;

describe('snapshot record codec', () => {
  it('round-trips typed arrays, BigInts and non-finite numbers at any depth, and decodes as the reviver did', () => {
    fc.assert(
      fc.property(value, (v) => {
        const text = encodeSnapshotRecord(v);
        const back = decodeSnapshotRecord(text);
        assert.deepStrictEqual(back, reference(text));
        // a second round trip gives the same text (nothing lost or changed by decoding)
        assert.equal(encodeSnapshotRecord(back), text);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes a record without tags as plain JSON, and a tagged one nested in arrays of objects', () => {
    assert.deepStrictEqual(decodeSnapshotRecord('{"k":"rows","list":[[1,"67184.6","$5"]]}'), { k: 'rows', list: [[1, '67184.6', '$5']] });
    const rec = { t: 'sym', trades: [{ p: '1.5', n: Infinity }, { a: new Int32Array([1, -2, 3]) }], f: new Float64Array([0.5, NaN]), b: 12345678901234567890n };
    const back = decodeSnapshotRecord(encodeSnapshotRecord(rec)) as typeof rec;
    assert.deepStrictEqual(back, rec);
    assert.ok(back.trades[1].a instanceof Int32Array && back.f instanceof Float64Array);
  });
});
