/**
 * Restart benchmark (issue 18 part 3): what a sandbox that ran the default market simulation for 1 day and for
 * 7 days costs at its next start.
 *
 * Simulation: one child process (`--simulate=DIR`) runs a sandbox on a fresh state dir (startSandbox, manual
 * clock, world seed 1, no timers) and drives the default market simulation (sim.ts, seed 1, the default
 * 12 symbols and 5 levels) the way the issue measured it: one step per simulated second, each step a
 * `clock.set` of +1 s then `sim.step()` — the same command mix and rate as the real simulation (whose
 * commands are the same ops on a wall clock), plus the clock commands. Rotation (snapshot + new journal)
 * happens at the sandbox's default thresholds, between steps, as the queued rotation would. At 1 day the
 * process goes on until the current journal is nearly full (≤ 1,000 records before the next rotation, a few
 * simulated minutes), copies the state dir (between two commands: a consistent crash image), goes on to 7
 * days (again until the journal is nearly full) and exits WITHOUT a clean shutdown (no last snapshot): both
 * dirs look like a sandbox killed just before a rotation, so the restart replays an almost full journal (the
 * worst case; a clean stop leaves an empty journal).
 *
 * Restart: for each dir, a fresh child process (`--restart=DIR`) times `startSandbox` on it as the default
 * sandbox starts, with the bench's market running (recover the newest snapshot + replay its journal, start the
 * rotation a replaying start does — in the worker —, start the market, the HTTP listener) and prints its RSS
 * after a full GC and the recovery's split (snapshot read ms, journal records replayed and their ms). The
 * restart children and the simulation run bundled by esbuild (this file and the snapshot worker, as esbuild.js
 * bundles dist/sandbox-cli.js for the extension): under tsx every call across modules goes through a CommonJS
 * export getter, about 2.5 times slower on the journal replay; one start under tsx is printed for comparison.
 * The restart after a kill is the median of three starts, each on its own copy of the crash image (a start
 * changes the dir); then a restart of the dir after that one's clean stop (one snapshot, empty journal). The
 * state dir's bytes are counted after the simulation (before any restart). Baseline, measured first in the same
 * harness: a start on a fresh state dir without a market (what any sandbox costs).
 *
 * Rotations write their snapshot in a worker thread (stateStore.ts "Rotation"); the stall of a rotation is the
 * longest time it held the event loop (the journal switch, or the finish once the snapshot is complete), printed
 * as p50/p99/max with the target p99 <= 20 ms, against one foreground rotation at the end of the same run. The
 * first start's snapshot of its market history is written before the sandbox listens (printed apart: it stalls
 * no client).
 *
 * Printed per scenario: simulated commands, simulation speed, rotations (count, median and max pause),
 * state-dir bytes, restart ms, RSS; then the 7-day / 1-day ratios and each target (7 days: restart ≤ 1 s,
 * state dir ≤ 100 MB, RSS ≤ 300 MB; each ratio ≤ 1.5) as MET / MISSED.
 *
 * Market: BENCH_RESTART_MARKET, default `realistic` (the default profile: the agent-based market, its history built
 * at the first start, one step per 75 ms of simulated time, each a `clock.set` then the market's step); `quiet` runs
 * the two bots of sim.ts (one step per simulated second), as before the agent-based market.
 *
 * Run: `npm run bench -- restart`. Env: BENCH_RESTART_DAYS (default "1,7"; the first value is the baseline),
 * BENCH_RESTART_DIR (default a temp dir, removed at the end unless BENCH_RESTART_KEEP=1).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const DAY_MS = 24 * 3600 * 1000;

/** One line of JSON a child prints last. */
function lastJson<T>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as T;
}

