/**
 * The SpotDesk sandbox exchange server: `startSandbox(opts)` starts an in-process HTTP server that
 * speaks the spot API (spec docs/spec/spot-exchange-api.md, KuCoin-compatible), backed by
 * the deterministic engine (src/exchange/core) and a durable command journal (journal.ts).
 *
 * Start-up: recover the state of `stateDir` — the newest usable snapshot, then the journals after it
 * (stateStore.ts) — or keep state in memory when `stateDir` is omitted → on the first start, seed the world's books (`world.seed`) and create the default
 * user with all permissions and funded `main` + `trade` balances (`user.create`, journaled, so the
 * same key comes back on restart) → write STATE_DIR/credentials.json (0600) and
 * STATE_DIR/admin-token (0600) → listen (HTTP, or HTTPS with `tls` (tls.ts: a local CA kept in the state
 * dir), and WebSocket upgrades of `/ws` handed to the feed, feed/index.ts) → start the market simulation when
 * `sim` (`market`: the agent-based market of market/, whose first start also builds 3 × 24 h of history before
 * the seeded books and the listener; or `quiet`, sim.ts). Clean shutdown (`close()`) writes a
 * last snapshot, so the next start reads one snapshot and an empty journal. `reset()` (admin POST
 * /sandbox/v1/reset) swaps in a freshly seeded world and rebuilds the feed, the request handler and the
 * simulation around it, on the same server (reset.ts).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { RateLimitOption } from './ratelimit';
import { Feed, type FeedOptions } from './feed';
import { createRequestHandler } from './http';
import { startSimulation } from './sim';
import { buildMarketHistory, startMarket, type MarketProfileName } from './market';
import { MARKET_SNAPSHOT_EVERY_BYTES } from './market/profiles';
import { acquireStateDirLock, type StateDirLock } from './stateLock';
import { snapshotWorkerScript } from './snapshotWorker';
import { commitReset, defaultUserArgs, FreshWorlds, type ResetResult } from './reset';
import { StateStore } from './stateStore';
import { loadSandboxTls } from './tls';
import { ALL_PERMISSIONS, BalanceGrant, JournalLike, MemoryJournal, newKeyMaterial, randomHex, SandboxError, SandboxState, UserRecord, type SnapshotSource } from './state';
import { MirrorMarket, type MirrorOption } from './mirror/market';
import { buildMirrorWorld } from './mirror/world';

export { SandboxState } from './state';
export type { Command, UserRecord } from './state';
export { StateDirInUseError } from './stateLock';
export type { ResetResult } from './reset';
export type { MirrorOption } from './mirror/market';

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 (default) picks a free port. */
  port?: number;
  /** State directory (journal, credentials.json, admin-token). Omitted = in-memory, nothing written. */
  stateDir?: string;
  /** Run the market simulation (bots). Default true. */
  sim?: boolean;
  /**
   * Market profile (market/profiles.ts): `realistic` (default) and `volatile` run the agent-based market and
   * build 3 × 24 h of history on a fresh state dir before listening; `quiet` runs the two bots of sim.ts
   * (slow, cheap, no history: for tests). Only with `sim`.
   */
  market?: MarketProfileName;
  /** Milliseconds between steps of the `quiet` market (default 1000, sim.ts's own default; benchmarks load it harder). */
  simIntervalMs?: number;
  /** Manual clock: time moves only via admin POST /sandbox/v1/clock. Default false. */
  manualClock?: boolean;
  /** Start of a manual clock of an in-memory sandbox, ms (tests of dated records, e.g. the V1 histories before 2019). Default now. */
  startTime?: number;
  /** Seed of the initial books and the simulation. Default 1. */
  seed?: number;
  /** Log sink (never receives secrets). Default: no logging. */
  log?: (line: string) => void;
  /** Rate-limit quotas per pool (default POOL_QUOTAS of src/api/endpoints.ts); `false` disables limiting (benchmarks). */
  rateLimits?: RateLimitOption;
  /** Interval of the withdrawal-settlement timer with a real clock, ms. Default 500. */
  settleIntervalMs?: number;
  /** Fsync every journal record (power-loss durability). Default false. */
  fsync?: boolean;
  /** Snapshot + new journal when the journal holds this many records (default: stateStore.ts DEFAULT_SNAPSHOT_EVERY_RECORDS). */
  snapshotEveryRecords?: number;
  /** … or this many bytes (default: stateStore.ts DEFAULT_SNAPSHOT_EVERY_BYTES). */
  snapshotEveryBytes?: number;
  /** Called while a snapshot is written, with the bytes written so far and its generation (tests kill the process there). */
  onSnapshotWrite?: (bytes: number, gen: number) => void;
  /**
   * Write the snapshots of rotations in a worker thread, so that the exchange pauses only to switch journals
   * (stateStore.ts "Rotation"). Default true where the worker script exists (snapshotWorker.ts); false: in the foreground.
   */
  backgroundSnapshots?: boolean;
  /** Options of the WebSocket feed (ping interval, bounds; docs/sandbox.md "WebSocket feed"). */
  feed?: FeedOptions;
  /**
   * Serve HTTPS and WSS (docs/sandbox.md "TLS"): a server certificate for 127.0.0.1, ::1 and localhost
   * signed by a local CA kept in the state dir (`ca.pem`, `ca-key.pem` 0600; tls.ts), or generated in
   * memory without a state dir. Default false (plain HTTP and WS).
   */
  tls?: boolean;
  /**
   * Keep a freshly seeded world ready so that a reset (admin POST /sandbox/v1/reset) only swaps it in
   * (reset.ts): ≈ 15 MB and ≈ 30 ms of CPU after the start and after each reset. Default false (the first
   * reset then builds one on the spot).
   */
  fastReset?: boolean;
  /**
   * Mirror mode (docs/sandbox.md "Mirror mode"): the public market of `mirror.world`'s symbols comes from
   * `mirror.source` — a live upstream (`UpstreamSource`, label `mirror`) or a recording (a ReplaySource, label
   * `replay`) — and the sandbox users' orders match against it (mirror/commands.ts). The world takes the
   * upstream's rows of those symbols; the simulated market is off for them (the agent-based market is off
   * altogether; the `quiet` bots trade the other symbols); the sandbox listens once the source delivered its
   * first snapshots. A reset is refused. The sandbox starts and closes the source.
   */
  mirror?: MirrorOption;
}

