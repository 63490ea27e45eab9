/**
 * Replay benchmark (issue "Record and replay"): the size per hour of a BTC-USDT recording and the replay speed
 * of ReplaySource on one core.
 *
 * 1. Rates. The recording is synthesized at the realistic market's BTC-USDT rates: level-2 messages per second,
 *    level changes per message, trades per second and book depth. By default the rates measured with step 2
 *    below (RATES); with BENCH_REPLAY_MEASURE_S=N they are measured first, by recording N seconds of BTC-USDT
 *    with SpotDesk's recorder (src/exchange/record.ts) from a child sandbox started like the CLI (fresh state
 *    dir, the default realistic market, seed 1, a real clock) — which also prints that real recording's size
 *    per hour.
 * 2. Synthesis (deterministic: mulberry32, seed 1): one hour of events at those rates — a snapshot at the start
 *    and every 300 s (the recorder's default periodic resync), l2 increments with consecutive sequences at
 *    prices near the touch (sizes with 8 decimals, a share of removals), trades at the touch — written through
 *    RecordingWriter in blocks of one second, as the recorder flushes them.
 * 3. Replay: ReplaySource at speed 0 (as fast as possible) in this process (one core); wall and CPU time, and
 *    the speed as a multiple of real time (3600 s / wall s).
 *
 * Prints the figures with the targets (size ≤ 50 MB per hour, replay ≥ 100× real time) and MET/MISSED.
 * Run: `npm run bench -- replay`. Env: BENCH_REPLAY_MEASURE_S (measure the rates live first; default: use RATES),
 * BENCH_REPLAY_HOURS (synthesized duration, default 1), BENCH_REPLAY_SCALE (multiplies the message and trade rates,
 * default 1: e.g. 10 for a market ten times busier than the realistic one).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mulberry32 } from '../src/exchange/server/world';
import { readRecording, RecordingWriter, RECORDING_FORMAT, RECORDING_VERSION, type RecordedEvent, type RecordingHeader } from '../src/exchange/server/mirror/recording';
import { ReplaySource } from '../src/exchange/server/mirror/replay';

/** BTC-USDT rates of the realistic market (measured with BENCH_REPLAY_MEASURE_S; see the module docstring). */
interface Rates {
  l2PerSecond: number;
  changesPerL2: number;
  tradesPerSecond: number;
  levelsPerSide: number;
  /** Share of changes that remove a level (size "0"). */
  removals: number;
}

/**
 * Measured with `BENCH_REPLAY_MEASURE_S=60 npm run bench -- replay` (realistic market, seed 1, 60 s of BTC-USDT:
 * 1082 events; that real recording extrapolated to 3.71 MB per hour).
 */
const RATES: Rates = { l2PerSecond: 12.3, changesPerL2: 5.62, tradesPerSecond: 5.69, levelsPerSide: 45, removals: 0.473 };

const SYM = 'BTC-USDT';

