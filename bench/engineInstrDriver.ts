/**
 * The program bench/engine-instr.bench.ts runs under valgrind, bundled with one core (bench/engineCore.ts
 * bundleCoreWith): a keeper exchange plays the first KEEPER_N orders of the stream (as in engine-ab), then
 * RUNS repetitions play the stream on fresh exchanges. Env: STREAM (A, B or L), N (orders per repetition),
 * RUNS, KEEPER_N. Prints nothing on success; exits non-zero on an error.
 */
import { fresh, play } from './enginePlay';
import { STREAMS, genStream } from './engineStreams';

/** Run the program with the core `X` it was bundled with (called by the bundle's entry). */
export function runInstrDriver(X: Parameters<typeof fresh>[0]): void {
  const name = process.env.STREAM as keyof typeof STREAMS;
  const p = STREAMS[name];
  if (!p) throw new Error(`STREAM: unknown stream ${String(name)} (A, B or L)`);
  const n = Number(process.env.N);
  const runs = Number(process.env.RUNS);
  const keeperN = Math.min(n, Number(process.env.KEEPER_N));
  const s = genStream(n, p.seed, p.aggressive, p.band, p.alternate);
  const k = fresh(X);
  play(k.ex, k.uids, s, p.cancels, keeperN);
  // referenced to the end: its maps (hidden classes) outlive every repetition's exchange
  (globalThis as { keeper?: unknown }).keeper = k.ex;
  for (let r = 0; r < runs; r++) {
    const { ex, uids } = fresh(X);
    (globalThis as { gc?: () => void }).gc?.();
    play(ex, uids, s, p.cancels, n);
  }
}
