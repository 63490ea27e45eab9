/**
 * The sandbox process's lifetime, from the built package: a test runner that forgets `close()` still exits
 * (nothing of the sandbox keeps its event loop alive), and the sandbox process stops with it (its IPC channel
 * closes); several sandboxes of one process are separate processes on separate ports.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtPackage, type BuiltPackage } from './built';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('spotdesk-sandbox process lifetime', function () {
  this.timeout(120_000);
  let pkg: BuiltPackage;
  before(async () => {
    pkg = await builtPackage();
  });

  it('a runner that never calls close() exits by itself, and its sandbox stops with it', async () => {
    const script = `require(${JSON.stringify(path.join(pkg.outDir, 'index.cjs'))}).startSandbox().then((sb) => console.log(sb.pid))`;
    const pid = await new Promise<number>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { timeout: 60_000 }, (err, stdout) => (err ? reject(err) : resolve(Number(stdout.trim())))),
    );
    assert.ok(pid > 0);
    // the runner has exited (execFile resolved); the sandbox notices its closed channel and shuts down
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('tls (where the bundled CLI has --tls): https and wss URLs, the CA in the state dir, admin calls trust it', async function () {
    if (!pkg.flags.tls) this.skip();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-pkg-tls-'));
    const sb = await pkg.api.startSandbox({ tls: true, stateDir: dir, manualClock: true });
    try {
      assert.match(sb.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.match(sb.wsUrl, /^wss:\/\/127\.0\.0\.1:\d+\/ws$/);
      assert.equal(sb.caPath, path.join(dir, 'ca.pem'));
      const ca = fs.readFileSync(sb.caPath as string, 'utf8');
      assert.match(ca, /BEGIN CERTIFICATE/);
      const now = await sb.admin.advanceClock(1000);
      const answered = await new Promise<string>((resolve, reject) =>
        https.get(`${sb.baseUrl}/api/v1/timestamp`, { ca }, (r) => {
          let t = '';
          r.on('data', (c: Buffer) => (t += c.toString()));
          r.on('end', () => resolve(t));
        }).on('error', reject),
      );
      assert.deepStrictEqual(JSON.parse(answered), { code: '200000', data: now });
      await sb.reset();
    } finally {
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('three sandboxes started together: three processes, three ports, three keys', async () => {
    const sbs = await Promise.all([1, 2, 3].map((seed) => pkg.api.startSandbox({ seed })));
    try {
      assert.equal(new Set(sbs.map((s) => s.pid)).size, 3);
      assert.equal(new Set(sbs.map((s) => s.baseUrl)).size, 3);
      assert.equal(new Set(sbs.map((s) => s.credentials.apiKey)).size, 3);
      assert.deepStrictEqual(sbs.map((s) => s.seed), [1, 2, 3]);
    } finally {
      await Promise.all(sbs.map((s) => s.close()));
    }
    for (const s of sbs) assert.equal(alive(s.pid), false, `process ${s.pid} stopped`);
  });
});
