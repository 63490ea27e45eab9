/**
 * `spotdesk-sandbox` / `npm run sandbox -- [options]`: run the SpotDesk sandbox exchange.
 *
 *   --host HOST        interface (default 127.0.0.1)
 *   --port N           port (default 0 = a free port)
 *   --state-dir DIR    journal, credentials.json, admin-token (default ./.spotdesk-sandbox)
 *   --no-sim           no market simulation bots
 *   --market PROFILE   market simulation: quiet (two slow bots, no history: for tests), realistic (default:
 *                      the agent-based market with 3 × 24 h of history on a fresh state dir) or volatile
 *   --manual-clock     time moves only via admin POST /sandbox/v1/clock
 *   --seed N           seed of the initial books and the simulation (default 1)
 *   --sim-interval-ms N  milliseconds between steps of the quiet market (default 1000)
 *   --in-memory        keep no state on disk (no state dir; a fresh world every start)
 *   --tls              serve HTTPS and WSS with a certificate for 127.0.0.1, ::1 and localhost, signed by a
 *                      local CA created once as STATE_DIR/ca.pem (key ca-key.pem, 0600) and reused; with
 *                      --in-memory the CA lives in memory only and nothing is written (docs/sandbox.md "TLS")
 *   --fast-reset       keep a freshly seeded world ready, so admin POST /sandbox/v1/reset answers in a few ms
 *   --mirror URL       mirror mode (paper trading on a borrowed market, docs/sandbox.md "Mirror mode"): the
 *                      public market of --symbols comes from the upstream at URL (e.g. https://api.kucoin.com,
 *                      public REST and WebSocket only, no credentials), the sandbox users' orders match
 *                      against it; the simulated market is off for those symbols
 *   --symbols A,B      the symbols to mirror (with --mirror; e.g. BTC-USDT,ETH-USDT)
 *   --verbose          log internal errors and notes to stderr
 *   --ipc              started by the VS Code extension with child_process.fork: report readiness and
 *                      errors as {@link SandboxIpcMessage}s over the IPC channel, and stop when the
 *                      parent disconnects (so the sandbox never outlives the extension host)
 *
 * Prints exactly one line on stdout when ready: `SpotDesk sandbox listening on http://HOST:PORT`; with
 * --tls `SpotDesk sandbox listening on https://HOST:PORT (CA certificate: STATE_DIR/ca.pem)` (absolute
 * path; `(CA certificate: in memory only)` with --in-memory). The `ready` IPC message carries `caPath`.
 * Stops cleanly on SIGINT/SIGTERM. Exit code 2 for bad arguments, 1 when start-up fails.
 */
import * as path from 'node:path';
import { startSandbox, SandboxOptions, StateDirInUseError, type SandboxCredentials } from './server/index';
import { isMarketProfile, MARKET_PROFILES } from './server/market/profiles';
import { fetchUpstreamWorld, UpstreamSource } from './server/mirror/upstream';

/** Parsed command line. */
export interface CliArgs extends SandboxOptions {
  /** --mirror: the upstream's base URL (mirror mode). */
  mirrorUrl?: string;
  /** --symbols: the symbols to mirror. */
  symbols?: string[];
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
  | { type: 'log'; line: string };

/** Messages of the parent to a sandbox started with `--ipc`. */
export type SandboxIpcCommand = { type: 'stop' };

/**
 * Parse argv (without node and script). @throws Error with a usage message for unknown/invalid options.
 */
export function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { host: '127.0.0.1', port: 0, stateDir: '.spotdesk-sandbox', sim: true, market: 'realistic', manualClock: false, seed: 1, verbose: false, help: false, ipc: false, inMemory: false };
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
  return out;
}

const USAGE =
  'usage: spotdesk-sandbox [--host 127.0.0.1] [--port 0] [--state-dir .spotdesk-sandbox | --in-memory] [--tls] [--no-sim] [--market quiet|realistic|volatile] [--sim-interval-ms 1000] [--manual-clock] [--seed 1] [--fast-reset] [--mirror URL --symbols A,B] [--verbose]\n' +
  '  --tls   serve HTTPS and WSS; the certificate is signed by a local CA created once as STATE_DIR/ca.pem\n' +
  '          (give it to your bot: NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE; docs/sandbox.md "TLS").\n' +
  '          With --in-memory the CA is generated in memory only: nothing is written and clients cannot load it.\n' +
  '  --mirror URL --symbols A,B   paper trading on a borrowed market: the public market of the symbols comes from\n' +
  '          the upstream (public REST and WebSocket only, no credentials); your orders match against it, never reach it.';

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const stateDir = args.inMemory ? undefined : path.resolve(args.stateDir ?? '.spotdesk-sandbox');
  const send = (m: SandboxIpcMessage): void => {
    if (args.ipc && process.send && process.connected) process.send(m);
  };
  const { ipc: _ipc, inMemory: _inMemory, verbose: _verbose, help: _help, mirrorUrl, symbols, ...options } = args;
  const log = (line: string): void => {
    if (args.ipc) send({ type: 'log', line });
    else if (args.verbose || /internal error|journal|warning|failed|mirror/i.test(line)) process.stderr.write(`${line}\n`);
  };
  let sb;
  try {
    if (mirrorUrl !== undefined && symbols !== undefined) {
      const world = await fetchUpstreamWorld(mirrorUrl, symbols);
      options.mirror = { source: new UpstreamSource({ baseUrl: mirrorUrl, symbols, log }), label: 'mirror', world };
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
  process.stdout.write(`SpotDesk sandbox listening on ${running.baseUrl}${caNote}\n`);
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
