/**
 * `npm run bench -- sandbox-host` (issue 23): the extension host's event-loop delay while the embedded
 * sandbox starts on a large state dir and then streams at full rate, with today's out-of-process sandbox
 * (forked from dist/sandbox-cli.js --ipc, src/host/sandboxProcess.ts) next to the former in-process
 * sandbox (startSandbox() on the host's own thread), measured the same way in the same run.
 *
 * This process plays the extension host: it starts the sandbox one way or the other, keeps an exact
 * book of every simulated symbol from the WebSocket feed (StreamClient + keepBook, as the market panel
 * does) and measures its own event-loop delay from just before the start until STREAM_MS of streaming
 * have passed, two ways:
 * - perf_hooks.monitorEventLoopDelay (1 ms resolution), as the issue names it. It reports long blocks
 *   poorly (a 1.5 s synchronous replay showed as max 4.9 ms here), so also:
 * - the wait of work arriving at the host: a 1 ms timer records every gap between its ticks, and each
 *   millisecond of wall time is one sample of how long work arriving then waits for the loop (a gap of g
 *   ms contributes the waits g, g−1, …, 1). Its p99 and max are what other extensions would feel.
 * The sandbox's simulation runs at 10× its default rate (a step every 100 ms). Target (issue 23): p99 ≤
 * 10 ms out of process (judged on the stricter, wait-based figure).
 *
 * The state dir is prepared once (the default simulation stepped in-process with a manual clock,
 * journaled like the real one) and copied for each run, so both start from the same bytes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { SpotClient } from '../src/api/client';
import { level2Snapshot, keepBook } from '../src/api/l2Book';
import { StreamClient } from '../src/api/stream';
import { startSandbox } from '../src/exchange/server/index';
import { startSimulation } from '../src/exchange/server/sim';
import { startSandboxProcess } from '../src/host/sandboxProcess';

const ROOT = path.resolve(__dirname, '..');
const PREP_STEPS = Number(process.env.BENCH_PREP_STEPS ?? 30_000);
const STREAM_MS = Number(process.env.BENCH_STREAM_MS ?? 10_000);
const SIM_INTERVAL_MS = 100;

function dirBytes(dir: string): number {
  let n = 0;
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const st = fs.statSync(path.join(dir, f));
    if (st.isFile()) n += st.size;
  }
  return n;
}

/** A state dir holding PREP_STEPS steps of the default simulation (journaled as in real use). */
async function prepare(dir: string): Promise<void> {
  const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true, rateLimits: false });
  const sim = startSimulation(sb.state, { seed: 1, intervalMs: 0 });
  const t0 = Date.now();
  for (let i = 0; i < PREP_STEPS; i++) {
    const now = sb.state.now() + 1000;
    sb.state.exec({ op: 'clock.set', t: now, args: { now } });
    sim.step();
  }
  sim.stop();
  await sb.close();
  console.log(`prepared: ${PREP_STEPS} steps of the default simulation (${PREP_STEPS / 3600} h simulated) in ${((Date.now() - t0) / 1000).toFixed(1)} s; state dir ${(dirBytes(dir) / 1e6).toFixed(1)} MB`);
}

interface Result {
  startMs: number;
  /** monitorEventLoopDelay, ms */
  p50: number;
  p99: number;
  max: number;
  /** wait of work arriving at a uniformly random time, ms */
  waitP99: number;
  waitMax: number;
  updates: number;
}

/** Waits (ms) of work arriving at each millisecond, from the gaps between ticks of a 1 ms timer. */
function waitTracker(): { stop(): { p99: number; max: number } } {
  const waits: number[] = [];
  let last = performance.now();
  const iv = setInterval(() => {
    const now = performance.now();
    const gap = Math.floor(now - last);
    last = now;
    for (let w = gap; w >= 1; w--) waits.push(w);
  }, 1);
  return {
    stop() {
      clearInterval(iv);
      waits.sort((a, b) => a - b);
      return { p99: waits[Math.floor(waits.length * 0.99)] ?? 0, max: waits[waits.length - 1] ?? 0 };
    },
  };
}

/** Start the sandbox with `start`, then keep books of every simulated symbol for STREAM_MS; the host's loop delay throughout. */
async function run(start: () => Promise<{ baseUrl: string; close: () => Promise<void> }>): Promise<Result> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const waits = waitTracker();
  const t0 = performance.now();
  const sb = await start();
  const startMs = performance.now() - t0;
  const client = new SpotClient({ baseUrl: sb.baseUrl });
  const symbols = (await client.getSymbols()).filter((s) => s.enableTrading).map((s) => s.symbol);
  const stream = new StreamClient({ token: () => client.getBulletPublic() });
  await stream.start();
  let updates = 0;
  const books = await Promise.all(symbols.map((s) => keepBook(stream, s, level2Snapshot(client, s))));
  for (const b of books) b.keeper.on('update', () => updates++);
  await new Promise((r) => setTimeout(r, STREAM_MS));
  h.disable();
  const w = waits.stop();
  for (const b of books) await b.stop();
  stream.close();
  client.close();
  await sb.close();
  const ms = (ns: number): number => ns / 1e6;
  return { startMs, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), waitP99: w.p99, waitMax: w.max, updates };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--only', 'sandbox'], { stdio: 'inherit' });
  const entry = path.join(ROOT, 'dist', 'sandbox-cli.js');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-hostbench-'));
  try {
    const base = path.join(work, 'base');
    await prepare(base);
    const copy = (name: string): string => {
      const d = path.join(work, name);
      fs.cpSync(base, d, { recursive: true });
      return d;
    };
    // copies made before measuring (a 100+ MB copy would block this thread too)
    const outDir = copy('out');
    const inDir = copy('in');
    const outOfProcess = await run(async () => {
      const p = await startSandboxProcess({ entry, stateDir: outDir, port: 0, log: () => undefined, extraArgs: ['--market', 'quiet', '--sim-interval-ms', String(SIM_INTERVAL_MS)] });
      return { baseUrl: p.baseUrl, close: () => p.stop() };
    });
    const inProcess = await run(async () => {
      const s = await startSandbox({ stateDir: inDir, market: 'quiet', simIntervalMs: SIM_INTERVAL_MS });
      return { baseUrl: s.baseUrl, close: () => s.close() };
    });
    const row = (name: string, r: Result): string =>
      `${name.padEnd(28)} start ${r.startMs.toFixed(0).padStart(6)} ms | monitorEventLoopDelay p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)} max ${r.max.toFixed(1)} ms | ` +
      `wait of arriving work p99 ${r.waitP99} ms, max ${r.waitMax} ms | book updates ${r.updates}`;
    console.log(`extension host's event-loop delay, sandbox start + ${STREAM_MS / 1000} s of streaming (simulation at 10×):`);
    console.log(row('sandbox in its own process', outOfProcess));
    console.log(row('sandbox in-process (before)', inProcess));
    console.log(`wait p99 in-process / out-of-process: ${(inProcess.waitP99 / Math.max(1, outOfProcess.waitP99)).toFixed(0)}×`);
    console.log(`target p99 ≤ 10 ms (out of process): monitorEventLoopDelay ${outOfProcess.p99 <= 10 ? 'MET' : 'MISSED'}, wait-based ${outOfProcess.waitP99 <= 10 ? 'MET' : 'MISSED'}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