/** Credentials of the default user (also written to STATE_DIR/credentials.json). */
export interface SandboxCredentials {
  baseUrl: string;
  uid: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: '2';
}

/** A running sandbox. */
export interface RunningSandbox {
  /** e.g. http://127.0.0.1:8100 */
  baseUrl: string;
  credentials: SandboxCredentials;
  /** Bearer token of the admin API (loopback only). */
  adminToken: string;
  /** The current state (a reset replaces it: read it again after one). */
  readonly state: SandboxState;
  /** Warnings from recovering the state dir (snapshot fallback, torn journal tail, replay failures). */
  warnings: string[];
  /** Time (ms) the first start's market history took to build (market/history.ts); null when none was built. */
  historyBuildMs: number | null;
  /** The running market simulation (`step()` runs one step now: benchmarks on a manual clock), if any. */
  simulation: { stop(): void; step(): void } | undefined;
  /** The state dir's snapshots and journals (undefined in memory). */
  store: StateStore | undefined;
  /** The WebSocket feed (endpoint `ws://HOST:PORT/ws`, `wss://` with TLS; tokens from the bullet endpoints); a reset replaces it. */
  readonly feed: Feed;
  /** With `tls`: the CA clients must trust (its PEM, and STATE_DIR/ca.pem, null in memory). */
  tls: { caPem: string; caPath: string | null } | undefined;
  /** The mirror market (mirror mode only): its counters and the upstream's last reported state. */
  mirror: MirrorMarket | undefined;
  /** Back to the freshly seeded world without a restart (reset.ts; what admin POST /sandbox/v1/reset runs). */
  reset(): ResetResult;
  /** Stop the simulation and timers, close the server and the journal. */
  close(): Promise<void>;
}

