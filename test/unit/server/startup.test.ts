/**
 * Sandbox start-up: CLI argument parsing, the printed line, credentials.json/admin-token files
 * (0600), the same default user after a restart on the same state dir, admin API access rules.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from '../../../src/exchange/cli';
import { startSandbox } from '../../../src/exchange/server/index';
import { isLoopback } from '../../../src/exchange/server/admin';
import { MemoryJournal, newKeyMaterial, SandboxState } from '../../../src/exchange/server/state';
import { admin, balanceOf, credsOf, rawRequest, signed } from './helpers';

describe('sandbox start-up', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-sbx-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('parseArgs: defaults, every option, errors', () => {
    const stateDir = path.join(os.tmpdir(), 'x');
    assert.deepEqual(parseArgs([]), { host: '127.0.0.1', port: 0, stateDir: '.spotdesk-sandbox', sim: true, market: 'realistic', manualClock: false, seed: 1, verbose: false, help: false, ipc: false, inMemory: false });
    assert.deepEqual(parseArgs(['--host', '0.0.0.0', '--port=8100', '--state-dir', stateDir, '--no-sim', '--manual-clock', '--seed', '7', '--ipc', '--in-memory', '--sim-interval-ms', '100', '--market', 'quiet']), {
      host: '0.0.0.0',
      port: 8100,
      stateDir,
      sim: false,
      market: 'quiet',
      manualClock: true,
      seed: 7,
      verbose: false,
      help: false,
      ipc: true,
      inMemory: true,
      simIntervalMs: 100,
    });
    assert.throws(() => parseArgs(['--port', '70000']), /--port must be an integer in \[0, 65535\]/);
    assert.throws(() => parseArgs(['--port']), /--port needs a value/);
    assert.throws(() => parseArgs(['--bogus']), /unknown option --bogus/);
    assert.equal(parseArgs(['--market=volatile']).market, 'volatile');
    assert.throws(() => parseArgs(['--market', 'wild']), /--market must be one of quiet, realistic, volatile, got wild/);
  });

  it('writes credentials.json and admin-token (0600); a restart keeps the default user, its orders and balances', async () => {
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(file, { ...sb.credentials });
    assert.deepEqual(Object.keys(file), ['baseUrl', 'uid', 'apiKey', 'apiSecret', 'apiPassphrase', 'keyVersion']);
    assert.equal(file.keyVersion, '2');
    assert.equal(fs.statSync(path.join(dir, 'credentials.json')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(dir, 'admin-token')).mode & 0o777, 0o600);
    assert.equal(fs.readFileSync(path.join(dir, 'admin-token'), 'utf8').trim(), sb.adminToken);
    // default user: all permissions, funded main and trade
    assert.deepEqual(balanceOf(sb, sb.credentials.uid, 'USDT', 'main'), { balance: '100000', available: '100000', holds: '0' });
    assert.deepEqual(balanceOf(sb, sb.credentials.uid, 'BTC', 'trade'), { balance: '2', available: '2', holds: '0' });
    const placed = await signed(sb, credsOf(sb), 'POST', '/api/v1/hf/orders', { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.01' });
    const orderId = (placed.json.data as { orderId: string }).orderId;
    await admin(sb, 'PUT', '/sandbox/v1/status', { status: 'cancelonly', msg: 'm' });
    const book = sb.state.exchange.level2('BTC-USDT', 100);
    await sb.close();

    const sb2 = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
    try {
      assert.equal(sb2.credentials.apiKey, sb.credentials.apiKey);
      assert.equal(sb2.credentials.apiSecret, sb.credentials.apiSecret);
      assert.equal(sb2.credentials.uid, sb.credentials.uid);
      assert.equal(sb2.adminToken, sb.adminToken);
      assert.deepEqual(sb2.warnings, []);
      const o = await signed(sb2, credsOf(sb2), 'GET', `/api/v1/hf/orders/${orderId}?symbol=BTC-USDT`);
      assert.equal(o.json.code, '200000', o.text);
      assert.equal((o.json.data as { active: boolean }).active, true);
      assert.deepEqual(balanceOf(sb2, sb2.credentials.uid, 'USDT', 'trade'), { balance: '100000', available: '99499.5', holds: '500.5' });
      assert.deepEqual(sb2.state.status, { status: 'cancelonly', msg: 'm' });
      assert.deepEqual(sb2.state.exchange.level2('BTC-USDT', 100).bids, book.bids);
      sb2.state.exchange.checkInvariants();
    } finally {
      await sb2.close();
    }
  });

  it('a failed start (port taken) rejects and releases the state dir (journal lock)', async () => {
    const first = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const blocker = await startSandbox({ sim: false, manualClock: true, port });
    try {
      await assert.rejects(startSandbox({ stateDir: dir, sim: false, manualClock: true, port }), /EADDRINUSE/);
      const again = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
      assert.equal(again.credentials.apiKey, first.credentials.apiKey);
      await again.close();
    } finally {
      await blocker.close();
    }
  });

  it('admin API: bearer token required; loopback check', async () => {
    const sb = await startSandbox({ sim: false, manualClock: true });
    try {
      const r = await rawRequest(sb.baseUrl, 'GET', '/sandbox/v1/invariants');
      assert.equal(r.status, 401);
      const r2 = await rawRequest(sb.baseUrl, 'GET', '/sandbox/v1/invariants', { Authorization: 'Bearer nope' });
      assert.equal(r2.status, 401);
      const ok = await admin(sb, 'GET', '/sandbox/v1/invariants');
      assert.deepEqual(ok.json, { code: '200000', data: { ok: true } });
      const clock = await admin(sb, 'POST', '/sandbox/v1/clock', { advanceMs: 1500 });
      assert.equal((clock.json.data as { now: number }).now, sb.state.now());
      assert.ok(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('::ffff:127.0.0.1'));
      assert.ok(!isLoopback('10.0.0.2') && !isLoopback('::ffff:10.0.0.2'));
    } finally {
      await sb.close();
    }
    const real = await startSandbox({ sim: false });
    try {
      const r = await admin(real, 'POST', '/sandbox/v1/clock', { advanceMs: 1 });
      assert.equal(r.status, 400);
      assert.match(String(r.json.msg), /--manual-clock/);
    } finally {
      await real.close();
    }
  });

  it('CLI prints exactly the listening line and serves requests', async function () {
    this.timeout(30_000);
    const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
    const child = spawn(tsx, ['src/exchange/cli.ts', '--port', '0', '--state-dir', dir, '--no-sim', '--seed', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const m = /^SpotDesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(line);
      assert.ok(m, JSON.stringify(line));
      const r = await rawRequest(m[1], 'GET', '/api/v1/status');
      assert.deepEqual(r.json, { code: '200000', data: { status: 'open', msg: '' } });
      const creds = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')) as { baseUrl: string };
      assert.equal(creds.baseUrl, m[1]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

describe('SandboxState: commands are deterministic (replay rebuilds the same state)', () => {
  it('replaying the journaled commands into a fresh state gives identical accounts, books, orders and records', () => {
    const T = 1_790_000_000_000;
    const a = new SandboxState({ manualClock: true, startTime: T });
    const mem = new MemoryJournal();
    a.attachJournal(mem);
    a.run('world.seed', { seed: 5 });
    const u = a.run('user.create', { ...newKeyMaterial(), keyVersion: '2', permissions: ['General', 'Spot', 'Transfer'], balances: [{ currency: 'USDT', type: 'trade', amount: '5000' }, { currency: 'USDT', type: 'main', amount: '100' }] }) as { uid: string };
    const ask = a.exchange.level2('ETH-USDT', 1).asks[0][0];
    a.run('order.place', { uid: u.uid, req: { symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: ask, size: '0.5' } });
    a.run('order.place', { uid: u.uid, req: { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '60000', size: '0.01', timeInForce: 'GTT', cancelAfter: 5 } });
    a.exec({ op: 'clock.set', t: T + 6000, args: { now: T + 6000 } });
    a.run('transfer', { uid: u.uid, clientOid: 'x1', currency: 'USDT', from: 'main', to: 'trade', amount: '30' });
    a.run('withdrawal.create', { withdrawalId: 'w1', uid: u.uid, version: 'v1', currency: 'USDT', chainId: 'trx', withdrawType: 'ADDRESS', toAddress: 'TX', memo: '', isInner: false, remark: '', amount: '20' });
    a.run('withdrawal.create', { withdrawalId: 'w2', uid: u.uid, version: 'v1', currency: 'USDT', chainId: 'trx', withdrawType: 'ADDRESS', toAddress: 'TX', memo: '', isInner: false, remark: '', amount: '10' });
    a.run('withdrawal.cancel', { uid: u.uid, withdrawalId: 'w2' });
    a.run('order.place', { uid: u.uid, req: { symbol: 'ETH-USDT', side: 'buy', type: 'limit', price: '100', size: '0.01', clientOid: 'c1' } });
    a.run('order.cancelByClientOid', { uid: u.uid, symbol: 'ETH-USDT', clientOid: 'c1' });
    a.exec({ op: 'clock.set', t: T + 20_000, args: { now: T + 20_000 } });
    assert.equal(a.settleDue(), 1);
    assert.throws(() => a.run('transfer', { uid: u.uid, clientOid: 'x2', currency: 'USDT', from: 'main', to: 'trade', amount: '1000' }), /Balance insufficient/);
    const b = new SandboxState({ manualClock: true, startTime: T });
    assert.deepEqual(b.replay(mem.commands), []);
    const view = (s: SandboxState) =>
      JSON.stringify({
        acc: s.exchange.accounts(u.uid),
        eth: s.exchange.level2('ETH-USDT', 100),
        btc: s.exchange.level2('BTC-USDT', 100),
        orders: s.exchange.doneOrders(u.uid, 'BTC-USDT'),
        fills: s.exchange.fills(u.uid, { symbol: 'ETH-USDT' }),
        w: [...s.withdrawals.values()],
        done: s.exchange.doneOrders(u.uid, 'ETH-USDT'),
        tape: s.tape.export(),
        ledger: s.ledger.export(),
        now: s.now(),
      });
    assert.equal(view(b), view(a));
    assert.equal(mem.commands.length, 13);
    assert.ok(a.tape.candles('ETH-USDT', '1min').length > 0, 'the fill made a candle');
    b.exchange.checkInvariants();
  });
});
