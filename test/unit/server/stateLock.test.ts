/**
 * The state-dir lock is released by the OS when its holder dies, never guessed from a pid: a SIGKILLed sandbox process group is replaced at once, a stale pid file does not block a
 * start, and two live sandboxes on one state dir are still refused, naming the holder.
 */
import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../../src/exchange/server/index';
import { StateDirInUseError, acquireStateDirLock, askHolder, lockAddress } from '../../../src/exchange/server/stateLock';
import { buildCli, rawRequest, sleep } from './helpers';

/** A process that binds a state dir's lock name before the sandbox and says what it likes about itself. */
async function squat(dir: string, line: string): Promise<net.Server> {
  const server = net.createServer((sock) => {
    sock.on('error', () => undefined);
    sock.end(line + '\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(lockAddress(dir), () => resolve());
  });
  return server;
}

/** A loopback HTTP server answering every request with `answer` (or never, when undefined). */
async function fakeServer(answer: ((url: string) => { status: number; body: unknown }) | undefined): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    if (answer === undefined) return; // hangs
    const a = answer(req.url ?? '/');
    res.writeHead(a.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, server };
}

function close(server: net.Server | http.Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The StateDirInUseError a start on `dir` fails with. */
async function refusal(dir: string): Promise<StateDirInUseError> {
  const err = await startSandbox({ stateDir: dir, sim: false, manualClock: true }).then(
    async (sb) => {
      await sb.close();
      return assert.fail('the sandbox started on a squatted state dir');
    },
    (e: unknown) => e,
  );
  assert.ok(err instanceof StateDirInUseError, String(err));
  return err;
}

/** A sandbox started as `sh -c 'node CLI …'` in a process group of its own, as a shell or an editor would. */
class GroupChild {
  out = '';
  err = '';
  readonly proc: ChildProcess;
  readonly exited: Promise<void>;
  constructor(cli: string, stateDir: string) {
    const cmd = `'${process.execPath}' '${cli}' --port 0 --state-dir '${stateDir}' --no-sim --manual-clock`;
    this.proc = spawn('sh', ['-c', cmd], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.proc.stderr!.on('data', (d: Buffer) => (this.err += d.toString()));
    this.exited = new Promise((r) => this.proc.once('exit', () => r()));
  }
  /** Wait until the sandbox says it listens (or fails). */
  async listening(): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const m = /listening on (http:\/\/\S+)\n/.exec(this.out);
      if (m) return m[1];
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) throw new Error(`sandbox exited: ${this.err}`);
      if (Date.now() > deadline) throw new Error(`sandbox did not start: ${this.out} ${this.err}`);
      await sleep(10);
    }
  }
  /** SIGKILL the whole process group (the shell and the node process). */
  killGroup(): void {
    process.kill(-(this.proc.pid as number), 'SIGKILL');
  }
}

