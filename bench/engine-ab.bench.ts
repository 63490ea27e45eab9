/**
 * Engine A/B benchmark: the exchange core of this checkout against the core of an earlier revision, on the
 * engine benchmark's streams A, B and L (bench/engineStreams.ts), in ONE process, interleaved.
 *
 * Why one process: two runs of `npm run bench -- engine.` a minute apart differ by up to ±20 % on this 2-core
 * machine when anything else runs, which hides a 5 % change. Here both cores are bundled (bench/engineCore.ts)
 * and loaded side by side, each repetition runs every core once on a fresh exchange with the same 1M-order
 * stream (the order of the cores alternates between repetitions), and the verdict compares the medians of the
 * process CPU time per run. Load then hits both cores alike.
 *
 * The reference core: BENCH_AB_REF=<path to a core's index.ts>, or else BENCH_AB_REV=<git revision> (default
 * 082982d, the last revision before the core was composed of parts) extracted with `git archive` into a temp
 * dir. BENCH_AB_NEW=<path to a core's index.ts> measures another core instead of this checkout's (e.g. to split a
 * difference between two revisions). Target: every stream's median within 5 % of the reference's (ratio ≥ 0.95),
 * printed MET / MISSED.
 *
 * Run: `npm run bench -- engine-ab`. Env: BENCH_AB_REPS (default 9), BENCH_N (default 1,000,000).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleCore } from './engineCore';
import { STREAMS, SYM, USERS, WINDOW, genStream, setUpBenchWorld } from './engineStreams';

const N = Number(process.env.BENCH_N ?? 1_000_000);
const REPS = Number(process.env.BENCH_AB_REPS ?? 9);
const REV = process.env.BENCH_AB_REV ?? '082982d';

/** The reference core's entry module, and a cleanup for the temp dir it may live in. */
function referenceEntry(): { entry: string; label: string; done: () => void } {
  if (process.env.BENCH_AB_REF) return { entry: process.env.BENCH_AB_REF, label: process.env.BENCH_AB_REF, done: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'spotdesk-bench-ab-'));
  const root = join(__dirname, '..');
  const tar = execFileSync('git', ['archive', REV, 'src'], { cwd: root, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { entry: join(dir, 'src', 'exchange', 'core', 'index.ts'), label: `revision ${REV}`, done: () => rmSync(dir, { recursive: true, force: true }) };
}

type Core = ReturnType<typeof bundleCore>;

/** CPU seconds of one run of `stream` on a fresh exchange of `core` (the engine bench's numeric entry). */
function runOnce(core: Core, s: ReturnType<typeof genStream>, cancels: boolean): number {
  const clock = new Float64Array([1_700_000_000_000]);
  const ex = new core.Exchange({ now: () => clock[0]++ });
  const uids = setUpBenchWorld(ex);
  const seqs = new Int32Array(N).fill(-1);
  (globalThis as { gc?: () => void }).gc?.();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    seqs[i] = ex.placeLimitTicks(uids[i % USERS], SYM, s.side[i] === 0 ? 'buy' : 'sell', s.ticks[i], s.lots[i]);
    if (cancels && i >= WINDOW) {
      const j = i - WINDOW;
      ex.cancelSeq(uids[j % USERS], seqs[j]);
    }
  }
  const c = process.cpuUsage(c0);
  ex.checkInvariants();
  return (c.user + c.system) / 1e6;
}

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main(): void {
  const ref = referenceEntry();
  try {
    const cores: [string, Core][] = [
      ['reference', bundleCore(ref.entry)],
      ['this checkout', bundleCore(process.env.BENCH_AB_NEW ?? join(__dirname, '..', 'src', 'exchange', 'core', 'index.ts'))],
    ];
    console.log(`engine A/B: reference ${ref.label} against ${process.env.BENCH_AB_NEW ?? 'this checkout'}; N=${N} orders per run, ${REPS} interleaved repetitions per stream, orders per CPU second (median); node ${process.version}`);
    let allMet = true;
    for (const name of ['A', 'B', 'L'] as const) {
      const p = STREAMS[name];
      const s = genStream(N, p.seed, p.aggressive, p.band, p.alternate);
      const rates: number[][] = cores.map(() => []);
      for (let r = 0; r < REPS; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const k of order) rates[k].push(N / runOnce(cores[k][1], s, p.cancels));
      }
      const [refMed, ourMed] = rates.map(median);
      const ratio = ourMed / refMed;
      const met = ratio >= 0.95;
      allMet &&= met;
      const runs = (a: number[]): string => a.map((x) => `${Math.round(x / 1000)}k`).join(' ');
      console.log(`${name}: reference ${Math.round(refMed).toLocaleString('en-US')}/s [${runs(rates[0])}]`);
      console.log(`   this checkout ${Math.round(ourMed).toLocaleString('en-US')}/s [${runs(rates[1])}]`);
      console.log(`   ratio ${ratio.toFixed(3)}  ${met ? 'MET' : 'MISSED'} within 5 % of the reference (ratio >= 0.95)`);
    }
    console.log(`all streams within 5 %: ${allMet ? 'MET' : 'MISSED'}`);
  } finally {
    ref.done();
  }
}

main();
