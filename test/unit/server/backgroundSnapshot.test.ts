/**
 * Background rotation (stateStore.ts "Rotation", snapshotBuild.ts, snapshotWorker.ts): the store switches
 * journals at once and a worker thread rebuilds the state from the dir's files and writes the snapshot.
 * - the worker's snapshot equals, record for record, the one the live state writes at the same command count;
 * - the exchange goes on while the worker writes (commands appended meanwhile land in the new journal);
 * - a start while the background snapshot is missing (killed, failed) recovers from the previous snapshot and
 *   replays one journal more, losing nothing;
 * - clean shutdown during a build replaces it with a foreground snapshot;
 * - a refused build (a journal missing) is logged, changes nothing, and the next rotation tries again.
 * The child-process SIGKILL during a background write is in durability.test.ts (the default start uses it).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxState, newKeyMaterial, type SnapshotSource } from '../../../src/exchange/server/state';
import { StateStore, journalName, type StateStoreOptions } from '../../../src/exchange/server/stateStore';
import { SnapshotReader, snapshotName, writeSnapshot } from '../../../src/exchange/server/snapshot';
import { encodeSnapshotRecord } from '../../../src/exchange/server/snapshotCodec';
import { snapshotWorkerScript } from '../../../src/exchange/server/snapshotWorker';

const T0 = Date.UTC(2026, 0, 5);

function open(dir: string, opts: StateStoreOptions = {}) {
  return StateStore.open(
    dir,
    (snapshot?: SnapshotSource) => {
      const s = new SandboxState({ manualClock: true, startTime: T0, snapshot });
      return { state: s, warnings: snapshot ? s.importSections(snapshot) : [] };
    },
    opts,
  );
}

/** Every record of a snapshot file but the meta record's wall-clock `createdAt`. */
function records(file: string): string[] {
  const r = new SnapshotReader(file);
  const out = [`meta gen=${r.meta.gen} count=${r.meta.count} t=${r.meta.t}`];
  for (let name = r.peek(); name !== null; name = r.peek()) for (const rec of r.section(name)) out.push(`${name} ${encodeSnapshotRecord(rec)}`);
  r.finish();
  return out;
}

function dump(state: SandboxState): string {
  const out: string[] = [];
  for (const s of state.exportSections()) for (const r of s.records) out.push(`${s.name} ${encodeSnapshotRecord(r)}`);
  return out.join('\n');
}

/** `n` rounds of trading between two funded users: resting orders, crossing orders (fills), cancels, transfers, clock moves. */
function trade(state: SandboxState, n: number, tag: string): void {
  const mk = (label: string) =>
    state.run('user.create', {
      ...newKeyMaterial(),
      keyVersion: '2',
      permissions: ['General', 'Spot', 'Transfer'],
      balances: [
        { currency: 'USDT', type: 'trade', amount: '100000' },
        { currency: 'BTC', type: 'trade', amount: '5' },
        { currency: 'USDT', type: 'main', amount: '1000' },
      ],
      label,
    });
  const a = mk(`${tag}-a`);
  const b = mk(`${tag}-b`);
  for (let i = 0; i < n; i++) {
    const price = String(30000 + (i % 7) * 10);
    const placed = state.run('order.place', { uid: a.uid, req: { clientOid: `${tag}-a${i}`, symbol: 'BTC-USDT', side: 'sell', type: 'limit', price, size: '0.001' } });
    if (i % 3 === 0) state.run('order.place', { uid: b.uid, req: { clientOid: `${tag}-b${i}`, symbol: 'BTC-USDT', side: 'buy', type: 'limit', price, size: '0.0015' } });
    if (i % 5 === 1) {
      try {
        state.run('order.cancel', { uid: a.uid, symbol: 'BTC-USDT', orderId: placed.orderId });
      } catch {
        // already filled
      }
    }
    if (i % 4 === 2) state.run('transfer', { uid: b.uid, clientOid: `${tag}-t${i}`, currency: 'USDT', from: 'main', to: 'trade', amount: '1' });
    state.run('clock.set', { now: state.now() + 1000 });
  }
}

