/**
 * `spotdesk-sandbox`: the SpotDesk sandbox exchange (a KuCoin-compatible spot exchange on 127.0.0.1) for a
 * bot's test suite, the way mongodb-memory-server gives one a database:
 *
 *     import { startSandbox, ccxtUrls, sdkOptions } from 'spotdesk-sandbox';
 *     const sb = await startSandbox({ seed: 1, port: 0, market: 'quiet', manualClock: true });
 *     const kucoin = new ccxt.kucoin({ apiKey: sb.credentials.apiKey, secret: sb.credentials.apiSecret,
 *                                      password: sb.credentials.apiPassphrase, urls: { api: ccxtUrls(sb) } });
 *     await sb.admin.createUser({ balances: [{ currency: 'USDT', type: 'trade', amount: '1000' }] });
 *     await sb.reset();   // between tests: back to the seeded world, ≈ a few ms
 *     await sb.close();
 *
 * Each sandbox runs in a process of its own (./launch.ts: why), so several can run side by side — one per
 * test worker — each on its own port, with its own state. The admin calls go to the sandbox's admin API
 * (loopback only, bearer token; docs/sandbox.md "Admin API"). Money is always a decimal string.
 *
 * This file is the package's whole public surface: its declarations are emitted as the package's single
 * `index.d.ts` (scripts/build-sandbox-package.js), so everything public is declared here and the internal
 * modules (./options.ts, ./launch.ts) do not appear in it. Guide: docs/bots.md.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkOptions, cliArgs, OptionProblem, parseCliFlags, type CliFlags } from './options';
import { launch, LaunchFailure } from './launch';

// ---------------------------------------------------------------------------------------------- types

/** Options of {@link startSandbox}. Every one is optional. */
export interface SandboxStartOptions {
  /** Seed of the initial books (and of the simulation, when one runs). Integer 0…2³¹−1. Default 1. */
  seed?: number;
  /** Port on `host`; 0 (default) picks a free one (read it from `baseUrl`). */
  port?: number;
  /** Interface to listen on. Default '127.0.0.1' (the admin API answers loopback clients only). */
  host?: string;
  /**
   * How the market moves by itself. 'quiet' (default): the seeded books move only with your orders (no
   * simulated traders) — what a test wants; 'realistic' / 'volatile': simulated makers and takers trade
   * (the sandbox's market simulation; profiles of their own where the bundled CLI has `--market`).
   */
  market?: 'quiet' | 'realistic' | 'volatile';
  /** Time moves only through `admin.advanceClock(ms)`. Default false (the wall clock). */
  manualClock?: boolean;
  /**
   * Directory for the journal, snapshots, credentials.json and admin-token: the state survives a restart
   * (`reset()` included). Default: in memory, nothing written. One sandbox per directory at a time
   * ({@link StateDirLockedError}).
   */
  stateDir?: string;
  /**
   * Serve HTTPS and WSS with a certificate signed by a local CA the sandbox keeps in `stateDir` (`ca.pem`, see
   * {@link Sandbox.caPath}): needs a `stateDir`, and a bundled CLI with `--tls` — else {@link InvalidOptionError}.
   */
  tls?: boolean;
  /** A world file (currencies, symbols). Only where the bundled CLI has `--world`, else {@link InvalidOptionError}. */
  world?: string;
  /** ms to wait for the sandbox to listen before giving up ({@link SandboxStartError}). Default 30 000. */
  startTimeoutMs?: number;
  /** Receives the sandbox's log lines (warnings, internal errors). Never secrets. Default: dropped. */
  log?: (line: string) => void;
}

/** An API key of the sandbox (KuCoin's KC-API-* credentials). Secrets: keep them out of logs. */
export interface SandboxKey {
  uid: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  /** '2' unless created otherwise (KC-API-KEY-VERSION) */
  keyVersion: string;
}

/** A balance to fund a new user with. */
export interface SandboxBalance {
  /** e.g. 'USDT' */
  currency: string;
  /** KuCoin account type: 'main' (funding) or 'trade' (spot trading). */
  type: 'main' | 'trade';
  /** Decimal string, e.g. '1000' or '0.5'. */
  amount: string;
}

