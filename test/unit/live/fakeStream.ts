/**
 * Shared stand-ins of the market-feed tests: a scripted StreamClient (the test emits its events; subscriptions
 * are acknowledged at once) and a wait for a state, turning the event loop between checks.
 */
import { EventEmitter } from 'node:events';

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
