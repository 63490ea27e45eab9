/**
 * `StreamClient`: a client of KuCoin's spot WebSocket feed (classic protocol; docs:
 * https://www.kucoin.com/docs-new/websocket-api/base-info/introduction), on the `ws` package. No
 * `vscode`: usable from a bot.
 *
 * `start()` gets a token, connects, waits for the welcome, then pings every `pingInterval` ms and treats a
 * missing pong after `pingTimeout` ms as a dead connection. A dropped connection reconnects with jittered
 * exponential backoff and a FRESH token, resubscribes every topic and emits `reconnected` (books must resync).
 * Frames are decoded with ./streamSchemas (exact decimals, bigint sequences); one that fails its schema is
 * counted and reported as an `invalid` event, never thrown. Data arrives as `message` events and through
 * {@link StreamClient.messages} (an async iterator with a bounded queue).
 *
 * Events and the backoff formula: docs/ARCHITECTURE.md, "Stream client (`src/api/stream.ts`)".
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { BulletToken } from './schemas';
import { decodeStreamMessage, StreamDecodeError, type StreamData } from './streamSchemas';
import { TypedEmitter } from './emitter';

/** Options of {@link StreamClient}. */
export interface StreamClientOptions {
  /** Fetch a token (bullet-public or bullet-private `data`). Called before every connection attempt. */
  token: () => Promise<BulletToken>;
  /** Send `privateChannel: true` with subscriptions (for private topics on a private token). Default false. */
  privateChannel?: boolean;
  /** Shortest reconnect delay, ms. Default 250. */
  minReconnectDelayMs?: number;
  /** Longest reconnect delay, ms. Default 10,000. */
  maxReconnectDelayMs?: number;
  /** Time allowed between connecting and the welcome, ms. Default 10,000. */
  welcomeTimeoutMs?: number;
  /** Time allowed for an ack, ms. Default 10,000. */
  ackTimeoutMs?: number;
  /** Data messages kept for {@link StreamClient.messages} readers that fall behind; older ones are dropped (counted). Default 10,000. */
  queueLimit?: number;
  /** Random source in [0, 1) for the backoff jitter and ids. Default Math.random. */
  random?: () => number;
}

/** Counters of a {@link StreamClient}. */
export interface StreamStats {
  /** Data messages delivered. */
  messages: number;
  /** Frames that failed to decode. */
  invalid: number;
  /** Connections established (welcome received). */
  connections: number;
  /** Reconnect attempts started after a drop. */
  reconnects: number;
  pingsSent: number;
  pongs: number;
  /** Messages dropped from the iterator queue because a reader fell behind. */
  queueDropped: number;
}

/** Error of a subscribe/unsubscribe refused by the server (`{type: "error", code, data}`). */
export class StreamRequestError extends Error {
  constructor(
    readonly code: number,
    readonly data: string,
    readonly topic: string,
  ) {
    super(`${code} ${data} (${topic})`);
    this.name = 'StreamRequestError';
  }
}

interface Pending {
  resolve: () => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
  topic: string;
}

type State = 'idle' | 'connecting' | 'open' | 'closed';

/** The events of a {@link StreamClient} and their arguments (see the module docstring). */
export type StreamClientEvents = {
  open: [{ connectId: string; pingInterval: number; pingTimeout: number }];
  pong: [];
  message: [StreamData];
  reconnected: [];
  close: [{ code: number; reason: string }];
  reconnecting: [{ attempt: number; delayMs: number }];
  invalid: [StreamDecodeError];
  error: [Error];
  /** Internal: `close()` was called (ends a pending `start()`). */
  'closed-for-good': [];
};

/** The stream client (see the module docstring). */
export class StreamClient extends TypedEmitter<StreamClientEvents> {
  readonly stats: StreamStats = { messages: 0, invalid: 0, connections: 0, reconnects: 0, pingsSent: 0, pongs: 0, queueDropped: 0 };
  private readonly opts: Required<Omit<StreamClientOptions, 'token'>> & Pick<StreamClientOptions, 'token'>;
  private ws: WebSocket | undefined;
  private st: State = 'idle';
  /** Topics to keep subscribed (resubscribed after a reconnect). */
  private readonly topics = new Set<string>();
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private failures = 0;
  private pingTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private firstOpen: { resolve: () => void; reject: (e: Error) => void; promise: Promise<void> } | undefined;
  private readonly readers = new Set<{ queue: StreamData[]; wake: (() => void) | undefined }>();
  private connectId = '';

  constructor(opts: StreamClientOptions) {
    super();
    this.opts = {
      privateChannel: false,
      minReconnectDelayMs: 250,
      maxReconnectDelayMs: 10_000,
      welcomeTimeoutMs: 10_000,
      ackTimeoutMs: 10_000,
      queueLimit: 10_000,
      random: Math.random,
      ...opts,
    };
    // An 'error' event without a listener would throw; errors are reported, never fatal.
    this.on('error', () => undefined);
  }

