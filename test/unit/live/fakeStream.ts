/**
 * Shared stand-ins of the market-feed tests: a scripted StreamClient (the test emits its events; subscriptions
 * are acknowledged at once), a real StreamChannel over such clients, and a wait for a state, turning the event
 * loop between checks.
 */
import { EventEmitter } from 'node:events';
import type { StreamClient } from '../../../src/api/stream';
import { StreamChannel } from '../../../src/features/live/feed';

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
