/**
 * Engine A/B benchmark: the exchange core of this checkout against the core of an earlier revision, on the
 * engine benchmark's streams A, B and L (bench/engineStreams.ts). Each of BENCH_AB_PROCS Node processes runs both
 * cores interleaved: each repetition runs both (alternating which goes first) on a fresh exchange with the same
 * 1M-order stream. A process's ratio is the ratio of the medians of its runs (orders per CPU second); the
 * verdict takes the median of the processes' ratios (target: ≥ 0.95, printed MET / MISSED). Several processes,
 * because most of the spread is between processes (how V8 happened to compile each core in that process), not
 * between repetitions. How to read it, why the loop is bundled into each core and a keeper exchange stays alive:
 * docs/engine.md, "Measuring the engine".
 *
 * The reference core: BENCH_AB_REF=<path to a core's index.ts>, or else BENCH_AB_REV=<git revision> (default
 * 082982d, the last revision before the core was composed of parts) extracted with `git archive` into a temp
 * dir. BENCH_AB_NEW=<path to a core's index.ts> measures another core instead of this checkout's.
 *
 * Run: `npm run bench -- engine-ab`. Env: BENCH_AB_PROCS (default 5), BENCH_AB_REPS (per process, default 9),
 * BENCH_N (default 1,000,000), BENCH_AB_STREAMS (default A,B,L), BENCH_AB_KEEPER=0 (no keeper exchanges).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleCoreWith, referenceEntry, type CoreWith } from './engineCore';
import type { PlayExchange } from './enginePlay';
import { STREAMS, genStream, type OrderStream } from './engineStreams';

const N = Number(process.env.BENCH_N ?? 1_000_000);
const REPS = Number(process.env.BENCH_AB_REPS ?? 9);
const PROCS = Number(process.env.BENCH_AB_PROCS ?? 5);
/** Set in the child processes the parent spawns (see {@link main}). */
const CHILD = process.env.BENCH_AB_CHILD === '1';
/** Prefix of the line a child prints its runs on. */
const RESULT = 'ENGINE_AB_RUNS ';
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

/** Orders per CPU second of each core's runs (reference first), by stream. */
type Runs = Record<string, [number[], number[]]>;

/** One process's measurement: both cores (reference first), REPS interleaved runs per stream. */
function measure(refEntry: string, log: (line: string) => void): Runs {
  const cores: [string, Core][] = [
    ['reference', bundleCoreWith(refEntry, [PLAY])],
    ['this checkout', bundleCoreWith(process.env.BENCH_AB_NEW ?? join(__dirname, '..', 'src', 'exchange', 'core', 'index.ts'), [PLAY])],
  ];
  const out: Runs = {};
  for (const name of STREAM_NAMES) {
    const p = STREAMS[name];
    if (!p) throw new Error(`BENCH_AB_STREAMS: unknown stream ${name} (A, B or L)`);
    const s = genStream(N, p.seed, p.aggressive, p.band, p.alternate);
    const rates: [number[], number[]] = [[], []];
    // referenced until the stream's last repetition (see keeper)
    const keepers = KEEPERS ? cores.map(([, core]) => keeper(core, s, p.cancels)) : [];
    for (let r = 0; r < REPS; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const k of order) rates[k].push(N / runOnce(cores[k][1], s, p.cancels));
    }
    keepers.length = 0;
    out[name] = rates;
    const runs = (a: number[]): string => a.map((x) => `${Math.round(x / 1000)}k`).join(' ');
    log(`  ${name}: reference [${runs(rates[0])}], this checkout [${runs(rates[1])}], ratio ${(median(rates[1]) / median(rates[0])).toFixed(3)}`);
  }
  return out;
}

/**
 * The parent spawns PROCS child processes one after another (each runs {@link measure} and prints its runs as one
 * JSON line), then prints per stream each process's ratio and the verdict on their median.
 */
function main(): void {
  if (CHILD) {
    const runs = measure(process.env.BENCH_AB_REF as string, (line) => console.log(line));
    console.log(RESULT + JSON.stringify(runs));
    return;
  }
  const ref = referenceEntry();
  try {
    console.log(
      `engine A/B: reference ${ref.label} against ${process.env.BENCH_AB_NEW ?? 'this checkout'}; N=${N} orders per run, ${PROCS} processes of ${REPS} interleaved repetitions per stream, orders per CPU second; keepers ${KEEPERS ? 'on' : 'off'}; node ${process.version}`,
    );
    const all: Runs[] = [];
    for (let i = 0; i < PROCS; i++) {
      const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename], {
        env: { ...process.env, BENCH_AB_CHILD: '1', BENCH_AB_REF: ref.entry },
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      const line = r.stdout.split('\n').find((l) => l.startsWith(RESULT));
      if (r.status !== 0 || !line) throw new Error(`engine-ab process ${i + 1} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
      console.log(`process ${i + 1} of ${PROCS}:`);
      process.stdout.write(r.stdout.split('\n').filter((l) => l.startsWith('  ')).join('\n') + '\n');
      all.push(JSON.parse(line.slice(RESULT.length)) as Runs);
    }
    let allMet = true;
    for (const name of STREAM_NAMES) {
      const ratios = all.map((x) => median(x[name][1]) / median(x[name][0]));
      const ratio = median(ratios);
      const met = ratio >= 0.95;
      allMet &&= met;
      const pooled = [0, 1].map((k) => median(all.flatMap((x) => x[name][k])));
      console.log(
        `${name}: ratio ${ratio.toFixed(3)} ${met ? 'MET' : 'MISSED'} within 5 % of the reference (median of the processes' ratios, ratio >= 0.95); processes ${ratios.map((x) => x.toFixed(3)).join(' ')}; all runs pooled: reference ${Math.round(pooled[0]).toLocaleString('en-US')}/s, this checkout ${Math.round(pooled[1]).toLocaleString('en-US')}/s, ratio ${(pooled[1] / pooled[0]).toFixed(3)}`,
      );
    }
    console.log(`all streams within 5 %: ${allMet ? 'MET' : 'MISSED'}`);
  } finally {
    ref.done();
  }
}

main();
