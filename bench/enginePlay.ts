/**
 * The engine A/B benchmark's measured loop (bench/engine-ab.bench.ts), bundled INTO each core's bundle
 * (bench/engineCore.ts bundleCoreWith): each core then runs its own copy, compiled against its own classes only,
 * and the loop reads the stream's constants as bundled constants rather than through tsx's module getters.
 */
import type { Exchange } from '../src/exchange/core';
import { SYM, USERS, WINDOW, setUpBenchWorld, type OrderStream } from './engineStreams';

/** The slice of a core's Exchange the loop uses (the reference core's class has the same methods). */
export type PlayExchange = Pick<Exchange, 'placeLimitTicks' | 'cancelSeq' | 'checkInvariants'> & Parameters<typeof setUpBenchWorld>[0];

/** A fresh exchange of class `X` with the benchmark world (bench/engineStreams.ts), on a clock that ticks
 * 1 ms per read. */
export function fresh(X: new (opts: { now: () => number }) => PlayExchange): { ex: PlayExchange; uids: string[] } {
  const clock = new Float64Array([1_700_000_000_000]);
  const ex = new X({ now: () => clock[0]++ });
  return { ex, uids: setUpBenchWorld(ex) };
}

/**
 * Place the first `n` orders of `s` on `ex` in turn by the world's users (with `cancels`, each followed by the
 * cancel of the order placed WINDOW before it: stream B), through the numeric entries placeLimitTicks and
 * cancelSeq. @returns the process CPU seconds it took.
 */
export function play(ex: PlayExchange, uids: string[], s: OrderStream, cancels: boolean, n: number): number {
  const seqs = new Int32Array(n).fill(-1);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    seqs[i] = ex.placeLimitTicks(uids[i % USERS], SYM, s.side[i] === 0 ? 'buy' : 'sell', s.ticks[i], s.lots[i]);
    if (cancels && i >= WINDOW) {
      const j = i - WINDOW;
      ex.cancelSeq(uids[j % USERS], seqs[j]);
    }
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}