describe('background snapshots (a worker writes them; the exchange only switches journals)', function () {
  this.timeout(120_000);
  let dir: string;
  const worker = snapshotWorkerScript();
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bgsnap-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has a worker script when run from the sources (tsx)', () => {
    assert.ok(worker, 'snapshotWorkerEntry.ts beside snapshotWorker.ts');
  });

  it("writes, record for record, the snapshot the live state writes at the same command count, while commands go on", async () => {
    const { store, state } = open(dir, { worker, snapshotEveryRecords: 1_000_000 });
    state.run('world.seed', { seed: 3 });
    trade(state, 60, 'x');
    store.rotate(); // a foreground snapshot first: the worker starts from it
    const c1 = store['journal'].header.start;
    trade(state, 80, 'y');
    // the live state's snapshot at this count, written elsewhere
    const ref = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bgsnap-ref-'));
    const count = store['journal'].header.start + store.journalSize.records;
    writeSnapshot(ref, { gen: 2, count, t: state.now(), createdAt: 0 }, state.exportSections());
    // background rotation: force it by lowering the threshold
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    const r = store.rotateIfDue();
    assert.ok(r && r.background && r.gen === 2, JSON.stringify(r));
    assert.ok(store.snapshotInProgress);
    // the exchange goes on meanwhile: these land in journal 2
    trade(state, 20, 'z');
    await store.idle();
    assert.equal(store.snapshotInProgress, false);
    assert.equal(store.lastRotation?.gen, 2);
    assert.equal(store.lastRotation?.background, true);
    assert.equal(store.lastRotation?.replayed, count - c1, 'the worker replayed journal 1 on snapshot 1');
    assert.deepEqual(records(path.join(dir, snapshotName(2))), records(path.join(ref, snapshotName(2))));
    fs.rmSync(ref, { recursive: true, force: true });
    // a restart reads snapshot 2 and journal 2 and is the live state
    const live = dump(state);
    store.abandon();
    const again = open(dir);
    assert.equal(dump(again.state), live);
    assert.equal(again.replayed, store.journalSize.records);
    again.store.abandon();
  });

  it('the first rotation (no snapshot yet) rebuilds from journal 0 alone, on a manual clock that started long before the rebuild', async () => {
    const lines: string[] = [];
    const { store, state } = open(dir, { worker, snapshotEveryRecords: 1_000_000, log: (l) => lines.push(l) });
    state.run('world.seed', { seed: 2 });
    trade(state, 40, 'a');
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    store.rotateIfDue();
    await store.idle();
    assert.equal(store.lastRotation?.background, true, lines.join('\n'));
    assert.equal(store.lastRotation?.gen, 1);
    const live = dump(state);
    store.abandon();
    // and a start from journal 0 alone (the snapshot removed) at a wall time far after T0: no warnings
    fs.rmSync(path.join(dir, snapshotName(1)));
    const again = StateStore.open(dir, (snapshot?: SnapshotSource) => {
      const s = new SandboxState({ manualClock: true, startTime: T0 + 300 * 86_400_000, snapshot });
      return { state: s, warnings: snapshot ? s.importSections(snapshot) : [] };
    });
    assert.deepEqual(again.warnings, []);
    assert.equal(dump(again.state), live);
    again.store.abandon();
  });

  it('a start while the background snapshot is missing uses the previous one and replays one journal more', async () => {
    const { store, state } = open(dir, { worker, snapshotEveryRecords: 1_000_000 });
    state.run('world.seed', { seed: 4 });
    trade(state, 30, 'a');
    store.rotate();
    trade(state, 30, 'b');
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    store.rotateIfDue();
    await store.idle();
    // as if the worker had died before its rename: snapshot 2 never appeared
    fs.rmSync(path.join(dir, snapshotName(2)));
    fs.writeFileSync(path.join(dir, `${snapshotName(2)}.tmp`), 'SPOTDESK-SNAPSHOT 1\n12 0000');
    trade(state, 10, 'c');
    const live = dump(state);
    store.abandon();
    const again = open(dir);
    assert.equal(dump(again.state), live);
    assert.ok(again.warnings.some((w) => /removed snapshot-00000002\.snap\.tmp/.test(w)), again.warnings.join('; '));
    assert.ok(fs.existsSync(path.join(dir, journalName(1))) && fs.existsSync(path.join(dir, journalName(2))));
    again.store.abandon();
  });

  it('clean shutdown during a build writes the last snapshot in the foreground; the next start replays nothing', async () => {
    const { store, state } = open(dir, { worker, snapshotEveryRecords: 1_000_000 });
    state.run('world.seed', { seed: 5 });
    trade(state, 120, 'a');
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    store.rotateIfDue();
    assert.ok(store.snapshotInProgress);
    const live = dump(state);
    store.close();
    assert.equal(store.lastRotation?.background, false);
    const again = open(dir);
    assert.equal(again.replayed, 0);
    assert.equal(dump(again.state), live);
    again.store.abandon();
  });

  it('a build that cannot reach the count is refused, logged, changes nothing, and the next rotation tries again', async () => {
    const lines: string[] = [];
    const { store, state } = open(dir, { worker, snapshotEveryRecords: 1_000_000, log: (l) => lines.push(l) });
    state.run('world.seed', { seed: 6 });
    trade(state, 20, 'a');
    store.rotate(); // snapshot 1 + journal 1
    trade(state, 20, 'b');
    // hide journal 1: the worker cannot rebuild the state at the count
    fs.renameSync(path.join(dir, journalName(1)), path.join(dir, 'hidden.log'));
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    store.rotateIfDue();
    await store.idle();
    assert.ok(lines.some((l) => /background snapshot snapshot-00000002\.snap failed: the journals hold/.test(l)), lines.join('\n'));
    assert.equal(fs.existsSync(path.join(dir, snapshotName(2))), false);
    fs.renameSync(path.join(dir, 'hidden.log'), path.join(dir, journalName(1)));
    trade(state, 5, 'c');
    (store as unknown as { dueRecords: number }).dueRecords = 1;
    store.rotateIfDue();
    await store.idle();
    assert.ok(fs.existsSync(path.join(dir, snapshotName(3))), fs.readdirSync(dir).join(' '));
    const live = dump(state);
    store.abandon();
    const again = open(dir);
    assert.equal(dump(again.state), live);
    again.store.abandon();
  });
});
