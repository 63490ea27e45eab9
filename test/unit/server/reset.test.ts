/**
 * Sandbox reset (admin POST /sandbox/v1/reset, src/exchange/server/reset.ts): the state after a reset is
 * exactly a freshly seeded world (compared record by record with one built from the same two commands),
 * the default key keeps working and every other key is gone, the feed and the simulation are rebuilt, and
 * with a state dir the reset is durable: a restart after it (clean, SIGKILL, or one that finds the
 * generations before the reset still there) rebuilds the reset world plus what came after it.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { ALL_PERMISSIONS, SandboxState } from '../../../src/exchange/server/state';
import { DEFAULT_BALANCES, startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { admin, buildCli, createUser, credsOf, rawRequest, signed, startTestSandbox } from './helpers';

/** Every section of a state's snapshot, records materialised (what "equal states" means here). */
function sections(s: SandboxState): { name: string; records: unknown[] }[] {
  return s.exportSections().map((x) => ({ name: x.name, records: [...x.records] }));
}

/** Every user with a key (uid, key, label) and its balances: what a client can see of a state. */
function usersAndBalances(s: SandboxState): unknown[] {
  return [...s.users.values()].filter((u) => u.apiSecret !== '').map((u) => [u.uid, u.apiKey, u.label, s.exchange.accounts(u.uid).map((a) => `${a.type} ${a.currency} ${a.balance} ${a.holds}`)]);
}

/** The `user.create` args of the default user of `sb` with its starting balances (built from its public credentials). */
function defaultUserOf(sb: RunningSandbox) {
  const c = sb.credentials;
  return {
    apiKey: c.apiKey,
    apiSecret: c.apiSecret,
    apiPassphrase: c.apiPassphrase,
    keyVersion: '2' as const,
    permissions: [...ALL_PERMISSIONS],
    balances: DEFAULT_BALANCES,
    isDefault: true,
    label: 'default',
  };
}

/** Some of everything a test run leaves behind: another user, resting and filled orders, a deposit, a status, clock moves. */
async function makeHistory(sb: RunningSandbox): Promise<{ other: Awaited<ReturnType<typeof createUser>>; restingId: string }> {
  const other = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '1000' }] });
  const resting = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', { clientOid: 'rest-1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.01' });
  assert.equal(resting.json.code, '200000', resting.text);
  const filled = await signed(sb, other, 'POST', '/api/v1/hf/orders', { clientOid: 'fill-1', symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '100' });
  assert.equal(filled.json.code, '200000', filled.text);
  assert.equal((await admin(sb, 'POST', '/sandbox/v1/deposits', { uid: sb.credentials.uid, currency: 'ETH', amount: '3' })).status, 200);
  assert.equal((await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'cancelonly', msg: 'maintenance' })).status, 200);
  if (sb.state.manualClock) assert.equal((await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 60_000 })).status, 200);
  return { other, restingId: (resting.json.data as { orderId: string }).orderId };
}

function tmpDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `spotdesk-${tag}-`));
}