/** Bytes of the files in `dir` (not recursive: a state dir is flat). */
function dirBytes(dir: string): number {
  let n = 0;
  for (const f of fs.readdirSync(dir)) {
    const st = fs.statSync(path.join(dir, f));
    if (st.isFile()) n += st.size;
  }
  return n;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface SimResult {
  days: number;
  dir: string;
  steps: number;
  commands: number;
  simSeconds: number;
  rotations: number;
  pauseMedianMs: number;
  pauseMaxMs: number;
  /** per rotation, the longest time this thread was held: the journal switch or the finish of the background snapshot (ms) */
  stalls: number[];
  /** rotations whose snapshot the worker wrote */
  background: number;
  /** a foreground rotation at the end of the window (the baseline: what every rotation cost before) */
  foregroundMs: number;
  /** the first start's snapshot of its market history, written before the sandbox listened (not a rotation of a running sandbox), ms */
  startSnapshotMs: number;
  /** the first start's market history build, ms */
  historyBuildMs: number;
  snapshotBytesLast: number;
  rssAfterSim: number;
  liveOrders: number;
  /** records in the current journal when the dir was copied / left */
  journalRecords: number;
}

/** Child: simulate, copying the state dir to `${dir}-${d}d` at each day count of `days` before the last. */
async function simulate(dir: string, days: number[]): Promise<void> {
  const { startSandbox } = await import('../src/exchange/server/index');
  const { startSimulation } = await import('../src/exchange/server/sim');
  const { DEFAULT_SNAPSHOT_EVERY_BYTES, DEFAULT_SNAPSHOT_EVERY_RECORDS } = await import('../src/exchange/server/stateStore');
  const { AGENT_PROFILES, MARKET_SNAPSHOT_EVERY_BYTES } = await import('../src/exchange/server/market/profiles');
  const rotations: number[] = [];
  const stalls: number[] = [];
  let background = 0;
  let snapshotBytes = 0;
  const market = (process.env.BENCH_RESTART_MARKET ?? 'realistic') as 'quiet' | 'realistic' | 'volatile';
  const agents = market !== 'quiet';
  // the first start's snapshot of its market history is written before the sandbox listens: no exchange to stall
  let listening = false;
  let startSnapshotMs = 0;
  const sb = await startSandbox({
    stateDir: dir,
    manualClock: true,
    // the agent-based market: started (and its history built) by startSandbox, stepped below
    sim: agents,
    market,
    seed: 1,
    port: 0,
    rateLimits: { disabled: true },
    log: (line) => {
      const m = /snapshot .* (\d+) bytes, \d+ records, paused ([\d.]+) ms/.exec(line);
      if (m && !listening) startSnapshotMs = Number(m[2]);
      else if (m) {
        snapshotBytes = Number(m[1]);
        rotations.push(Number(m[2]));
        const f = /finish ([\d.]+) ms/.exec(line);
        if (f) background++;
        stalls.push(Math.max(Number(m[2]), f ? Number(f[1]) : 0));
      }
    },
  });
  listening = true;
  const state = sb.state;
  const store = sb.store!;
  let commands = 0;
  state.onCommand(() => void commands++);
  const start = state.now();
  const sim = agents ? (sb.simulation as { stop(): void; step(): void }) : startSimulation(state, { seed: 1, intervalMs: 0 });
  // one step of simulated time: a second for the quiet bots, the profile's tick for the agents
  const stepMs = agents ? AGENT_PROFILES[market as 'realistic'].tickMs : 1000;
  const t0 = performance.now();
  let steps = 0;
  const results: SimResult[] = [];
  for (const d of days) {
    const end = start + d * DAY_MS;
    for (let now = state.now() + stepMs; now <= end; now += stepMs) {
      state.run('clock.set', { now });
      sim.step();
      steps++;
      // the rotation the store queued (setImmediate) would run here, between two steps
      store.rotateIfDue();
      // while the worker writes a snapshot, let its messages in (a real sandbox yields between requests)
      if (store.snapshotInProgress && steps % 20 === 0) await new Promise<void>((r) => setImmediate(r));
      if (steps % Math.round(86_400_000 / stepMs) === 0) process.stderr.write(`  simulated ${((steps * stepMs) / 86_400_000).toFixed(0)} day(s): ${commands} commands, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    }
    // the worst case for a restart after a kill: the current journal nearly full (a rotation is ≤ 1,000 records away)
    const everyBytes = agents ? MARKET_SNAPSHOT_EVERY_BYTES : DEFAULT_SNAPSHOT_EVERY_BYTES;
    while (store.journalSize.records < DEFAULT_SNAPSHOT_EVERY_RECORDS - 1000 && store.journalSize.bytes < everyBytes - (64 << 10)) {
      state.run('clock.set', { now: state.now() + stepMs });
      sim.step();
      steps++;
      store.rotateIfDue();
      if (store.snapshotInProgress && steps % 20 === 0) await new Promise<void>((r) => setImmediate(r));
    }
    // a crash image with no snapshot in progress (the worst case is the replay, not a half-written .tmp)
    await store.idle();
    const journalRecords = store.journalSize.records;
    // every crash image is a copy: the foreground rotation at the end (the baseline below) writes into `dir`,
    // which would leave the last one with an empty journal (a restart that replays nothing)
    const out = `${dir}-${d}d`;
    fs.mkdirSync(out, { recursive: true });
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.snap') || f.endsWith('.log')) fs.copyFileSync(path.join(dir, f), path.join(out, f));
    let live = 0;
    for (const s of state.exchange.symbols()) {
      for (const u of state.users.values()) live += state.exchange.activeOrders(u.uid, s.symbol).length;
    }
    results.push({
      days: d,
      dir: out,
      steps,
      commands,
      simSeconds: (performance.now() - t0) / 1000,
      rotations: rotations.length,
      pauseMedianMs: median(rotations),
      pauseMaxMs: Math.max(0, ...rotations),
      stalls: [...stalls],
      background,
      foregroundMs: 0,
      startSnapshotMs,
      historyBuildMs: sb.historyBuildMs ?? 0,
      snapshotBytesLast: snapshotBytes,
      rssAfterSim: process.memoryUsage().rss,
      liveOrders: live,
      journalRecords,
    });
  }
  // the baseline: one rotation written in the foreground at the end, as every rotation was before the worker
  {
    state.run('clock.set', { now: state.now() + 1000 });
    sim.step();
    const r = store.rotate();
    results[results.length - 1].foregroundMs = r?.pauseMs ?? NaN;
  }
  sim.stop();
  process.stdout.write(`${JSON.stringify(results)}\n`);
  // no clean shutdown: the state dir stays as a killed sandbox leaves it (the lock is released by the OS)
  process.exit(0);
}

/** Starts on each crash image; the restart after a kill is their median. */
const TRIES = 3;

/** What a restart child prints. */
interface RestartResult {
  ms: number;
  importMs: number;
  rss: number;
  heap: number;
  warnings: number;
  /** the store's recovery log line (snapshot read ms, journal records replayed and their ms) */
  recovered: string;
}

/**
 * Child: start a sandbox on `dir` as the default sandbox starts (the bench's market running: `--market=`),
 * print start ms, the recovery's split and RSS after GC; stop cleanly.
 */
async function restart(dir: string, market: string): Promise<void> {
  const t0 = performance.now();
  const { startSandbox } = await import('../src/exchange/server/index');
  const t1 = performance.now();
  let recovered = '';
  const sb = await startSandbox({
    stateDir: dir,
    manualClock: true,
    sim: market !== 'none',
    market: market === 'none' ? undefined : (market as 'realistic'),
    seed: 1,
    port: 0,
    log: (line) => {
      if (line.startsWith('sandbox: recovered ')) recovered = line.replace(/^sandbox: recovered the state dir in /, '');
    },
  });
  const ms = performance.now() - t1;
  sb.simulation?.stop();
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const rss = process.memoryUsage().rss;
  const heap = process.memoryUsage().heapUsed;
  const warnings = sb.warnings.length;
  await sb.close();
  process.stdout.write(`${JSON.stringify({ ms, importMs: t1 - t0, rss, heap, warnings, recovered } satisfies RestartResult)}\n`);
}

/**
 * This bench and the snapshot worker bundled by esbuild into `out` (as esbuild.js bundles dist/sandbox-cli.js
 * and dist/sandbox-snapshot-worker.js for the extension): the restart is timed on the code the extension
 * runs. Under tsx every call across modules goes through a CommonJS export getter, which made the journal
 * replay about 2.5 times slower than bundled. @returns the bundle's path.
 */
async function bundle(out: string): Promise<string> {
  const esbuild = await import('esbuild');
  const common = { bundle: true, platform: 'node' as const, target: 'node20', format: 'cjs' as const, external: ['vscode', 'esbuild'], logLevel: 'warning' as const };
  const file = path.join(out, 'restart-bench.js');
  await esbuild.build({ ...common, entryPoints: [__filename], outfile: file });
  await esbuild.build({ ...common, entryPoints: [path.join(__dirname, '../src/exchange/server/snapshotWorkerEntry.ts')], outfile: path.join(out, 'sandbox-snapshot-worker.js') });
  return file;
}

/** The bundle the restart children run (set by main; tsx and this file when unset). */
let bundled: string | undefined;

function child(args: string[], how: 'tsx' | 'bundle' = 'tsx'): string {
  const entry = how === 'bundle' && bundled ? [bundled] : ['--import', 'tsx', __filename];
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', ...entry, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`child ${args.join(' ')} failed (${r.status}): ${r.stdout}`);
  return r.stdout;
}

const mb = (b: number): string => `${(b / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  const arg = process.argv.find((a) => a.startsWith('--simulate='));
  if (arg) return simulate(arg.slice('--simulate='.length), (process.argv.find((a) => a.startsWith('--days=')) ?? '--days=1,7').slice(7).split(',').map(Number));
  const rarg = process.argv.find((a) => a.startsWith('--restart='));
  if (rarg) return restart(rarg.slice('--restart='.length), (process.argv.find((a) => a.startsWith('--market=')) ?? '--market=realistic').slice(9));

  const days = (process.env.BENCH_RESTART_DAYS ?? '1,7').split(',').map(Number);
  const root = process.env.BENCH_RESTART_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bench-restart-'));
  const dir = path.join(root, 'state');
  fs.rmSync(dir, { recursive: true, force: true });
  for (const d of days) fs.rmSync(`${dir}-${d}d`, { recursive: true, force: true });
  const market = process.env.BENCH_RESTART_MARKET ?? 'realistic';
  console.log(`restart bench: market ${market} (12 symbols, seed 1), 1 step = clock.set + one market step (75 ms of simulated time; quiet: 1 s); days ${days.join(', ')}; node ${process.version}, ${os.cpus().length} cpus`);
  bundled = await bundle(path.join(root, 'bundle'));
  console.log(`restarts run bundled by esbuild (as the extension runs the sandbox), each with the ${market} market started; the restart after a kill is the median of ${TRIES} starts, each on its own copy of the crash image`);
  // baseline, same harness: a start on a fresh state dir (world seeded, default user created, nothing simulated, no market)
  const fresh = path.join(root, 'fresh');
  const base = lastJson<RestartResult>(child([`--restart=${fresh}`, '--market=none'], 'bundle'));
  console.log(`baseline (start on a fresh state dir, same harness, no market): ${base.ms.toFixed(0)} ms, RSS ${mb(base.rss)} (heap ${mb(base.heap)}), state dir ${mb(dirBytes(fresh))} after its clean stop`);
  const sims = lastJson<SimResult[]>(child([`--simulate=${dir}`, `--days=${days.join(',')}`], 'bundle'));
  const stallRows: { days: number; p99: number; n: number; background: number }[] = [];
  const rows: { days: number; bytes: number; first: RestartResult; clean: RestartResult }[] = [];
  for (const s of sims) {
    const bytes = dirBytes(s.dir);
    const files = fs.readdirSync(s.dir).filter((f) => /\.(snap|log)$/.test(f)).sort().map((f) => `${f} ${fs.statSync(path.join(s.dir, f)).size}`);
    // every start on a crash image changes it (its rotation): each try starts on its own copy
    const copy = (to: string): string => {
      fs.rmSync(to, { recursive: true, force: true });
      fs.mkdirSync(to, { recursive: true });
      for (const f of fs.readdirSync(s.dir)) if (/\.(snap|log)$/.test(f)) fs.copyFileSync(path.join(s.dir, f), path.join(to, f));
      return to;
    };
    const tsxTry = lastJson<RestartResult>(child([`--restart=${copy(`${s.dir}-tsx`)}`, `--market=${market}`], 'tsx'));
    const tries: RestartResult[] = [];
    for (let i = 1; i < TRIES; i++) tries.push(lastJson<RestartResult>(child([`--restart=${copy(`${s.dir}-try${i}`)}`, `--market=${market}`], 'bundle')));
    tries.push(lastJson<RestartResult>(child([`--restart=${s.dir}`, `--market=${market}`], 'bundle')));
    const first = [...tries].sort((x, y) => x.ms - y.ms)[Math.floor(tries.length / 2)];
    const clean = lastJson<RestartResult>(child([`--restart=${s.dir}`, `--market=${market}`], 'bundle'));
    rows.push({ days: s.days, bytes, first, clean });
    console.log(`\n${s.days} day(s) simulated: ${s.steps} steps, ${s.commands} commands (${(s.commands / s.steps).toFixed(1)}/step), ${s.simSeconds.toFixed(0)} s of simulation (${(s.commands / s.simSeconds).toFixed(0)} commands/s), RSS while simulating ${mb(s.rssAfterSim)}`);
    console.log(`  rotations: ${s.rotations} (${s.background} written by the worker; pause median ${s.pauseMedianMs.toFixed(1)} ms, max ${s.pauseMaxMs.toFixed(1)} ms), last snapshot ${mb(s.snapshotBytesLast)}, live orders ${s.liveOrders}, current journal ${s.journalRecords} records`);
    const st = [...s.stalls].sort((x, y) => x - y);
    const pct = (q: number): number => (st.length === 0 ? 0 : st[Math.min(st.length - 1, Math.ceil(q * st.length) - 1)]);
    console.log(`  first start (fresh dir, before listening): market history built in ${s.historyBuildMs.toFixed(0)} ms, its snapshot written in the foreground in ${s.startSnapshotMs.toFixed(0)} ms (not counted as a rotation stall: no client is served yet)`);
    console.log(`  rotation stall (the longest hold of the event loop per rotation): p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms, max ${pct(1).toFixed(1)} ms over ${st.length} rotations`);
    if (s.foregroundMs > 0) console.log(`  baseline, same run: one rotation written in the foreground at the end paused ${s.foregroundMs.toFixed(1)} ms (stall p99 / baseline ${(pct(0.99) / s.foregroundMs).toFixed(3)})`);
    stallRows.push({ days: s.days, p99: pct(0.99), n: st.length, background: s.background });
    console.log(`  state dir: ${bytes} bytes (${mb(bytes)}): ${files.join(', ')}`);
    console.log(`  restart after a kill (snapshot + journal replay): ${first.ms.toFixed(0)} ms (median of ${tries.map((t) => t.ms.toFixed(0)).join(', ')} ms), RSS ${mb(first.rss)} (heap ${mb(first.heap)}), ${first.warnings} warnings; recovered in ${first.recovered}`);
    console.log(`    the same start under tsx (the sources, as tests run them): ${tsxTry.ms.toFixed(0)} ms, RSS ${mb(tsxTry.rss)}; recovered in ${tsxTry.recovered}`);
    console.log(`  restart after a clean stop (snapshot, empty journal): ${clean.ms.toFixed(0)} ms, RSS ${mb(clean.rss)}`);
    console.log(`  vs the fresh-dir baseline: RSS +${mb(first.rss - base.rss)}, restart ${(first.ms / base.ms).toFixed(1)}x`);
  }
  if (rows.length >= 2) {
    const a = rows[0];
    const b = rows[rows.length - 1];
    const ratio = (x: number, y: number): number => y / x;
    const r = { restart: ratio(a.first.ms, b.first.ms), bytes: ratio(a.bytes, b.bytes), rss: ratio(a.first.rss, b.first.rss) };
    console.log(`\nratios ${b.days} days / ${a.days} day(s): restart ${r.restart.toFixed(2)}, state dir ${r.bytes.toFixed(2)}, RSS ${r.rss.toFixed(2)}`);
    const check = (what: string, ok: boolean, shown: string): void => console.log(`  ${ok ? 'MET   ' : 'MISSED'} ${what}: ${shown}`);
    console.log(`targets at ${b.days} days (restart after a kill, the worse of the two):`);
    check('restart <= 1 s', b.first.ms <= 1000, `${b.first.ms.toFixed(0)} ms`);
    check('state dir <= 100 MB', b.bytes <= 100e6, mb(b.bytes));
    check('RSS <= 300 MB', b.first.rss <= 300e6, mb(b.first.rss));
    check('restart ratio <= 1.5', r.restart <= 1.5, r.restart.toFixed(2));
    check('state dir ratio <= 1.5', r.bytes <= 1.5, r.bytes.toFixed(2));
    check('RSS ratio <= 1.5', r.rss <= 1.5, r.rss.toFixed(2));
  }
  for (const s of stallRows) {
    console.log(`  ${s.p99 <= 20 && s.background === s.n && s.n > 0 ? 'MET   ' : 'MISSED'} rotation stall p99 <= 20 ms at ${s.days} day(s): ${s.p99.toFixed(1)} ms (${s.background}/${s.n} in the background)`);
  }
  if (process.env.BENCH_RESTART_KEEP !== '1' && !process.env.BENCH_RESTART_DIR) fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
