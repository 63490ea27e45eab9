/**
 * `spotdesk-sandbox` / `npm run sandbox -- [options]`: run the SpotDesk sandbox exchange. The options are
 * {@link USAGE} (what `--help` prints) and docs/sandbox.md "Start it"; mirror and replay: docs/sandbox.md
 * "Mirror mode" and docs/recording.md.
 *
 * Subcommands (each with its own --help):
 *   spotdesk-sandbox record --from BASE_URL --symbols BTC-USDT[,ETH-USDT] --out FILE [--duration-s N]
 *       record an upstream's public market (see {@link parseRecordArgs}, src/exchange/record.ts)
 *   spotdesk-sandbox convert-tardis --book FILE.csv --trades FILE.csv --symbol BTC-USDT --out FILE
 *       convert tardis.dev CSV datasets into a recording (see {@link parseConvertTardisArgs})
 *
 * Prints exactly one line on stdout when ready: `SpotDesk sandbox listening on http://HOST:PORT` (with --tls
 * `https://…` and `(CA certificate: STATE_DIR/ca.pem)`; a mirror or replay on its own default state dir adds
 * ` (mirror state in DIR)` / ` (replay state in DIR)`). With --ipc it reports readiness, errors and a replay's
 * position as {@link SandboxIpcMessage}s and stops when the parent disconnects. Stops cleanly on SIGINT/SIGTERM.
 * Exit code 2 for bad arguments, 1 when start-up fails.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { startSandbox, SandboxOptions, StateDirInUseError, type SandboxCredentials } from './server/index';
import { isMarketProfile, MARKET_PROFILES } from './server/market/profiles';
import { fetchUpstreamWorld, UpstreamSource } from './server/mirror/upstream';
import type { RecordingHeader } from './server/mirror/recording';
import { ReplaySource } from './server/mirror/replay';

/** Parsed command line. */
export interface CliArgs extends SandboxOptions {
  /** --mirror: the upstream's base URL (mirror mode). */
  mirrorUrl?: string;
  /** --symbols: the symbols to mirror. */
  symbols?: string[];
  /** --replay FILE: the recording to serve. */
  replay?: string;
  /** --speed N: replay pace (0 = as fast as possible). */
  speed?: number;
  /**
   * True when `stateDir` is the mirror's or replay's own default ({@link borrowedMarketStateDir}) because no
   * --state-dir was given: the startup line names it.
   */
  ownStateDir?: boolean;
  verbose: boolean;
  help: boolean;
  ipc: boolean;
  inMemory: boolean;
}

/** Messages of a sandbox started with `--ipc` to its parent (the extension host). */
export type SandboxIpcMessage =
  | {
      type: 'ready';
      baseUrl: string;
      credentials: SandboxCredentials;
      adminToken: string;
      warnings: string[];
      stateDir: string | null;
      /** With --tls: the CA certificate clients must trust (absolute path; null in memory). Absent without --tls. */
      caPath?: string | null;
    }
  | {
      type: 'error';
      message: string;
      /** 'EADDRINUSE' when the requested port is taken, 'STATE_DIR_IN_USE' when another sandbox holds the state dir */
      code?: string;
      holder?: { pid: number; baseUrl: string };
    }
  | { type: 'log'; line: string }
  /**
   * A replay's position (with --replay only): `time` the replay time of the last delivered event (ms since the
   * epoch; null before the first), `finished` once every event was delivered. Sent about once a second while it
   * moves, and once when it finishes.
   */
  | { type: 'replay'; time: number | null; finished: boolean };

/** Messages of the parent to a sandbox started with `--ipc`. */
export type SandboxIpcCommand = { type: 'stop' };

/**
 * Parse argv (without node and script). @throws Error with a usage message for unknown/invalid options.
 */