describe('state dir lock (OS-released)', function () {
  this.timeout(60_000);
  let work: string;
  let cli: string;
  const children: GroupChild[] = [];

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lock-'));
    cli = await buildCli(work);
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      try {
        c.killGroup();
      } catch {
        /* already gone */
      }
      await c.exited;
    }
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('a SIGKILLed process group is replaced at once on the same state dir, 3 times in a row', async () => {
    const dir = path.join(work, 'sigkill');
    let prev = new GroupChild(cli, dir);
    children.push(prev);
    await prev.listening();
    const key = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')).apiKey;
    for (let round = 1; round <= 3; round++) {
      prev.killGroup();
      // no wait for the killed processes to be reaped: start the next one immediately
      const next = new GroupChild(cli, dir);
      children.push(next);
      await next.listening();
      assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')).apiKey, key, `round ${round}: same state`);
      assert.doesNotMatch(next.err, /in use/);
      prev = next;
    }
  });

  it('a leftover journal.lock naming a live unrelated pid does not block the start', async () => {
    const dir = path.join(work, 'stale-pid');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'journal.lock'), '1\n'); // pid 1 is always alive (init)
    const sb = await startSandbox({ stateDir: dir, sim: false, manualClock: true });
    await sb.close();
  });

  it('two live sandboxes on one state dir: the second is refused with the holder named', async () => {
    const dir = path.join(work, 'two');
    const child = new GroupChild(cli, dir);
    children.push(child);
    const url = await child.listening();
    const err = await startSandbox({ stateDir: dir, sim: false, manualClock: true }).then(
      () => assert.fail('a second sandbox started on a state dir in use'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof StateDirInUseError, String(err));
    const holderPid = err.holder?.pid as number;
    assert.ok(holderPid > 0 && holderPid !== process.pid, 'the holder is the child, not us');
    assert.equal(err.holder?.baseUrl, url);
    assert.equal(err.confirmed, true, 'the real holder proved its URL');
    assert.match(err.message, new RegExp(`process ${holderPid}.*serving ${url.replace(/[.]/g, '\\.')}.*another --state-dir`));

    // and from the other side: a child started while we hold the dir exits with that message
    const mine = path.join(work, 'mine');
    const sb = await startSandbox({ stateDir: mine, sim: false, manualClock: true });
    try {
      const refused = new GroupChild(cli, mine);
      children.push(refused);
      await refused.exited;
      assert.match(refused.err, new RegExp(`failed to start: state dir .* is in use by the SpotDesk sandbox of process ${process.pid}`));
    } finally {
      await sb.close();
    }
  });

  it('a squatter that binds the lock first and names an attacker URL: the refusal names its claimed pid and the state dir, never an address it did not prove', async () => {
    const dir = path.join(work, 'squatted');
    // a state dir used before: it has its admin-token
    await (await startSandbox({ stateDir: dir, sim: false, manualClock: true })).close();
    const other = await startSandbox({ stateDir: path.join(work, 'other'), sim: false, manualClock: true });
    const fakes = await Promise.all([
      fakeServer((url) => (url.startsWith('/sandbox/v1/identity') ? { status: 200, body: { code: '200000', data: { sandbox: 'spotdesk', pid: 4242, proof: '00'.repeat(32) } } } : { status: 200, body: { code: '200000', data: Date.now() } })),
      fakeServer(undefined),
    ]);
    try {
      const claims: { pid: number; baseUrl: string; what: string }[] = [
        { pid: 4242, baseUrl: 'http://attacker.example:8100', what: 'a host that is not loopback' },
        { pid: 4242, baseUrl: 'https://127.0.0.1:8100', what: 'not http' },
        { pid: 4242, baseUrl: 'http://user:pw@127.0.0.1:8100', what: 'credentials in the URL' },
        { pid: 4242, baseUrl: fakes[0].url, what: 'a loopback server answering like a sandbox, with a wrong proof' },
        { pid: process.pid, baseUrl: other.baseUrl, what: 'a real SpotDesk sandbox of ANOTHER state dir (its proof is keyed by its own admin token)' },
        { pid: 4242, baseUrl: fakes[1].url, what: 'a loopback server that never answers' },
      ];
      for (const c of claims) {
        const squatter = await squat(dir, JSON.stringify({ pid: c.pid, startedAt: Date.now(), baseUrl: c.baseUrl }));
        try {
          const t0 = Date.now();
          const err = await refusal(dir);
          assert.ok(Date.now() - t0 < 5000, `${c.what}: answered in time`);
          assert.ok(!err.message.includes(c.baseUrl) && !err.message.includes(new URL(c.baseUrl).host), `${c.what}: ${err.message}`);
          assert.equal(err.confirmed, false, c.what);
          assert.equal(err.holder?.pid, c.pid, c.what);
          assert.equal(err.holder?.baseUrl, '', c.what);
          assert.ok(!/kill /.test(err.message), `${c.what}: no advice to kill a pid nobody proved: ${err.message}`);
          assert.ok(err.message.includes(`it says it is process ${c.pid}`) && err.message.includes(dir), `${c.what}: ${err.message}`);
        } finally {
          await close(squatter);
        }
      }
      // nonsense about itself is no crash either
      const squatter = await squat(dir, JSON.stringify({ pid: 4242, startedAt: 'yesterday', baseUrl: { href: 'x' } }));
      try {
        const err = await refusal(dir);
        assert.equal(err.holder?.baseUrl, '');
        assert.match(err.message, /it says it is process 4242/);
      } finally {
        await close(squatter);
      }
      // once the squatter is gone the state dir is ours again
      await (await startSandbox({ stateDir: dir, sim: false, manualClock: true })).close();
    } finally {
      await other.close();
      for (const f of fakes) await close(f.server);
    }
  });

  it('GET /sandbox/v1/identity: loopback, no token; the pid and an HMAC of the nonce under the admin token; a bad nonce is 400100', async () => {
    const sb = await startSandbox({ sim: false, manualClock: true });
    try {
      const nonce = 'ab'.repeat(16);
      const r = await rawRequest(sb.baseUrl, 'GET', `/sandbox/v1/identity?nonce=${nonce}`);
      assert.equal(r.status, 200, r.text);
      const { createHmac } = await import('node:crypto');
      assert.deepEqual(r.json.data, { sandbox: 'spotdesk', pid: process.pid, proof: createHmac('sha256', sb.adminToken).update(`spotdesk-sandbox-identity\n${nonce}`).digest('hex') });
      const bad = await rawRequest(sb.baseUrl, 'GET', '/sandbox/v1/identity?nonce=xyz');
      assert.deepEqual([bad.status, bad.json], [400, { code: '400100', msg: 'nonce: must be 32 to 128 lowercase hex digits' }]);
      // everything else of the admin API still needs the token
      assert.equal((await rawRequest(sb.baseUrl, 'GET', '/sandbox/v1/clock')).status, 401);
    } finally {
      await sb.close();
    }
  });

  it('in one process: taken twice is refused; released, it can be taken again', async () => {
    const dir = path.join(work, 'inproc');
    fs.mkdirSync(dir, { recursive: true });
    const a = await acquireStateDirLock(dir);
    a.describe({ baseUrl: 'http://127.0.0.1:1' });
    const holder = await askHolder(lockAddress(dir));
    assert.deepEqual(holder !== 'refused' && holder ? [holder.pid, holder.baseUrl] : holder, [process.pid, 'http://127.0.0.1:1']);
    await assert.rejects(acquireStateDirLock(dir), StateDirInUseError);
    await a.release();
    await a.release(); // idempotent
    const b = await acquireStateDirLock(dir);
    await b.release();
  });

  it('lock names: abstract on Linux, a pipe on Windows, a short socket path elsewhere', () => {
    assert.match(lockAddress(work, 'linux'), /^\0spotdesk-sandbox-[0-9a-f]{32}$/);
    assert.match(lockAddress(work, 'win32'), /^\\\\\?\\pipe\\spotdesk-sandbox-[0-9a-f]{32}$/);
    const mac = lockAddress(work, 'darwin');
    assert.ok(Buffer.byteLength(mac) <= 100 && mac.endsWith('.sock'), mac);
    assert.equal(lockAddress(path.join(work, '.', 'x', '..')), lockAddress(work), 'same dir, same lock');
  });
});
