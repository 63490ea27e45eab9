/**
 * The package's typed errors, from the built package (test/unit/sandboxApi/built.ts): each has its class,
 * its `code` and a message that says what to do — a port in use, invalid options (refused before anything
 * starts), a locked state dir, an admin call the sandbox refuses, a closed or dead sandbox.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtPackage, type BuiltPackage } from './built';

describe('spotdesk-sandbox typed errors', function () {
  this.timeout(120_000);
  let pkg: BuiltPackage;
  before(async () => {
    pkg = await builtPackage();
  });

  it('a port in use: PortInUseError (code PORT_IN_USE) naming the port and saying to pass port: 0', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await assert.rejects(pkg.api.startSandbox({ port }), (e: unknown) => {
        assert.ok(e instanceof pkg.api.PortInUseError, String(e));
        assert.ok(e instanceof pkg.api.SpotDeskSandboxError);
        assert.equal(e.code, 'PORT_IN_USE');
        assert.equal(e.port, port);
        assert.match(e.message, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use: .*pass port: 0`));
        return true;
      });
    } finally {
      server.close();
    }
  });

  it('invalid options: InvalidOptionError (code INVALID_OPTION) naming the option, before any process starts', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ seed: -1 }, 'seed', /seed must be an integer from 0 to 2147483647, got -1/],
      [{ seed: 1.5 }, 'seed', /seed must be an integer/],
      [{ port: 70000 }, 'port', /port must be an integer from 0 to 65535, got 70000/],
      [{ market: 'wild' }, 'market', /market must be one of 'quiet', 'realistic', 'volatile', got "wild"/],
      [{ sede: 1 }, 'sede', /unknown option sede: the options are seed, port/],
      [{ stateDir: '' }, 'stateDir', /stateDir must be a non-empty string/],
      [{ manualClock: 'yes' }, 'manualClock', /manualClock must be true or false/],
      [{ log: 'stderr' }, 'log', /log must be a function/],
      [{ startTimeoutMs: 5 }, 'startTimeoutMs', /startTimeoutMs must be an integer from 100/],
    ];
    if (!pkg.flags.tls) cases.push([{ tls: true, stateDir: 'state' }, 'tls', /tls: this build of spotdesk-sandbox serves plain HTTP only \(its CLI has no --tls\)/]);
    else cases.push([{ tls: true }, 'tls', /tls: needs a stateDir, where the sandbox writes the CA certificate/]);
    if (!pkg.flags.world) cases.push([{ world: 'w.json' }, 'world', /its CLI has no --world/]);
    for (const [options, option, message] of cases) {
      await assert.rejects(pkg.api.startSandbox(options as never), (e: unknown) => {
        assert.ok(e instanceof pkg.api.InvalidOptionError, `${JSON.stringify(options)}: ${String(e)}`);
        assert.equal(e.code, 'INVALID_OPTION');
        assert.equal(e.option, option);
        assert.match(e.message, message);
        assert.match(e.message, /Fix the options passed to startSandbox\(\)/);
        return true;
      });
    }
  });

  it('a state dir another sandbox holds: StateDirLockedError (code STATE_DIR_LOCKED) naming the holder and what to do', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-pkg-lock-'));
    const first = await pkg.api.startSandbox({ stateDir: dir });
    try {
      await assert.rejects(pkg.api.startSandbox({ stateDir: dir }), (e: unknown) => {
        assert.ok(e instanceof pkg.api.StateDirLockedError, String(e));
        assert.equal(e.code, 'STATE_DIR_LOCKED');
        assert.equal(e.stateDir, dir);
        assert.equal(e.holderPid, first.pid);
        assert.match(e.message, /close that sandbox first, or give each sandbox a directory of its own/);
        return true;
      });
    } finally {
      await first.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // released by close(): the directory can be used again, and its state is back
    const again = await pkg.api.startSandbox({ stateDir: dir });
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an admin call the sandbox refuses: SandboxAdminError with its HTTP status and KuCoin code', async () => {
    const sb = await pkg.api.startSandbox();
    try {
      await assert.rejects(sb.admin.advanceClock(1000), (e: unknown) => {
        assert.ok(e instanceof pkg.api.SandboxAdminError, String(e));
        assert.deepStrictEqual([e.code, e.status, e.apiCode], ['ADMIN_REQUEST_FAILED', 400, '400100']);
        assert.match(e.message, /--manual-clock/);
        return true;
      });
      await assert.rejects(sb.admin.deposit({ currency: 'NOPE', amount: '1' }), pkg.api.SandboxAdminError);
    } finally {
      await sb.close();
    }
  });

  it('a closed sandbox, and one whose process died: SandboxClosedError (code CLOSED)', async () => {
    const sb = await pkg.api.startSandbox();
    await sb.close();
    await sb.close(); // idempotent
    await assert.rejects(sb.reset(), (e: unknown) => e instanceof pkg.api.SandboxClosedError && e.code === 'CLOSED' && /start another with startSandbox/.test(e.message));
    const dead = await pkg.api.startSandbox();
    process.kill(dead.pid, 'SIGKILL');
    // the exit reaches this process asynchronously: ask until the sandbox is known dead
    for (;;) {
      const e = await dead.admin.clock().then(
        () => undefined,
        (x: unknown) => x,
      );
      if (e instanceof pkg.api.SandboxClosedError) {
        assert.match(e.message, new RegExp(`the sandbox process ${dead.pid} exited \\(SIGKILL\\)`));
        break;
      }
      assert.ok(e === undefined || e instanceof pkg.api.SandboxAdminError, String(e));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await dead.close();
  });
});