/** Options of {@link SandboxAdmin.createUser}. */
export interface CreateUserOptions {
  /** Starting balances (each a deposit to main, moved to trade when asked). Default none. */
  balances?: SandboxBalance[];
  /** Key permissions. Default all: ['General', 'Spot', 'Transfer']. */
  permissions?: ('General' | 'Spot' | 'Transfer')[];
  /** Decimal strings, e.g. '0.001'. Default 0.001 each. */
  takerFeeRate?: string;
  makerFeeRate?: string;
  /** Default '2'. */
  keyVersion?: '1' | '2' | '3';
  /** Free label (≤ 40 chars; not starting with 'sim-'). */
  label?: string;
}

/** A credited deposit. */
export interface SandboxDeposit {
  depositId: string;
  uid: string;
  currency: string;
  chainId: string;
  amount: string;
  createdAt: number;
}

/** A withdrawal as the sandbox keeps it (amounts decimal strings, times ms). */
export interface SandboxWithdrawal {
  withdrawalId: string;
  uid: string;
  currency: string;
  chainId: string;
  amount: string;
  fee: string;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILURE';
  failureReason: string;
  createdAt: number;
  updatedAt: number;
  [field: string]: unknown;
}

/** What {@link Sandbox.reset} reports. */
export interface ResetInfo {
  /** ms the sandbox spent (swap, journal, rebinding); the round trip adds the HTTP call. */
  tookMs: number;
  /** True when a world prepared ahead of time was swapped in (the fast path). */
  prepared: boolean;
  /** Sandbox clock after the reset, ms. */
  now: number;
}

/** The sandbox's admin API (docs/sandbox.md "Admin API"). Each call rejects with {@link SandboxAdminError}. */
export interface SandboxAdmin {
  /** A new user with its own API key. */
  createUser(options?: CreateUserOptions): Promise<SandboxKey>;
  /** Credit a deposit to a user's main account (default: the default user). */
  deposit(deposit: { uid?: string; currency: string; amount: string; chain?: string }): Promise<SandboxDeposit>;
  /** The service status of GET /api/v1/status: 'open', 'close' or 'cancelonly' (orders may only be cancelled). */
  setStatus(status: 'open' | 'close' | 'cancelonly', msg?: string): Promise<{ status: string; msg: string }>;
  /** Move the manual clock forward (`manualClock: true` only); settles due withdrawals. @returns the new time, ms */
  advanceClock(ms: number): Promise<number>;
  /** The sandbox clock, ms, and whether it is manual. */
  clock(): Promise<{ now: number; manual: boolean }>;
  /** A user's fee rates (decimal strings). */
  setFees(uid: string, fees: { takerFeeRate: string; makerFeeRate: string }): Promise<void>;
  /** A user's withdrawal whitelist. */
  setWithdrawalWhitelist(uid: string, whitelist: { enabled: boolean; favorites: { address: string; chain: string }[] }): Promise<void>;
  /** Withdrawals (of one user when given). */
  withdrawals(uid?: string): Promise<SandboxWithdrawal[]>;
  /** Fail a withdrawal in flight (its hold is released). */
  failWithdrawal(withdrawalId: string, reason?: string): Promise<SandboxWithdrawal>;
  /** Check the ledger's invariants; rejects with the first violation. */
  checkInvariants(): Promise<void>;
}

/** A running sandbox. */
export interface Sandbox {
  /** REST base URL, e.g. 'http://127.0.0.1:41234' (KuCoin's https://api.kucoin.com). */
  readonly baseUrl: string;
  /** WebSocket endpoint ('ws://…/ws', 'wss://…/ws' with TLS); clients normally get it from POST /api/v1/bullet-public|private. */
  readonly wsUrl: string;
  /**
   * With `tls`: the CA certificate (PEM file, STATE_DIR/ca.pem) your clients must trust — e.g.
   * `NODE_EXTRA_CA_CERTS` for a child process, `REQUESTS_CA_BUNDLE` for Python; null without TLS.
   */
  readonly caPath: string | null;
  /** The default user's key: funded with 100 000 USDT, 2 BTC, 20 ETH… in main and trade. Kept across resets. */
  readonly credentials: SandboxKey;
  /** Bearer token of the admin API (a secret). */
  readonly adminToken: string;
  /** The admin API. */
  readonly admin: SandboxAdmin;
  /** The options it runs with (defaults filled in). */
  readonly seed: number;
  readonly market: 'quiet' | 'realistic' | 'volatile';
  readonly manualClock: boolean;
  /** Absolute state dir, or null in memory. */
  readonly stateDir: string | null;
  /** pid of the sandbox's process. */
  readonly pid: number;
  /** Notes from recovering the state dir (a damaged snapshot, a torn journal tail). */
  readonly warnings: readonly string[];
  /**
   * Back to the freshly seeded world of the seed, without a restart: same URL, same default key (with its
   * starting balances), every other user, order, fill, deposit and status change gone; WebSocket clients are
   * disconnected (they reconnect); a manual clock keeps its time. Durable with a state dir.
   */
  reset(): Promise<ResetInfo>;
  /** Stop the sandbox (with a state dir: a last snapshot is written). Idempotent. */
  close(): Promise<void>;
}