  /** `idle`, `connecting`, `open` or `closed`. */
  get state(): State {
    return this.st;
  }

  /** Topics currently kept subscribed. */
  get subscriptions(): string[] {
    return [...this.topics];
  }

  /**
   * Connect (idempotent). Resolves at the first welcome; keeps retrying with backoff until then.
   * @throws (async) Error when {@link close} is called before the first connection.
   */
  start(): Promise<void> {
    if (this.firstOpen) return this.firstOpen.promise;
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined);
    this.firstOpen = { resolve, reject, promise };
    if (this.st === 'idle') void this.connect();
    return promise;
  }

  /**
   * Subscribe to `topic` (e.g. `/market/level2:BTC-USDT`); kept across reconnects. Resolves at the
   * ack; if not connected yet, once connected and acknowledged.
   * @throws (async) StreamRequestError when the server refuses it (then it is not kept), Error on timeout/close.
   */
  subscribe(topic: string): Promise<void> {
    if (this.st === 'closed') return Promise.reject(new Error('stream client is closed'));
    const isNew = !this.topics.has(topic);
    this.topics.add(topic);
    const p = this.whenOpen().then(() => this.request('subscribe', topic));
    return p.catch((e: unknown) => {
      if (isNew && e instanceof StreamRequestError) this.topics.delete(topic);
      throw e;
    });
  }

  /** Unsubscribe from `topic` (no longer resubscribed). Resolves at the ack, or at once when not connected. */
  async unsubscribe(topic: string): Promise<void> {
    this.topics.delete(topic);
    if (this.st !== 'open') return;
    await this.request('unsubscribe', topic);
  }

  /**
   * Data messages as an async iterator (each call gets its own queue, bounded by `queueLimit`;
   * the oldest are dropped when a reader falls behind). Ends when the client is closed.
   */
  messages(): AsyncIterableIterator<StreamData> {
    const reader: { queue: StreamData[]; wake: (() => void) | undefined } = { queue: [], wake: undefined };
    this.readers.add(reader);
    const done = (): IteratorResult<StreamData> => {
      this.readers.delete(reader);
      return { value: undefined, done: true };
    };
    const it: AsyncIterableIterator<StreamData> = {
      next: async () => {
        while (reader.queue.length === 0) {
          if (this.st === 'closed') return done();
          await new Promise<void>((r) => (reader.wake = r));
          reader.wake = undefined;
        }
        return { value: reader.queue.shift() as StreamData, done: false };
      },
      return: async () => done(),
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }

  /** Close for good: no reconnect; pending requests and `start()` reject; iterators end. */
  close(): void {
    if (this.st === 'closed') return;
    this.st = 'closed';
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.failPending(new Error('stream client closed'));
    this.firstOpen?.reject(new Error('stream client closed before it connected'));
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
    }
    for (const r of this.readers) r.wake?.();
  }

  // ------------------------------------------------------------------------------------------

  private whenOpen(): Promise<void> {
    if (this.st === 'open') return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onOpen = (): void => {
        this.off('closed-for-good', onClosed);
        resolve();
      };
      const onClosed = (): void => {
        this.off('open', onOpen);
        reject(new Error('stream client closed'));
      };
      this.once('open', onOpen);
      this.once('closed-for-good', onClosed);
      if (this.st === 'idle') void this.start();
    });
  }

  private request(type: 'subscribe' | 'unsubscribe', topic: string): Promise<void> {
    const ws = this.ws;
    if (!ws || this.st !== 'open') return Promise.reject(new Error('not connected'));
    const id = String(this.nextId++);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no ack for ${type} ${topic} within ${this.opts.ackTimeoutMs} ms`));
      }, this.opts.ackTimeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve, reject, timer, topic });
      ws.send(JSON.stringify({ id, type, topic, privateChannel: this.opts.privateChannel, response: true }));
    });
  }

  private async connect(): Promise<void> {
    if (this.st === 'closed') return;
    this.st = 'connecting';
    let token: BulletToken;
    try {
      token = await this.opts.token();
    } catch (e) {
      this.emit('error', e instanceof Error ? e : new Error(String(e)));
      this.scheduleReconnect();
      return;
    }
    if (this.st !== 'connecting') return;
    const server = token.instanceServers[0];
    if (!server) {
      this.emit('error', new Error('token has no instance server'));
      this.scheduleReconnect();
      return;
    }
    this.connectId = randomBytes(8).toString('hex');
    const url = `${server.endpoint}${server.endpoint.includes('?') ? '&' : '?'}token=${encodeURIComponent(token.token)}&connectId=${this.connectId}`;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws = ws;
    const welcomeTimer = setTimeout(() => {
      this.emit('error', new Error(`no welcome within ${this.opts.welcomeTimeoutMs} ms`));
      ws.terminate();
    }, this.opts.welcomeTimeoutMs);
    welcomeTimer.unref?.();
    let welcomed = false;
    ws.on('message', (buf: Buffer, isBinary: boolean) => {
      if (this.ws !== ws) return;
      const text = isBinary ? buf.toString('utf8') : buf.toString();
      let m;
      try {
        m = decodeStreamMessage(text);
      } catch (e) {
        this.stats.invalid++;
        this.emit('invalid', e as StreamDecodeError);
        return;
      }
      switch (m.kind) {
        case 'message':
          this.deliver(m);
          return;
        case 'welcome':
          if (welcomed) return;
          welcomed = true;
          clearTimeout(welcomeTimer);
          void this.onWelcome(ws, server.pingInterval, server.pingTimeout);
          return;
        case 'pong':
          this.stats.pongs++;
          this.emit('pong');
          if (this.pongTimer) clearTimeout(this.pongTimer);
          this.pongTimer = undefined;
          return;
        case 'ack': {
          const p = this.pending.get(m.id);
          if (!p) return;
          this.pending.delete(m.id);
          clearTimeout(p.timer);
          p.resolve();
          return;
        }
        case 'error': {
          const p = m.id !== undefined ? this.pending.get(m.id) : undefined;
          if (p && m.id !== undefined) {
            this.pending.delete(m.id);
            clearTimeout(p.timer);
            p.reject(new StreamRequestError(m.code, m.data, p.topic));
          } else {
            this.emit('error', new StreamRequestError(m.code, m.data, ''));
          }
          return;
        }
      }
    });
    ws.on('error', (e: Error) => {
      if (this.ws === ws) this.emit('error', e);
    });
    ws.on('close', (code: number, reason: Buffer) => {
      clearTimeout(welcomeTimer);
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.clearTimers();
      this.failPending(new Error(`connection closed (${code})`));
      this.emit('close', { code, reason: reason.toString() });
      if (this.st === 'closed') return;
      this.scheduleReconnect();
    });
  }

  private async onWelcome(ws: WebSocket, pingInterval: number, pingTimeout: number): Promise<void> {
    const reconnect = this.stats.connections > 0;
    this.stats.connections++;
    this.failures = 0;
    this.st = 'open';
    this.pingTimer = setInterval(() => this.ping(ws, pingTimeout), Math.max(50, pingInterval));
    this.pingTimer.unref?.();
    this.emit('open', { connectId: this.connectId, pingInterval, pingTimeout });
    this.firstOpen?.resolve();
    if (!reconnect) return;
    // Resubscribe everything (topics subscribed meanwhile are included), then tell books to resync.
    const results = await Promise.allSettled([...this.topics].map((t) => this.request('subscribe', t)));
    if (this.ws !== ws) return;
    for (const r of results) if (r.status === 'rejected') this.emit('error', r.reason instanceof Error ? r.reason : new Error(String(r.reason)));
    this.emit('reconnected');
  }

  private ping(ws: WebSocket, pingTimeout: number): void {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ id: String(this.nextId++), type: 'ping' }));
    this.stats.pingsSent++;
    if (!this.pongTimer) {
      this.pongTimer = setTimeout(() => {
        this.pongTimer = undefined;
        if (this.ws === ws) {
          this.emit('error', new Error(`no pong within ${pingTimeout} ms`));
          ws.terminate();
        }
      }, Math.max(50, pingTimeout));
      this.pongTimer.unref?.();
    }
  }

  private deliver(m: StreamData): void {
    this.stats.messages++;
    this.emit('message', m);
    for (const r of this.readers) {
      r.queue.push(m);
      if (r.queue.length > this.opts.queueLimit) {
        r.queue.shift();
        this.stats.queueDropped++;
      }
      r.wake?.();
    }
  }

  private scheduleReconnect(): void {
    if (this.st === 'closed') return;
    this.st = 'connecting';
    this.stats.reconnects++;
    const n = this.failures++;
    const base = Math.min(this.opts.maxReconnectDelayMs, this.opts.minReconnectDelayMs * 2 ** n);
    const delay = base * (0.5 + this.opts.random() / 2);
    this.emit('reconnecting', { attempt: n + 1, delayMs: Math.round(delay) });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.pingTimer = undefined;
    this.pongTimer = undefined;
  }

  private failPending(e: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(e);
      this.pending.delete(id);
    }
    if (this.st === 'closed') this.emit('closed-for-good');
  }
}