describe('sandbox reset (POST /sandbox/v1/reset)', function () {
  this.timeout(60_000);

  describe('in memory', () => {
    let sb: RunningSandbox;
    afterEach(async () => {
      await sb?.close();
    });

    it('the state after a reset equals a freshly seeded world of the seed, record by record (manual clock kept, not moved back)', async () => {
      sb = await startTestSandbox({ seed: 7 });
      const old = sb.state;
      await makeHistory(sb);
      const clockBefore = sb.state.now();
      const r = await admin(sb, 'POST', '/sandbox/v1/reset', {});
      assert.equal(r.status, 200, r.text);
      const data = r.json.data as { seed: number; uid: string; now: number; tookMs: number; prepared: boolean };
      assert.equal(data.seed, 7);
      assert.equal(data.uid, sb.credentials.uid);
      assert.equal(data.now, clockBefore, 'a manual clock continues where it was');
      assert.notEqual(sb.state, old, 'a new state serves the sandbox');
      // the reference: the two commands of a first start, at the time the fresh world was seeded, then the clock move
      const seededAt = (sb.state.defaultUser() as { createdAt: number }).createdAt;
      const ref = new SandboxState({ manualClock: true, startTime: seededAt });
      ref.run('world.seed', { seed: 7 });
      ref.run('user.create', defaultUserOf(sb));
      ref.exec({ op: 'clock.set', t: clockBefore, args: { now: clockBefore } });
      assert.deepStrictEqual(sections(sb.state), sections(ref));
    });

    it('a manual clock started in the past stays there: the fresh world does not jump to the wall clock', async () => {
      const start = Date.UTC(2018, 5, 1);
      sb = await startTestSandbox({ startTime: start, fastReset: true });
      await new Promise((res) => setImmediate(res)); // the prepared world is built at the sandbox's clock
      assert.equal((await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 5_000 })).status, 200);
      const r = await admin(sb, 'POST', '/sandbox/v1/reset');
      assert.equal((r.json.data as { now: number }).now, start + 5_000);
      assert.equal(sb.state.now(), start + 5_000);
      assert.equal((sb.state.defaultUser() as { createdAt: number }).createdAt, start, 'seeded at the clock of the sandbox, not of the wall');
    });

    it('after a reset: the default key works with its starting balances and no orders; every other key is refused; the status is open; the books are the seed\'s', async () => {
      sb = await startTestSandbox({ seed: 3 });
      const { other } = await makeHistory(sb);
      assert.equal((await admin(sb, 'POST', '/sandbox/v1/reset')).status, 200);
      const refused = await signed(sb, other, 'GET', '/api/v1/accounts');
      assert.deepStrictEqual([refused.status, refused.json.code], [401, '400003'], refused.text);
      const accounts = await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts');
      assert.equal(accounts.json.code, '200000', accounts.text);
      const got = (accounts.json.data as { currency: string; type: string; balance: string; holds: string }[]).map((a) => `${a.type} ${a.currency} ${a.balance} ${a.holds}`).sort();
      const want = DEFAULT_BALANCES.map((b) => `${b.type} ${b.currency} ${b.amount} 0`).sort();
      assert.deepStrictEqual(got, want);
      const open = await signed(sb, credsOf(sb), 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT');
      assert.deepStrictEqual(open.json.data, [], open.text);
      const status = await rawRequest(sb.baseUrl, 'GET', '/api/v1/status');
      assert.equal((status.json.data as { status: string }).status, 'open');
      // the books are those of a sandbox that never traded
      const fresh = await startTestSandbox({ seed: 3 });
      try {
        for (const symbol of ['BTC-USDT', 'ETH-USDT']) {
          const a = await rawRequest(sb.baseUrl, 'GET', `/api/v1/market/orderbook/level2_100?symbol=${symbol}`);
          const b = await rawRequest(fresh.baseUrl, 'GET', `/api/v1/market/orderbook/level2_100?symbol=${symbol}`);
          const strip = (d: unknown) => ({ ...(d as object), time: 0 });
          assert.deepStrictEqual(strip(a.json.data), strip(b.json.data), symbol);
        }
      } finally {
        await fresh.close();
      }
      // and the sandbox goes on: a new user, an order
      const again = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '50' }] });
      const o = await signed(sb, again, 'POST', '/api/v1/hf/orders', { clientOid: 'x', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1000', size: '0.001' });
      assert.equal(o.json.code, '200000', o.text);
    });

    it('is admin-only and takes no options: no token → 401, a body with fields → 400100; nothing changes', async () => {
      sb = await startTestSandbox();
      const u = await createUser(sb);
      const before = sb.state;
      const noToken = await rawRequest(sb.baseUrl, 'POST', '/sandbox/v1/reset', { 'Content-Type': 'application/json' }, '{}');
      assert.deepStrictEqual([noToken.status, noToken.json.code], [401, '400003']);
      const badBody = await admin(sb, 'POST', '/sandbox/v1/reset', { seed: 2 });
      assert.deepStrictEqual([badBody.status, badBody.json.code], [400, '400100'], badBody.text);
      assert.equal(sb.state, before);
      assert.equal((await signed(sb, u, 'GET', '/api/v1/accounts')).json.code, '200000');
    });

    for (const market of ['quiet', 'realistic'] as const)
    it(`closes the WebSocket connections and restarts the simulation on the fresh world (${market} market)`, async () => {
      sb = await startSandbox({ seed: 1, sim: true, market, simIntervalMs: 10, manualClock: false });
      const botsBefore = [...sb.state.users.values()].filter((u) => u.label.startsWith('sim-')).length;
      assert.ok(botsBefore >= 2, `${botsBefore} bots`);
      const bullet = await rawRequest(sb.baseUrl, 'POST', '/api/v1/bullet-public');
      const server = (bullet.json.data as { token: string; instanceServers: { endpoint: string }[] });
      const ws = new WebSocket(`${server.instanceServers[0].endpoint}?token=${server.token}&connectId=c1`);
      await new Promise<void>((resolve, reject) => {
        ws.once('message', () => resolve());
        ws.once('error', reject);
      });
      const closed = new Promise<string>((resolve) => ws.once('close', (code, reason) => resolve(`${code} ${reason.toString()}`)));
      const resetAt = sb.state.now();
      const r = await admin(sb, 'POST', '/sandbox/v1/reset');
      assert.equal(r.status, 200, r.text);
      assert.equal(await closed, '1001 sandbox reset: reconnect for the fresh world');
      // the bots are back on the fresh world and trade: its tape fills up
      const state = sb.state;
      const bots = () => [...state.users.values()].filter((u) => u.label.startsWith('sim-')).length;
      const trades = () => state.world.symbols.flatMap((x) => state.tape.recentTrades(x.symbol));
      while (bots() < botsBefore || trades().length === 0) await new Promise((res) => setTimeout(res, 20));
      assert.equal(bots(), botsBefore, 'the same simulation runs on the fresh world');
      if (market === 'quiet') {
        const old = trades().filter((t) => t.time < resetAt);
        assert.deepStrictEqual(old, [], 'the tape holds only trades of the fresh world');
      } else {
        // history from the first minute after a reset too: the fresh world built its own 3 × 24 h past
        const hourly = state.tape.candles('BTC-USDT', '1hour', 0, 0, state.historyStart());
        const oldest = Math.min(...hourly.map((c) => Number(c[0]) * 1000));
        assert.ok(hourly.length >= 70 && oldest <= resetAt - 70 * 3600_000, `${hourly.length} hourly candles, the oldest ${((resetAt - oldest) / 3600_000).toFixed(1)} h before the reset`);
      }
    });

    it('fastReset: every reset swaps in a world prepared ahead of time, and prepares the next', async () => {
      sb = await startTestSandbox({ fastReset: true });
      await new Promise((res) => setImmediate(res));
      for (let i = 0; i < 3; i++) {
        const r = await admin(sb, 'POST', '/sandbox/v1/reset');
        const d = r.json.data as { prepared: boolean; tookMs: number };
        assert.equal(d.prepared, true, `reset ${i}: ${r.text}`);
      }
    });
  });

  describe('with a state dir (durable)', () => {
    let dir: string;
    beforeEach(() => {
      dir = tmpDir('reset');
    });
    afterEach(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a clean restart after a reset has the reset world plus what came after it; the generations before the reset are deleted', async () => {
      const sb = await startTestSandbox({ stateDir: dir, seed: 5 });
      const { other } = await makeHistory(sb);
      await sb.close();
      const sb1 = await startTestSandbox({ stateDir: dir, seed: 5 });
      assert.equal((await signed(sb1, other, 'GET', '/api/v1/accounts')).json.code, '200000', 'the user survived the plain restart');
      const genBefore = sb1.store?.generation as number;
      assert.equal((await admin(sb1, 'POST', '/sandbox/v1/reset')).status, 200);
      const after = await createUser(sb1, { balances: [{ currency: 'BTC', type: 'trade', amount: '1' }] });
      const o = await signed(sb1, after, 'POST', '/api/v1/hf/orders', { clientOid: 'after-1', symbol: 'BTC-USDT', side: 'sell', type: 'limit', price: '500000', size: '0.1' });
      assert.equal(o.json.code, '200000', o.text);
      const files = fs.readdirSync(dir).filter((f) => /^(snapshot|journal)-/.test(f));
      for (const f of files) assert.ok(Number(/-(\d{8})\./.exec(f)?.[1]) > genBefore, `${f} is from before the reset`);
      const want = sections(sb1.state);
      await sb1.close();
      const sb2 = await startTestSandbox({ stateDir: dir, seed: 5 });
      try {
        assert.deepStrictEqual(sections(sb2.state), want);
        assert.equal((await signed(sb2, other, 'GET', '/api/v1/accounts')).json.code, '400003');
        const mine = await signed(sb2, after, 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT');
        assert.deepStrictEqual((mine.json.data as { clientOid: string }[]).map((x) => x.clientOid), ['after-1']);
      } finally {
        await sb2.close();
      }
    });

    it('a realistic market: the reset world builds its own 3 × 24 h of history, which a restart reads back instead of rebuilding it', async () => {
      const candles = (st: SandboxState): string =>
        JSON.stringify(['BTC-USDT', 'ETH-USDT'].map((s) => [st.tape.candles(s, '1hour', 0, 0, st.historyStart()), st.tape.candles(s, '1min', 0, 0, st.historyStart())]));
      const sb = await startSandbox({ stateDir: dir, seed: 4, manualClock: true, market: 'realistic', port: 0 });
      let want: string;
      let resetAt: number;
      try {
        const before = candles(sb.state);
        const r = await admin(sb, 'POST', '/sandbox/v1/reset');
        assert.equal(r.status, 200, r.text);
        resetAt = (r.json.data as { now: number }).now;
        const hourly = sb.state.tape.candles('BTC-USDT', '1hour', 0, 0, sb.state.historyStart());
        const oldest = Math.min(...hourly.map((c) => Number(c[0]) * 1000));
        assert.ok(hourly.length >= 70 && oldest <= resetAt - 70 * 3600_000, `${hourly.length} hourly candles, the oldest ${((resetAt - oldest) / 3600_000).toFixed(1)} h before the reset`);
        const minutes = sb.state.tape.candles('BTC-USDT', '1min', 0, 0, sb.state.historyStart());
        const newest = Math.max(...minutes.map((c) => Number(c[0]) * 1000));
        assert.ok(newest >= resetAt - 120_000 && newest <= resetAt, `the history ends at the reset: newest 1min candle ${(resetAt - newest) / 1000} s before it`);
        // same seed, same manual clock: the fresh world's past is the one the first start built (deterministic)
        want = candles(sb.state);
        assert.equal(want, before);
        sb.state.exchange.checkInvariants();
      } finally {
        await sb.close();
      }
      const again = await startSandbox({ stateDir: dir, seed: 4, manualClock: true, market: 'realistic', port: 0 });
      try {
        assert.equal(again.historyBuildMs, null, 'the restart read the reset world, it did not build a history');
        assert.equal(candles(again.state), want);
      } finally {
        await again.close();
      }
    });

    it('a start that finds the generations before a reset still there (the reset was cut short) ignores and deletes them', async () => {
      const sb = await startTestSandbox({ stateDir: dir, seed: 2 });
      const { other } = await makeHistory(sb);
      await sb.close(); // snapshot of generation 1 with the history
      const saved = tmpDir('reset-saved');
      for (const f of fs.readdirSync(dir)) if (/^(snapshot|journal)-/.test(f)) fs.copyFileSync(path.join(dir, f), path.join(saved, f));
      const sb1 = await startTestSandbox({ stateDir: dir, seed: 2 });
      assert.equal((await admin(sb1, 'POST', '/sandbox/v1/reset')).status, 200);
      const want = sections(sb1.state);
      sb1.store?.abandon(); // no closing snapshot: the next start replays the reset journal
      await sb1.close();
      // the files the reset deleted come back, as if the process had died before deleting them
      for (const f of fs.readdirSync(saved)) fs.copyFileSync(path.join(saved, f), path.join(dir, f));
      fs.rmSync(saved, { recursive: true, force: true });
      const sb2 = await startTestSandbox({ stateDir: dir, seed: 2 });
      try {
        assert.deepStrictEqual(sections(sb2.state), want);
        assert.equal((await signed(sb2, other, 'GET', '/api/v1/accounts')).json.code, '400003');
        const gens = fs.readdirSync(dir).filter((f) => /^(snapshot|journal)-/.test(f)).map((f) => Number(/-(\d{8})\./.exec(f)?.[1]));
        assert.ok(Math.min(...gens) >= 2, `left: ${fs.readdirSync(dir).join(', ')}`);
      } finally {
        await sb2.close();
      }
    });

    it('background snapshots: a reset during one, a stale snapshot of the old world back in the dir, then rotations of the reset world; the restart has the reset world', async () => {
      const sb = await startTestSandbox({ stateDir: dir, seed: 6, snapshotEveryRecords: 10, backgroundSnapshots: true });
      const store = sb.store as NonNullable<RunningSandbox['store']>;
      for (let i = 0; i < 12; i++) await createUser(sb);
      await store.idle();
      assert.equal(store.lastRotation?.background, true, 'the worker wrote the old world\'s snapshot');
      const stale = fs.readdirSync(dir).filter((f) => /^snapshot-\d{8}\.snap$/.test(f)).map((f) => [f, fs.readFileSync(path.join(dir, f))] as const);
      assert.ok(stale.length > 0);
      const old = await createUser(sb); // the 10th record since that rotation: another background build starts
      assert.equal((await admin(sb, 'POST', '/sandbox/v1/reset')).status, 200);
      const resetGen = store.generation;
      // as if a build stopped by the reset had completed its (old world's) snapshot anyway
      for (const [f, bytes] of stale) fs.writeFileSync(path.join(dir, f), bytes);
      for (let i = 0; i < 25; i++) await createUser(sb);
      await store.idle();
      assert.equal(store.lastRotation?.background, true);
      assert.ok((store.lastRotation?.gen ?? 0) > resetGen, `a snapshot of the reset world was written (gen ${store.lastRotation?.gen} > ${resetGen})`);
      assert.ok(fs.existsSync(path.join(dir, `snapshot-${String(store.lastRotation?.gen).padStart(8, '0')}.snap`)));
      // (a replica's manual clock starts at its own wall time, so clock fields differ: compare users, keys and money)
      const want = usersAndBalances(sb.state);
      assert.equal(want.length, 26, 'the default user and the 25 made after the reset');
      store.abandon(); // no closing snapshot: the restart reads the worker's snapshot and the journal after it
      await sb.close();
      const sb2 = await startTestSandbox({ stateDir: dir, seed: 6 });
      try {
        assert.deepStrictEqual(usersAndBalances(sb2.state), want);
        assert.equal((await signed(sb2, old, 'GET', '/api/v1/accounts')).json.code, '400003');
      } finally {
        await sb2.close();
      }
    });

    it('SIGKILL after a reset: the restart has the reset world and the orders placed after it (CLI child process)', async function () {
      const cli = await buildCli(path.join(os.tmpdir(), 'spotdesk-reset-cli'));
      const child: ChildProcess = spawn(process.execPath, [cli, '--state-dir', dir, '--no-sim', '--seed', '4', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const baseUrl = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout?.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /listening on (http:\/\/\S+)/.exec(out);
            if (m) resolve(m[1]);
          });
          child.once('exit', (code) => reject(new Error(`the CLI exited (${code})`)));
        });
        const creds = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')) as RunningSandbox['credentials'];
        const adminToken = fs.readFileSync(path.join(dir, 'admin-token'), 'utf8').trim();
        const remote = { baseUrl, adminToken, credentials: creds, state: { now: () => Date.now(), manualClock: false } } as unknown as RunningSandbox;
        const { other } = await makeHistory(remote);
        assert.equal((await admin(remote, 'POST', '/sandbox/v1/reset')).status, 200);
        const o = await signed(remote, credsOf(remote), 'POST', '/api/v1/hf/orders', { clientOid: 'kept', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '2000', size: '0.01' });
        assert.equal(o.json.code, '200000', o.text);
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
        const sb = await startTestSandbox({ stateDir: dir, seed: 4 });
        try {
          assert.equal(sb.credentials.apiKey, creds.apiKey, 'the default key survives');
          assert.equal((await signed(sb, other, 'GET', '/api/v1/accounts')).json.code, '400003');
          const mine = await signed(sb, credsOf(sb), 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT');
          assert.deepStrictEqual((mine.json.data as { clientOid: string }[]).map((x) => x.clientOid), ['kept']);
          assert.equal(sb.state.status.status, 'open');
          assert.equal(sb.state.exchange.accounts(sb.credentials.uid, { currency: 'ETH', type: 'main' })[0].balance, '20', 'the deposit before the reset is gone');
        } finally {
          await sb.close();
        }
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  });
});