// --------------------------------------------------------------------------------------------- errors

/** What went wrong, as a stable code. */
export type SandboxErrorCode = 'PORT_IN_USE' | 'INVALID_OPTION' | 'STATE_DIR_LOCKED' | 'START_FAILED' | 'ADMIN_REQUEST_FAILED' | 'CLOSED';

/** Base class of every error of this package; `message` says what to do. */
export class SpotDeskSandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SpotDeskSandboxError';
  }
}

/** The port asked for is taken. */
export class PortInUseError extends SpotDeskSandboxError {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(
      'PORT_IN_USE',
      `port ${port} on ${host} is in use: stop what listens there, choose another port, or pass port: 0 to get a free one (read it from sb.baseUrl)`,
    );
    this.name = 'PortInUseError';
  }
}

/** An option of {@link startSandbox} cannot be used. */
export class InvalidOptionError extends SpotDeskSandboxError {
  constructor(
    /** the option's name */
    readonly option: string,
    detail: string,
  ) {
    super('INVALID_OPTION', `invalid option: ${detail}. Fix the options passed to startSandbox() (docs: spotdesk-sandbox README, "Options")`);
    this.name = 'InvalidOptionError';
  }
}

/** Another sandbox (of this or another process) uses the state dir. */
export class StateDirLockedError extends SpotDeskSandboxError {
  constructor(
    readonly stateDir: string,
    /** the holder's pid, when it said */
    readonly holderPid: number | undefined,
    detail: string,
  ) {
    super(
      'STATE_DIR_LOCKED',
      `state dir ${stateDir} is locked by another sandbox${holderPid ? ` (process ${holderPid})` : ''}: close that sandbox first, ` +
        `or give each sandbox a directory of its own (e.g. one fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-')) per test worker), or leave stateDir out (in memory). (${detail})`,
    );
    this.name = 'StateDirLockedError';
  }
}

/** The sandbox process did not start (it exited, or did not listen in time). */
export class SandboxStartError extends SpotDeskSandboxError {
  constructor(message: string) {
    super('START_FAILED', message);
    this.name = 'SandboxStartError';
  }
}

/** An admin call (or reset) was refused or failed; `apiCode`/`status` are the sandbox's answer. */
export class SandboxAdminError extends SpotDeskSandboxError {
  constructor(
    readonly status: number,
    readonly apiCode: string,
    message: string,
  ) {
    super('ADMIN_REQUEST_FAILED', message);
    this.name = 'SandboxAdminError';
  }
}

/** The sandbox was closed, or its process died. */
export class SandboxClosedError extends SpotDeskSandboxError {
  constructor(message: string) {
    super('CLOSED', message);
    this.name = 'SandboxClosedError';
  }
}

// ---------------------------------------------------------------------------------------------- start

/** The folder of this module's bundle (CJS: __dirname; ESM: from import.meta.url), where cli.js lies. */
function packageDir(): string {
  return typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
}

let flagsCache: CliFlags | undefined;
/** The optional flags of the bundled CLI (cli-flags.json, written when the package is built). */
function cliFlags(dir: string): CliFlags {
  if (!flagsCache) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(path.join(dir, 'cli-flags.json'), 'utf8');
    } catch {
      text = undefined;
    }
    flagsCache = parseCliFlags(text);
  }
  return flagsCache;
}

/**
 * Start a sandbox in a process of its own and wait until it listens (≈ 100–300 ms).
 * @throws InvalidOptionError before anything starts; PortInUseError; StateDirLockedError;
 *   SandboxStartError (the process exited or did not listen within `startTimeoutMs`)
 */
