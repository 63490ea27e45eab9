/**
 * Property tests of the order book view-model's arithmetic: buildView sums sizes as exact
 * integer units in Numbers while they fit 2^53 − 1 units and falls back to scaled BigInts beyond;
 * either way every string must equal the exact decimal result (src/api/decimal), and the change
 * flags (diffed by index and price) must equal a plain price → size map comparison.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import { add, cmp, fromUnitsFixed, fractionDigits, toUnits } from '../../../src/api/decimal';
import type { BookLevel, BookSnapshot, Grouping } from '../../../src/features/market/protocol';
import { buildView, comparePlain, depthSeries, emptyPrevious, groupingStep } from '../../../src/features/market/model/viewModel';

/** A plain non-negative decimal: up to `intDigits` integer digits (maybe leading zeros) and `frac` fraction digits. */
const decimal = (intDigits: number, frac: number) =>
  fc
    .tuple(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: intDigits }), fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: frac }))
    .map(([i, f]) => (f ? `${i}.${f}` : i));

/** A side of distinct prices on a `tickScale` grid, best first; sizes with up to `sizeDigits` integer digits. */
const side = (dir: 'asks' | 'bids', sizeDigits: number) =>
  fc
    .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { maxLength: 30 }), fc.integer({ min: 0, max: 3 }))
    .chain(([ticks, tickScale]) =>
      fc.tuple(fc.constant(ticks), fc.constant(tickScale), fc.array(decimal(sizeDigits, 10), { minLength: ticks.length, maxLength: ticks.length })),
    )
    .map(([ticks, tickScale, sizes]): BookLevel[] => {
      const sorted = [...ticks].sort((a, b) => (dir === 'asks' ? a - b : b - a));
      return sorted.map((t, i) => [fromUnitsFixed(BigInt(t), tickScale), sizes[i]]);
    });

const book = (sizeDigits: number) =>
  fc.tuple(side('bids', sizeDigits), side('asks', sizeDigits)).map(([bids, asks]): BookSnapshot => ({ symbol: 'X-Y', sequence: '1', time: 0, receivedAt: 0, bids, asks }));

/** Reference grouping with scaled BigInts: [bucket price, exact size sum] per bucket, best first. */
function reference(levels: readonly BookLevel[], dir: 'asks' | 'bids', step: string, grouped: boolean): Array<[string, string]> {
  if (!grouped) return levels.map(([p, s]) => [p, s]);
  const stepScale = fractionDigits(step);
  const scale = Math.max(stepScale, ...levels.map(([p]) => fractionDigits(p)));
  const stepU = toUnits(step, scale);
  const out: Array<[string, string, bigint]> = [];
  for (const [p, s] of levels) {
    const pu = toUnits(p, scale);
    const r = pu % stepU;
    const bucket = r === 0n ? pu : dir === 'bids' ? pu - r : pu - r + stepU;
    const last = out[out.length - 1];
    if (last && last[2] === bucket) last[1] = add(last[1], s);
    else out.push([fromUnitsFixed(bucket / 10n ** BigInt(scale - stepScale), stepScale), s, bucket]);
  }
  return out.map(([p, s]) => [p, s]);
}

function checkSide(levels: ReturnType<typeof buildView>['asks'], want: Array<[string, string]>): void {
  assert.equal(levels.length, want.length);
  let total = '0';
  for (let i = 0; i < want.length; i++) {
    total = add(total, want[i][1]);
    assert.equal(levels[i].price, want[i][0]);
    assert.equal(cmp(levels[i].size, want[i][1]), 0, `size ${levels[i].size} = ${want[i][1]}`);
    assert.equal(levels[i].total, total.includes('.') ? total.replace(/\.?0+$/, '') : total, `total at ${i}`);
  }
}

describe('order book view-model: exact arithmetic on both paths', () => {
  for (const [name, digits] of [
    ['small amounts (Number units)', 4],
    ['amounts beyond 2^53 units (BigInt fallback)', 12],
  ] as const) {
    it(`sizes, grouped sizes and cumulative totals are the exact decimal sums — ${name}`, () => {
      fc.assert(
        fc.property(book(digits), fc.constantFrom<Grouping>('1', '10', '100', '1000'), fc.constantFrom('0.001', '0.01', '1', '5'), (b, g, inc) => {
          const v = buildView(b, inc, g);
          const step = groupingStep(inc, g);
          checkSide(v.bids, reference(b.bids, 'bids', step, g !== '1'));
          checkSide(v.asks, reference(b.asks, 'asks', step, g !== '1'));
          // The chart's Numbers are the totals' Numbers.
          const d = depthSeries(v);
          assert.deepEqual(d.bids.map((p) => p.y), v.bids.map((l) => Number(l.total)));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('a size beyond 2^53 units takes the BigInt path and stays exact', () => {
    const b: BookSnapshot = { symbol: 'X-Y', sequence: '1', time: 0, receivedAt: 0, bids: [['10', '9007199254740993'], ['9', '0.000000001']], asks: [['11', '1']] };
    const v = buildView(b, '1', '1');
    assert.deepEqual(v.bids.map((l) => l.total), ['9007199254740993', '9007199254740993.000000001']);
  });

  it('change flags equal a price → size map comparison, through moves of the book', () => {
    fc.assert(
      fc.property(fc.array(book(3), { minLength: 2, maxLength: 6 }), (books) => {
        const prev = emptyPrevious();
        let before: { asks: Map<string, string>; bids: Map<string, string> } | undefined;
        for (const b of books) {
          const v = buildView(b, '0.001', '1', prev);
          for (const dir of ['asks', 'bids'] as const) {
            const old = before?.[dir];
            const want = b[dir].map(([p, s]) => {
              if (!old || old.size === 0) return null;
              const o = old.get(p);
              if (o === undefined) return 'new';
              const c = cmp(o, s);
              return c < 0 ? 'up' : c > 0 ? 'down' : null;
            });
            assert.deepEqual(v[dir].map((l) => l.change), want);
          }
          before = { asks: new Map(b.asks), bids: new Map(b.bids) };
          assert.deepEqual([...prev.bids], [...before.bids]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('comparePlain orders plain decimals exactly, leading and trailing zeros included', () => {
    fc.assert(
      fc.property(decimal(6, 6), decimal(6, 6), (a, b) => assert.equal(comparePlain(a, b), cmp(a, b))),
      { numRuns: 2000 },
    );
    assert.equal(comparePlain('01.50', '1.5'), 0);
    assert.equal(comparePlain('0.0', '0'), 0);
    assert.equal(comparePlain('10', '9.99'), 1);
  });
});
