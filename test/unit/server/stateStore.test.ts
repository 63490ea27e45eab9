/**
 * The state dir (stateStore.ts, snapshot.ts): snapshot + journal generations, rotation by
 * record count and on close, recovery from the newest usable snapshot and the journals after it, fallback to
 * the previous snapshot when the newest is torn, damaged or interrupted, and clean-up of old generations.
 * In process (SandboxState + StateStore); the child-process SIGKILL tests are in durability.test.ts.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxState, newKeyMaterial, type SnapshotSource, type UserRecord } from '../../../src/exchange/server/state';
import { StateStore, journalName, type StateStoreOptions } from '../../../src/exchange/server/stateStore';
import { SnapshotReader, snapshotName } from '../../../src/exchange/server/snapshot';
import { encodeSnapshotRecord } from '../../../src/exchange/server/snapshotCodec';
import { startSimulation } from '../../../src/exchange/server/sim';

const T0 = Date.UTC(2026, 0, 5);
const HOUR = 3_600_000;

/** Open `dir` the way startSandbox does (manual clock starting at T0). */
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

/** The whole state as text: every snapshot record of every section (what a restored state must reproduce). */
function dump(state: SandboxState): string {
  const out: string[] = [];
  for (const s of state.exportSections()) for (const r of s.records) out.push(`${s.name} ${encodeSnapshotRecord(r)}`);
  return out.join('\n');
}

