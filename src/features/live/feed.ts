/**
 * SpotDesk's live feed: the ONE public and the ONE private WebSocket connection of the active profile,
 * over `StreamClient` (src/api/stream.ts), shared by every consumer (market panels, price alerts, the
 * Accounts and Active Orders views), with a state a person can read: `connecting`, `live`,
 * `reconnecting`, `polling` (a connection attempt failed: consumers poll REST while the client retries
 * with its backoff, the reason kept) and `idle`.
 *
 * Topics are reference-counted (the first consumer subscribes, the last one unsubscribes; the public
 * connection closes when no topic is left) and messages are dispatched by topic. After a reconnect the
 * channel fires `synced` so that consumers resync from REST.
 *
 * No `vscode`: the benchmark and unit tests drive it directly. Errors are reported as state, never thrown.
 * The states in detail: docs/market.md, "The live feed's states".
 */
import type { StreamClient, StreamClientOptions } from '../../api/stream';
import type { StreamData } from '../../api/streamSchemas';
import type { BulletToken } from '../../api/schemas';
import type { BookStreamSource } from '../../api/l2Book';
import { failureText } from '../../api/failure';
import { listen, TypedEmitter } from '../../api/emitter';

/** State of one connection (see the module docstring). */
export type FeedState = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'polling';

/** What a channel's state is and why. */
export interface FeedStatus {
  readonly state: FeedState;
  /** Why it is not live (the last failure in words), or null. */
  readonly reason: string | null;
  /** Consecutive reconnect attempts (0 while live). */
  readonly attempt: number;
  /** When the next connection attempt starts (ms since the epoch), while not live. */
  readonly nextAttemptAt: number | null;
  /** When the state last changed (ms since the epoch). */
  readonly since: number;
}

/**
 * Heartbeat timeout assumed until a connection's token says otherwise, ms: KuCoin's `pingInterval`
 * (18 s) + `pingTimeout` (10 s). The client gives a connection up after that long without a pong.
 */
export const HEARTBEAT_TIMEOUT_MS = 28_000;

/**
 * A sign of life of a connection: its welcome, a pong, or a data message; `at` local ms; `timeoutMs`
 * the connection's heartbeat timeout (`pingInterval + pingTimeout`).
 */
export interface Heartbeat {
  readonly kind: 'welcome' | 'pong' | 'message';
  readonly at: number;
  readonly timeoutMs: number;
}

/** Time without a connection after which consumers fall back to polling, ms. */
export const FALLBACK_AFTER_MS = 4000;

/** A minimal event: `event(listener)` returns a disposer. */
export type { Listen } from '../../api/emitter';

/** The events of a {@link StreamChannel}. */
type ChannelEvents = { status: [FeedStatus]; synced: []; heartbeat: [Heartbeat] };

/** The events of a {@link LiveFeed}. */
type LiveFeedEvents = { status: [LiveStatus]; reset: [] };

/** A consumer's bug must not break the feed: a listener's error is dropped, the others still run. */
const isolated = { onListenerError: () => undefined };

/** Creates the StreamClient of a channel (injected: the benchmark and tests use their own). */
export type StreamFactory = (opts: StreamClientOptions) => StreamClient;

/** Options of a {@link StreamChannel}. */
export interface ChannelOptions {
  /** `public` or `private` (names the channel in logs and reasons). */
  readonly name: 'public' | 'private';
  /** Fetch a token (POST /api/v1/bullet-public or -private). */
  readonly token: () => Promise<BulletToken>;
  /** Build the client (default: `new StreamClient(opts)`, loaded lazily). */
  readonly create: StreamFactory;
  /** Local clock, ms. */
  readonly now?: () => number;
  /** Override of {@link FALLBACK_AFTER_MS}. */
  readonly fallbackAfterMs?: number;
  /** Log line (no secrets: tokens are never logged). */
  readonly log?: (level: 'info' | 'warn' | 'debug', line: string) => void;
}

/**
 * One WebSocket connection (public or private) with reference-counted topics and a readable
 * {@link FeedStatus}. Created idle; the first {@link subscribe} connects.
 */