export function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { host: '127.0.0.1', port: 0, stateDir: DEFAULT_STATE_DIR, sim: true, market: 'realistic', manualClock: false, seed: 1, verbose: false, help: false, ipc: false, inMemory: false };
  let explicitStateDir = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const int = (min: number, max: number): number => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new Error(`${flag} must be an integer in [${min}, ${max}], got ${v}`);
      return Number(v);
    };
    switch (flag) {
      case '--host':
        out.host = value();
        break;
      case '--port':
        out.port = int(0, 65535);
        break;
      case '--state-dir':
        out.stateDir = value();
        explicitStateDir = true;
        break;
      case '--no-sim':
        out.sim = false;
        break;
      case '--market': {
        const v = value();
        if (!isMarketProfile(v)) throw new Error(`--market must be one of ${MARKET_PROFILES.join(', ')}, got ${v}`);
        out.market = v;
        break;
      }
      case '--manual-clock':
        out.manualClock = true;
        break;
      case '--seed':
        out.seed = int(0, 2 ** 31 - 1);
        break;
      case '--sim-interval-ms':
        out.simIntervalMs = int(1, 3_600_000);
        break;
      case '--verbose':
        out.verbose = true;
        break;
      case '--ipc':
        out.ipc = true;
        break;
      case '--in-memory':
        out.inMemory = true;
        break;
      case '--tls':
        out.tls = true;
        break;
      case '--fast-reset':
        out.fastReset = true;
        break;
      case '--mirror': {
        const v = value();
        let u: URL | undefined;
        try {
          u = new URL(v);
        } catch {
          u = undefined;
        }
        if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new Error(`--mirror must be an http(s) URL, got ${v}`);
        out.mirrorUrl = v.replace(/\/+$/, '');
        break;
      }
      case '--symbols': {
        const list = value().split(',').map((x) => x.trim().toUpperCase());
        if (list.length === 0 || list.some((x) => !/^[A-Z0-9]{1,20}-[A-Z0-9]{1,20}$/.test(x))) throw new Error(`--symbols must be a comma-separated list of symbols like BTC-USDT,ETH-USDT`);
        out.symbols = [...new Set(list)];
        break;
      }
      case '--replay':
        out.replay = value();
        break;
      case '--speed':
        out.speed = nonNegative(flag, value());
        break;
      case '-h':
      case '--help':
        out.help = true;
        break;
      default:
        throw new Error(`unknown option ${a}`);
    }
  }
  if (out.mirrorUrl !== undefined && out.symbols === undefined) throw new Error('--mirror needs --symbols (e.g. --symbols BTC-USDT)');
  if (out.symbols !== undefined && out.mirrorUrl === undefined) throw new Error('--symbols is for --mirror');
  if (out.speed !== undefined && out.replay === undefined) throw new Error('--speed needs --replay');
  if (out.replay !== undefined && out.mirrorUrl !== undefined) throw new Error('--replay and --mirror exclude each other (one borrowed market per sandbox)');
  if (!explicitStateDir && !out.inMemory && (out.mirrorUrl !== undefined || out.replay !== undefined)) {
    // a borrowed market's journal must never land in (or replay) an ordinary sandbox's state
    out.stateDir = borrowedMarketStateDir(out);
    out.ownStateDir = true;
  }
  return out;
}

/** The state dir of a sandbox started without --state-dir. */
export const DEFAULT_STATE_DIR = '.spotdesk-sandbox';

/**
 * The default state dir of a mirror or replay sandbox, next to the ordinary default but never it:
 * `.spotdesk-sandbox-mirror-<12 hex of sha256(url, sorted symbols)>` or `.spotdesk-sandbox-replay-<12 hex of
 * sha256(absolute recording path)>`, so the same market (or recording) finds its paper account again and two
 * different ones never share a journal (docs/sandbox.md "Mirror mode").
 */
export function borrowedMarketStateDir(a: Pick<CliArgs, 'mirrorUrl' | 'symbols' | 'replay'>): string {
  const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);
  if (a.replay !== undefined) return `${DEFAULT_STATE_DIR}-replay-${hash(path.resolve(a.replay))}`;
  return `${DEFAULT_STATE_DIR}-mirror-${hash(`${a.mirrorUrl ?? ''}\n${[...(a.symbols ?? [])].sort().join(',')}`)}`;
}

/** A non-negative finite number or "Infinity"/"inf". @throws Error naming `flag`. */
function nonNegative(flag: string, v: string): number {
  if (/^(infinity|inf)$/i.test(v)) return Infinity;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`${flag} must be a non-negative number (or Infinity), got ${v}`);
  return Number(v);
}

/** Split one `--flag value` / `--flag=value` pair; shared by the subcommand parsers. */
function flagValue(argv: string[], i: number): { flag: string; value: () => string; next: () => number } {
  const a = argv[i];
  const eq = a.indexOf('=');
  const flag = eq > 0 ? a.slice(0, eq) : a;
  const inline = eq > 0 ? a.slice(eq + 1) : undefined;
  let j = i;
  return {
    flag,
    value: () => {
      const v = inline ?? argv[++j];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new Error(`${flag} needs a value`);
      return v;
    },
    next: () => j,
  };
}

