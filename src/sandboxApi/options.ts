/**
 * Options of the `spotdesk-sandbox` package's `startSandbox()` (./index.ts): checked before anything starts
 * (an {@link OptionProblem} names the option, what is wrong and what to pass), and turned into the sandbox
 * CLI's arguments (src/exchange/cli.ts) for the process the sandbox runs in.
 *
 * Which optional CLI flags exist is decided when the package is built (scripts/build-sandbox-package.js
 * asks the bundled CLI's own `parseArgs`, and writes the answer to `cli-flags.json`, {@link CliFlags}): flags
 * that other work adds to the CLI (`--market`, `--tls`, `--world`) are passed on once they exist, and until
 * then an option that needs one is either mapped to what the CLI has ({@link marketArgs}) or refused with a
 * clear message — never silently dropped.
 *
 * No imports of the package's public module (./index.ts imports this one).
 */

/** Market profiles of `options.market`. */
export const MARKETS = ['quiet', 'realistic', 'volatile'] as const;
/** A market profile. */
export type MarketName = (typeof MARKETS)[number];

/** The optional flags the bundled CLI understands (cli-flags.json of the package). */
export interface CliFlags {
  /** `--market <name>` values it accepts (empty: no `--market`). */
  market: string[];
  /** `--tls` */
  tls: boolean;
  /** `--world <file>` */
  world: boolean;
  /** `--fast-reset` (a fresh world kept ready: reset in a few ms) */
  fastReset: boolean;
}

/** What a CLI without any optional flag understands. */
export const NO_FLAGS: CliFlags = { market: [], tls: false, world: false, fastReset: false };

/** Options after checking, with their defaults. */
export interface CheckedOptions {
  seed: number;
  port: number;
  host: string;
  market: MarketName;
  manualClock: boolean;
  /** null: in memory */
  stateDir: string | null;
  tls: boolean;
  world: string | undefined;
  /** ms to wait for the process to listen */
  startTimeoutMs: number;
  log: ((line: string) => void) | undefined;
}

/** An option that cannot be used; `message` says what is wrong and what to pass instead. */
export class OptionProblem extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'OptionProblem';
  }
}

const KNOWN = ['seed', 'port', 'host', 'market', 'manualClock', 'stateDir', 'tls', 'world', 'startTimeoutMs', 'log'] as const;

function int(option: string, v: unknown, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new OptionProblem(option, `${option} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return v;
}

function bool(option: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new OptionProblem(option, `${option} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

function str(option: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new OptionProblem(option, `${option} must be a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Check `raw` (the caller's options object, or undefined) and fill in the defaults: seed 1, port 0 (a free
 * port), host 127.0.0.1, market 'quiet', real clock, in memory, no TLS, 30 s to start.
 * @throws OptionProblem for an unknown option, a value of the wrong type or range
 */
export function checkOptions(raw: unknown): CheckedOptions {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new OptionProblem('options', `startSandbox() takes an options object, got ${JSON.stringify(raw)}`);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!(KNOWN as readonly string[]).includes(k)) throw new OptionProblem(k, `unknown option ${k}: the options are ${KNOWN.join(', ')}`);
  }
  const market = o.market === undefined ? 'quiet' : o.market;
  if (!(MARKETS as readonly unknown[]).includes(market)) {
    throw new OptionProblem('market', `market must be one of ${MARKETS.map((m) => `'${m}'`).join(', ')}, got ${JSON.stringify(o.market)}`);
  }
  if (o.log !== undefined && typeof o.log !== 'function') throw new OptionProblem('log', `log must be a function (line: string) => void, got ${typeof o.log}`);
  const host = str('host', o.host) ?? '127.0.0.1';
  return {
    seed: int('seed', o.seed, 0, 2 ** 31 - 1, 1),
    port: int('port', o.port, 0, 65535, 0),
    host,
    market: market as MarketName,
    manualClock: bool('manualClock', o.manualClock, false),
    stateDir: str('stateDir', o.stateDir) ?? null,
    tls: bool('tls', o.tls, false),
    world: str('world', o.world),
    startTimeoutMs: int('startTimeoutMs', o.startTimeoutMs, 100, 600_000, 30_000),
    log: o.log as CheckedOptions['log'],
  };
}

/**
 * The one place where `market` becomes CLI arguments: `--market <name>` when the CLI has that profile;
 * otherwise the CLI's single simulation stands in — 'quiet' runs none (the seeded books move only with the
 * orders of the test), 'realistic' and 'volatile' run the default simulation.
 */
export function marketArgs(market: MarketName, flags: CliFlags): string[] {
  if (flags.market.includes(market)) return ['--market', market];
  return market === 'quiet' ? ['--no-sim'] : [];
}

/**
 * The sandbox CLI's arguments for `o` (the process is started with `--ipc` in front of them).
 * @throws OptionProblem for `tls` or `world` when this build's CLI has no such flag
 */
export function cliArgs(o: CheckedOptions, flags: CliFlags): string[] {
  const args = ['--host', o.host, '--port', String(o.port), '--seed', String(o.seed)];
  args.push(...(o.stateDir === null ? ['--in-memory'] : ['--state-dir', o.stateDir]));
  if (o.manualClock) args.push('--manual-clock');
  args.push(...marketArgs(o.market, flags));
  if (o.tls) {
    if (!flags.tls) throw new OptionProblem('tls', 'tls: this build of spotdesk-sandbox serves plain HTTP only (its CLI has no --tls); leave tls out, or update spotdesk-sandbox');
    // in memory the CA exists only inside the sandbox: no client could trust its certificate
    if (o.stateDir === null) throw new OptionProblem('tls', 'tls: needs a stateDir, where the sandbox writes the CA certificate (ca.pem) your clients must trust; pass stateDir too');
    args.push('--tls');
  }
  if (o.world !== undefined) {
    if (!flags.world) throw new OptionProblem('world', 'world: this build of spotdesk-sandbox has one built-in world (its CLI has no --world); leave world out, or update spotdesk-sandbox');
    args.push('--world', o.world);
  }
  if (flags.fastReset) args.push('--fast-reset');
  return args;
}

/** Read a cli-flags.json text; anything missing or malformed counts as "flag absent". */
export function parseCliFlags(text: string | undefined): CliFlags {
  if (text === undefined) return { ...NO_FLAGS };
  let v: Partial<Record<keyof CliFlags, unknown>>;
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    return { ...NO_FLAGS };
  }
  return {
    market: Array.isArray(v.market) ? v.market.filter((m): m is string => typeof m === 'string') : [],
    tls: v.tls === true,
    world: v.world === true,
    fastReset: v.fastReset === true,
  };
}
