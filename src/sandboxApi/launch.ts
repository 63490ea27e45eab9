/**
 * The process a package sandbox runs in: the bundled CLI (`cli.js` of the package, src/exchange/cli.ts)
 * forked with `--ipc`, which reports readiness (base URL, default key, admin token) or why it could not start
 * over the IPC channel, and stops when that channel closes — so a sandbox never outlives the test runner that
 * started it, even when the runner is killed.
 *
 * Why a process per sandbox (and not a worker thread or the caller's own thread): the sandbox's matching,
 * simulation and journal never take time from the test runner's event loop or from each other (a second
 * core is used when there is one); a crash or a runaway sandbox cannot take the runner down, and `close()`
 * can always end it (SIGKILL after a grace period); each sandbox holds its own state-dir lock (OS-released
 * when the process dies). The cost, measured by `npm run bench -- package`, is the start of a Node process
 * (tens of ms), well inside the 500 ms a start may take.
 *
 * After readiness the child, its IPC channel and its stderr pipe are unref'd: a test runner that forgot
 * `close()` still exits (the child then stops on the closed channel). `stop()` refs them again while it waits.
 */
import { fork, type ChildProcess } from 'node:child_process';

/** What starts the process. */
export interface LaunchSpec {
  /** Absolute path of the bundled CLI. */
  cliPath: string;
  /** CLI arguments (without `--ipc`). */
  args: string[];
  /** Give up after this many ms without readiness. */
  startTimeoutMs: number;
  /** Receives the process's log lines (stderr and IPC log messages; never secrets). */
  log?: (line: string) => void;
}

/** What the process reports when it listens (the CLI's `ready` IPC message). */
export interface LaunchReady {
  baseUrl: string;
  credentials: { baseUrl: string; uid: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string };
  adminToken: string;
  warnings: string[];
  stateDir: string | null;
  /** With --tls: the CA certificate file (null in memory); absent without --tls. */
  caPath?: string | null;
}

/** Why the process did not start. */
export type LaunchFailureKind = 'PORT_IN_USE' | 'STATE_DIR_LOCKED' | 'INVALID_OPTION' | 'EXITED' | 'TIMEOUT';

/** The process could not start (./index.ts turns it into the package's typed errors). */
export class LaunchFailure extends Error {
  constructor(
    readonly kind: LaunchFailureKind,
    message: string,
    /** the state dir's holder, for STATE_DIR_LOCKED (its URL only when the holder proved it) */
    readonly holder?: { pid: number; baseUrl: string },
  ) {
    super(message);
    this.name = 'LaunchFailure';
  }
}

/** A started process. */
export interface Launched {
  ready: LaunchReady;
  pid: number;
  /** Set once the process has exited, with why. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Ask it to stop cleanly (state dir: a last snapshot), SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs: number): Promise<void>;
}

/** IPC messages of the CLI (src/exchange/cli.ts SandboxIpcMessage, restated: this module imports nothing of it). */
type IpcMessage =
  | ({ type: 'ready' } & LaunchReady)
  | { type: 'error'; message: string; code?: string; holder?: { pid: number; baseUrl: string } }
  | { type: 'log'; line: string };

/**
 * Fork the CLI and wait until it listens.
 * @throws LaunchFailure (PORT_IN_USE, STATE_DIR_LOCKED, INVALID_OPTION for arguments the CLI refused, EXITED, TIMEOUT)
 */
export function launch(spec: LaunchSpec): Promise<Launched> {
  const child: ChildProcess = fork(spec.cliPath, ['--ipc', ...spec.args], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
    if (spec.log) for (const line of d.split('\n')) if (line.trim()) spec.log(line);
  });
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve();
    }),
  );
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;

  return new Promise<Launched>((resolve, reject) => {
    let settled = false;
    const fail = (e: LaunchFailure): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (alive()) child.kill('SIGKILL');
      reject(e);
    };
    const timer = setTimeout(
      () => fail(new LaunchFailure('TIMEOUT', `the sandbox did not start within ${spec.startTimeoutMs} ms; pass a larger startTimeoutMs on a slow machine, or a log function to see what it is doing`)),
      spec.startTimeoutMs,
    );
    child.on('error', (err) => fail(new LaunchFailure('EXITED', `could not start the sandbox process (${process.execPath} ${spec.cliPath}): ${err.message}`)));
    child.on('message', (m: IpcMessage) => {
      if (m.type === 'log') spec.log?.(m.line);
      else if (m.type === 'error') {
        const kind: LaunchFailureKind = m.code === 'EADDRINUSE' ? 'PORT_IN_USE' : m.code === 'STATE_DIR_IN_USE' ? 'STATE_DIR_LOCKED' : 'EXITED';
        fail(new LaunchFailure(kind, m.message, m.holder));
      } else if (m.type === 'ready' && !settled) {
        settled = true;
        clearTimeout(timer);
        // a forgotten close() must not keep the test runner alive: the child stops when the channel closes
        const pipes = (on: boolean): void => {
          for (const h of [child, child.channel, child.stderr as (NodeJS.ReadableStream & { ref?(): void; unref?(): void }) | null]) {
            if (on) h?.ref?.();
            else h?.unref?.();
          }
        };
        pipes(false);
        resolve({
          ready: { baseUrl: m.baseUrl, credentials: m.credentials, adminToken: m.adminToken, warnings: m.warnings ?? [], stateDir: m.stateDir ?? null, caPath: m.caPath },
          pid: child.pid as number,
          exit: () => exitInfo,
          stop: async (graceMs) => {
            if (!alive()) return;
            pipes(true);
            if (child.connected) child.send({ type: 'stop' });
            else child.kill('SIGTERM');
            const kill = setTimeout(() => {
              if (alive()) child.kill('SIGKILL');
            }, graceMs);
            await exited;
            clearTimeout(kill);
          },
        });
      }
    });
    child.once('exit', (code, signal) => {
      if (settled) return;
      const tail = stderr.trim().split('\n').slice(-3).join(' / ');
      // exit code 2: the CLI refused its arguments (src/exchange/cli.ts)
      if (code === 2) fail(new LaunchFailure('INVALID_OPTION', `the sandbox CLI refused its arguments: ${tail || 'no message'}`));
      else fail(new LaunchFailure('EXITED', `the sandbox process exited during start-up (${signal ?? `code ${code}`})${tail ? `: ${tail}` : ''}`));
    });
  });
}
