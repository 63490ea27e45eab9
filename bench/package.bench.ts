/**
 * `npm run bench -- package`: the `spotdesk-sandbox` npm package against its targets (docs/bots.md):
 * - the packed tarball ≤ 2 MB (scripts/build-sandbox-package.js, then `npm pack`);
 * - `startSandbox()` resolves ≤ 500 ms with the quiet market: STARTS sandboxes started and closed one after
 *   another from the built package, timed from the call to the resolved promise (the process's start, the
 *   bundle's load, seeding, listening, the ready message); judged on the median, p90 and max shown;
 * - `reset()` ≤ 50 ms: RESETS resets of one sandbox, each after a test's worth of admin calls (a user,
 *   a deposit, a clock move, a status change), timed from the call to the resolved promise (the HTTP
 *   round trip included); judged on the median, p90 and max shown. Also shown, not judged: resets back to
 *   back (nothing between them: each waits for the world the previous one left being prepared) and the
 *   sandbox's own time per reset.
 * - for the choice of a process per sandbox (src/sandboxApi/launch.ts): the same CLI started in a worker
 *   thread instead, to "listening", next to the forked process's time.
 */
import { execFileSync, fork } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

type Api = typeof import('../src/sandboxApi/index');

const ROOT = path.resolve(__dirname, '..');
const STARTS = Number(process.env.BENCH_PACKAGE_STARTS ?? 10);
const RESETS = Number(process.env.BENCH_PACKAGE_RESETS ?? 40);
const WORKER_STARTS = Number(process.env.BENCH_PACKAGE_WORKER_STARTS ?? 5);
const TARBALL_TARGET = 2 * 1024 * 1024;
const START_TARGET_MS = 500;
const RESET_TARGET_MS = 50;

const requireHere = createRequire(__filename);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function stats(xs: number[]): { median: number; p90: number; max: number; text: string } {
  const median = quantile(xs, 0.5);
  const p90 = quantile(xs, 0.9);
  const max = Math.max(...xs);
  return { median, p90, max, text: `median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms, max ${max.toFixed(1)} ms (n=${xs.length})` };
}

const verdict = (ok: boolean): string => (ok ? 'MET   ' : 'MISSED');

/** Fork a Node process that only sends one IPC message, and time it to that message: the floor under any start. */
function bareFork(script: string): Promise<number> {
  const t0 = performance.now();
  const c = fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
  return new Promise((resolve) => c.once('message', () => {
    const ms = performance.now() - t0;
    c.once('exit', () => resolve(ms));
    c.kill();
  }));
}

/** Start the package's CLI in a worker thread and time it to its "listening" line. */
function workerStart(cli: string): Promise<number> {
  const t0 = performance.now();
  const w = new Worker(cli, { argv: ['--port', '0', '--in-memory', '--no-sim', '--fast-reset'], stdout: true, stderr: true });
  return new Promise((resolve, reject) => {
    let out = '';
    w.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/listening on/.test(out)) {
        const ms = performance.now() - t0;
        void w.terminate().then(() => resolve(ms));
      }
    });
    w.once('error', reject);
  });
}

async function main(): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bench-package-'));
  try {
    const builder = requireHere(path.join(ROOT, 'scripts', 'build-sandbox-package.js')) as { build(dir: string): Promise<{ files: Record<string, number> }> };
    const pkgDir = path.join(out, 'pkg');
    const { files } = await builder.build(pkgDir);
    const [packed] = JSON.parse(execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['pack', pkgDir, '--pack-destination', out, '--json'], { encoding: 'utf8' })) as { size: number; unpackedSize: number }[];
    console.log(`package: ${Object.entries(files).map(([f, n]) => `${f} ${(n / 1024).toFixed(0)} KB`).join(', ')}`);
    console.log(`tarball: ${(packed.size / 1024).toFixed(0)} KB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KB unpacked`);

    const api = requireHere(path.join(pkgDir, 'index.cjs')) as Api;
    // warm the file cache once (a test runner's first start reads the bundle from disk too, but only once)
    await (await api.startSandbox()).close();
    const hello = path.join(out, 'hello.cjs');
    fs.writeFileSync(hello, "process.send('hello');\n");
    const starts: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const t0 = performance.now();
      const sb = await api.startSandbox({ market: 'quiet', seed: 1 });
      starts.push(performance.now() - t0);
      await sb.close();
      bare.push(await bareFork(hello));
    }
    const started = stats(starts);
    console.log(`startSandbox({ market: 'quiet' }) → resolved: ${started.text}`);
    console.log(`  for scale, in the same loop: a bare Node process, fork → its first IPC message: ${stats(bare).text} (the machine's floor under any start)`);

    const sb = await api.startSandbox({ market: 'quiet', seed: 1, manualClock: true });
    const resets: number[] = [];
    const own: number[] = [];
    let prepared = 0;
    for (let i = 0; i < RESETS; i++) {
      // a test's worth of work
      const u = await sb.admin.createUser({ balances: [{ currency: 'USDT', type: 'trade', amount: '1000' }] });
      await sb.admin.deposit({ uid: u.uid, currency: 'BTC', amount: '1' });
      await sb.admin.advanceClock(1000);
      await sb.admin.setStatus('cancelonly');
      const t0 = performance.now();
      const r = await sb.reset();
      resets.push(performance.now() - t0);
      own.push(r.tookMs);
      if (r.prepared) prepared++;
    }
    const back: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await sb.reset();
      back.push(performance.now() - t0);
    }
    await sb.close();
    const reset = stats(resets);
    console.log(`reset() after a test's worth of admin calls: ${reset.text}; the sandbox's own time ${stats(own).text}; ${prepared}/${RESETS} swapped in a prepared world`);
    console.log(`reset() back to back (not judged: each waits for the next world to be prepared): ${stats(back).text}`);

    const workers: number[] = [];
    for (let i = 0; i < WORKER_STARTS; i++) workers.push(await workerStart(path.join(pkgDir, 'cli.js')));
    console.log(`the same CLI in a worker thread → listening: ${stats(workers).text} (a process: median ${started.median.toFixed(1)} ms to a resolved startSandbox)`);

    console.log('targets:');
    console.log(`  ${verdict(packed.size <= TARBALL_TARGET)} packed tarball <= 2 MB: ${(packed.size / 1024 / 1024).toFixed(2)} MB`);
    console.log(`  ${verdict(started.median <= START_TARGET_MS)} startSandbox() <= ${START_TARGET_MS} ms (median; p90 ${started.p90.toFixed(0)}, max ${started.max.toFixed(0)}): ${started.median.toFixed(0)} ms`);
    console.log(`  ${verdict(reset.median <= RESET_TARGET_MS)} reset() <= ${RESET_TARGET_MS} ms (median; p90 ${reset.p90.toFixed(1)}, max ${reset.max.toFixed(1)}): ${reset.median.toFixed(1)} ms`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