export async function startSandbox(options: SandboxStartOptions = {}): Promise<Sandbox> {
  let o;
  let args: string[];
  const dir = packageDir();
  try {
    o = checkOptions(options);
    if (o.stateDir !== null) o.stateDir = path.resolve(o.stateDir);
    args = cliArgs(o, cliFlags(dir));
  } catch (e) {
    if (e instanceof OptionProblem) throw new InvalidOptionError(e.option, e.message);
    throw e;
  }
  const cliPath = path.join(dir, 'cli.js');
  let launched;
  try {
    launched = await launch({ cliPath, args, startTimeoutMs: o.startTimeoutMs, log: o.log });
  } catch (e) {
    if (!(e instanceof LaunchFailure)) throw e;
    if (e.kind === 'PORT_IN_USE') throw new PortInUseError(o.host, o.port);
    if (e.kind === 'STATE_DIR_LOCKED') throw new StateDirLockedError(o.stateDir ?? '', e.holder?.pid, e.message);
    if (e.kind === 'INVALID_OPTION') throw new InvalidOptionError('options', e.message);
    throw new SandboxStartError(e.message);
  }
  const { ready } = launched;
  const proc = launched;
  let closed = false;
  const gone = (): SandboxClosedError | undefined => {
    if (closed) return new SandboxClosedError('the sandbox is closed: start another with startSandbox()');
    const x = proc.exit();
    return x ? new SandboxClosedError(`the sandbox process ${proc.pid} exited (${x.signal ?? `code ${x.code}`}); start another with startSandbox() (pass a log function to see why)`) : undefined;
  };
  let ca: string | undefined;
  if (ready.caPath) {
    try {
      ca = fs.readFileSync(ready.caPath, 'utf8');
    } catch (e) {
      await proc.stop(5_000);
      throw new SandboxStartError(`the sandbox's CA certificate ${ready.caPath} cannot be read: ${(e as Error).message}`);
    }
  }
  const { call, agent } = adminTransport(ready.baseUrl, ready.adminToken, ca, gone);
  const c = ready.credentials;
  const sb: Sandbox = {
    baseUrl: ready.baseUrl,
    wsUrl: `${ready.baseUrl.replace(/^http/, 'ws')}/ws`,
    caPath: ready.caPath ?? null,
    credentials: Object.freeze({ uid: c.uid, apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: c.keyVersion }),
    adminToken: ready.adminToken,
    admin: adminApi(call, c.uid),
    seed: o.seed,
    market: o.market,
    manualClock: o.manualClock,
    stateDir: o.stateDir,
    pid: proc.pid,
    warnings: Object.freeze([...ready.warnings]),
    async reset() {
      const d = (await call('POST', '/sandbox/v1/reset', {})) as ResetInfo;
      return { tookMs: d.tookMs, prepared: d.prepared, now: d.now };
    },
    async close() {
      if (closed) return;
      closed = true;
      agent.destroy();
      await proc.stop(5_000);
    },
  };
  return sb;
}

// ---------------------------------------------------------------------------------------------- admin

type AdminCall = (method: string, route: string, body?: unknown) => Promise<unknown>;

/** An admin caller and the keep-alive agent it uses (destroyed by close()). */
interface AdminTransport {
  call: AdminCall;
  agent: http.Agent;
}

/**
 * One admin request over node:http / node:https (trusting `ca`, the sandbox's own CA, with TLS): the
 * `{code, data}` envelope's data, or a SandboxAdminError / SandboxClosedError. Idle keep-alive sockets never
 * hold the caller's process open.
 */
function adminTransport(baseUrl: string, token: string, ca: string | undefined, gone: () => SandboxClosedError | undefined): AdminTransport {
  const secure = baseUrl.startsWith('https:');
  const agent = secure ? new https.Agent({ keepAlive: true, ca }) : new http.Agent({ keepAlive: true });
  const call: AdminCall = async (method, route, body) => {
    const g = gone();
    if (g) throw g;
    const text = body === undefined ? undefined : JSON.stringify(body);
    let res: { status: number; text: string };
    try {
      res = await new Promise((resolve, reject) => {
        const req = (secure ? https : http).request(
          `${baseUrl}${route}`,
          { method, agent, headers: { authorization: `Bearer ${token}`, ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }) } },
          (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
            r.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(text);
      });
    } catch (e) {
      throw gone() ?? new SandboxAdminError(0, '', `admin ${method} ${route}: the sandbox at ${baseUrl} did not answer (${(e as Error).message})`);
    }
    let env: { code?: string; msg?: string; data?: unknown } | undefined;
    try {
      env = JSON.parse(res.text) as typeof env;
    } catch {
      env = undefined;
    }
    if (res.status !== 200 || env?.code !== '200000') {
      throw new SandboxAdminError(res.status, env?.code ?? '', `admin ${method} ${route} refused (HTTP ${res.status}${env?.code ? `, ${env.code}` : ''}): ${env?.msg ?? 'no message'}`);
    }
    return env.data;
  };
  return { call, agent };
}

