/**
 * The built-in profiles that run the embedded sandbox (sandboxProcess.ts), and how each one starts it:
 * - `sandbox` — "Sandbox (local)": the simulated market, state in `<global storage>/sandbox`;
 * - `paper` — "Paper (KuCoin prices)": mirror mode (`--mirror URL --symbols A,B`, docs/sandbox.md "Mirror
 *   mode") against `spotdesk.paper.upstreamUrl` (default https://api.kucoin.com) for `spotdesk.paper.symbols`
 *   (default BTC-USDT, ETH-USDT); state in `<global storage>/paper-<hash of url and symbols>`, so the same market
 *   finds its paper account again and the ordinary sandbox's state is never touched;
 * - `replay` — "Replay (recorded market)": `--replay FILE --speed N` (or `--manual-clock`), state in a fresh
 *   `<global storage>/replays/<id>` per replay.
 * All three trade play money with the sandbox's funded default user and key (the money gate treats them alike).
 * No `vscode` here: connection.ts reads the settings and owns the processes; tests check the arguments.
 */
import { createHash } from 'node:crypto';
import type { BorrowedMode } from '../api/borrowedMarket';

/** Id and name of the built-in paper-trading profile. */
export const PAPER_PROFILE_ID = 'paper';
export const PAPER_PROFILE_NAME = 'Paper (KuCoin prices)';
/** Id and name of the built-in replay profile (exists once a recording was picked). */
export const REPLAY_PROFILE_ID = 'replay';
export const REPLAY_PROFILE_NAME = 'Replay (recorded market)';

/** Defaults of `spotdesk.paper.upstreamUrl` and `spotdesk.paper.symbols`. */
export const DEFAULT_PAPER_UPSTREAM = 'https://api.kucoin.com';
export const DEFAULT_PAPER_SYMBOLS: readonly string[] = ['BTC-USDT', 'ETH-USDT'];

/** The replay speeds offered by "Replay a Recorded Market…" (× the recorded pace), and the manual clock. */
export const REPLAY_SPEEDS: readonly (number | 'manual')[] = [1, 10, 60, 'manual'];

/** The paper profile's settings, validated. */
export interface PaperSettings {
  /** http(s) base URL, without a trailing slash. */
  upstreamUrl: string;
  /** Upper-case symbols like BTC-USDT, no duplicates, at least one. */
  symbols: string[];
}

/** A replay: the recording and its pace. `id` names its fresh state dir. */
export interface ReplaySettings {
  file: string;
  speed: number | 'manual';
  id: string;
}

/** What runs in the embedded sandbox process. */
export type EmbeddedSpec = { kind: 'sandbox' } | { kind: 'paper'; paper: PaperSettings } | { kind: 'replay'; replay: ReplaySettings };

/** How to start the process of a spec: its state dir (path segments under the global storage) and extra CLI args. */
export interface EmbeddedLaunch {
  /** Path segments of the state dir under the extension's global storage. */
  stateDir: string[];
  /** Arguments after the common `--ipc --host --port --state-dir` (sandboxProcess.ts `extraArgs`). */
  extraArgs: string[];
  /** True when the sandbox's market setting (`--market`) applies (the simulated market only). */
  simulated: boolean;
  /** A human line for the log and the progress notification. */
  describe: string;
}

const SYMBOL_RE = /^[A-Z0-9]{1,20}-[A-Z0-9]{1,20}$/;

/**
 * Validate the paper settings as read from the configuration (any JSON): a non-http(s) URL or an empty or
 * malformed symbol list falls back to its default, with the problem in `problems` (for a warning).
 */
export function paperSettings(raw: { upstreamUrl?: unknown; symbols?: unknown }): PaperSettings & { problems: string[] } {
  const problems: string[] = [];
  let upstreamUrl = DEFAULT_PAPER_UPSTREAM;
  if (raw.upstreamUrl !== undefined && raw.upstreamUrl !== '') {
    const v = typeof raw.upstreamUrl === 'string' ? raw.upstreamUrl.trim() : '';
    let ok = false;
    try {
      const u = new URL(v);
      ok = u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (ok) upstreamUrl = v.replace(/\/+$/, '');
    else problems.push(`spotdesk.paper.upstreamUrl must be an http(s) URL; using ${DEFAULT_PAPER_UPSTREAM}`);
  }
  let symbols = [...DEFAULT_PAPER_SYMBOLS];
  if (raw.symbols !== undefined) {
    const list = Array.isArray(raw.symbols) ? raw.symbols.map((s) => (typeof s === 'string' ? s.trim().toUpperCase() : '')) : [];
    if (list.length > 0 && list.every((s) => SYMBOL_RE.test(s))) symbols = [...new Set(list)];
    else problems.push(`spotdesk.paper.symbols must be a list of symbols like "BTC-USDT"; using ${DEFAULT_PAPER_SYMBOLS.join(', ')}`);
  }
  return { upstreamUrl, symbols, problems };
}

/** 12 hex digits of sha256 over the parts (joined by newlines). */
function shortHash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 12);
}

/** The process launch of a spec (see the module docstring). */
export function embeddedLaunch(spec: EmbeddedSpec): EmbeddedLaunch {
  switch (spec.kind) {
    case 'sandbox':
      return { stateDir: ['sandbox'], extraArgs: [], simulated: true, describe: 'the simulated market' };
    case 'paper': {
      const { upstreamUrl, symbols } = spec.paper;
      return {
        stateDir: [`paper-${shortHash(upstreamUrl, [...symbols].sort().join(','))}`],
        extraArgs: ['--mirror', upstreamUrl, '--symbols', symbols.join(',')],
        simulated: false,
        describe: `paper trading on ${symbols.join(', ')} from ${upstreamUrl}`,
      };
    }
    case 'replay': {
      const { file, speed, id } = spec.replay;
      return {
        stateDir: ['replays', id],
        extraArgs: ['--replay', file, ...(speed === 'manual' ? ['--manual-clock'] : ['--speed', String(speed)])],
        simulated: false,
        describe: `a replay of ${file} ${speed === 'manual' ? 'on a manual clock' : `at ×${speed}`}`,
      };
    }
  }
}

/** The borrowed-market mode of a spec (undefined for the simulated sandbox). */
export function borrowedMode(spec: EmbeddedSpec): BorrowedMode | undefined {
  if (spec.kind === 'paper') return { kind: 'paper' };
  if (spec.kind === 'replay') return { kind: 'replay', speed: spec.replay.speed };
  return undefined;
}

/** A speed's label in the picker: `1× (real time)`, `10×`, `Manual clock`. */
export function speedLabel(speed: number | 'manual'): string {
  if (speed === 'manual') return 'Manual clock';
  return speed === 1 ? '1× (real time)' : `${speed}×`;
}

/** The file-dialog filters of a recording: what `spotdesk-sandbox record` writes (`.sdrec`, any name works). */
export const RECORDING_FILTERS: Readonly<Record<string, string[]>> = { 'SpotDesk recordings': ['sdrec'], 'All files': ['*'] };
