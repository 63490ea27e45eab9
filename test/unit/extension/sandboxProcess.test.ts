/**
 * The embedded sandbox runs in a process of its own: forked from the bundled entry with
 * `--ipc`, it reports readiness, errors (port taken, state dir in use) and its death, and it stops when
 * its parent disconnects.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxStartError, startSandboxProcess, type SandboxProcess } from '../../../src/host/sandboxProcess';
import { buildCli, startTestSandbox } from '../server/helpers';
import { recordSession, trader, waitFor } from '../record/helpers';
import { readRecording } from '../../../src/exchange/server/mirror/recording';

describe('sandbox process (forked, IPC)', function () {
  this.timeout(60_000);
  let work: string;
  let entry: string;
  const procs: SandboxProcess[] = [];
  const log: string[] = [];
  const start = async (stateDir: string | null, port = 0): Promise<SandboxProcess> => {
    const p = await startSandboxProcess({ entry, stateDir, port, log: (l) => log.push(l), market: 'quiet' });
    procs.push(p);
    return p;
  };

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-sbproc-'));
    entry = await buildCli(work);
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop(1000);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('starts, serves the API with the credentials it reports, and stops cleanly', async () => {
    const dir = path.join(work, 'a');
    const p = await start(dir);
    assert.notEqual(p.pid, process.pid);
    assert.match(p.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(p.stateDir, dir);
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8'));
    assert.deepEqual(p.credentials, onDisk);
    const r = (await (await fetch(`${p.baseUrl}/api/v1/timestamp`)).json()) as { code: string };
    assert.equal(r.code, '200000');
    let unexpected = false;
    p.onUnexpectedExit(() => (unexpected = true));
    await p.stop();
    assert.equal(unexpected, false, 'a requested stop is not an unexpected exit');
    await assert.rejects(fetch(`${p.baseUrl}/api/v1/timestamp`));
  });

  it('passes the market profile (setting spotdesk.sandbox.market): quiet starts without history, realistic with 3 days of it', async () => {
    const candles = async (p: SandboxProcess): Promise<number> =>
      ((await (await fetch(`${p.baseUrl}/api/v1/market/candles?type=1hour&symbol=BTC-USDT`)).json()) as { data: unknown[] }).data.length;
    const quiet = await start(path.join(work, 'quiet'));
    assert.equal(await candles(quiet), 0);
    const p = await startSandboxProcess({ entry, stateDir: null, port: 0, log: () => undefined, market: 'realistic' });
    procs.push(p);
    assert.ok((await candles(p)) >= 72, 'hourly candles of the last 3 days');
  });

  it('reports an unexpected death (SIGKILL) to its owner', async () => {
    const p = await start(null);
    const died = new Promise<[number | null, string | null]>((resolve) => p.onUnexpectedExit((c, s) => resolve([c, s])));
    process.kill(p.pid, 'SIGKILL');
    assert.deepEqual(await died, [null, 'SIGKILL']);
  });

  it('a pinned port in use fails with EADDRINUSE; a state dir in use fails naming the holder', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const err = await startSandboxProcess({ entry, stateDir: null, port, log: () => undefined, market: 'quiet' }).then(
        () => assert.fail('started on a port in use'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof SandboxStartError && err.code === 'EADDRINUSE', String(err));
    } finally {
      blocker.close();
    }
    const dir = path.join(work, 'shared');
    const holder = await start(dir);
    const err = await startSandboxProcess({ entry, stateDir: dir, port: 0, log: () => undefined, market: 'quiet' }).then(
      () => assert.fail('two sandboxes on one state dir'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof SandboxStartError && err.code === 'STATE_DIR_IN_USE', String(err));
    assert.deepEqual(err.holder, { pid: holder.pid, baseUrl: holder.baseUrl });
  });

  it('stops by itself when its parent goes away (IPC channel closed)', async () => {
    // a throw-away parent forks the sandbox, prints its pid and exits without stopping it
    const script = path.join(work, 'parent.js');
    fs.writeFileSync(
      script,
      `const { fork } = require('child_process');
       const c = fork(${JSON.stringify(entry)}, ['--ipc', '--in-memory', '--port', '0', '--market', 'quiet'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
       c.on('message', (m) => { if (m.type === 'ready') { console.log(c.pid); process.exit(0); } });`,
    );
    const { execFileSync } = await import('node:child_process');
    const pid = Number(execFileSync(process.execPath, [script], { encoding: 'utf8' }).trim());
    assert.ok(pid > 0);
    const deadline = Date.now() + 10_000;
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) {
      assert.ok(Date.now() < deadline, `sandbox ${pid} outlived its parent`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('a replay process (the Replay profile) reports its position and its end over IPC', async () => {
    const up = await startTestSandbox({ rateLimits: false });
    const file = path.join(work, 'replay.sdrec');
    try {
      const c = await trader(up);
      await recordSession(up, c, file, 2, { symbols: ['BTC-USDT'] });
      c.close();
    } finally {
      await up.close();
    }
    const rec = readRecording(file);
    const last = Math.max(...rec.events.map((e) => (e.type === 'status' ? e.since : e.time)));
    const p = await startSandboxProcess({ entry, stateDir: null, port: 0, log: () => undefined, extraArgs: ['--replay', file, '--speed', '0'] });
    procs.push(p);
    const seen: { time: number | null; finished: boolean }[] = [];
    p.onReplay((pos) => seen.push(pos));
    await waitFor(() => seen.some((s) => s.finished), 'the replay to report its end', 20_000);
    const end = seen.find((s) => s.finished)!;
    assert.equal(end.time, last, "the end's position is the recording's last event time");
    const st = (await (await fetch(`${p.baseUrl}/api/v1/status`)).json()) as { data: { status: string } };
    assert.equal(st.data.status, 'open');
  });
});
