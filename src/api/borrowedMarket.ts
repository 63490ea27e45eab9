/**
 * Words for a borrowed market: the embedded sandbox in mirror mode (the "Paper (KuCoin prices)" profile) or
 * replaying a recording (a "Replay" profile). What the status bar and the market panel say comes from the
 * sandbox's `GET /api/v1/status` (`status` + `msg`; docs/sandbox.md "Mirror mode", src/exchange/server/mirror/
 * market.ts writes the msg: `mirror: the upstream is unreachable since <ISO> (<reason>); orders can be
 * cancelled, not placed`, `mirror: the upstream book of BTC-USDT is resyncing since …`, `replay: …`) and, for a
 * replay, the position the sandbox process reports (src/exchange/cli.ts `SandboxIpcMessage` `replay`).
 * Pure: no I/O, no zod (the market webview imports it).
 */

/** Which borrowed market: paper trading on an upstream, or a replay at `speed` × (`manual`: the admin clock steps it). */
export type BorrowedMode = { kind: 'paper' } | { kind: 'replay'; speed: number | 'manual' };

/** The upstream's state as the sandbox reports it. `closed`: an operator closed the service; `unknown`: not read yet. */
export type SourceState = 'live' | 'resyncing' | 'unreachable' | 'closed' | 'unknown';

/** `GET /api/v1/status` (spec "Service status"). */
export interface ServiceStatusLike {
  status: string;
  msg?: string;
}

/** What {@link parseSourceStatus} reads from a status. */
export interface ParsedSourceStatus {
  state: SourceState;
  /** ISO time the state began (from the msg), when given. */
  since?: string;
  /** The symbol whose book resyncs, when named. */
  symbol?: string;
  /** The sandbox's reason in parentheses (a close code, an error), when given. */
  reason?: string;
}

/** A replay's position: the replay time of the last delivered event (ms; null before the first), and whether it ended. */
export interface ReplayPosition {
  time: number | null;
  finished: boolean;
}

/** The words shown: `short` for the status bar and the panel's badge, `detail` for tooltips, `warn` when orders are refused. */
export interface SourceWords {
  /** e.g. `paper · live`, `paper · unreachable`, `replay ×10 · 14:03:07`, `replay ×60 · finished`. */
  short: string;
  /** One or two sentences: what is borrowed, its state and since when, what works. */
  detail: string;
  /** The upstream state in one word (`live`, `resyncing`, `unreachable`, `closed`, `unknown`, `finished`). */
  state: SourceState | 'finished';
  /** True while new orders are refused (the status is not `open`). */
  warn: boolean;
}

const SINCE = / since (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/;

/**
 * Read the upstream's state from a status: `open` → live; `close` → closed; `cancelonly` with a `mirror: ` /
 * `replay: ` msg naming "unreachable" or "resyncing" → that state (with `since`, `symbol`, `reason`); any other
 * `cancelonly` (an operator's) → closed.
 */
export function parseSourceStatus(s: ServiceStatusLike | undefined): ParsedSourceStatus {
  if (!s) return { state: 'unknown' };
  if (s.status === 'open') return { state: 'live' };
  if (s.status !== 'cancelonly') return { state: 'closed' };
  const msg = s.msg ?? '';
  if (!/^(mirror|replay): /.test(msg)) return { state: 'closed' };
  const out: ParsedSourceStatus = { state: /unreachable/.test(msg) ? 'unreachable' : /resyncing/.test(msg) ? 'resyncing' : 'closed' };
  const since = SINCE.exec(msg);
  if (since) out.since = since[1];
  const symbol = / book of ([A-Z0-9]+-[A-Z0-9]+) /.exec(msg);
  if (symbol) out.symbol = symbol[1];
  const reason = /\(([^)]*(?:\([^)]*\)[^)]*)*)\);/.exec(msg);
  if (reason) out.reason = reason[1];
  return out;
}

