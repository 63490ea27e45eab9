/**
 * Shared stand-ins of the market-feed tests: a scripted StreamClient (the test emits its events; subscriptions
 * are acknowledged at once), a real StreamChannel over such clients, a MarketFeed on a one-level book, and a wait
 * for a state, turning the event loop between checks.
 */
import { EventEmitter } from 'node:events';
import type { StreamClient } from '../../../src/api/stream';
import { StreamChannel } from '../../../src/features/live/feed';
import { MarketFeed } from '../../../src/features/market/marketFeed';
import type { ToWebview } from '../../../src/features/market/protocol';

/** A scripted StreamClient: the test emits its events; subscriptions are acknowledged at once. */
export class FakeClient extends EventEmitter {
  state = 'idle';
  /** Every topic subscribed, in order. */
  readonly subscribed: string[] = [];
  start(): Promise<void> {
    this.state = 'connecting';
    return Promise.resolve();
  }
  subscribe(topic: string): Promise<void> {
    this.subscribed.push(topic);
    return Promise.resolve();
  }
  unsubscribe(): Promise<void> {
    return Promise.resolve();
  }
  close(): void {
    this.state = 'closed';
  }
}

/** Wait until `check` holds, turning the event loop between checks. @throws Error naming `what` after `ms` ms. */
export async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not reached`);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * A real public StreamChannel whose connections are FakeClients (`clients`, in creation order), on the clock
 * `now`; it never needs a token and falls back to polling only after 60 s.
 */
export function fakeChannel(now: () => number): { channel: StreamChannel; clients: FakeClient[] } {
  const clients: FakeClient[] = [];
  const channel = new StreamChannel({
    name: 'public',
    token: () => Promise.reject(new Error('not used by the stand-in')),
    create: () => {
      const c = new FakeClient();
      clients.push(c);
      return c as unknown as StreamClient;
    },
    fallbackAfterMs: 60_000,
    now,
  });
  return { channel, clients };
}

/**
 * A BTC-USDT MarketFeed (depth 20) on `channel` and the clock `now`, posting to `sink`, whose REST snapshot is a
 * one-level book (sequence 100: bid 99, ask 101, size 1 each) of an open market; polls every second.
 */
export function oneLevelFeed(channel: StreamChannel, now: () => number, sink: { visible: boolean; post: (m: ToWebview) => void }): MarketFeed {
  return new MarketFeed(
    'BTC-USDT',
    20,
    {
      log: () => undefined,
      source: async () => ({
        getLevel2: async () => ({ sequence: '100', time: 1, bids: [['99', '1']] as [string, string][], asks: [['101', '1']] as [string, string][] }),
        getStatus: async () => ({ status: 'open' }),
      }),
      channel: () => channel,
      budget: () => undefined,
      intervalMs: () => 1000,
      now,
    },
    sink,
  );
}
