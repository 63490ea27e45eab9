/**
 * Engine instruction counts: the exchange core of this checkout against an earlier revision's, counted by
 * valgrind (cachegrind) with V8 made deterministic (`--single-threaded --predictable --hash-seed=1
 * --random-seed=1`), so one run gives the same count every time. Where engine-ab's timing moves by ±3 % from run
 * to run on this 2-core machine, this count is exact: a guide to whether a change to the hot path makes the
 * engine do less work. Instructions are not time (cache misses and branch mispredictions cost too): the
 * verdict on speed stays engine-ab's. docs/engine.md, "Measuring the engine".
 *
 * Per core and stream, the program (bench/engineInstrDriver.ts, bundled with the core) runs twice: with R − 1 and
 * with R repetitions after its keeper exchange; the difference is repetition R, divided by N. R = 2 counts a
 * fresh exchange's re-optimisation too (as engine-ab's early repetitions); R = 8 is the steady state.
 *
 * Run: `npm run bench -- engine-instr` (needs valgrind: `sudo apt-get install valgrind`). Env: BENCH_N
 * (default 300,000: valgrind runs ~50× slower), BENCH_INSTR_REP (R, default 2), BENCH_AB_STREAMS (default B),
 * BENCH_AB_REF / BENCH_AB_REV / BENCH_AB_NEW as in engine-ab.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { referenceEntry } from './engineCore';

const N = Number(process.env.BENCH_N ?? 300_000);
/** The repetition counted (see the header). */
const REP = Number(process.env.BENCH_INSTR_REP ?? 2);
const STREAM_NAMES = (process.env.BENCH_AB_STREAMS ?? 'B').split(',').map((x) => x.trim());
/** Orders of the keeper exchange (as engine-ab's). */
const KEEPER_N = 200_000;
/** V8 flags that make a run's instruction count repeat exactly. */
const DETERMINISTIC = ['--expose-gc', '--single-threaded', '--predictable', '--hash-seed=1', '--random-seed=1'];

/** The program for the core at `entry`: the core, bench/enginePlay.ts and the driver in one bundle, written to `dir`. */
function program(entry: string, dir: string, tag: string): string {
  const src = join(dir, `${tag}-entry.ts`);
  const driver = join(__dirname, 'engineInstrDriver.ts').replace(/\.ts$/, '');
  writeFileSync(src, `import { Exchange } from ${JSON.stringify(entry.replace(/\.ts$/, ''))};\nimport { runInstrDriver } from ${JSON.stringify(driver)};\nrunInstrDriver(Exchange);\n`);
  const out = join(dir, `${tag}.js`);
  buildSync({ entryPoints: [src], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'warning' });
  return out;
}

/** Instructions valgrind counted for one run of `file` with `runs` repetitions of `stream`. @throws when the run failed. */
function count(file: string, stream: string, runs: number, dir: string): number {
  const log = join(dir, `cg-${runs}.log`);
  const r = spawnSync(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', `--log-file=${log}`, process.execPath, ...DETERMINISTIC, file],
    { env: { ...process.env, STREAM: stream, N: String(N), RUNS: String(runs), KEEPER_N: String(KEEPER_N) }, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`valgrind run failed (exit ${r.status}): ${r.stderr || readFileSync(log, 'utf8').slice(-2000)}`);
  const m = /I\s+refs:\s+([\d,]+)/.exec(readFileSync(log, 'utf8'));
  if (!m) throw new Error(`no instruction count in ${log}`);
  return Number(m[1].replace(/,/g, ''));
}

/** Print each stream's instruction counts (or say why it was skipped). */
function main(): void {
  if (!Number.isInteger(REP) || REP < 2) throw new Error(`BENCH_INSTR_REP: an integer of at least 2, not ${process.env.BENCH_INSTR_REP}`);
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('engine-instr: SKIPPED, it needs valgrind, which is not installed here (sudo apt-get install valgrind)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'spotdesk-bench-instr-'));
  const ref = referenceEntry();
  try {
    const ourEntry = process.env.BENCH_AB_NEW ?? join(__dirname, '..', 'src', 'exchange', 'core', 'index.ts');
    const cores = [
      { label: 'reference', file: program(ref.entry, dir, 'reference') },
      { label: 'this checkout', file: program(ourEntry, dir, 'ours') },
    ];
    console.log(`engine instructions: reference ${ref.label} against ${process.env.BENCH_AB_NEW ?? 'this checkout'}; N=${N} orders, repetition ${REP} (a keeper exchange of ${KEEPER_N} orders alive); valgrind cachegrind; node ${process.version} ${DETERMINISTIC.join(' ')}`);
    for (const stream of STREAM_NAMES) {
      const per = cores.map((c) => (count(c.file, stream, REP, dir) - count(c.file, stream, REP - 1, dir)) / N);
      const ratio = per[0] / per[1];
      console.log(`${stream}: reference ${per[0].toFixed(0)} instructions per order, this checkout ${per[1].toFixed(0)}; ratio reference/this ${ratio.toFixed(3)} (${Math.abs((per[1] / per[0] - 1) * 100).toFixed(1)} % ${per[1] >= per[0] ? 'more' : 'fewer'} instructions)`);
    }
  } finally {
    ref.done();
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
