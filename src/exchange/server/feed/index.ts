/**
 * The sandbox's WebSocket feed: KuCoin's classic spot push protocol
 * (https://www.kucoin.com/docs-new/websocket-api/base-info/introduction) on the sandbox's own HTTP
 * server, with the `ws` package. Documented for users in docs/sandbox.md ("WebSocket feed").
 *
 * Tokens (./tokens.ts), the connection handshake, client messages and their errors, idle close, memory
 * bounds and the per-user / per-address connection caps are described in docs/sandbox.md, "WebSocket
 * feed internals". The sandbox never crashes on a WebSocket message: every handler catches and answers
 * 400/500. Publishing (the core's events, after the journal, serialized once per topic) is ./publisher.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { jsonDepthExceeds, MAX_JSON_DEPTH, parseJson } from '../../../api/json';
import { WsSubscribe, numberToDecimal } from '../../../api/streamSchemas';
import { describeZodError, type BulletToken } from '../../../api/schemas';
import type { SandboxState } from '../state';
import type { FeedEventSource } from './events';
import { controlMessage, errorMessage } from './payloads';
import { Publisher, type PublisherStats, type Subscriber } from './publisher';
import { TokenIssuer } from './tokens';
import { CHANNELS, parseTopic, topicKeyId, type TopicKey } from './topics';

export { TOKEN_TTL_MS } from './tokens';
export type { FeedEventSource, CoreEventSink } from './events';

/** Options of {@link Feed} (all optional; defaults are KuCoin's values where it has them). */
export interface FeedOptions {
  /** Path of the WebSocket endpoint. Default '/ws'. */
  path?: string;
  /** `pingInterval` handed out with tokens, ms. Default 18,000 (KuCoin's). */
  pingIntervalMs?: number;
  /** `pingTimeout` handed out with tokens, ms. Default 10,000 (KuCoin's). */
  pingTimeoutMs?: number;
  /** Unsent bytes allowed per connection before it is dropped. Default 2 MiB. */
  sendBufferLimitBytes?: number;
  /** Open connections allowed in all (more: HTTP 503 at the upgrade). Default 500. */
  maxConnections?: number;
  /** Open private connections allowed per user (KuCoin documents ≤ 800 per UID; the sandbox has 500 in all). Default 100. */
  maxConnectionsPerUser?: number;
  /** Open connections allowed per token (public or private). Default 100. */
  maxConnectionsPerToken?: number;
  /**
   * Open PUBLIC connections allowed per client address, every loopback address counting as one
   * (private connections are capped per user instead). Default 300, below `maxConnections` so that
   * private streams keep room when every client is local.
   */
  maxPublicConnectionsPerIp?: number;
  /** Topics (symbol × channel, or a private topic) per connection. Default 100. */
  maxTopicsPerConnection?: number;
  /** Client messages allowed per window. Default 100 (KuCoin: 100 per 10 s). */
  clientMessageLimit?: number;
  /** The window of `clientMessageLimit`, ms. Default 10,000. */
  clientMessageWindowMs?: number;
  /** Largest client frame, bytes. Default 65,536. */
  maxPayloadBytes?: number;
  /** Period of level2Depth5/50 and ticker pushes (at most, only on change), ms. Default 100. */
  fastIntervalMs?: number;
  /** Period of level1 pushes (at most, only on change), ms. Default 10 (KuCoin: "once every 10ms"). */
  level1IntervalMs?: number;
  /** Period of snapshot pushes (at most, only on change), ms. Default 2,000. */
  snapshotIntervalMs?: number;
  /** The core's events; default a source of the sandbox's event hub (docs/events.md, eventHub.ts). `null` = none (tests of the protocol alone). */
  events?: FeedEventSource | null;
  /** Log sink (never receives tokens). */
  log?: (line: string) => void;
}

/** Counters of the feed. */
export interface FeedStats extends PublisherStats {
  connections: number;
  /** Connections refused with 401 "token is expired". */
  rejectedTokens: number;
  /** Connections closed for not pinging. */
  idleCloses: number;
  /** Client messages refused by the rate limit. */
  rateLimited: number;
  /** Connections refused by a per-user, per-token or per-address cap (509). */
  refusedConnections: number;
}

const CLOSE_TOKEN = 4001;
const CLOSE_IDLE = 4002;
const CLOSE_SHUTDOWN = 1001;
/** "Try Again Later" (RFC 6455 registry): a connection over a fair-share cap. */
const CLOSE_OVER_CAP = 1013;

/** The key of a client address for the per-address cap: every loopback address is one. */
function addressKey(addr: string | undefined): string {
  const a = (addr ?? '').replace(/^::ffff:/i, '');
  return a.startsWith('127.') || a === '::1' ? 'loopback' : a;
}

