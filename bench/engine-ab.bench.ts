/**
 * Engine A/B benchmark: the exchange core of this checkout against the core of an earlier revision, on the
 * engine benchmark's streams A, B and L (bench/engineStreams.ts), in ONE process, interleaved: each repetition
 * runs both cores (alternating which goes first) on a fresh exchange with the same 1M-order stream, and the
 * verdict compares the medians of the process CPU time per run (target: ratio ≥ 0.95, printed MET / MISSED),
 * with the median of the per-repetition ratios printed beside it. How to read it, and why the loop is bundled
 * into each core and a keeper exchange stays alive: docs/engine.md, "Measuring the engine".
 *
 * The reference core: BENCH_AB_REF=<path to a core's index.ts>, or else BENCH_AB_REV=<git revision> (default
 * 082982d, the last revision before the core was composed of parts) extracted with `git archive` into a temp
 * dir. BENCH_AB_NEW=<path to a core's index.ts> measures another core instead of this checkout's.
 *
 * Run: `npm run bench -- engine-ab`. Env: BENCH_AB_REPS (default 15), BENCH_N (default 1,000,000),
 * BENCH_AB_STREAMS (default A,B,L), BENCH_AB_KEEPER=0 (no keeper exchanges).
 */
import { join } from 'node:path';
import { bundleCoreWith, referenceEntry, type CoreWith } from './engineCore';
import type { PlayExchange } from './enginePlay';
import { STREAMS, genStream, type OrderStream } from './engineStreams';

const N = Number(process.env.BENCH_N ?? 1_000_000);
const REPS = Number(process.env.BENCH_AB_REPS ?? 15);
const KEEPERS = process.env.BENCH_AB_KEEPER !== '0';
/** The measured loop, bundled into each core's bundle. */
const PLAY = join(__dirname, 'enginePlay.ts');
const STREAM_NAMES = (process.env.BENCH_AB_STREAMS ?? 'A,B,L').split(',').map((x) => x.trim()) as (keyof typeof STREAMS)[];

type Core = CoreWith<typeof import('./enginePlay')>;

/** Orders of a keeper exchange (see {@link keeper}). */
const KEEPER_N = 200_000;

/**
 * A small exchange of `core` that has played the first KEEPER_N orders of the stream, kept alive while the stream
 * runs, so that the maps (hidden classes) of the core's objects outlive each repetition's exchange and the runs
 * measure the core's steady state rather than its re-optimisation (docs/engine.md, "Measuring the engine").
 */
function keeper(core: Core, s: OrderStream, cancels: boolean): PlayExchange {
  const { ex, uids } = core.fresh(core.Exchange);
  core.play(ex, uids, s, cancels, Math.min(N, KEEPER_N));
  return ex;
}

/** CPU seconds of one run of the stream on a fresh exchange of `core` (the engine bench's numeric entry). */
function runOnce(core: Core, s: OrderStream, cancels: boolean): number {
  const { ex, uids } = core.fresh(core.Exchange);
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = core.play(ex, uids, s, cancels, N);
  ex.checkInvariants();
  return cpu;
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main(): void {
  const ref = referenceEntry();
  try {
    const cores: [string, Core][] = [
      ['reference', bundleCoreWith(ref.entry, [PLAY])],
      ['this checkout', bundleCoreWith(process.env.BENCH_AB_NEW ?? join(__dirname, '..', 'src', 'exchange', 'core', 'index.ts'), [PLAY])],
    ];
    console.log(
      `engine A/B: reference ${ref.label} against ${process.env.BENCH_AB_NEW ?? 'this checkout'}; N=${N} orders per run, ${REPS} interleaved repetitions per stream, orders per CPU second (median); keepers ${KEEPERS ? 'on' : 'off'}; node ${process.version}`,
    );
    let allMet = true;
    for (const name of STREAM_NAMES) {
      const p = STREAMS[name];
      if (!p) throw new Error(`BENCH_AB_STREAMS: unknown stream ${name} (A, B or L)`);
      const s = genStream(N, p.seed, p.aggressive, p.band, p.alternate);
      const rates: number[][] = cores.map(() => []);
      // referenced until the stream's last repetition (see keeper)
      const keepers = KEEPERS ? cores.map(([, core]) => keeper(core, s, p.cancels)) : [];
      for (let r = 0; r < REPS; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const k of order) rates[k].push(N / runOnce(cores[k][1], s, p.cancels));
      }
      keepers.length = 0;
      const [refMed, ourMed] = rates.map(median);
      const ratio = ourMed / refMed;
      const met = ratio >= 0.95;
      allMet &&= met;
      const runs = (a: number[]): string => a.map((x) => `${Math.round(x / 1000)}k`).join(' ');
      console.log(`${name}: reference ${Math.round(refMed).toLocaleString('en-US')}/s [${runs(rates[0])}]`);
      console.log(`   this checkout ${Math.round(ourMed).toLocaleString('en-US')}/s [${runs(rates[1])}]`);
      // each repetition runs both cores back to back: the median of the per-repetition ratios is less moved by
      // a slow stretch of the machine than the ratio of the medians (printed for reading, not the verdict)
      const paired = median(rates[1].map((x, r) => x / rates[0][r]));
      console.log(`   ratio ${ratio.toFixed(3)}  ${met ? 'MET' : 'MISSED'} within 5 % of the reference (ratio >= 0.95); median of the per-repetition ratios ${paired.toFixed(3)}`);
    }
    console.log(`all streams within 5 %: ${allMet ? 'MET' : 'MISSED'}`);
  } finally {
    ref.done();
  }
}

main();
