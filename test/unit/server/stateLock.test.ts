/**
 * The state-dir lock is released by the OS when its holder dies, never guessed from a pid (issue 18,
 * part 2): a SIGKILLed sandbox process group is replaced at once, a stale pid file does not block a
 * start, and two live sandboxes on one state dir are still refused, naming the holder.
 */
import { strict as assert } from 'node:assert';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../../src/exchange/server/index';
import { StateDirInUseError, acquireStateDirLock, askHolder, lockAddress } from '../../../src/exchange/server/stateLock';
import { buildCli, sleep } from './helpers';

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