/** Add `d` to the count of `key` (a count that reaches 0 is removed, so the map holds open connections only). */
function bump(counts: Map<string, number>, key: string, d: number): void {
  const n = (counts.get(key) ?? 0) + d;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** One client connection. */
class Connection implements Subscriber {
  readonly subs = new Map<string, TopicKey>();
  lastPing: number;
  windowStart: number;
  windowCount = 0;
  private out: Buffer[] = [];
  dead = false;

  constructor(
    readonly ws: WebSocket,
    readonly socket: Duplex,
    /** The user of a private token, undefined for a public one. */
    readonly uid: string | undefined,
    /** The token it connected with (per-token cap). */
    readonly token: string,
    /** Its client address key (per-address cap of public connections), see addressKey. */
    readonly address: string,
    /** Called when a control message left more than the bound unsent (a client that does not read). */
    private readonly overBound: () => boolean,
  ) {
    this.lastPing = performance.now();
    this.windowStart = this.lastPing;
  }

  queue(frame: Buffer): void {
    if (!this.dead) this.out.push(frame);
  }

  sendNow(frame: Buffer): void {
    this.queue(frame);
  }

  drain(): number {
    const out = this.out;
    const s = this.socket;
    if (out.length === 0 || this.dead || s.destroyed) {
      if (out.length) this.out = [];
      return s.writableLength;
    }
    this.out = [];
    // One write per connection per flush: the frames of this flush in one buffer.
    s.write(out.length === 1 ? out[0] : Buffer.concat(out));
    return s.writableLength;
  }

  /** A control message (welcome, pong, ack, error) through `ws` (it frames it); the send-buffer bound applies. */
  send(text: string): void {
    if (!this.dead && this.ws.readyState === this.ws.OPEN) {
      this.ws.send(text);
      this.overBound();
    }
  }
}

/** The feed (see the module docstring). */
export class Feed {
  readonly path: string;
  private readonly pingInterval: number;
  private readonly pingTimeout: number;
  private readonly maxConnections: number;
  private readonly maxPerUser: number;
  private readonly maxPerToken: number;
  private readonly maxPublicPerIp: number;
  /** Open connections per user (private), per token, and public ones per address key. */
  private readonly perUser = new Map<string, number>();
  private readonly perToken = new Map<string, number>();
  private readonly publicPerIp = new Map<string, number>();
  private readonly sendBufferLimit: number;
  private readonly maxTopics: number;
  private readonly msgLimit: number;
  private readonly msgWindow: number;
  private readonly tokens = new TokenIssuer();
  private readonly wss: WebSocketServer;
  private readonly publisher: Publisher;
  private readonly conns = new Set<Connection>();
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly log: (line: string) => void;
  private readonly counters = { rejectedTokens: 0, idleCloses: 0, rateLimited: 0, refusedConnections: 0 };
  private closed = false;

  constructor(
    private readonly state: SandboxState,
    opts: FeedOptions = {},
  ) {
    this.path = opts.path ?? '/ws';
    this.pingInterval = opts.pingIntervalMs ?? 18_000;
    this.pingTimeout = opts.pingTimeoutMs ?? 10_000;
    this.maxConnections = opts.maxConnections ?? 500;
    this.maxPerUser = opts.maxConnectionsPerUser ?? 100;
    this.maxPerToken = opts.maxConnectionsPerToken ?? 100;
    this.maxPublicPerIp = opts.maxPublicConnectionsPerIp ?? 300;
    this.sendBufferLimit = opts.sendBufferLimitBytes ?? 2 * 1024 * 1024;
    this.maxTopics = opts.maxTopicsPerConnection ?? 100;
    this.msgLimit = opts.clientMessageLimit ?? 100;
    this.msgWindow = opts.clientMessageWindowMs ?? 10_000;
    this.log = opts.log ?? (() => undefined);
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes ?? 65_536, perMessageDeflate: false, clientTracking: false });
    // the core's one sink is shared through the sandbox's event hub (the account ledgers listen too)
    const source = opts.events === null ? undefined : (opts.events ?? state.events.source());
    this.publisher = new Publisher(state, source, {
      sendBufferLimitBytes: this.sendBufferLimit,
      fastIntervalMs: opts.fastIntervalMs ?? 100,
      level1IntervalMs: opts.level1IntervalMs ?? 10,
      snapshotIntervalMs: opts.snapshotIntervalMs ?? 2000,
      onSlow: (s) => this.drop(s as Connection, 'send buffer over the bound'),
      log: (line) => this.log(line),
    });
    const idleMs = this.pingInterval + this.pingTimeout;
    this.sweepTimer = setInterval(() => this.sweep(idleMs), Math.max(20, Math.min(1000, idleMs / 4)));
    this.sweepTimer.unref();
  }

  /** Counters (connections open now, deliveries, disconnects, …). */
  get stats(): FeedStats {
    return { ...this.publisher.stats, connections: this.conns.size, ...this.counters };
  }

  /** The publisher (tests: subscriber counts). */
  get publishing(): Publisher {
    return this.publisher;
  }

  /**
   * The `data` of POST /api/v1/bullet-public (`kind` public) or /api/v1/bullet-private (`kind`
   * private, bound to `uid`): a fresh token and this server's endpoint.
   */
  bullet(kind: 'public' | 'private', uid: string, baseUrl: string): BulletToken {
    // http://… → ws://…, https://… (a sandbox started with --tls) → wss://…, which KuCoin marks `encrypt: true`
    const endpoint = baseUrl.replace(/^http/, 'ws') + this.path;
    return {
      token: this.tokens.issue(kind, kind === 'private' ? uid : '', this.state.now()),
      instanceServers: [{ endpoint, encrypt: endpoint.startsWith('wss:'), protocol: 'websocket', pingInterval: this.pingInterval, pingTimeout: this.pingTimeout }],
    };
  }

  /** Handle an HTTP upgrade of the sandbox's server (`server.on('upgrade', …)`). Never throws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      if (this.closed || (pathname !== this.path && pathname !== `${this.path}/`)) {
        refuse(socket, 404, 'Not Found', `${pathname} is not a WebSocket endpoint (use the endpoint of POST /api/v1/bullet-public)`);
        return;
      }
      if (this.conns.size >= this.maxConnections) {
        refuse(socket, 503, 'Service Unavailable', `too many WebSocket connections (limit ${this.maxConnections})`);
        return;
      }
      const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
      const address = addressKey(req.socket.remoteAddress);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, socket, params.get('token') ?? '', params.get('connectId') ?? '', address));
    } catch (e) {
      this.log(`feed: upgrade failed: ${(e as Error).message}`);
      socket.destroy();
    }
  }

  /** Close every connection (code 1001, `reason`) and stop; later upgrades get HTTP 404. */
  close(reason = 'sandbox shutting down'): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.publisher.close();
    for (const c of this.conns) {
      c.dead = true;
      c.ws.close(CLOSE_SHUTDOWN, reason);
      c.socket.destroy();
    }
    this.conns.clear();
    this.perUser.clear();
    this.perToken.clear();
    this.publicPerIp.clear();
    this.wss.close();
  }

  // ---------------------------------------------------------------------------------------------

  private onConnection(ws: WebSocket, socket: Duplex, token: string, connectId: string, address: string): void {
    const id = connectId.slice(0, 128);
    const claims = this.tokens.verify(token, this.state.now());
    if (!claims || (claims.kind === 'private' && !this.state.users.has(claims.uid))) {
      this.counters.rejectedTokens++;
      ws.send(errorMessage(id, 401, 'token is expired'));
      ws.close(CLOSE_TOKEN, 'token is expired');
      return;
    }
    const uid = claims.kind === 'private' ? claims.uid : undefined;
    const over = this.overCap(uid, token, address);
    if (over !== undefined) {
      this.counters.refusedConnections++;
      ws.send(errorMessage(id, 509, over));
      ws.close(CLOSE_OVER_CAP, 'connection limit');
      return;
    }
    const c: Connection = new Connection(ws, socket, uid, token, address, () => {
      if (socket.writableLength <= this.sendBufferLimit) return false;
      this.drop(c, 'send buffer over the bound (control messages)');
      return true;
    });
    this.conns.add(c);
    this.count(c, 1);
    ws.on('message', (data: Buffer) => {
      try {
        this.onClientMessage(c, data);
      } catch (e) {
        this.log(`feed: internal error on a client message: ${(e as Error).stack ?? (e as Error).message}`);
        c.send(errorMessage(undefined, 500, 'internal error of the sandbox (logged)'));
      }
    });
    ws.on('close', () => this.forget(c));
    ws.on('error', () => this.forget(c));
    c.send(controlMessage(id, 'welcome'));
  }

  private onClientMessage(c: Connection, data: Buffer): void {
    if (c.dead) return;
    const now = performance.now();
    if (now - c.windowStart >= this.msgWindow) {
      c.windowStart = now;
      c.windowCount = 0;
    }
    if (++c.windowCount > this.msgLimit) {
      // Refused unread; answered once per window, so a flooding client cannot make the server write.
      this.counters.rateLimited++;
      if (c.windowCount === this.msgLimit + 1) c.send(errorMessage(undefined, 509, `exceed max permits per ${this.msgWindow / 1000} seconds`));
      return;
    }
    const text = data.toString('utf8');
    if (jsonDepthExceeds(text)) {
      c.send(errorMessage(undefined, 400, `malformed JSON: nested deeper than ${MAX_JSON_DEPTH} levels`));
      return;
    }
    let raw: unknown;
    try {
      raw = parseJson(text);
    } catch (e) {
      c.send(errorMessage(undefined, 400, `malformed JSON: ${(e as Error).message}`));
      return;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      c.send(errorMessage(undefined, 400, 'a message must be a JSON object {id, type, …}'));
      return;
    }
    const m = raw as Record<string, unknown>;
    const id = typeof m.id === 'string' ? m.id.slice(0, 128) : typeof m.id === 'number' && Number.isFinite(m.id) ? numberToDecimal(m.id) : undefined;
    switch (m.type) {
      case 'ping':
        c.lastPing = now;
        c.send(controlMessage(id ?? '', 'pong'));
        return;
      case 'subscribe':
      case 'unsubscribe': {
        const p = WsSubscribe.safeParse(m);
        if (!p.success) {
          c.send(errorMessage(id, 400, describeZodError(p.error)));
          return;
        }
        this.onSubscribe(c, p.data);
        return;
      }
      default:
        c.send(errorMessage(id, 400, `unsupported message type ${JSON.stringify(m.type ?? null).slice(0, 64)} (ping, subscribe, unsubscribe)`));
    }
  }

  private onSubscribe(c: Connection, m: WsSubscribe): void {
    const r = parseTopic(m.topic, (s) => this.state.world.symbolMap.has(s), c.uid);
    if ('code' in r) {
      c.send(errorMessage(m.id, r.code, r.data));
      return;
    }
    if (m.type === 'unsubscribe') {
      for (const k of r.keys) {
        const kid = topicKeyId(k);
        if (c.subs.delete(kid)) this.publisher.remove(c, k);
      }
      if (m.response) c.send(controlMessage(m.id, 'ack'));
      return;
    }
    const fresh = r.keys.filter((k) => !c.subs.has(topicKeyId(k)));
    if (c.subs.size + fresh.length > this.maxTopics) {
      c.send(errorMessage(m.id, 509, `exceed max subscription count limitation of ${this.maxTopics} per session`));
      return;
    }
    for (const k of fresh) {
      c.subs.set(topicKeyId(k), k);
      this.publisher.add(c, k);
    }
    if (m.response) c.send(controlMessage(m.id, 'ack'));
    // Throttled topics: the current state right away (then at most every interval, on change).
    for (const k of fresh) if (k.channel === 'depth5' || k.channel === 'depth50' || k.channel === 'level1' || k.channel === 'ticker' || k.channel === 'snapshot') this.publisher.sendInitial(c, k);
  }

  private sweep(idleMs: number): void {
    const now = performance.now();
    for (const c of this.conns) {
      if (now - c.lastPing > idleMs) {
        this.counters.idleCloses++;
        c.ws.close(CLOSE_IDLE, 'ping timeout');
        this.forget(c);
      }
    }
  }

  private drop(c: Connection, why: string): void {
    this.log(`feed: dropping a connection: ${why}`);
    this.forget(c);
    c.socket.destroy();
  }

  /**
   * The 509 text when one more connection of `uid` (private; undefined: public) with `token` from
   * `address` would pass a fair-share cap (module docstring), else undefined. Texts in KuCoin's style
   * ("exceed max … limitation of N per …"; KuCoin publishes no text for its per-UID limit).
   */
  private overCap(uid: string | undefined, token: string, address: string): string | undefined {
    if (uid !== undefined && (this.perUser.get(uid) ?? 0) >= this.maxPerUser) return `exceed max connection count limitation of ${this.maxPerUser} per user`;
    if ((this.perToken.get(token) ?? 0) >= this.maxPerToken) return `exceed max connection count limitation of ${this.maxPerToken} per token`;
    if (uid === undefined && (this.publicPerIp.get(address) ?? 0) >= this.maxPublicPerIp) {
      return `exceed max connection count limitation of ${this.maxPublicPerIp} public connections per IP address`;
    }
    return undefined;
  }

  /** Count `c` in (d = 1) or out (d = -1) of the per-user, per-token and per-address tallies. */
  private count(c: Connection, d: 1 | -1): void {
    if (c.uid !== undefined) bump(this.perUser, c.uid, d);
    else bump(this.publicPerIp, c.address, d);
    bump(this.perToken, c.token, d);
  }

  private forget(c: Connection): void {
    if (c.dead && !this.conns.has(c)) return;
    c.dead = true;
    if (this.conns.delete(c)) this.count(c, -1);
    for (const k of c.subs.values()) this.publisher.remove(c, k);
    c.subs.clear();
  }
}

function refuse(socket: Duplex, status: number, text: string, msg: string): void {
  const body = JSON.stringify({ code: String(status === 404 ? 404000 : 503000), msg });
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Channels of the feed, re-exported for docs and tests. */
export { CHANNELS };