/**
 * The `mirror` option of {@link startSandbox} that `--replay FILE` builds: a {@link ReplaySource} of the file (its
 * header: `source.header`), the label `replay`, and the world of the recording's header — the recorded symbols'
 * GET /api/v2/symbols rows and their currencies' GET /api/v3/currencies rows; no candle history (a recording has none).
 * @throws RecordingFormatError when the file is not a readable recording; Error for a bad speed.
 */
export function replayMirrorOption(
  file: string,
  speed: number,
  manualClock: boolean,
): { source: ReplaySource; label: 'replay'; world: { symbols: RecordingHeader['symbols']; currencies: RecordingHeader['currencies']; candles: Record<string, never[]> } } {
  const source = new ReplaySource(file, { speed, manualClock, log: (l) => process.stderr.write(`${l}\n`) });
  return { source, label: 'replay', world: { symbols: source.header.symbols, currencies: source.header.currencies, candles: {} } };
}

/** Parsed `spotdesk-sandbox record` command line. */
export interface RecordArgs {
  /** Upstream base URL (http/https). */
  from: string;
  symbols: string[];
  out: string;
  /** Stop after this many seconds (default: until SIGINT/SIGTERM). */
  durationS?: number;
  /** Periodic REST resync, seconds (0 = never). Default 300. */
  snapshotEveryS: number;
  /** Block flush interval, ms. Default 1000. */
  flushMs: number;
  /** Progress line interval, seconds (0 = none). Default 5. */
  progressS: number;
  help: boolean;
}

const SYMBOL_RE = /^[A-Z0-9]{1,20}-[A-Z0-9]{1,20}$/;

/**
 * Parse `spotdesk-sandbox record` arguments (after the word `record`):
 * `--from BASE_URL --symbols A-B[,C-D] --out FILE [--duration-s N] [--snapshot-every-s 300] [--flush-ms 1000] [--progress-s 5]`.
 * @throws Error with a usage message for unknown, missing or invalid options.
 */