/** `paper`, `replay ×10`, `replay ×0.5`, `replay · manual clock`. */
export function modeLabel(mode: BorrowedMode): string {
  if (mode.kind === 'paper') return 'paper';
  return mode.speed === 'manual' ? 'replay · manual clock' : `replay ×${mode.speed}`;
}

/** `HH:MM:SS` UTC of a time in ms. */
function utcClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/**
 * The words for a borrowed market in `mode` with status `status` (undefined: not read yet) and, for a replay,
 * its `position`. A replay that ended says `finished` (the book stays as the recording left it); otherwise a
 * replay shows its position (UTC) while live.
 */
export function sourceWords(mode: BorrowedMode, status: ServiceStatusLike | undefined, position?: ReplayPosition): SourceWords {
  const label = modeLabel(mode);
  const p = parseSourceStatus(status);
  const warn = status !== undefined && status.status !== 'open';
  const since = p.since ? ` since ${p.since.slice(11, 19)} UTC` : '';
  const what = mode.kind === 'paper' ? 'The upstream' : 'The recorded upstream';
  const refused = 'New orders are refused; open orders can still be cancelled.';
  let word: string;
  let detail: string;
  switch (p.state) {
    case 'live':
      word = 'live';
      detail = mode.kind === 'paper' ? "The upstream's order book is synced: your orders match against it with play money." : 'The recording plays: your orders match against the recorded book with play money.';
      break;
    case 'resyncing':
      word = 'resyncing';
      detail = `${what} book${p.symbol ? ` of ${p.symbol}` : ''} is resyncing${since}. ${refused}`;
      break;
    case 'unreachable':
      word = 'unreachable';
      detail = `${what} is unreachable${since}${p.reason ? ` (${p.reason})` : ''}. ${refused} Nothing fills against a stale book.`;
      break;
    case 'closed':
      word = status?.status === 'close' ? 'closed' : 'cancel-only';
      detail = `The sandbox is ${status?.status === 'close' ? 'closed' : 'in cancel-only mode'}${status?.msg ? `: ${status.msg}` : ''}.`;
      break;
    default:
      word = 'connecting';
      detail = 'The status has not been read yet.';
  }
  let state: SourceWords['state'] = p.state;
  if (mode.kind === 'replay' && position) {
    if (position.finished) {
      state = 'finished';
      word = 'finished';
      const ended = `The recording ended${position.time !== null ? ` at ${new Date(position.time).toISOString()}` : ''}: the book stays as it left it.`;
      detail = p.state === 'live' ? `${ended} Your orders still match against it, with play money.` : `${ended} ${detail}`;
    } else if (position.time !== null && p.state === 'live') {
      word = utcClock(position.time);
      detail = `Replay position ${new Date(position.time).toISOString()}. ${detail}`;
    }
  }
  return { short: `${label} · ${word}`, detail, state, warn };
}

/**
 * Why the order ticket refuses new orders under `status`, or null when it takes them (`open`): the source's
 * words for a borrowed market's cancel-only, the operator's message otherwise.
 */
export function refusalReason(status: ServiceStatusLike | undefined): string | null {
  if (!status || status.status === 'open') return null;
  const p = parseSourceStatus(status);
  const since = p.since ? ` since ${p.since.slice(11, 19)} UTC` : '';
  if (p.state === 'unreachable') return `New orders are refused: the upstream market is unreachable${since}. Open orders can still be cancelled.`;
  if (p.state === 'resyncing') return `New orders are refused: the upstream book${p.symbol ? ` of ${p.symbol}` : ''} is resyncing${since}. Open orders can still be cancelled.`;
  if (status.status === 'close') return `New orders are refused: the exchange is closed${status.msg ? ` (${status.msg})` : ''}.`;
  return `New orders are refused: the exchange is in cancel-only mode${status.msg ? ` (${status.msg})` : ''}. Open orders can still be cancelled.`;
}
