/**
 * The `spotdesk-sandbox` package as a bot project gets it: built (scripts/build-sandbox-package.js),
 * packed with `npm pack`, installed from the tarball into a fresh project in os.tmpdir() — outside this
 * repository, so nothing resolves from its node_modules (checked) — next to ccxt, kucoin-universal-sdk and
 * mocha, which `npm install --prefer-offline` takes from the npm cache when they are there (after `npm ci`
 * they are) and from the registry otherwise: what works on a fresh CI clone. The versions are the ones this
 * repository tests with.
 *
 * Then, in that project: the tarball's contents and size (≤ 2 MB, no dependencies, no `vscode`), both module
 * formats and the bin, the declarations type-checked for an ESM and a CJS TypeScript consumer (this
 * repository's TypeScript compiler, run on the project; the project's own files are all it sees), and the
 * project's mocha suite test/fixtures/sandbox-package/two-sandboxes.spec.mjs (two sandboxes in parallel, ccxt
 * on one, kucoin-universal-sdk on the other, reset between tests, no crossing).
 */
import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtPackage, type BuiltPackage } from './built';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MAX_TARBALL_BYTES = 2 * 1024 * 1024;

/** The environment for the project's processes: no NODE_PATH / NODE_OPTIONS, nothing of an outer `npm test`. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === 'NODE_PATH' || k === 'NODE_OPTIONS' || k === 'INIT_CWD') continue;
    if (/^npm_/i.test(k) && !/^npm_config_(cache|registry|userconfig|proxy|https_proxy|noproxy|strict_ssl|cafile)$/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

/** Run a command in `cwd`; resolves with its output, rejects with it (and the exit code) on failure. */
function run(cmd: string, args: string[], cwd: string, timeoutMs = 180_000): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env: cleanEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed (${err.message}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** Version of a package installed in this repository (so the project tests what the repository tests). */
function repoVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

describe('spotdesk-sandbox package: packed, installed in a project outside the repository, used from its own test suite', function () {
  this.timeout(300_000);
  let pkg: BuiltPackage;
  let work: string;
  let project: string;
  let tarball: string;
  let packed: { size: number; files: { path: string }[] };

  before(async () => {
    pkg = await builtPackage();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-pkg-test-'));
    const [info] = JSON.parse((await run(NPM, ['pack', pkg.outDir, '--pack-destination', work, '--json'], work)).stdout) as { filename: string; size: number; files: { path: string }[] }[];
    tarball = path.join(work, info.filename);
    packed = info;
    project = path.join(work, 'bot');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'bot', version: '1.0.0', private: true }, null, 2));
    fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'sandbox-package', 'two-sandboxes.spec.mjs'), path.join(project, 'two-sandboxes.spec.mjs'));
    const deps = ['ccxt', 'kucoin-universal-sdk', 'mocha'].map((n) => `${n}@${repoVersion(n)}`);
    await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball, ...deps], project);
  });

  after(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('the project resolves everything from its own node_modules (none above it, none of the repository)', async () => {
    for (let d = path.dirname(project); d !== path.dirname(d); d = path.dirname(d)) assert.ok(!fs.existsSync(path.join(d, 'node_modules')), `${d} has a node_modules`);
    const { stdout } = await run(process.execPath, ['-p', "['spotdesk-sandbox', 'ccxt', 'kucoin-universal-sdk', 'mocha'].map((m) => require.resolve(m)).join('\\n')"], project);
    for (const f of stdout.trim().split('\n')) assert.ok(f.startsWith(path.join(fs.realpathSync(project), 'node_modules')) || f.startsWith(path.join(project, 'node_modules')), f);
  });

  it('the tarball is ≤ 2 MB and holds the built files only; the package has no dependencies and no vscode', () => {
    assert.ok(packed.size <= MAX_TARBALL_BYTES, `tarball ${packed.size} bytes`);
    assert.deepStrictEqual(packed.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'cli-flags.json', 'cli.js', 'index.cjs', 'index.d.cts', 'index.d.mts', 'index.mjs', 'package.json', 'sandbox-snapshot-worker.js']);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'spotdesk-sandbox', 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.dependencies, undefined);
    assert.equal(manifest.private, undefined);
    assert.deepStrictEqual(manifest.bin, { 'spotdesk-sandbox': 'cli.js' });
    for (const f of ['cli.js', 'sandbox-snapshot-worker.js', 'index.cjs', 'index.mjs']) {
      const text = fs.readFileSync(path.join(project, 'node_modules', 'spotdesk-sandbox', f), 'utf8');
      assert.doesNotMatch(text, /require\(["']vscode["']\)|from ["']vscode["']/, f);
    }
  });

  it('CommonJS and ES module entries export the same API', async () => {
    const script = "const c = require('spotdesk-sandbox'); import('spotdesk-sandbox').then((m) => console.log(JSON.stringify([Object.keys(c).sort(), Object.keys(m).filter((k) => k !== 'default').sort()])))";
    const [cjs, esm] = JSON.parse((await run(process.execPath, ['-e', script], project)).stdout) as string[][];
    assert.deepStrictEqual(esm, cjs);
    for (const name of ['startSandbox', 'ccxtUrls', 'sdkOptions', 'PortInUseError', 'InvalidOptionError', 'StateDirLockedError', 'SandboxStartError', 'SandboxAdminError', 'SpotDeskSandboxError']) assert.ok(cjs.includes(name), name);
  });

  it('the declarations type-check for an ESM and a CommonJS TypeScript consumer (module node16, strict)', async () => {
    const esm = `import { startSandbox, ccxtUrls, sdkOptions, PortInUseError, type Sandbox, type SandboxStartOptions } from 'spotdesk-sandbox';
const opts: SandboxStartOptions = { seed: 1, port: 0, market: 'quiet', manualClock: true };
// @ts-expect-error not a market profile
const wrong: SandboxStartOptions = { market: 'wild' };
export async function use(): Promise<string> {
  const sb: Sandbox = await startSandbox(opts);
  const user = await sb.admin.createUser({ balances: [{ currency: 'USDT', type: 'trade', amount: '1000' }] });
  await sb.admin.deposit({ uid: user.uid, currency: 'BTC', amount: '1' });
  await sb.admin.setStatus('cancelonly', 'maintenance');
  const now: number = await sb.admin.advanceClock(60_000);
  const info = await sb.reset();
  await sb.close();
  const e: unknown = new Error();
  return [ccxtUrls(sb).public, sdkOptions(sb, user).spotEndpoint, sb.wsUrl, String(now + info.tookMs), String(wrong), String(e instanceof PortInUseError && e.port)].join();
}
`;
    const cjs = `import sandbox = require('spotdesk-sandbox');
export async function use(): Promise<number> {
  const sb = await sandbox.startSandbox({ stateDir: 'state' });
  try {
    return (await sb.admin.clock()).now;
  } catch (e) {
    if (e instanceof sandbox.SandboxAdminError) return e.status;
    throw e;
  } finally {
    await sb.close();
  }
}
`;
    fs.writeFileSync(path.join(project, 'esm-consumer.mts'), esm);
    fs.writeFileSync(path.join(project, 'cjs-consumer.cts'), cjs);
    const tsconfig = { compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, types: [] }, files: ['esm-consumer.mts', 'cjs-consumer.cts'] };
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
  });

  it('npx spotdesk-sandbox (the bin) listens and answers', async () => {
    const bin = path.join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'spotdesk-sandbox.cmd' : 'spotdesk-sandbox');
    const child = spawn(bin, ['--port', '0', '--in-memory', '--no-sim'], { cwd: project, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /SpotDesk sandbox listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const r = (await (await fetch(`${baseUrl}/api/v1/timestamp`)).json()) as { code: string; data: number };
      assert.equal(r.code, '200000');
      assert.equal(typeof r.data, 'number');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it("the project's mocha suite passes: two sandboxes in parallel, ccxt on one, kucoin-universal-sdk on the other, reset between tests", async () => {
    const report = path.join(project, 'report.json');
    let failure = '';
    await run(process.execPath, [path.join('node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', 'json', '--reporter-option', `output=${report}`, 'two-sandboxes.spec.mjs'], project).catch((e: Error) => {
      failure = e.message;
    });
    assert.ok(fs.existsSync(report), `no report: ${failure}`);
    const r = JSON.parse(fs.readFileSync(report, 'utf8')) as { stats: { tests: number; passes: number; failures: number }; failures: { fullTitle: string; err: { message: string } }[] };
    assert.deepStrictEqual(
      r.failures.map((f) => `${f.fullTitle}: ${f.err.message}`),
      [],
      failure,
    );
    assert.equal(r.stats.passes, 6, JSON.stringify(r.stats));
  });
});