export class StreamChannel {
  private client: StreamClient | undefined;
  private readonly refs = new Map<string, number>();
  /** The subscribe request of each topic (resolves at the ack; rejects when refused). */
  private readonly acks = new Map<string, Promise<void>>();
  private readonly handlers = new Map<string, Set<(m: StreamData) => void>>();
  private readonly events = new TypedEmitter<ChannelEvents>(isolated);
  /** The connection's heartbeat timeout (`pingInterval + pingTimeout` of its token), ms. */
  private beatTimeoutMs = HEARTBEAT_TIMEOUT_MS;
  private st: FeedStatus;
  private fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly now: () => number;
  /** Fires on every state change. */
  readonly onStatus = listen(this.events, 'status');
  /**
   * Fires when the channel is live and its topics are subscribed again after a (re)connection:
   * consumers reload from REST what may have changed while it was down.
   */
  readonly onSynced = listen(this.events, 'synced');
  /**
   * Fires whenever the connection shows it is alive: the welcome, every pong and every data message
   * (of any topic). Consumers judge staleness by it rather than by changes of their data: a quiet
   * market sends no book updates, but its connection keeps beating.
   */
  readonly onHeartbeat = listen(this.events, 'heartbeat');
  /** Counters: data messages received, connections made, reconnect attempts. */
  readonly stats = { messages: 0, connections: 0, reconnectAttempts: 0, fallbacks: 0 };

  constructor(private readonly opts: ChannelOptions) {
    this.now = opts.now ?? Date.now;
    this.st = { state: 'idle', reason: null, attempt: 0, nextAttemptAt: null, since: this.now() };
  }

  /** The current status. */
  get status(): FeedStatus {
    return this.st;
  }

  /** True while connected (messages flow). */
  get live(): boolean {
    return this.st.state === 'live';
  }

  /** True when consumers should poll instead (the connection could not be made, see the reason). */
  get fallback(): boolean {
    return this.st.state === 'polling';
  }

  /** Topics currently subscribed (with at least one consumer). */
  get topics(): string[] {
    return [...this.refs.keys()];
  }