/** Balances of the default user on first start (main and trade each). */
export const DEFAULT_BALANCES: BalanceGrant[] = [
  ...['main', 'trade'].flatMap((type) => [
    { currency: 'USDT', type: type as 'main' | 'trade', amount: '100000' },
    { currency: 'BTC', type: type as 'main' | 'trade', amount: '2' },
    { currency: 'ETH', type: type as 'main' | 'trade', amount: '20' },
    { currency: 'KCS', type: type as 'main' | 'trade', amount: '1000' },
    { currency: 'LTC', type: type as 'main' | 'trade', amount: '100' },
    { currency: 'TRX', type: type as 'main' | 'trade', amount: '100000' },
    { currency: 'XRP', type: type as 'main' | 'trade', amount: '10000' },
    { currency: 'TON', type: type as 'main' | 'trade', amount: '1000' },
  ]),
];

function writeSecretFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/**
 * Start the sandbox (see module docstring).
 * @returns the running sandbox; rejects when the port is taken, the journal is corrupt, or another live
 *   process holds the state dir ({@link StateDirInUseError}, naming the holder).
 */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => undefined);
  const seed = opts.seed ?? 1;
  const manualClock = opts.manualClock ?? false;
  const warnings: string[] = [];
  const world = opts.mirror ? buildMirrorWorld(opts.mirror.world) : undefined;
  const mirrored = new Set(opts.mirror?.world.symbols.map((s) => s.symbol) ?? []);

  let state: SandboxState;
  let journal: JournalLike;
  let store: StateStore | undefined;
  let adminToken: string;
  let lock: StateDirLock | undefined;
  if (opts.stateDir) {
    fs.mkdirSync(opts.stateDir, { recursive: true });
    // exclusive use of the state dir for as long as this sandbox runs (released by the OS if it dies)
    lock = await acquireStateDirLock(opts.stateDir);
    try {
      const opened = StateStore.open(
        opts.stateDir,
        (snapshot?: SnapshotSource) => {
          const s = new SandboxState({ manualClock, snapshot, world });
          return { state: s, warnings: snapshot ? s.importSections(snapshot) : [] };
        },
        {
          fsync: opts.fsync,
          snapshotEveryRecords: opts.snapshotEveryRecords,
          // the agent-based market's journal rotates sooner (market/profiles.ts MARKET_SNAPSHOT_EVERY_BYTES)
          snapshotEveryBytes: opts.snapshotEveryBytes ?? ((opts.sim ?? true) && opts.market !== 'quiet' && !opts.mirror ? MARKET_SNAPSHOT_EVERY_BYTES : undefined),
          log,
          onSnapshotWrite: opts.onSnapshotWrite,
          worker: opts.backgroundSnapshots === false ? undefined : snapshotWorkerScript(),
        },
      );
      state = opened.state;
      store = opened.store;
      warnings.push(...opened.warnings);
      // a start that replayed journal records writes a snapshot at once, in the background when it can (the
      // start does not wait for it): the next start is short again
      if (opened.replayed > 0) store.rotateAfterReplay(opened.replayWarnings);
    } catch (e) {
      await lock.release();
      throw e;
    }
    journal = store;
    const tokenFile = path.join(opts.stateDir, 'admin-token');
    adminToken = fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '';
    if (!/^[0-9a-f]{32,}$/.test(adminToken)) {
      adminToken = randomHex(24);
      writeSecretFile(tokenFile, adminToken + '\n');
    }
  } else {
    state = new SandboxState({ manualClock, world, ...(manualClock && opts.startTime !== undefined ? { startTime: opts.startTime } : {}) });
    journal = new MemoryJournal();
    adminToken = randomHex(24);
  }
  let server: http.Server | https.Server | undefined;
  let tlsInfo: RunningSandbox['tls'];
  const timers: NodeJS.Timeout[] = [];
  let simulation: { stop(): void; step(): void } | undefined;
  let mirror: MirrorMarket | undefined;
  let feed: Feed | undefined;
  let handler: http.RequestListener = (_req, res) => res.destroy();
  let worlds: FreshWorlds | undefined;
  let reset: () => ResetResult = () => {
    throw new Error('the sandbox is not started');
  };
  let baseUrl = '';
  let credentials: SandboxCredentials;
  let historyMs: number | null = null;
  try {
    state.attachJournal(journal);
    for (const w of warnings) log(`sandbox: ${w}`);

    // mirror mode: no agent-based market (its history and agents would trade the mirrored symbols)
    const sim = (opts.sim ?? true) && !(opts.mirror && (opts.market ?? 'realistic') !== 'quiet');
    const market = opts.market ?? 'realistic';
    let historyBuildMs: number | null = null;
    if (!state.isSeeded && sim && market !== 'quiet') {
      // history from the first minute: the seeded books, then the agents' past market, before the listener
      historyBuildMs = buildMarketHistory(state, { seed, profile: market, now: state.now() }).ms;
      log(`sandbox: built ${market} market history in ${historyBuildMs.toFixed(0)} ms`);
      // into a snapshot at once: a kill now must not replay the history's command
      store?.rotate();
    }
    historyMs = historyBuildMs;
    if (!state.isSeeded) state.run('world.seed', { seed });
    let user: UserRecord | undefined = state.defaultUser();
    if (!user) {
      user = state.run('user.create', {
        ...newKeyMaterial(),
        keyVersion: '2',
        permissions: [...ALL_PERMISSIONS],
        balances: DEFAULT_BALANCES,
        isDefault: true,
        label: 'default',
      }) as UserRecord;
    }

    const settle = (): void => {
      try {
        // time-driven engine work (GTT expiries, dead-man's switches) also happens while nobody sends a
        // request, so that its WebSocket events go out on time
        state.syncClock();
        state.settleDue();
      } catch (e) {
        log(`sandbox: settlement error: ${(e as Error).message}`);
      }
    };

    // What serves a state: the feed and the request handler (rebuilt for the fresh state of a reset).
    // a reset's fresh world gets its own 3 × 24 h of history when the market has one (history from the first minute)
    const historyProfile = sim && market !== 'quiet' && !opts.mirror ? market : undefined;
    const resetHistory =
      historyProfile === undefined
        ? undefined
        : (s: SandboxState): void => {
            log(`sandbox: reset: built ${historyProfile} market history in ${buildMarketHistory(s, { seed, profile: historyProfile, now: s.now() }).ms.toFixed(0)} ms`);
          };
    worlds = new FreshWorlds({
      seed,
      manualClock,
      clock: () => state.now(),
      defaultUser: defaultUserArgs(user, DEFAULT_BALANCES),
      fastReset: opts.fastReset,
      log,
      ...(resetHistory ? { history: resetHistory } : {}),
    });
    const bind = (): void => {
      const ws = new Feed(state, { log, ...opts.feed });
      feed = ws;
      handler = createRequestHandler({ state, adminToken, baseUrl: () => baseUrl, log, rateLimits: opts.rateLimits, onClockMoved: settle, beforeClockMove: (t) => mirror?.advanceTo(t), feed: ws, onReset: () => reset() });
    };
    const startSim = (): void => {
      if (!sim) return;
      simulation =
        market === 'quiet'
          ? startSimulation(state, {
              seed,
              now: () => state.now(),
              log,
              intervalMs: opts.simIntervalMs,
              ...(opts.mirror ? { symbols: state.world.symbols.filter((s) => !mirrored.has(s.symbol)).map((s) => s.symbol) } : {}),
            })
          : startMarket(state, { seed, profile: market, log });
    };
    reset = (): ResetResult => {
      if (opts.mirror) throw new SandboxError('400100', `a ${opts.mirror.label} sandbox cannot be reset: restart it with a fresh state dir`, 400);
      const t0 = performance.now();
      const prepared = worlds?.ready ?? false;
      const fresh = (worlds as FreshWorlds).take(state.now());
      // durable first: if the new journal cannot be written, the old world stays as it was
      journal = commitReset(store, fresh).journal;
      // the history into a snapshot at once, as at a first start: a restart reads it instead of rebuilding it
      if (resetHistory) store?.rotate();
      simulation?.stop();
      simulation = undefined;
      feed?.close('sandbox reset: reconnect for the fresh world');
      // a request that was still reading its body when the reset came runs on the old world, as if it had
      // come before the reset: what it changes must not reach the new journal
      state.attachJournal({ append: () => undefined });
      state = fresh.state;
      bind();
      startSim();
      worlds?.prepareSoon(true);
      return { seed, uid: (state.defaultUser() as UserRecord).uid, now: state.now(), tookMs: performance.now() - t0, prepared };
    };
    bind();
    if (opts.mirror) {
      // the market first: the sandbox listens once every mirrored book is in the engine
      mirror = new MirrorMarket(() => state, { ...opts.mirror, log });
      await mirror.start();
    }
    const listener: http.RequestListener = (req, res) => handler(req, res);
    let srv: http.Server | https.Server;
    if (opts.tls) {
      const material = loadSandboxTls(opts.stateDir, { host });
      for (const n of material.notes) log(`sandbox: tls: ${n}`);
      tlsInfo = { caPem: material.caPem, caPath: material.caPath };
      srv = https.createServer({ key: material.key, cert: material.cert }, listener);
      // a client that does not trust the CA (or speaks plain HTTP to this port) fails its handshake: say why under --verbose
      srv.on('tlsClientError', (err, socket) => {
        log(`sandbox: tls: handshake with ${socket.remoteAddress ?? '?'} refused: ${err.message}`);
        socket.destroy();
      });
    } else {
      srv = http.createServer(listener);
    }
    server = srv;
    srv.on('upgrade', (req, socket, head) => (feed as Feed).handleUpgrade(req, socket, head));
    srv.keepAliveTimeout = 5_000;
    srv.headersTimeout = 10_000;
    srv.requestTimeout = 30_000;
    srv.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"code":"400100","msg":"malformed HTTP request"}');
      else socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(opts.port ?? 0, host, () => {
        srv.off('error', reject);
        resolve();
      });
    });
    const addr = srv.address() as AddressInfo;
    const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    baseUrl = `${opts.tls ? 'https' : 'http'}://${urlHost}:${addr.port}`;
    lock?.describe({ baseUrl });

    credentials = {
      baseUrl,
      uid: user.uid,
      apiKey: user.apiKey,
      apiSecret: user.apiSecret,
      apiPassphrase: user.apiPassphrase,
      keyVersion: '2',
    };
    if (opts.stateDir) writeSecretFile(path.join(opts.stateDir, 'credentials.json'), JSON.stringify(credentials, null, 2) + '\n');

    if (!state.manualClock) {
      const t = setInterval(settle, opts.settleIntervalMs ?? 500);
      t.unref();
      timers.push(t);
    }
    startSim();
    worlds.prepareSoon();
  } catch (e) {
    // Do not leave the state dir lock, a listening socket or timers behind when start-up fails.
    await mirror?.close();
    simulation?.stop();
    feed?.close();
    worlds?.dispose();
    for (const t of timers) clearInterval(t);
    const srv = server;
    if (srv?.listening) await new Promise<void>((resolve) => srv.close(() => resolve()));
    if (store) store.abandon();
    else journal.close?.();
    await lock?.release();
    throw e;
  }

  const httpServer = server;
  let closed = false;
  return {
    baseUrl,
    credentials,
    adminToken,
    get state() {
      return state;
    },
    warnings,
    historyBuildMs: historyMs,
    get simulation() {
      return simulation;
    },
    store,
    get feed() {
      return feed as Feed;
    },
    tls: tlsInfo,
    mirror,
    reset: () => {
      if (closed) throw new Error('the sandbox is closed');
      return reset();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await mirror?.close();
      simulation?.stop();
      feed?.close();
      worlds?.dispose();
      for (const t of timers) clearInterval(t);
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      // the last snapshot: the next start reads it and an empty journal
      journal.close?.();
      await lock?.release();
    },
  };
}