/** The state's files, sorted. */
function files(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/** A user with funds, a whitelist, a deposit address, a transfer, resting orders, fills and a withdrawal in flight. */
function busyUser(state: SandboxState, tag: string): UserRecord {
  const u = state.run('user.create', {
    ...newKeyMaterial(),
    keyVersion: '2',
    permissions: ['General', 'Spot', 'Transfer'],
    balances: [
      { currency: 'USDT', type: 'main', amount: '50000' },
      { currency: 'USDT', type: 'trade', amount: '50000' },
      { currency: 'BTC', type: 'trade', amount: '2' },
    ],
    label: tag,
  });
  state.run('whitelist.set', { uid: u.uid, enabled: true, favorites: [{ address: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', chain: 'trx' }] });
  state.run('depositAddress.create', { uid: u.uid, currency: 'USDT', chainId: 'trx', to: 'MAIN', address: `T${tag}addr`, memo: '' });
  state.run('transfer', { uid: u.uid, clientOid: `t-${tag}`, currency: 'USDT', from: 'main', to: 'trade', amount: '10' });
  state.run('order.place', { uid: u.uid, req: { clientOid: `rest-${tag}`, symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '20000', size: '0.01' } });
  state.run('order.place', { uid: u.uid, req: { clientOid: `ioc-${tag}`, symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '200000', size: '0.001', timeInForce: 'IOC' } });
  state.run('withdrawal.create', {
    withdrawalId: `w-${tag}`,
    uid: u.uid,
    version: 'v1',
    currency: 'USDT',
    chainId: 'trx',
    withdrawType: 'ADDRESS',
    toAddress: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8',
    memo: '',
    isInner: false,
    remark: '',
    amount: '20',
  });
  return u;
}

describe('state dir: snapshots, rotation, recovery (stateStore.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-statestore-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a new dir starts generation 0 on the empty state; close writes a snapshot and the next start replays nothing', () => {
    const a = open(dir);
    assert.deepEqual([a.store.generation, a.replayed, a.warnings], [0, 0, []]);
    a.state.run('world.seed', { seed: 3 });
    const u = busyUser(a.state, 'a');
    const before = dump(a.state);
    a.store.close();
    assert.deepEqual(files(dir), [journalName(0), journalName(1), snapshotName(1)]);
    const b = open(dir);
    assert.deepEqual([b.store.generation, b.replayed, b.warnings], [1, 0, []]);
    assert.equal(dump(b.state), before);
    // everything the server keeps besides the engine came back
    assert.deepEqual(b.state.users.get(u.uid), u);
    assert.equal(b.state.userByKey(u.apiKey)?.uid, u.uid);
    assert.equal(b.state.withdrawals.get('w-a')?.status, 'PROCESSING');
    assert.deepEqual(b.state.depositAddressesOf(u.uid, 'USDT').map((x) => x.address), ['Taaddr']);
    assert.equal(b.state.isSeeded, true);
    // the withdrawal in flight still settles, its hold is still there
    b.state.run('clock.set', { now: T0 + 60_000 });
    assert.equal(b.state.settleDue(), 1);
    assert.equal(b.state.withdrawals.get('w-a')?.status, 'SUCCESS');
    b.state.exchange.checkInvariants();
    b.store.close();
  });

  it('rotates by record count; the state of every start equals the state before it; only the previous generation is kept', () => {
    const a = open(dir, { snapshotEveryRecords: 25 });
    a.state.run('world.seed', { seed: 3 });
    const sim = startSimulation(a.state, { seed: 5, intervalMs: 0 });
    let t = T0;
    for (let i = 0; i < 60; i++) {
      a.state.run('clock.set', { now: (t += 1000) });
      sim.step();
      a.store.rotateIfDue(); // what the queued rotation does between commands
    }
    sim.step(); // commands after the last rotation: the start replays them
    sim.stop();
    const gen = a.store.generation;
    assert.ok(gen >= 4, `generations: ${gen}`);
    assert.ok(a.store.journalSize.records < 25 + 40, `current journal ${a.store.journalSize.records} records`);
    // the newest snapshot, the previous one, and the journals from the previous one on
    const f = files(dir).filter((x) => /^(snapshot|journal)-/.test(x));
    assert.deepEqual(f, [journalName(gen - 1), journalName(gen), snapshotName(gen - 1), snapshotName(gen)]);
    const before = dump(a.state);
    a.store.abandon(); // as if killed: no last snapshot
    const b = open(dir);
    assert.ok(b.replayed > 0);
    assert.equal(dump(b.state), before);
    b.store.abandon();
  });

  for (const [name, damage] of [
    ['a flipped byte in a record', (file: string) => {
      const buf = fs.readFileSync(file);
      buf[Math.floor(buf.length / 2)] ^= 0x20;
      fs.writeFileSync(file, buf);
    }],
    ['torn (cut in the middle)', (file: string) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2))],
    ['the end record missing', (file: string) => {
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));
    }],
    ['a record removed (every CRC right, the SHA-256 not)', (file: string) => {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.splice(3, 1);
      fs.writeFileSync(file, lines.join('\n'));
    }],
    ['empty', (file: string) => fs.writeFileSync(file, '')],
  ] as const) {
    it(`falls back to the previous snapshot and its journals when the newest is unusable: ${name}`, () => {
      const a = open(dir);
      a.state.run('world.seed', { seed: 3 });
      busyUser(a.state, 'one');
      a.store.rotate();
      busyUser(a.state, 'two');
      a.state.run('clock.set', { now: T0 + HOUR });
      a.store.rotate();
      busyUser(a.state, 'three');
      const before = dump(a.state);
      const gen = a.store.generation;
      a.store.abandon();
      damage(path.join(dir, snapshotName(gen)));
      const b = open(dir);
      assert.ok(b.warnings.some((w) => w.includes(`snapshot ${snapshotName(gen)} is unusable`) && w.includes('falling back')), b.warnings.join('\n'));
      assert.equal(dump(b.state), before, 'no acknowledged change lost');
      assert.ok(fs.existsSync(path.join(dir, `${snapshotName(gen)}.bad`)), 'the damaged snapshot is kept for inspection');
      b.state.exchange.checkInvariants();
      // it goes on: a rotation after the fallback, then a clean start
      b.store.rotate();
      busyUser(b.state, 'four');
      const after = dump(b.state);
      b.store.close();
      const c = open(dir);
      assert.deepEqual(c.warnings, []);
      assert.equal(dump(c.state), after);
      c.store.close();
    });
  }

  it('ignores and removes a snapshot left half-written (.tmp) by a process killed while writing it', () => {
    const a = open(dir);
    a.state.run('world.seed', { seed: 3 });
    busyUser(a.state, 'x');
    a.store.rotate();
    busyUser(a.state, 'y');
    const before = dump(a.state);
    const gen = a.store.generation;
    // a rotation that dies after the first write (the hook throws like a kill would stop it: no rename)
    const tmp = path.join(dir, `${snapshotName(gen + 1)}.tmp`);
    fs.writeFileSync(tmp, 'SPOTDESK-SNAPSHOT 1\n12 00000000 {"sec":"met');
    a.store.abandon();
    const b = open(dir);
    assert.ok(b.warnings.some((w) => w.includes(`removed ${snapshotName(gen + 1)}.tmp`)), b.warnings.join('\n'));
    assert.equal(fs.existsSync(tmp), false);
    assert.equal(dump(b.state), before);
    b.store.abandon();
  });

  it('a failed rotation (the write throws) leaves the journal in use and loses nothing', () => {
    const logs: string[] = [];
    let fail = true;
    const a = open(dir, {
      log: (l) => logs.push(l),
      onSnapshotWrite: () => {
        if (fail) throw new Error('disk full (test)');
      },
    });
    a.state.run('world.seed', { seed: 3 });
    busyUser(a.state, 'x');
    assert.equal(a.store.rotate(), undefined);
    assert.match(logs.join('\n'), /snapshot-00000001\.snap failed: disk full \(test\); the journal goes on/);
    assert.equal(fs.readdirSync(dir).some((f) => f.includes('.tmp')), false, 'the .tmp file is removed');
    busyUser(a.state, 'y');
    const before = dump(a.state);
    fail = false;
    a.store.abandon();
    const b = open(dir);
    assert.equal(dump(b.state), before);
    b.store.close();
  });

  it('refuses to start when the journal chain is broken (a journal missing after the snapshot)', () => {
    const a = open(dir);
    a.state.run('world.seed', { seed: 3 });
    a.store.rotate();
    busyUser(a.state, 'x');
    a.store.rotate();
    busyUser(a.state, 'y');
    const gen = a.store.generation;
    a.store.abandon();
    // newest snapshot damaged and the journal after the previous one gone: the commands in it are lost
    fs.writeFileSync(path.join(dir, snapshotName(gen)), 'garbage');
    fs.rmSync(path.join(dir, journalName(gen - 1)));
    assert.throws(() => open(dir), /journal .* starts after \d+ commands, but \d+ come before it/);
  });

  it('reads a legacy journal.log (before snapshots) and continues it with snapshots', () => {
    const a = open(dir);
    a.state.run('world.seed', { seed: 3 });
    busyUser(a.state, 'x');
    const before = dump(a.state);
    a.store.abandon();
    // make it the legacy name with the version 1 header
    const text = fs.readFileSync(path.join(dir, journalName(0)), 'utf8');
    fs.rmSync(path.join(dir, journalName(0)));
    fs.writeFileSync(path.join(dir, 'journal.log'), 'SPOTDESK-JOURNAL 1\n' + text.slice(text.indexOf('\n') + 1));
    const b = open(dir);
    assert.equal(dump(b.state), before);
    assert.ok(b.replayed > 0);
    b.store.rotate();
    b.store.rotate();
    b.store.close();
    assert.equal(fs.existsSync(path.join(dir, 'journal.log')), false, 'removed once two snapshots follow it');
    const c = open(dir);
    assert.equal(dump(c.state), before);
    c.store.close();
  });

  it('retention: history older than 3 x 24 h (orders, fills, funding records, ledger entries, tape trades and candles) leaves memory and snapshots; live state never does', () => {
    const a = open(dir);
    a.state.run('world.seed', { seed: 3 });
    const u = busyUser(a.state, 'r');
    a.state.run('deposit', { uid: u.uid, currency: 'USDT', chainId: 'trx', amount: '5', depositId: 'd-old' });
    a.state.run('withdrawal.create', {
      withdrawalId: 'w-done', uid: u.uid, version: 'v1', currency: 'USDT', chainId: 'trx', withdrawType: 'ADDRESS',
      toAddress: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', memo: '', isInner: false, remark: '', amount: '15',
    });
    a.state.run('withdrawal.settle', { withdrawalId: 'w-done' });
    const s0 = a.store.rotate()!.bytes; // the live state, little history
    // history: 12,000 orders placed and cancelled, 2,400 IOC fills. The core keeps history in 4,096-order
    // chunks and releases sealed ones: chunk 0 stays (the seeded liquidity's 604 live orders are in it), so
    // does the chunk being filled; chunks 1 and 2 (orders h~2900 to h~9700) go
    const done: string[] = [];
    for (let i = 0; i < 12000; i++) {
      const { orderId } = a.state.run('order.place', { uid: u.uid, req: { clientOid: `h${i}`, symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '21000', size: '0.001' } });
      a.state.run('order.cancel', { uid: u.uid, symbol: 'BTC-USDT', orderId });
      done.push(orderId);
      if (i % 5 === 0) a.state.run('order.place', { uid: u.uid, req: { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '200000', size: '0.00001', timeInForce: 'IOC' } });
    }
    const s1 = a.store.rotate()!.bytes;
    assert.ok(s1 > s0 + 100_000, `history makes the snapshot grow: ${s0} → ${s1} bytes`);
    assert.equal(a.state.exchange.getOrder(u.uid, 'BTC-USDT', done[0]).id, done[0]);
    const active = a.state.exchange.activeOrders(u.uid, 'BTC-USDT').map((o) => o.id);
    assert.equal(active.length, 1);
    // the server's history outside the engine: account ledger entries (deposit, transfer, 2,401 fills) and the tape
    const ledger0 = a.state.ledger.entriesOf(u.uid);
    assert.ok(ledger0.length > 4800 && ['DEPOSIT', 'TRANSFER', 'TRADE_EXCHANGE'].every((b) => ledger0.some((e) => e.bizType === b)), `${ledger0.length} ledger entries`);
    assert.equal(a.state.tape.recentTrades('BTC-USDT').length, 100);
    for (const type of ['1min', '1day', '1week'] as const) assert.equal(a.state.tape.candles('BTC-USDT', type).length, 1, type);
    // 3 x 24 h + 1 min later
    a.state.run('clock.set', { now: T0 + 3 * 24 * HOUR + 60_000 });
    assert.throws(() => a.state.exchange.getOrder(u.uid, 'BTC-USDT', done[0]), /order not exists/i);
    assert.deepEqual(a.state.exchange.fills(u.uid, { symbol: 'BTC-USDT' }).items, []);
    assert.deepEqual(a.state.deposits, [], 'deposit records older than the window are dropped');
    assert.deepEqual([...a.state.withdrawals.keys()], ['w-r'], 'the finished withdrawal is dropped, the one in flight stays');
    assert.deepEqual(a.state.ledger.entriesOf(u.uid), [], 'ledger entries older than the window are dropped');
    assert.deepEqual(a.state.tape.recentTrades('BTC-USDT'), [], 'trades older than the window leave the tape');
    assert.deepEqual(a.state.tape.candles('BTC-USDT', '1min'), [], 'the 1min row (T0 … T0 + 1 min) ended before the window');
    // the window starts at T0 + 1 min: the 3min, 1day and 1week rows of T0 still overlap it and stay whole
    for (const type of ['3min', '1day', '1week'] as const) assert.equal(a.state.tape.candles('BTC-USDT', type)[0][0], String(T0 / 1000), type);
    // what never leaves: user, key, whitelist, deposit address, balances, the active order, the hold in flight
    assert.deepEqual(a.state.userByKey(u.apiKey), u);
    assert.equal(a.state.depositAddressesOf(u.uid, 'USDT').length, 1);
    assert.deepEqual(a.state.exchange.activeOrders(u.uid, 'BTC-USDT').map((o) => o.id), active);
    const main = a.state.exchange.accounts(u.uid, { currency: 'USDT', type: 'main' })[0];
    assert.equal(String(main.holds), a.state.withdrawals.get('w-r')!.totalDebit);
    const rot = a.store.rotate()!;
    assert.ok(rot.bytes - s0 < (s1 - s0) / 2, `the snapshot shrinks back towards the live state: ${s0} bytes before the history, ${s1} with it, ${rot.bytes} after the window`);
    const text = fs.readFileSync(rot.file, 'utf8');
    for (const gone of ['"h4000"', '"h6000"', '"h9000"', 'd-old', 'w-done', 'TRADE_EXCHANGE', 'TRANSFER', '"1min"']) assert.ok(!text.includes(gone), `${gone} is not in the snapshot`);
    const before = dump(a.state);
    a.store.close();
    const b = open(dir);
    assert.equal(dump(b.state), before);
    b.state.exchange.checkInvariants();
    b.store.close();
  });

  it('streams snapshots: a reader holds one record at a time and checks the end record', () => {
    const a = open(dir);
    a.state.run('world.seed', { seed: 3 });
    for (let i = 0; i < 30; i++) busyUser(a.state, `u${i}`);
    a.store.close();
    const r = new SnapshotReader(path.join(dir, snapshotName(1)));
    const sections: string[] = [];
    let records = 0;
    for (let s = r.peek(); s !== null; s = r.peek()) {
      sections.push(s);
      for (const _ of r.section(s)) records++;
    }
    r.finish();
    assert.deepEqual(sections, ['core', 'state', 'ledger', 'tape']);
    assert.ok(records > 30, `${records} records`);
  });
});
