/**
 * Helpers of the feed tests: a raw `ws` probe that records every frame and waits for states (never
 * fixed sleeps), a fake core event source that follows docs/events.md (events only for watched symbols
 * and users, flags recorded), and token helpers.
 */
import WebSocket from 'ws';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import type { CoreEventSink, FeedEventSource, LevelEvent, OrderEvent, TradeEvent, BalanceEvent } from '../../../src/exchange/server/feed/events';
import { rawRequest, signed, credsOf } from '../server/helpers';

/** A parsed frame with its text. */
export interface Frame {
  text: string;
  json: Record<string, unknown> & { type?: string; id?: string; topic?: string; subject?: string; code?: number; data?: unknown };
}

/** A raw WebSocket client recording every frame. */
export class WsProbe {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  isClosed = false;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => {
      const text = d.toString('utf8');
      let json: Frame['json'];
      try {
        json = JSON.parse(text) as Frame['json'];
      } catch {
        json = {};
      }
      this.frames.push({ text, json });
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code: number, reason: Buffer) => {
        this.isClosed = true;
        this.wake();
        resolve({ code, reason: reason.toString() });
      });
    });
    ws.on('error', () => undefined);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Send an object as JSON (or a raw string). */
  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }

  /**
   * Wait until `pred` holds for some frame (scanning from `from`), returning it. Fails after
   * `timeoutMs` (a state that never comes; not a sleep) or when the connection closes first.
   */
  async waitFor(pred: (f: Frame) => boolean, what: string, timeoutMs = 5000, from = 0): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    let i = from;
    for (;;) {
      for (; i < this.frames.length; i++) if (pred(this.frames[i])) return this.frames[i];
      if (this.isClosed) throw new Error(`connection closed while waiting for ${what}; frames: ${this.frames.map((f) => f.text.slice(0, 120)).join(' | ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; frames: ${this.frames.map((f) => f.text.slice(0, 120)).join(' | ')}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The reply (ack or error) to request `id`. */
  reply(id: string, timeoutMs = 5000): Promise<Frame> {
    return this.waitFor((f) => f.json.id === id && (f.json.type === 'ack' || f.json.type === 'error' || f.json.type === 'pong'), `reply to ${id}`, timeoutMs);
  }

  /** Data messages of `topic` received so far. */
  messages(topic?: string): Frame[] {
    return this.frames.filter((f) => f.json.type === 'message' && (topic === undefined || f.json.topic === topic));
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * Wait until `cond()` holds (checked every few ms), failing after `timeoutMs`: for server-side
 * states no frame announces (a flag turned off, a counter moved).
 */
export async function until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Open a raw connection to `endpoint?token&connectId` (no wait). */
export function open(endpoint: string, token: string, connectId = 'probe'): WsProbe {
  return new WsProbe(new WebSocket(`${endpoint}?token=${encodeURIComponent(token)}&connectId=${connectId}`, { perMessageDeflate: false }));
}

/** A public token of the sandbox (POST /api/v1/bullet-public). */
export async function publicToken(sb: RunningSandbox): Promise<{ token: string; endpoint: string; pingInterval: number; pingTimeout: number }> {
  const r = await rawRequest(sb.baseUrl, 'POST', '/api/v1/bullet-public');
  const d = r.json.data as { token: string; instanceServers: { endpoint: string; pingInterval: number; pingTimeout: number }[] };
  return { token: d.token, ...d.instanceServers[0] };
}

/** A private token of the sandbox's default user (signed POST /api/v1/bullet-private). */
export async function privateToken(sb: RunningSandbox, creds = credsOf(sb)): Promise<{ token: string; endpoint: string }> {
  const r = await signed(sb, creds, 'POST', '/api/v1/bullet-private');
  if (r.json.code !== '200000') throw new Error(`bullet-private: ${r.text}`);
  const d = r.json.data as { token: string; instanceServers: { endpoint: string }[] };
  return { token: d.token, endpoint: d.instanceServers[0].endpoint };
}

/** Connect with a fresh public token and wait for the welcome. */
export async function connectPublic(sb: RunningSandbox, connectId = 'probe'): Promise<WsProbe> {
  const t = await publicToken(sb);
  const p = open(t.endpoint, t.token, connectId);
  await p.waitFor((f) => f.json.type === 'welcome', 'welcome');
  return p;
}

/** Subscribe and wait for the ack (throws on an error reply). */
export async function subscribe(p: WsProbe, topic: string, id = `s${Math.random().toString(36).slice(2)}`): Promise<void> {
  p.send({ id, type: 'subscribe', topic, privateChannel: false, response: true });
  const r = await p.reply(id);
  if (r.json.type !== 'ack') throw new Error(`subscribe ${topic}: ${r.text}`);
}

/**
 * A fake core event source following docs/events.md: it emits an event only when the symbol (level,
 * trade) or user (order, balance) is watched, like the core, and records the watch flags.
 */
export class FakeEvents implements FeedEventSource {
  sink: CoreEventSink | null = null;
  readonly symbols = new Set<string>();
  readonly users = new Set<string>();
  /** Every flag change, in order: `+BTC-USDT`, `-BTC-USDT`, `+u:123`… */
  readonly log: string[] = [];
  private seq = new Map<string, number>();

  setEventSink(sink: CoreEventSink | null): void {
    this.sink = sink;
  }
  watchSymbol(symbol: string, on: boolean): void {
    this.log.push(`${on ? '+' : '-'}${symbol}`);
    if (on) this.symbols.add(symbol);
    else this.symbols.delete(symbol);
  }
  watchUser(uid: string, on: boolean): void {
    this.log.push(`${on ? '+' : '-'}u:${uid}`);
    if (on) this.users.add(uid);
    else this.users.delete(uid);
  }

  /** Emit a level change (consumes the symbol's next sequence, starting after `base`); false when not watched. */
  level(symbol: string, side: 'buy' | 'sell', price: string, size: string, time = 1, base = 100): LevelEvent | undefined {
    const sequence = (this.seq.get(symbol) ?? base) + 1;
    this.seq.set(symbol, sequence);
    if (!this.sink || !this.symbols.has(symbol)) return undefined;
    const e: LevelEvent = { symbol, side, price, size, sequence, time };
    this.sink.level(e);
    return e;
  }
  trade(e: TradeEvent): boolean {
    if (!this.sink || !this.symbols.has(e.symbol)) return false;
    this.sink.trade(e);
    return true;
  }
  order(e: OrderEvent): boolean {
    if (!this.sink || !this.users.has(e.uid)) return false;
    this.sink.order(e);
    return true;
  }
  balance(e: BalanceEvent): boolean {
    if (!this.sink || !this.users.has(e.uid)) return false;
    this.sink.balance(e);
    return true;
  }
}
