/**
 * The embedded sandbox in a process of its own: forked from the bundled sandbox entry
 * (`dist/sandbox-cli.js --ipc`) the first time the Sandbox profile needs it, the way a language client
 * starts its server, so its journal replay, market simulation, HTTP server and feed never run on the
 * extension host's thread. The child reports readiness over the IPC channel and exits when that
 * channel closes, so it never outlives the extension host.
 *
 * No `vscode` here: the owner (connection.ts) decides what to tell the user when the process cannot
 * start or dies, and whether to restart it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { SandboxIpcCommand, SandboxIpcMessage } from '../exchange/cli';
import type { SandboxCredentials } from '../exchange/server/index';

/** Where and how to start the sandbox process. */
export interface SandboxProcessOptions {
  /** Absolute path of the bundled sandbox entry (dist/sandbox-cli.js of the installed extension). */
  entry: string;
  /** State directory, or null for an in-memory sandbox (nothing kept). */
  stateDir: string | null;
  /** Port on 127.0.0.1; 0 = a free one. */
  port: number;
  /** Receives the child's log lines (already free of secrets: the sandbox never logs them). */
  log: (line: string) => void;
  /** Give up when the child has not reported readiness after this long, ms. Default 120 000 (a long replay). */
  startTimeoutMs?: number;
  /** Market profile of the simulation (`--market`; setting `spotdesk.sandbox.market`); the CLI's default (realistic) when omitted. */
  market?: 'quiet' | 'realistic' | 'volatile';
  /** Extra sandbox CLI arguments (benchmarks: e.g. `--sim-interval-ms 100`). */
  extraArgs?: string[];
}

/** Why a sandbox process could not start. */
export class SandboxStartError extends Error {
  constructor(
    message: string,
    /** 'EADDRINUSE' (port taken), 'STATE_DIR_IN_USE' (another sandbox holds the state dir), 'EXITED', 'TIMEOUT' */
    readonly code: string | undefined,
    readonly holder?: { pid: number; baseUrl: string },
  ) {
    super(message);
    this.name = 'SandboxStartError';
  }
}

/** A running sandbox process. */
export interface SandboxProcess {
  readonly baseUrl: string;
  readonly credentials: SandboxCredentials;
  readonly adminToken: string;
  readonly warnings: string[];
  readonly stateDir: string | null;
  readonly pid: number;
  /** A replay's position as the process reports it (`--replay` only: about once a second, and at its end). */
  onReplay(listener: (position: { time: number | null; finished: boolean }) => void): void;
  /** Called once if the process exits without {@link stop} having been called (crash, kill). */
  onUnexpectedExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** Ask the sandbox to close cleanly (journal flushed), SIGKILL after `graceMs` (default 5000). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Fork the sandbox and wait until it listens.
 * @throws SandboxStartError when it reports an error, exits, or does not become ready in time
 */
export function startSandboxProcess(o: SandboxProcessOptions): Promise<SandboxProcess> {
  const args = ['--ipc', '--host', '127.0.0.1', '--port', String(o.port)];
  if (o.stateDir) args.push('--state-dir', o.stateDir);
  else args.push('--in-memory');
  if (o.market) args.push('--market', o.market);
  if (o.extraArgs) args.push(...o.extraArgs);
  const child: ChildProcess = fork(o.entry, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
    for (const line of d.split('\n')) if (line.trim()) o.log(line);
  });
  let stopping = false;
  const exitListeners: ((code: number | null, signal: NodeJS.Signals | null) => void)[] = [];
  const replayListeners: ((position: { time: number | null; finished: boolean }) => void)[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise<SandboxProcess>((resolve, reject) => {
    let settled = false;
    const fail = (e: SandboxStartError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      reject(e);
    };
    const timeoutMs = o.startTimeoutMs ?? 120_000;
    const timer = setTimeout(() => fail(new SandboxStartError(`the sandbox process did not start within ${timeoutMs / 1000} s`, 'TIMEOUT')), timeoutMs);
    child.on('error', (err) => fail(new SandboxStartError(`could not start the sandbox process: ${err.message}`, 'EXITED')));
    child.on('message', (m: SandboxIpcMessage) => {
      if (m.type === 'log') o.log(m.line);
      else if (m.type === 'replay') for (const l of replayListeners) l({ time: m.time, finished: m.finished });
      else if (m.type === 'error') fail(new SandboxStartError(m.message, m.code, m.holder));
      else if (m.type === 'ready' && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({
          baseUrl: m.baseUrl,
          credentials: m.credentials,
          adminToken: m.adminToken,
          warnings: m.warnings,
          stateDir: m.stateDir,
          pid: child.pid as number,
          onUnexpectedExit: (l) => exitListeners.push(l),
          onReplay: (l) => replayListeners.push(l),
          stop: async (graceMs = 5000) => {
            if (stopping) return exited;
            stopping = true;
            if (child.exitCode !== null || child.signalCode !== null) return;
            if (child.connected) child.send({ type: 'stop' } satisfies SandboxIpcCommand);
            else child.kill('SIGTERM');
            const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
            await exited;
            clearTimeout(t);
          },
        });
      }
    });
    child.once('exit', (code, signal) => {
      if (!settled) {
        const tail = stderr.trim().split('\n').slice(-3).join(' / ');
        fail(new SandboxStartError(`the sandbox process exited during start-up (${signal ?? `code ${code}`})${tail ? `: ${tail}` : ''}`, 'EXITED'));
        return;
      }
      if (!stopping) for (const l of exitListeners) l(code, signal);
    });
  });
}
