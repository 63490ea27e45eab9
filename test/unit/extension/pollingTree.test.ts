/**
 * The base of the Accounts / Active Orders / Markets views (src/host/pollingTree.ts), run on the
 * stand-in vscode: in live mode a stream message that arrives while a REST load is in flight is
 * not lost to the older answer — one more load follows (a busy account gets at most one such catch-up per
 * poll interval after the first); a failed load keeps the last data under a Stale row with its age and Retry.
 */
import { strict as assert } from 'assert';
import { fakeVscode, install } from './fakeVscode';

interface Deferred {
  resolve(v: string[]): void;
  reject(e: unknown): void;
}

describe('PollingTree live mode and stale data (src/host/pollingTree.ts)', () => {
  let uninstall: () => void;
  let mod: typeof import('../../../src/host/pollingTree');

  before(() => {
    uninstall = install(fakeVscode());
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the stand-in is installed
    mod = require('../../../src/host/pollingTree') as typeof mod;
  });
  after(() => uninstall());

  /** A tree whose loads are answered by the test; data = a list of strings. */
  function tree(intervalMs = 30) {
    const loads: Deferred[] = [];
    const services = {
      log: { warn: () => undefined, debug: () => undefined, info: () => undefined },
      credentialsPresent: async () => true,
      onDidChangeProfile: () => ({ dispose: () => undefined }),
    };
    class T extends mod.PollingTree<string[], { kind: 'row'; v: string }> {
      protected override intervalMs(): number {
        return intervalMs;
      }
      protected load(): Promise<string[]> {
        return new Promise((resolve, reject) => loads.push({ resolve, reject }));
      }
      protected rootNodes(d: string[]) {
        return d.map((v) => ({ kind: 'row' as const, v }));
      }
      protected childNodes() {
        return [];
      }
      protected item(n: { v: string }) {
        return { label: n.v } as never;
      }
      protected emptyMessage(): string {
        return 'none';
      }
      /** A stream message: append `v`. */
      stream(v: string): boolean {
        return this.applyLive((d) => (d.push(v), true));
      }
    }
    return { t: new T('test.view', services as never), loads };
  }

  /** Wait (polling every ms, 2 s deadline) until `check` holds. */
  async function until(check: () => boolean): Promise<void> {
    const end = Date.now() + 2000;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not reached');
      await new Promise((r) => setTimeout(r, 1));
    }
  }

  it('a message during a load is not lost to the older answer: one catch-up load follows', async () => {
    const { t, loads } = tree();
    t.setLive(true);
    let done = t.refresh();
    await until(() => loads.length === 1);
    loads[0].resolve(['a']);
    await done;
    done = t.resync();
    await until(() => loads.length === 2);
    assert.equal(t.stream('placed during the load'), true);
    assert.deepEqual(t.state.data, ['a', 'placed during the load'], 'shown at once');
    loads[1].resolve(['a']); // the REST answer predates the message
    await done;
    assert.deepEqual(t.state.data, ['a'], 'the older answer replaced it…');
    await until(() => loads.length === 3);
    assert.equal(t.counters.catchUps, 1, '…so one more load started');
    loads[2].resolve(['a', 'placed during the load']);
    await until(() => t.state.loads === 3);
    assert.deepEqual(t.state.data, ['a', 'placed during the load']);
    assert.equal(t.counters.polls, 0, 'live: no poll');
    assert.equal(t.pollScheduled, false);
    t.dispose();
  });

  it('a busy account: a second catch-up waits a poll interval; not live, no catch-up', async () => {
    const { t, loads } = tree(80);
    t.setLive(true);
    void t.refresh();
    await until(() => loads.length === 1);
    t.stream('x');
    loads[0].resolve([]);
    await until(() => loads.length === 2); // the first catch-up, at once
    t.stream('y');
    const at = Date.now();
    loads[1].resolve([]);
    await until(() => loads.length === 3); // the second, after the interval
    assert.ok(Date.now() - at >= 70, `waited ${Date.now() - at} ms`);
    assert.equal(t.counters.catchUps, 2);
    loads[2].resolve([]);
    await until(() => t.state.loads === 3);
    t.dispose();

    const other = tree();
    void other.t.refresh();
    await until(() => other.loads.length === 1);
    other.t.stream('z');
    other.loads[0].resolve([]);
    await until(() => other.t.state.loads === 1);
    assert.equal(other.t.counters.catchUps, 0, 'not live: polling covers it');
    other.t.dispose();
  });

  it('a failed load keeps the last data, under a Stale row with its age that retries', async () => {
    const { t, loads } = tree();
    void t.refresh();
    await until(() => loads.length === 1);
    loads[0].resolve(['kept']);
    await until(() => t.state.loads === 1);
    void t.refresh();
    await until(() => loads.length === 2);
    loads[1].reject(new Error('connect ECONNREFUSED 127.0.0.1:9'));
    await until(() => t.state.loads === 2);
    assert.deepEqual(t.state.data, ['kept']);
    const [first, ...rest] = (await t.getChildren()) as Array<{ kind: string; v?: string }>;
    assert.equal(first.kind, 'stale');
    assert.deepEqual(rest.map((r) => r.v), ['kept']);
    const it = t.getTreeItem(first as never);
    assert.match(String(it.label), /^Stale: \d+ s old — /);
    assert.equal(it.description, 'click to retry');
    assert.deepEqual([it.command?.command, it.command?.arguments], ['spotdesk.retry', ['test.view']]);
    assert.deepEqual([mod.ageText(59_400), mod.ageText(61_000), mod.ageText(7_300_000)], ['59 s', '1 min', '2 h']);
    t.dispose();
  });
});
