/**
 * Exclusive use of a sandbox state directory, through a lock the operating system releases when its
 * holder dies (issue 18, part 2).
 *
 * The lock is a listening local socket whose name is derived from the state dir's real path:
 * - Linux: an abstract Unix socket (`\0spotdesk-sandbox-<hash>`): no file at all, so nothing can go
 *   stale; the kernel drops the name the moment the holder's descriptors close (exit, SIGKILL, crash —
 *   also while the dead process lingers unreaped as a zombie);
 * - Windows: a named pipe (`\\?\pipe\spotdesk-sandbox-<hash>`), a kernel object with the same lifetime;
 * - other Unix systems (macOS): a socket file, `STATE_DIR/sandbox.lock.sock` (or one in the temp dir
 *   when that path is too long for a socket). A file left by a dead holder refuses connections; it is
 *   then removed and the lock taken.
 *
 * Nothing is inferred from a pid: a second process trying to take the lock gets EADDRINUSE from the
 * OS, connects to the holder, and reads one JSON line describing it (pid, start time, base URL), so
 * the refusal names the holder and says what to do ({@link StateDirInUseError}). The listening socket
 * is unref'd and never keeps the process alive.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** What the holder of a state dir says about itself to a process that finds the dir in use. */
export interface LockHolder {
  pid: number;
  /** ms since epoch */
  startedAt: number;
  /** the holder sandbox's base URL once it listens, '' before */
  baseUrl: string;
}

/** Thrown by {@link acquireStateDirLock} when another live process holds the state dir. */
export class StateDirInUseError extends Error {
  constructor(
    readonly stateDir: string,
    /** the holder's description, undefined when it did not answer in time */
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder
      ? `the SpotDesk sandbox of process ${holder.pid} (started ${new Date(holder.startedAt).toISOString()}${holder.baseUrl ? `, serving ${holder.baseUrl}` : ''})`
      : 'another process (it did not say which)';
    super(
      `state dir ${stateDir} is in use by ${who}. ` +
        `Use that sandbox${holder?.baseUrl ? ` at ${holder.baseUrl}` : ''} (its key is in ${path.join(stateDir, 'credentials.json')}), ` +
        `stop it${holder ? ` (kill ${holder.pid})` : ''}, or start this one with another --state-dir.`,
    );
    this.name = 'StateDirInUseError';
  }
}

/** A held state-dir lock. */
export interface StateDirLock {
  /** The socket / pipe name the lock listens on. */
  readonly address: string;
  /** Update what the holder tells others (e.g. the base URL once the HTTP server listens). */
  describe(info: Partial<Pick<LockHolder, 'baseUrl'>>): void;
  /** Release the lock. Idempotent. */
  release(): Promise<void>;
}

/** Longest Unix socket path that is safe on every platform (sun_path is 104 bytes on macOS). */
const MAX_SOCKET_PATH = 100;

/** The OS-level lock name of a state dir (see the module doc). Exported for tests. */
export function lockAddress(stateDir: string, platform: NodeJS.Platform = process.platform): string {
  let real: string;
  try {
    real = fs.realpathSync(stateDir);
  } catch {
    real = path.resolve(stateDir);
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 32);
  if (platform === 'linux') return `\0spotdesk-sandbox-${hash}`;
  if (platform === 'win32') return `\\\\?\\pipe\\spotdesk-sandbox-${hash}`;
  const inDir = path.join(real, 'sandbox.lock.sock');
  return Buffer.byteLength(inDir) <= MAX_SOCKET_PATH ? inDir : path.join(os.tmpdir(), `spotdesk-sandbox-${hash}.sock`);
}

/** True for lock names that are files on disk (and so can be left behind by a dead holder). */
function isSocketFile(address: string): boolean {
  return !address.startsWith('\0') && !address.startsWith('\\\\');
}

function listen(server: net.Server, address: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException): void => resolve(err);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve(null);
    });
  });
}

/**
 * Ask the holder of `address` who it is. Resolves with its description, `'refused'` when nothing
 * listens (a socket file left by a dead holder), or undefined when it did not answer within `timeoutMs`.
 */
export function askHolder(address: string, timeoutMs = 2000): Promise<LockHolder | 'refused' | undefined> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const finish = (v: LockHolder | 'refused' | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(v);
    };
    const sock = net.connect(address);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      text += d;
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      try {
        const v = JSON.parse(text.slice(0, nl)) as LockHolder;
        finish(Number.isSafeInteger(v.pid) ? v : undefined);
      } catch {
        finish(undefined);
      }
    });
    sock.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'refused' : undefined));
    sock.on('end', () => finish(undefined));
  });
}

/**
 * Take the exclusive lock of `stateDir` (see the module doc).
 * @throws StateDirInUseError when another live process (or this one) holds it
 * @throws Error on an unexpected OS error
 */
export async function acquireStateDirLock(stateDir: string): Promise<StateDirLock> {
  const address = lockAddress(stateDir);
  const info: LockHolder = { pid: process.pid, startedAt: Date.now(), baseUrl: '' };
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer((sock) => {
      sock.on('error', () => undefined);
      sock.end(JSON.stringify(info) + '\n');
    });
    const err = await listen(server, address);
    if (!err) {
      server.unref();
      let released = false;
      return {
        address,
        describe: (d) => Object.assign(info, d),
        release: () =>
          new Promise<void>((resolve) => {
            if (released) return resolve();
            released = true;
            server.close(() => resolve());
          }),
      };
    }
    if (err.code !== 'EADDRINUSE') throw new Error(`cannot lock state dir ${stateDir} (${address}): ${err.message}`);
    const holder = await askHolder(address);
    if (holder === 'refused' && attempt < 3) {
      // nothing listens: a socket file left by a holder that died, or a holder that was just closing
      if (isSocketFile(address)) fs.rmSync(address, { force: true });
      continue;
    }
    throw new StateDirInUseError(stateDir, holder === 'refused' ? undefined : holder);
  }
}