export function parseRecordArgs(argv: string[]): RecordArgs {
  const out: Partial<RecordArgs> & { help: boolean } = { help: false };
  const int = (flag: string, v: string, min: number, max: number): number => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new Error(`${flag} must be an integer in [${min}, ${max}], got ${v}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const f = flagValue(argv, i);
    switch (f.flag) {
      case '--from': {
        const v = f.value();
        let u: URL;
        try {
          u = new URL(v);
        } catch {
          throw new Error(`--from must be an http(s) base URL, got ${v}`);
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`--from must be an http(s) base URL, got ${v}`);
        out.from = v.replace(/\/+$/, '');
        break;
      }
      case '--symbols': {
        const list = f.value().split(',').map((s) => s.trim()).filter((s) => s !== '');
        const bad = list.filter((s) => !SYMBOL_RE.test(s));
        if (list.length === 0 || bad.length > 0) throw new Error(`--symbols must be a comma-separated list like BTC-USDT,ETH-USDT${bad.length ? `, got ${bad.join(', ')}` : ''}`);
        if (new Set(list).size !== list.length) throw new Error('--symbols lists a symbol twice');
        out.symbols = list;
        break;
      }
      case '--out':
        out.out = f.value();
        break;
      case '--duration-s':
        out.durationS = int(f.flag, f.value(), 1, 31 * 24 * 3600);
        break;
      case '--snapshot-every-s':
        out.snapshotEveryS = int(f.flag, f.value(), 0, 24 * 3600);
        break;
      case '--flush-ms':
        out.flushMs = int(f.flag, f.value(), 10, 60_000);
        break;
      case '--progress-s':
        out.progressS = int(f.flag, f.value(), 0, 3600);
        break;
      case '-h':
      case '--help':
        out.help = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
    i = f.next();
  }
  if (out.help) return { from: '', symbols: [], out: '', snapshotEveryS: 300, flushMs: 1000, progressS: 5, ...out, help: true };
  for (const k of ['from', 'symbols', 'out'] as const) if (out[k] === undefined) throw new Error(`--${k} is required`);
  return { snapshotEveryS: 300, flushMs: 1000, progressS: 5, ...(out as Omit<RecordArgs, 'snapshotEveryS' | 'flushMs' | 'progressS'>) };
}

/** Parsed `spotdesk-sandbox convert-tardis` command line. */
export interface ConvertTardisArgs {
  /** tardis.dev `incremental_book_L2` CSV (plain or .gz). */
  book: string;
  /** tardis.dev `trades` CSV (plain or .gz); optional. */
  trades?: string;
  /** The KuCoin symbol of the data (its row comes from the bundled world). */
  symbol: string;
  out: string;
  help: boolean;
}

/**
 * Parse `spotdesk-sandbox convert-tardis` arguments: `--book FILE --symbol BTC-USDT --out FILE [--trades FILE]`.
 * @throws Error with a usage message for unknown, missing or invalid options.
 */
export function parseConvertTardisArgs(argv: string[]): ConvertTardisArgs {
  const out: Partial<ConvertTardisArgs> & { help: boolean } = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const f = flagValue(argv, i);
    switch (f.flag) {
      case '--book':
        out.book = f.value();
        break;
      case '--trades':
        out.trades = f.value();
        break;
      case '--symbol': {
        const v = f.value();
        if (!SYMBOL_RE.test(v)) throw new Error(`--symbol must look like BTC-USDT, got ${v}`);
        out.symbol = v;
        break;
      }
      case '--out':
        out.out = f.value();
        break;
      case '-h':
      case '--help':
        out.help = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
    i = f.next();
  }
  if (out.help) return { book: '', symbol: '', out: '', ...out, help: true };
  for (const k of ['book', 'symbol', 'out'] as const) if (out[k] === undefined) throw new Error(`--${k} is required`);
  return out as ConvertTardisArgs;
}

const USAGE =
  'usage: spotdesk-sandbox [--host 127.0.0.1] [--port 0] [--state-dir .spotdesk-sandbox | --in-memory] [--tls] [--no-sim] [--market quiet|realistic|volatile] [--sim-interval-ms 1000] [--manual-clock] [--seed 1] [--fast-reset] [--mirror URL --symbols A,B | --replay FILE [--speed 1]] [--verbose]\n' +
  '       spotdesk-sandbox record --from BASE_URL --symbols BTC-USDT[,ETH-USDT] --out FILE [--duration-s N]   (record --help)\n' +
  '       spotdesk-sandbox convert-tardis --book L2.csv[.gz] [--trades TRADES.csv[.gz]] --symbol BTC-USDT --out FILE\n' +
  '  --host HOST        interface (default 127.0.0.1)\n' +
  '  --port N           port (default 0 = a free port)\n' +
  '  --state-dir DIR    journal, snapshots, credentials.json, admin-token (default ./.spotdesk-sandbox; with --mirror\n' +
  '                     or --replay a dir of its own, ./.spotdesk-sandbox-mirror-HASH / -replay-HASH, never the\n' +
  '                     ordinary sandbox\'s; the startup line names it)\n' +
  '  --in-memory        keep no state on disk (a fresh world every start)\n' +
  '  --no-sim           no market simulation\n' +
  '  --market PROFILE   quiet (two slow bots, no history: for tests), realistic (default: the agent-based market\n' +
  '                     with 3 x 24 h of history on a fresh state dir) or volatile\n' +
  '  --sim-interval-ms N  milliseconds between steps of the quiet market (default 1000)\n' +
  '  --manual-clock     time moves only via admin POST /sandbox/v1/clock\n' +
  '  --seed N           seed of the initial books and the simulation (default 1)\n' +
  '  --fast-reset       keep a freshly seeded world ready, so admin POST /sandbox/v1/reset answers in a few ms\n' +
  '  --tls              serve HTTPS and WSS with a certificate for 127.0.0.1, ::1 and localhost, signed by a local CA\n' +
  '                     created once as STATE_DIR/ca.pem (key 0600); give it to your bot: NODE_EXTRA_CA_CERTS,\n' +
  '                     REQUESTS_CA_BUNDLE, SSL_CERT_FILE (docs/sandbox.md "TLS"); with --in-memory the CA lives in\n' +
  '                     memory only and nothing is written\n' +
  '  --mirror URL --symbols A,B  paper trading on a borrowed market: the public market of the symbols comes from the\n' +
  '                     upstream (public REST and WebSocket only, no credentials); your orders match against it and\n' +
  '                     never reach it (docs/sandbox.md "Mirror mode")\n' +
  '  --replay FILE      serve a recorded market (docs/recording.md), users\' orders matched as in mirror mode\n' +
  '  --speed N          with --replay: N x the recorded pace (default 1; 0 = as fast as possible); with --manual-clock\n' +
  '                     the admin clock endpoint steps through the recording instead\n' +
  '  --verbose          log internal errors and notes to stderr\n' +
  '  --ipc              started by the VS Code extension (child_process.fork): report over the IPC channel, stop\n' +
  '                     when the parent disconnects\n' +
  'When ready it prints one line: SpotDesk sandbox listening on http://HOST:PORT (https and the CA\'s path with --tls;\n' +
  '"(mirror state in DIR)" / "(replay state in DIR)" on a borrowed market\'s own state dir). Stops on SIGINT/SIGTERM.\n' +
  'Exit code 2 for bad arguments, 1 when start-up fails.';

const RECORD_USAGE =
  'usage: spotdesk-sandbox record --from BASE_URL --symbols BTC-USDT[,ETH-USDT] --out FILE [--duration-s N] [--snapshot-every-s 300] [--flush-ms 1000] [--progress-s 5]\n' +
  '  Records the public market of the symbols at BASE_URL (KuCoin: https://api.kucoin.com, or a SpotDesk sandbox):\n' +
  '  REST snapshots, every level-2 increment with its sequence, the trades. Public endpoints only, no credentials.\n' +
  '  --duration-s N        stop after N seconds (default: until SIGINT/SIGTERM)\n' +
  '  --snapshot-every-s N  resync the books from a fresh REST snapshot every N seconds (0 = never; default 300)\n' +
  '  --flush-ms N          write a block at least every N ms: the most a killed recorder loses (default 1000)\n' +
  '  --progress-s N        print a progress line every N seconds (0 = none; default 5)\n' +
  '  Format: docs/recording.md. Exit code 2 for bad arguments, 1 when the upstream or the file fails.';

const CONVERT_USAGE =
  'usage: spotdesk-sandbox convert-tardis --book L2.csv[.gz] [--trades TRADES.csv[.gz]] --symbol BTC-USDT --out FILE\n' +
  '  Converts tardis.dev incremental_book_L2 (and trades) CSV datasets of one symbol into a SpotDesk recording\n' +
  '  (sequences are synthesized; mapping: docs/recording.md "tardis.dev CSV"). The symbol must be in the bundled world.';

/**
 * Parse a command line with `parse`: on an error, print it with `usage` and exit 2; with --help, print `usage` and
 * return undefined; else the parsed arguments.
 */
function parseOrExit<T extends { help: boolean }>(parse: (argv: string[]) => T, argv: string[], usage: string): T | undefined {
  let args: T;
  try {
    args = parse(argv);
  } catch (e) {
    // after an error, only the usage lines (the option reference is `--help`)
    const short = usage.split('\n').filter((l, i) => i === 0 || /^ {7}\S/.test(l)).join('\n');
    process.stderr.write(`${(e as Error).message}\n${short}\n(--help lists every option)\n`);
    process.exit(2);
  }
  if (!args.help) return args;
  process.stdout.write(`${usage}\n`);
  return undefined;
}

/** `spotdesk-sandbox record`: record until --duration-s or SIGINT/SIGTERM; exit 0 on a clean stop. */
async function runRecord(argv: string[]): Promise<void> {
  const args = parseOrExit(parseRecordArgs, argv, RECORD_USAGE);
  if (args === undefined) return;
  const { startRecorder } = await import('./record');
  const rec = await startRecorder({
    baseUrl: args.from,
    symbols: args.symbols,
    out: args.out,
    flushMs: args.flushMs,
    snapshotEveryMs: args.snapshotEveryS * 1000,
    log: (line) => process.stderr.write(`record: ${line}\n`),
  });
  const line = (): string => {
    const s = rec.stats;
    return `${s.events} events (${s.l2} l2, ${s.trades} trades, ${s.snapshots} snapshots, ${s.statuses} status), ${s.bytes} bytes in ${s.blocks} blocks`;
  };
  process.stdout.write(`recording ${args.symbols.join(',')} from ${args.from} to ${path.resolve(args.out)}\n`);
  const progress = args.progressS > 0 ? setInterval(() => process.stdout.write(`recorded ${line()}\n`), args.progressS * 1000) : undefined;
  let stopping = false;
  const stop = (why: string): void => {
    if (stopping) return;
    stopping = true;
    if (progress) clearInterval(progress);
    rec.stop(why).then(
      () => {
        process.stdout.write(`recording stopped (${why}): ${line()}\n`);
        process.exit(0);
      },
      (e: unknown) => {
        process.stderr.write(`record: stop failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      },
    );
  };
  if (args.durationS !== undefined) setTimeout(() => stop(`duration ${args.durationS} s`), args.durationS * 1000);
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** `spotdesk-sandbox convert-tardis`: tardis.dev CSV → recording. */
async function runConvertTardis(argv: string[]): Promise<void> {
  const args = parseOrExit(parseConvertTardisArgs, argv, CONVERT_USAGE);
  if (args === undefined) return;
  const { convertTardis } = await import('./server/mirror/tardis');
  const r = convertTardis({ book: args.book, trades: args.trades, symbol: args.symbol, out: args.out });
  process.stdout.write(`converted ${r.events} events (${r.snapshots} snapshots, ${r.l2} l2, ${r.trades} trades) into ${path.resolve(args.out)} (${r.bytes} bytes)\n`);
}

