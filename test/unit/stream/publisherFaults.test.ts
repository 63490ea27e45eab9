/**
 * The feed publisher's core-event entry points (src/exchange/server/feed/publisher.ts): an event
 * its handler cannot process never throws into the core's command that emitted it; the fault is
 * logged once, naming the entry point, and the publisher keeps working.
 */
import { strict as assert } from 'assert';
import type { SandboxState } from '../../../src/exchange/server/state';
import { Publisher } from '../../../src/exchange/server/feed/publisher';

describe('feed publisher: core event entry points catch', () => {
  const lines: string[] = [];
  const state = { onCommand: () => () => undefined } as unknown as SandboxState;
  const pub = new Publisher(state, undefined, { sendBufferLimitBytes: 1 << 20, fastIntervalMs: 100, snapshotIntervalMs: 2000, onSlow: () => undefined, log: (l) => void lines.push(l) });
  after(() => pub.close());

  it('level, trade, order and balance with an unusable event: no throw, one fault line each naming it', () => {
    for (const entry of ['level', 'trade', 'order', 'balance'] as const) {
      lines.length = 0;
      assert.doesNotThrow(() => pub[entry](null as never), entry);
      assert.equal(lines.length, 1, entry);
      assert.match(lines[0], new RegExp(`^feed: internal error in the ${entry} event: TypeError`));
    }
  });

  it('a usable balance event of a user nobody watches after a fault: no fault logged', () => {
    lines.length = 0;
    pub.balance({ uid: 'u1', relationEventId: 'x' } as never);
    assert.deepEqual(lines, []);
  });
});
