/**
 * Exclusive use of a sandbox state directory, through a lock the operating system releases when its
 * holder dies.
 *
 * The lock is a listening local socket named after the state dir (abstract on Linux, a named pipe on
 * Windows, a socket file elsewhere), so nothing is ever inferred from a pid. A second process is refused
 * with the holder's description ({@link StateDirInUseError}); the holder's base URL is shown only once it
 * proves it owns the state dir's admin token ({@link confirmHolderUrl}). Per-platform details and why the
 * claim must be confirmed: docs/sandbox.md, "State dir lock".
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
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
  /**
   * @param holder what the holder said about itself (undefined when it did not answer in time); its
   *   `baseUrl` is '' unless `confirmed`
   * @param confirmed true when the holder proved to be the SpotDesk sandbox of `stateDir` at
   *   `holder.baseUrl` ({@link confirmHolderUrl}); otherwise only its claimed pid is named
   */
  constructor(
    readonly stateDir: string,
    readonly holder: LockHolder | undefined,
    readonly confirmed = false,
  ) {
    const creds = path.join(stateDir, 'credentials.json');
    super(
      holder && confirmed
        ? `state dir ${stateDir} is in use by the SpotDesk sandbox of process ${holder.pid} (started ${new Date(holder.startedAt).toISOString()}, serving ${holder.baseUrl}). ` +
            `Use that sandbox at ${holder.baseUrl} (its key is in ${creds}), stop it (kill ${holder.pid}), or start this one with another --state-dir.`
        : holder
          ? `state dir ${stateDir} is in use by another process (it says it is process ${holder.pid}, but it did not prove to be the SpotDesk sandbox of this state dir, ` +
              `so no address it gave is shown). Stop that process, or start this one with another --state-dir.`
          : `state dir ${stateDir} is in use by another process (it did not say which). Stop it, or start this one with another --state-dir.`,
    );
    this.name = 'StateDirInUseError';
  }
}

/** The proof a sandbox gives of owning its state dir's admin token: hex HMAC-SHA256(adminToken, context + nonce). */
export function identityProof(adminToken: string, nonce: string): string {
  return createHmac('sha256', adminToken).update(`spotdesk-sandbox-identity\n${nonce}`).digest('hex');
}

/** True for loopback host names of a URL: 127.0.0.0/8 (dotted quad), ::1, localhost. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((x) => Number(x) <= 255);
}

/** GET `url` (a JSON body of at most 4 KB) within `timeoutMs`; undefined on any failure. `ca`: the only CA trusted for https. */
function getJson(url: string, timeoutMs: number, ca?: string): Promise<unknown> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: unknown): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(v);
    };
    const options = { agent: false as const, headers: { Accept: 'application/json' } };
    const onResponse = (res: http.IncomingMessage): void => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        if (text.length > 4096) finish(undefined);
      });
      res.on('end', () => {
        try {
          finish(res.statusCode === 200 ? JSON.parse(text) : undefined);
        } catch {
          finish(undefined);
        }
      });
      res.on('error', () => finish(undefined));
    };
    const req = ca === undefined ? http.get(url, options, onResponse) : https.get(url, { ...options, ca }, onResponse);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    req.on('error', () => finish(undefined));
  });
}

/**
 * Check a lock holder's claimed base URL (see the module doc): accepted only when it is an `http:` URL
 * of a loopback host with no credentials (or an `https:` one whose certificate chains to
 * `STATE_DIR/ca.pem`, the CA of a sandbox started with --tls), and its `GET /sandbox/v1/identity?nonce=N` answers within
 * `timeoutMs` `{data: {sandbox: "spotdesk", pid: holder.pid, proof: identityProof(admin token, N)}}`,
 * the admin token being read from `STATE_DIR/admin-token`.
 * @returns the URL's origin (e.g. `http://127.0.0.1:8100`) when confirmed, else undefined (never throws).
 */
export async function confirmHolderUrl(stateDir: string, holder: LockHolder, timeoutMs = 1000): Promise<string | undefined> {
  let u: URL;
  try {
    u = new URL(holder.baseUrl);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username !== '' || u.password !== '' || !isLoopbackHost(u.hostname)) return undefined;
  let adminToken: string;
  let ca: string | undefined;
  try {
    adminToken = fs.readFileSync(path.join(stateDir, 'admin-token'), 'utf8').trim();
    if (u.protocol === 'https:') ca = fs.readFileSync(path.join(stateDir, 'ca.pem'), 'utf8');
  } catch {
    return undefined;
  }
  if (adminToken === '') return undefined;
  const nonce = randomBytes(16).toString('hex');
  const ans = (await getJson(`${u.origin}/sandbox/v1/identity?nonce=${nonce}`, timeoutMs, ca)) as { data?: { sandbox?: unknown; pid?: unknown; proof?: unknown } } | undefined;
  const d = ans?.data;
  if (!d || d.sandbox !== 'spotdesk' || d.pid !== holder.pid || typeof d.proof !== 'string') return undefined;
  const want = Buffer.from(identityProof(adminToken, nonce), 'utf8');
  const got = Buffer.from(d.proof, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want) ? u.origin : undefined;
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
        const v = JSON.parse(text.slice(0, nl)) as Partial<LockHolder> | null;
        // a claim from whoever holds the name: only well-formed fields are kept
        const ok = v !== null && typeof v === 'object' && Number.isSafeInteger(v.pid) && (v.pid as number) > 0;
        const started = typeof v?.startedAt === 'number' && Number.isFinite(new Date(v.startedAt).getTime()) ? v.startedAt : 0;
        const baseUrl = typeof v?.baseUrl === 'string' && v.baseUrl.length <= 300 ? v.baseUrl : '';
        finish(ok ? { pid: v.pid as number, startedAt: started, baseUrl } : undefined);
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
 * @throws StateDirInUseError when another live process (or this one) holds it; the holder's base URL
 *   is kept only when {@link confirmHolderUrl} confirms it
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
    if (holder === 'refused' || holder === undefined) throw new StateDirInUseError(stateDir, undefined);
    const url = holder.baseUrl ? await confirmHolderUrl(stateDir, holder) : undefined;
    throw new StateDirInUseError(stateDir, { ...holder, baseUrl: url ?? '' }, url !== undefined);
  }
}