  /**
   * Subscribe `topic` for one consumer; `handler` receives the topic's data messages. The first
   * consumer of a topic subscribes it on the connection (connecting if needed). Returns the disposer.
   * A subscription the server refuses is reported in the log and as the status reason.
   */
  subscribe(topic: string, handler?: (m: StreamData) => void): { dispose(): void } {
    if (this.closed) return { dispose: () => undefined };
    if (handler) {
      let set = this.handlers.get(topic);
      if (!set) this.handlers.set(topic, (set = new Set()));
      set.add(handler);
    }
    const n = (this.refs.get(topic) ?? 0) + 1;
    this.refs.set(topic, n);
    const client = this.ensureClient();
    if (n === 1) {
      const ack = client.subscribe(topic);
      this.acks.set(topic, ack);
      ack.catch((e: unknown) => {
        if (this.refs.has(topic)) this.opts.log?.('warn', `${this.opts.name} stream: subscribe ${topic} failed: ${failureText(e)}`);
      });
    }
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        if (handler) this.handlers.get(topic)?.delete(handler);
        this.release(topic);
      },
    };
  }

  /**
   * The connection as `keepBook` (src/api/l2Book.ts) needs it: its subscribe/unsubscribe go through
   * the reference counts, its message and reconnect listeners to the client.
   */
  bookSource(): BookStreamSource {
    const client = this.ensureClient();
    const subs = new Map<string, { dispose(): void }>();
    return {
      on: ((event: 'message' | 'reconnected', fn: (m: StreamData) => void) => client.on(event, fn as () => void)) as BookStreamSource['on'],
      off: ((event: 'message' | 'reconnected', fn: (m: StreamData) => void) => client.off(event, fn as () => void)) as BookStreamSource['off'],
      subscribe: async (topic: string) => {
        if (!subs.has(topic)) subs.set(topic, this.subscribe(topic));
        await this.acks.get(topic); // resolves at the ack of the topic's subscription
      },
      unsubscribe: async (topic: string) => {
        subs.get(topic)?.dispose();
        subs.delete(topic);
      },
    };
  }

  /** Close the connection for good (profile change, extension deactivation). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.shutdown();
    this.refs.clear();
    this.acks.clear();
    this.handlers.clear();
    this.setState('idle', null);
    this.events.removeAllListeners();
  }

  private release(topic: string): void {
    const n = (this.refs.get(topic) ?? 0) - 1;
    if (n > 0) {
      this.refs.set(topic, n);
      return;
    }
    this.refs.delete(topic);
    this.acks.delete(topic);
    this.handlers.delete(topic);
    const client = this.client;
    if (!client) return;
    if (this.refs.size === 0) {
      // Nobody needs the connection any more.
      this.shutdown();
      this.setState('idle', null);
      return;
    }
    void client.unsubscribe(topic).catch(() => undefined);
  }

  private shutdown(): void {
    if (this.fallbackTimer) clearTimeout(this.fallbackTimer);
    this.fallbackTimer = undefined;
    const c = this.client;
    this.client = undefined;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      c.close();
    }
  }

  private ensureClient(): StreamClient {
    if (this.client) return this.client;
    const c = this.opts.create({ token: this.opts.token, privateChannel: this.opts.name === 'private' });
    this.client = c;
    let first = true;
    const beat = (kind: Heartbeat['kind']) => this.events.emit('heartbeat', { kind, at: this.now(), timeoutMs: this.beatTimeoutMs });
    c.on('pong', () => {
      if (this.client === c) beat('pong');
    });
    c.on('message', (m: StreamData) => {
      if (this.client !== c) return;
      this.stats.messages++;
      if (this.events.listenerCount('heartbeat') > 0) beat('message');
      const set = this.handlers.get(m.topic);
      if (!set) return;
      for (const h of [...set]) {
        try {
          h(m);
        } catch (e) {
          // One consumer's bug must not stop the others, nor the client that emits the message.
          this.opts.log?.('warn', `${this.opts.name} stream: a consumer of ${m.topic} failed: ${failureText(e)}`);
        }
      }
    });
    c.on('open', (e?: { pingInterval?: number; pingTimeout?: number }) => {
      if (this.client !== c) return;
      this.stats.connections++;
      if (e && typeof e.pingInterval === 'number' && typeof e.pingTimeout === 'number' && e.pingInterval > 0) this.beatTimeoutMs = e.pingInterval + Math.max(0, e.pingTimeout);
      this.setState('live', null);
      beat('welcome');
      // First connection: the subscriptions requested meanwhile are sent right after the welcome.
      if (first) {
        first = false;
        void Promise.allSettled([...this.acks.values()]).then(() => {
          if (this.client === c && c.state === 'open') this.events.emit('synced');
        });
      }
    });
    c.on('reconnected', () => {
      if (this.client !== c) return;
      this.setState('live', null);
      this.events.emit('synced');
    });
    c.on('close', (e: { code: number; reason: string }) => {
      if (this.client !== c || this.st.state !== 'live') return;
      this.setState('reconnecting', `the connection closed (code ${e.code}${e.reason ? `: ${e.reason}` : ''})`);
    });
    c.on('reconnecting', (e: { attempt: number; delayMs: number }) => {
      if (this.client !== c) return;
      this.stats.reconnectAttempts++;
      const next = this.now() + e.delayMs;
      const state = this.st.state === 'polling' ? 'polling' : 'reconnecting';
      this.setState(state, this.st.reason ?? 'reconnecting', e.attempt, next);
    });
    c.on('error', (e: Error) => {
      if (this.client !== c) return;
      const reason = `${this.opts.name} stream: ${failureText(e)}`;
      this.opts.log?.('debug', reason);
      // A failed attempt (not an error of a live connection, which is followed by its close).
      if (this.st.state !== 'live') this.fallBack(reason);
    });
    this.setState('connecting', null);
    void c.start().catch(() => undefined);
    return c;
  }

  private fallBack(reason: string): void {
    if (this.st.state !== 'polling') this.stats.fallbacks++;
    this.setState('polling', reason, this.st.attempt, this.st.nextAttemptAt);
  }

  private setState(state: FeedState, reason: string | null, attempt = 0, nextAttemptAt: number | null = null): void {
    const prev = this.st;
    if (prev.state === state && prev.reason === reason && prev.attempt === attempt && prev.nextAttemptAt === nextAttemptAt) return;
    this.st = { state, reason, attempt, nextAttemptAt, since: prev.state === state ? prev.since : this.now() };
    if (state !== prev.state) this.opts.log?.(state === 'polling' ? 'warn' : 'info', `${this.opts.name} stream: ${state}${reason ? ` (${reason})` : ''}`);
    if (this.fallbackTimer) clearTimeout(this.fallbackTimer);
    this.fallbackTimer = undefined;
    if (state === 'connecting' || state === 'reconnecting') {
      const ms = this.opts.fallbackAfterMs ?? FALLBACK_AFTER_MS;
      this.fallbackTimer = setTimeout(() => {
        this.fallbackTimer = undefined;
        if (this.st.state === 'connecting' || this.st.state === 'reconnecting') this.fallBack(this.st.reason ?? `no connection within ${Math.round(ms / 1000)} s`);
      }, ms);
      this.fallbackTimer.unref?.();
    }
    this.events.emit('status', this.st);
  }
}

/** Status of both channels, for the status bar. */
export interface LiveStatus {
  readonly public: FeedStatus;
  readonly private: FeedStatus;
}