/** The {@link SandboxAdmin} of a sandbox whose default user is `defaultUid`. */
function adminApi(call: AdminCall, defaultUid: string): SandboxAdmin {
  const key = (d: unknown): SandboxKey => {
    const k = d as SandboxKey;
    return { uid: k.uid, apiKey: k.apiKey, apiSecret: k.apiSecret, apiPassphrase: k.apiPassphrase, keyVersion: k.keyVersion };
  };
  const seg = encodeURIComponent;
  return {
    async createUser(options = {}) {
      return key(await call('POST', '/sandbox/v1/users', options));
    },
    async deposit(d) {
      return (await call('POST', '/sandbox/v1/deposits', { uid: d.uid ?? defaultUid, currency: d.currency, amount: d.amount, ...(d.chain ? { chain: d.chain } : {}) })) as SandboxDeposit;
    },
    async setStatus(status, msg) {
      return (await call('PUT', '/sandbox/v1/status', { status, ...(msg === undefined ? {} : { msg }) })) as { status: string; msg: string };
    },
    async advanceClock(ms) {
      return ((await call('POST', '/sandbox/v1/clock', { advanceMs: ms })) as { now: number }).now;
    },
    async clock() {
      return (await call('GET', '/sandbox/v1/clock')) as { now: number; manual: boolean };
    },
    async setFees(uid, fees) {
      await call('PUT', `/sandbox/v1/users/${seg(uid)}/fees`, fees);
    },
    async setWithdrawalWhitelist(uid, whitelist) {
      await call('PUT', `/sandbox/v1/users/${seg(uid)}/withdrawal-whitelist`, whitelist);
    },
    async withdrawals(uid) {
      return (await call('GET', `/sandbox/v1/withdrawals${uid ? `?uid=${seg(uid)}` : ''}`)) as SandboxWithdrawal[];
    },
    async failWithdrawal(withdrawalId, reason) {
      return (await call('POST', `/sandbox/v1/withdrawals/${seg(withdrawalId)}/fail`, reason === undefined ? {} : { reason })) as SandboxWithdrawal;
    },
    async checkInvariants() {
      await call('GET', '/sandbox/v1/invariants');
    },
  };
}

// -------------------------------------------------------------------------------------- client options

/** ccxt's kucoin API families (ccxt 4.5 `kucoin.describe().urls.api`): each gets the sandbox's URL. */
const CCXT_KUCOIN_APIS = ['public', 'private', 'futuresPrivate', 'futuresPublic', 'webExchange', 'broker', 'earn', 'uta', 'utaV2', 'utaPrivate'];

/**
 * The URL table for ccxt's `kucoin` class: every API family ccxt keeps a URL for, pointed at the sandbox
 * (`new ccxt.kucoin({ apiKey, secret, password, urls: { api: ccxtUrls(sb) } })`). Pass the instance's own
 * `exchange.urls.api` as `template` to also cover families a newer ccxt adds.
 */
export function ccxtUrls(sb: Pick<Sandbox, 'baseUrl'>, template?: Record<string, unknown>): Record<string, string> {
  const keys = new Set([...CCXT_KUCOIN_APIS, ...Object.keys(template ?? {})]);
  return Object.fromEntries([...keys].map((k) => [k, sb.baseUrl]));
}

/** kucoin-universal-sdk's ClientOption fields that point a client at the sandbox (a plain object). */
export interface SdkClientOptions {
  key: string;
  secret: string;
  passphrase: string;
  spotEndpoint: string;
  futuresEndpoint: string;
  brokerEndpoint: string;
}

/**
 * Options for kucoin-universal-sdk's `DefaultClient` (its `ClientOption`): the key (the default user's, or
 * `key`) and every endpoint at the sandbox. `new DefaultClient(sdkOptions(sb))`; add `transportOption` /
 * `webSocketClientOption` as usual (the SDK's defaults apply without them).
 */
export function sdkOptions(sb: Pick<Sandbox, 'baseUrl' | 'credentials'>, key: Pick<SandboxKey, 'apiKey' | 'apiSecret' | 'apiPassphrase'> = sb.credentials): SdkClientOptions {
  return { key: key.apiKey, secret: key.apiSecret, passphrase: key.apiPassphrase, spotEndpoint: sb.baseUrl, futuresEndpoint: sb.baseUrl, brokerEndpoint: sb.baseUrl };
}