/** Send the replay's position to the parent every second while it moves, and once when it finishes. */
function reportReplay(source: ReplaySource, send: (m: SandboxIpcMessage) => void, stopping: () => boolean): void {
  let last: number | null | undefined;
  const position = (): number | null => (Number.isFinite(source.time) ? source.time : null);
  const timer = setInterval(() => {
    const t = position();
    if (t === last) return;
    last = t;
    send({ type: 'replay', time: t, finished: false });
  }, 1000);
  timer.unref();
  void source.finished.then(() => {
    clearInterval(timer);
    if (!stopping()) send({ type: 'replay', time: position(), finished: true });
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'record') return runRecord(argv.slice(1));
  if (argv[0] === 'convert-tardis') return runConvertTardis(argv.slice(1));
  const args = parseOrExit(parseArgs, argv, USAGE);
  if (args === undefined) return;
  const stateDir = args.inMemory ? undefined : path.resolve(args.stateDir ?? DEFAULT_STATE_DIR);
  const send = (m: SandboxIpcMessage): void => {
    if (args.ipc && process.send && process.connected) process.send(m);
  };
  const { ipc: _ipc, inMemory: _inMemory, verbose: _verbose, help: _help, ownStateDir, mirrorUrl, symbols, replay, speed, ...options } = args;
  const log = (line: string): void => {
    if (args.ipc) send({ type: 'log', line });
    else if (args.verbose || /internal error|journal|warning|failed|mirror/i.test(line)) process.stderr.write(`${line}\n`);
  };
  let sb;
  try {
    if (mirrorUrl !== undefined && symbols !== undefined) {
      const world = await fetchUpstreamWorld(mirrorUrl, symbols);
      options.mirror = { source: new UpstreamSource({ baseUrl: mirrorUrl, symbols, log }), label: 'mirror', world };
    } else if (replay !== undefined) {
      // a recording's market through the same mirror market (its header carries the world; no candle history)
      options.mirror = replayMirrorOption(replay, speed ?? 1, args.manualClock ?? false);
    }
    sb = await startSandbox({
      ...options,
      stateDir,
      log,
    });
  } catch (e) {
    if (!args.ipc) throw e;
    const code = e instanceof StateDirInUseError ? 'STATE_DIR_IN_USE' : (e as NodeJS.ErrnoException).code;
    const holder = e instanceof StateDirInUseError && e.holder ? { pid: e.holder.pid, baseUrl: e.holder.baseUrl } : undefined;
    send({ type: 'error', message: e instanceof Error ? e.message : String(e), code, holder });
    process.disconnect?.();
    process.exitCode = 1;
    return;
  }
  const running = sb;
  for (const w of running.warnings) process.stderr.write(`sandbox warning: ${w}\n`);
  const tls = running.tls;
  const caNote = tls ? ` (CA certificate: ${tls.caPath ?? 'in memory only'})` : '';
  // a mirror or replay without --state-dir says where its own state is (never the ordinary sandbox's dir)
  const stateNote = ownStateDir && stateDir ? ` (${replay !== undefined ? 'replay' : 'mirror'} state in ${stateDir})` : '';
  process.stdout.write(`SpotDesk sandbox listening on ${running.baseUrl}${caNote}${stateNote}\n`);
  send({
    type: 'ready',
    baseUrl: running.baseUrl,
    credentials: running.credentials,
    adminToken: running.adminToken,
    warnings: running.warnings,
    stateDir: stateDir ?? null,
    ...(tls ? { caPath: tls.caPath } : {}),
  });
  let stopping = false;
  const replaySource = options.mirror?.source instanceof ReplaySource ? options.mirror.source : undefined;
  if (args.ipc && replaySource) reportReplay(replaySource, send, () => stopping);
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (args.ipc) {
    // the extension host went away (closed, crashed, or stopped us): never outlive it
    process.on('disconnect', stop);
    process.on('message', (m: SandboxIpcCommand) => {
      if (m && m.type === 'stop') stop();
    });
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`spotdesk-sandbox: failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