/** What {@link LiveFeed} needs from the extension. */
export interface LiveFeedDeps {
  /** Public token (POST /api/v1/bullet-public) of the active profile. */
  publicToken(): Promise<BulletToken>;
  /** Private token (POST /api/v1/bullet-private, signed) of the active profile. */
  privateToken(): Promise<BulletToken>;
  /** Build a StreamClient (default loads src/api/stream lazily). */
  create?: StreamFactory;
  log?: (level: 'info' | 'warn' | 'debug', line: string) => void;
  now?: () => number;
  fallbackAfterMs?: number;
}

/**
 * The live feed of the active profile: one public and one private {@link StreamChannel}, recreated
 * by {@link reset} when the profile (or its credentials) changes.
 */
export class LiveFeed {
  private pub: StreamChannel | undefined;
  private priv: StreamChannel | undefined;
  private readonly liveEvents = new TypedEmitter<LiveFeedEvents>(isolated);
  private generation = 0;
  /** Fires when either channel's status changes. */
  readonly onStatus = listen(this.liveEvents, 'status');
  /** Fires after {@link reset}: consumers re-acquire their channels. */
  readonly onReset = listen(this.liveEvents, 'reset');

  constructor(private readonly deps: LiveFeedDeps & { create: StreamFactory }) {}

  /** The public channel (created idle on first use). */
  get public(): StreamChannel {
    return (this.pub ??= this.channel('public', () => this.deps.publicToken()));
  }

  /** The private channel (created idle on first use; needs credentials). */
  get private(): StreamChannel {
    return (this.priv ??= this.channel('private', () => this.deps.privateToken()));
  }

  /** Both channels' status (idle for a channel not created). */
  get status(): LiveStatus {
    const idle: FeedStatus = { state: 'idle', reason: null, attempt: 0, nextAttemptAt: null, since: 0 };
    return { public: this.pub?.status ?? idle, private: this.priv?.status ?? idle };
  }

  /** Incremented by every {@link reset}. */
  get epoch(): number {
    return this.generation;
  }

  /** Close both channels (the profile changed); consumers are told through {@link onReset}. */
  reset(): void {
    this.generation++;
    this.pub?.close();
    this.priv?.close();
    this.pub = this.priv = undefined;
    this.liveEvents.emit('status', this.status);
    this.liveEvents.emit('reset');
  }

  /** Close everything for good. */
  dispose(): void {
    this.pub?.close();
    this.priv?.close();
    this.pub = this.priv = undefined;
    this.liveEvents.removeAllListeners();
  }

  private channel(name: 'public' | 'private', token: () => Promise<BulletToken>): StreamChannel {
    const ch = new StreamChannel({ name, token, create: this.deps.create, log: this.deps.log, now: this.deps.now, fallbackAfterMs: this.deps.fallbackAfterMs });
    ch.onStatus(() => this.liveEvents.emit('status', this.status));
    return ch;
  }
}