/** Child: a sandbox as the CLI starts it (fresh state dir, default market), until stdin closes; prints {baseUrl}. */
async function child(dir: string): Promise<void> {
  const { startSandbox } = await import('../src/exchange/server/index');
  const sb = await startSandbox({ stateDir: dir, port: 0, seed: 1, rateLimits: { disabled: true } });
  process.stdout.write(`${JSON.stringify({ baseUrl: sb.baseUrl })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
}

/** Record `seconds` of BTC-USDT from a realistic child sandbox; the rates and the real recording's size per hour. */
async function measure(seconds: number, dir: string): Promise<{ rates: Rates; bytesPerHour: number; events: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', __filename, `--child=${path.join(dir, 'state')}`], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const { baseUrl } = await new Promise<{ baseUrl: string }>((resolve, reject) => {
      let buf = '';
      proc.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const line = buf.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { baseUrl: string });
      });
      proc.once('exit', (code) => reject(new Error(`sandbox child exited with ${code}`)));
    });
    const { startRecorder } = await import('../src/exchange/record');
    const file = path.join(dir, 'measured.sdrec');
    const rec = await startRecorder({ baseUrl, symbols: [SYM], out: file });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await rec.stop('bench');
    const { events } = readRecording(file);
    const l2 = events.filter((e) => e.type === 'l2');
    const changes = l2.flatMap((e) => (e.type === 'l2' ? [...e.changes.asks, ...e.changes.bids] : []));
    const snaps = events.filter((e) => e.type === 'snapshot');
    const first = snaps[0];
    const levels = first && first.type === 'snapshot' ? (first.bids.length + first.asks.length) / 2 : 0;
    const headerBytes = fs.readFileSync(file).readUInt32LE(16);
    const span = (events[events.length - 1].recv - events[0].recv) / 1000 || seconds;
    return {
      rates: {
        l2PerSecond: l2.length / span,
        changesPerL2: changes.length / Math.max(1, l2.length),
        tradesPerSecond: events.filter((e) => e.type === 'trade').length / span,
        levelsPerSide: Math.round(levels),
        removals: changes.filter((c) => /^[0.]+$/.test(c[1])).length / Math.max(1, changes.length),
      },
      bytesPerHour: ((fs.statSync(file).size - headerBytes) / span) * 3600,
      events: events.length,
    };
  } finally {
    proc.stdin.end();
    await new Promise((r) => proc.once('exit', r));
  }
}

/** Poisson count with mean `m` (Knuth), from `rng`. */
function poisson(rng: () => number, m: number): number {
  const l = Math.exp(-m);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rng();
  } while (p > l);
  return k - 1;
}

/** Synthesize `hours` of BTC-USDT at `rates` into `file` (see the module docstring); the events written. */
function synthesize(file: string, rates: Rates, hours: number): { events: number; bytes: number } {
  const rng = mulberry32(1);
  const start = Date.UTC(2026, 10, 27);
  const header: RecordingHeader = { format: RECORDING_FORMAT, version: RECORDING_VERSION, source: 'synthetic', start, symbolNames: [SYM], symbols: [], currencies: [], notes: { bench: 'replay' } };
  const w = new RecordingWriter(file, header);
  let seq = 1_000_000_000n;
  let tradeId = 1;
  const midTicks = 670_000; // 67,000.0 in ticks of 0.1
  const price = (ticks: number): string => `${Math.floor(ticks / 10)}.${ticks % 10}`;
  const size = (): string => (rng() * 2).toFixed(8);
  const book = (): { bids: [string, string][]; asks: [string, string][] } => ({
    bids: Array.from({ length: rates.levelsPerSide }, (_, i) => [price(midTicks - 1 - i), size()] as [string, string]),
    asks: Array.from({ length: rates.levelsPerSide }, (_, i) => [price(midTicks + i), size()] as [string, string]),
  });
  let events = 0;
  const put = (e: RecordedEvent): void => {
    w.append(e);
    events++;
  };
  const snap = (t: number): void => put({ type: 'snapshot', symbol: SYM, sequence: seq.toString(), ...book(), time: t, recv: t + 3 });
  put({ type: 'status', state: 'resyncing', symbol: SYM, reason: `${SYM}: book sync (start)`, since: start, recv: start });
  snap(start);
  put({ type: 'status', state: 'live', reason: 'every symbol synced', since: start, recv: start });
  for (let s = 0; s < hours * 3600; s++) {
    const t0 = start + s * 1000;
    if (s > 0 && s % 300 === 0) snap(t0);
    const n = poisson(rng, rates.l2PerSecond);
    const k = poisson(rng, rates.tradesPerSecond);
    const times = [...Array.from({ length: n }, () => ({ t: t0 + Math.floor(rng() * 1000), trade: false })), ...Array.from({ length: k }, () => ({ t: t0 + Math.floor(rng() * 1000), trade: true }))].sort((a, b) => a.t - b.t);
    for (const { t, trade } of times) {
      if (trade) {
        const buy = rng() < 0.5;
        put({ type: 'trade', symbol: SYM, sequence: seq.toString(), tradeId: String(tradeId++), price: price(buy ? midTicks : midTicks - 1), size: (rng() * 0.05).toFixed(8), side: buy ? 'buy' : 'sell', time: t, recv: t + 3 });
        continue;
      }
      const changes = Math.max(1, poisson(rng, rates.changesPerL2 - 1) + 1);
      const asks: [string, string, string][] = [];
      const bids: [string, string, string][] = [];
      const first = seq + 1n;
      for (let c = 0; c < changes; c++) {
        const depth = Math.min(rates.levelsPerSide - 1, Math.floor(-Math.log(1 - rng()) * 8));
        const ask = rng() < 0.5;
        const row: [string, string, string] = [price(ask ? midTicks + depth : midTicks - 1 - depth), rng() < rates.removals ? '0' : size(), (++seq).toString()];
        (ask ? asks : bids).push(row);
      }
      put({ type: 'l2', symbol: SYM, sequenceStart: first.toString(), sequenceEnd: seq.toString(), changes: { asks, bids }, time: t, recv: t + 3 });
    }
    w.flush(); // one block per second, as the recorder's default --flush-ms 1000
  }
  w.close('synthesized', start + hours * 3600 * 1000);
  return { events, bytes: w.bytes };
}

async function main(): Promise<void> {
  const childArg = process.argv.find((a) => a.startsWith('--child='));
  if (childArg) return child(childArg.slice(8));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bench-replay-'));
  const hours = Number(process.env.BENCH_REPLAY_HOURS ?? 1);
  const measureS = Number(process.env.BENCH_REPLAY_MEASURE_S ?? 0);
  console.log(`replay bench: node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(1)}`);
  const rows: string[] = [];
  const check = (what: string, ok: boolean, shown: string): void => void rows.push(`  ${ok ? 'MET   ' : 'MISSED'} ${what}: ${shown}`);
  try {
    const scale = Number(process.env.BENCH_REPLAY_SCALE ?? 1);
    let rates = RATES;
    if (measureS > 0) {
      console.log(`measuring the realistic market's BTC-USDT rates: recording ${measureS} s from a fresh sandbox (history build first)…`);
      const m = await measure(measureS, dir);
      rates = m.rates;
      console.log(`  measured: ${JSON.stringify(rates)}`);
      console.log(`  the real recording: ${m.events} events, ${(m.bytesPerHour / 1e6).toFixed(2)} MB per hour (extrapolated)`);
    } else console.log(`rates (realistic market, measured with BENCH_REPLAY_MEASURE_S=60): ${JSON.stringify(rates)}`);
    if (scale !== 1) {
      rates = { ...rates, l2PerSecond: rates.l2PerSecond * scale, tradesPerSecond: rates.tradesPerSecond * scale };
      console.log(`rates scaled by BENCH_REPLAY_SCALE=${scale}: ${JSON.stringify(rates)}`);
    }
    const file = path.join(dir, 'synthetic.sdrec');
    const t0 = performance.now();
    const syn = synthesize(file, rates, hours);
    console.log(`synthesized ${hours} h: ${syn.events} events, ${(syn.bytes / 1e6).toFixed(2)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const perHour = syn.bytes / hours;
    check('recording size per hour <= 50 MB', perHour <= 50e6, `${(perHour / 1e6).toFixed(2)} MB`);

    const src = new ReplaySource(file, { speed: 0 });
    let n = 0;
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    await src.start(() => void n++);
    await src.finished;
    const wall = (performance.now() - w0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await src.close();
    if (n !== syn.events) throw new Error(`replayed ${n} events of ${syn.events}`);
    const speed = (hours * 3600) / wall;
    console.log(`replayed ${n} events in ${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU (${Math.round(n / wall)} events/s)`);
    check('replay speed through ReplaySource on one core >= 100x real time', speed >= 100, `${speed.toFixed(0)}x`);
    console.log(rows.join('\n'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
