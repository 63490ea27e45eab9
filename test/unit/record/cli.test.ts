/**
 * The command line of record and replay (src/exchange/cli.ts): `record` and `convert-tardis` argument parsing,
 * `--replay/--speed`, exit code 2 on bad arguments, and the bundled CLI recording from an upstream sandbox until
 * --duration-s or SIGTERM (exit 0, a complete file with its trailer, progress lines).
 */
import { strict as assert } from 'node:assert';
import * as D from '../../../src/api/decimal';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { borrowedMarketStateDir, DEFAULT_STATE_DIR, parseArgs, parseConvertTardisArgs, parseRecordArgs, replayMirrorOption } from '../../../src/exchange/cli';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { readRecording } from '../../../src/exchange/server/mirror/recording';
import { buildCli, startTestSandbox } from '../server/helpers';
import { recordSession, tempDir, trader, waitFor } from './helpers';

/** Run the CLI without blocking this process (the upstream sandbox lives in it). */
function runAsync(cli: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('record/replay command line', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  let cli: string;
  let up: RunningSandbox;

  before(async () => {
    tmp = tempDir('spotdesk-reccli-');
    cli = await buildCli(path.join(tmp.dir, 'dist'));
    up = await startTestSandbox({ rateLimits: false });
  });
  after(async () => {
    await up?.close();
    tmp?.cleanup();
  });

  it('parseRecordArgs: required options, defaults, every option, errors', () => {
    assert.deepEqual(parseRecordArgs(['--from', 'https://api.kucoin.com/', '--symbols', 'BTC-USDT,ETH-USDT', '--out', 'x.sdrec']), {
      from: 'https://api.kucoin.com',
      symbols: ['BTC-USDT', 'ETH-USDT'],
      out: 'x.sdrec',
      snapshotEveryS: 300,
      flushMs: 1000,
      progressS: 5,
      help: false,
    });
    const all = parseRecordArgs(['--from=http://127.0.0.1:9', '--symbols=BTC-USDT', '--out', 'y', '--duration-s', '60', '--snapshot-every-s', '0', '--flush-ms', '250', '--progress-s', '0']);
    assert.deepEqual([all.durationS, all.snapshotEveryS, all.flushMs, all.progressS], [60, 0, 250, 0]);
    assert.equal(parseRecordArgs(['--help']).help, true);
    assert.throws(() => parseRecordArgs(['--symbols', 'BTC-USDT', '--out', 'x']), /--from is required/);
    assert.throws(() => parseRecordArgs(['--from', 'http://h', '--out', 'x']), /--symbols is required/);
    assert.throws(() => parseRecordArgs(['--from', 'http://h', '--symbols', 'BTC-USDT']), /--out is required/);
    assert.throws(() => parseRecordArgs(['--from', 'ftp://h', '--symbols', 'BTC-USDT', '--out', 'x']), /--from must be an http\(s\) base URL/);
    assert.throws(() => parseRecordArgs(['--from', 'http://h', '--symbols', 'btc_usdt', '--out', 'x']), /--symbols must be .*got btc_usdt/);
    assert.throws(() => parseRecordArgs(['--from', 'http://h', '--symbols', 'BTC-USDT,BTC-USDT', '--out', 'x']), /twice/);
    assert.throws(() => parseRecordArgs(['--from', 'http://h', '--symbols', 'BTC-USDT', '--out', 'x', '--duration-s', '0']), /--duration-s must be an integer in \[1,/);
    assert.throws(() => parseRecordArgs(['--from', '--symbols', 'BTC-USDT']), /--from needs a value/);
    assert.throws(() => parseRecordArgs(['--bogus']), /unknown option --bogus/);
  });

  it('parseConvertTardisArgs and --replay/--speed of the sandbox', () => {
    assert.deepEqual(parseConvertTardisArgs(['--book', 'b.csv.gz', '--trades', 't.csv.gz', '--symbol', 'BTC-USDT', '--out', 'o']), { book: 'b.csv.gz', trades: 't.csv.gz', symbol: 'BTC-USDT', out: 'o', help: false });
    assert.throws(() => parseConvertTardisArgs(['--book', 'b', '--out', 'o']), /--symbol is required/);
    assert.throws(() => parseConvertTardisArgs(['--book', 'b', '--symbol', 'x', '--out', 'o']), /--symbol must look like BTC-USDT/);
    const a = parseArgs(['--replay', 'r.sdrec', '--speed', '10', '--manual-clock']);
    assert.deepEqual([a.replay, a.speed, a.manualClock], ['r.sdrec', 10, true]);
    assert.equal(parseArgs(['--replay=r', '--speed=Infinity']).speed, Infinity);
    assert.equal(parseArgs(['--replay', 'r', '--speed', '0.5']).speed, 0.5);
    assert.throws(() => parseArgs(['--replay', 'r', '--speed', '-1']), /--speed must be a non-negative number/);
    assert.throws(() => parseArgs(['--speed', '2']), /--speed needs --replay/);
  });

  it('the CLI exits 2 with the usage on bad arguments, 0 with --help', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });
    const bad = run('record', '--symbols', 'BTC-USDT');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--from is required\nusage: spotdesk-sandbox record/);
    const help = run('record', '--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /usage: spotdesk-sandbox record --from BASE_URL/);
    const conv = run('convert-tardis', '--nope');
    assert.equal(conv.status, 2);
    assert.match(conv.stderr, /unknown option --nope\nusage: spotdesk-sandbox convert-tardis/);
    assert.equal(run('--speed', 'x', '--replay', 'f').status, 2);
  });

  it('record --duration-s: exit 0, progress, a complete recording; SIGTERM stops cleanly too', async () => {
    const file = path.join(tmp.dir, 'd.sdrec');
    const r = await runAsync(cli, ['record', '--from', up.baseUrl, '--symbols', 'BTC-USDT', '--out', file, '--duration-s', '1', '--progress-s', '0']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^recording BTC-USDT from http:\/\/127\.0\.0\.1:\d+ to .*d\.sdrec\n/);
    assert.match(r.stdout, /recording stopped \(duration 1 s\): \d+ events \(0 l2, 0 trades, 1 snapshots, 2 status\), \d+ bytes in \d+ blocks\n$/);
    const rec = readRecording(file);
    assert.deepEqual(rec.warnings, []);
    assert.equal(rec.end?.reason, 'duration 1 s');
    assert.deepEqual(rec.events.map((e) => e.type), ['status', 'snapshot', 'status']);

    const file2 = path.join(tmp.dir, 't.sdrec');
    const child = spawn(process.execPath, [cli, 'record', '--from', up.baseUrl, '--symbols', 'BTC-USDT', '--out', file2, '--progress-s', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    await waitFor(() => /recorded \d+ events/.test(out), 'a progress line', 20_000);
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
    assert.match(out, /recording stopped \(SIGTERM\)/);
    assert.equal(readRecording(file2).end?.reason, 'SIGTERM');
  });

  it('--replay without --state-dir keeps its state in a dir of its own per recording, named in the startup line', async () => {
    const a = parseArgs(['--replay', path.join(tmp.dir, 'a.sdrec')]);
    assert.match(a.stateDir ?? '', /^\.spotdesk-sandbox-replay-[0-9a-f]{12}$/);
    assert.equal(a.ownStateDir, true);
    assert.notEqual(parseArgs(['--replay', path.join(tmp.dir, 'b.sdrec')]).stateDir, a.stateDir);
    assert.equal(parseArgs(['--replay', path.join(tmp.dir, 'a.sdrec'), '--speed', '10']).stateDir, a.stateDir);
    assert.equal(parseArgs(['--replay', 'x.sdrec', '--state-dir', 'mine']).stateDir, 'mine');
    assert.equal(parseArgs(['--replay', 'x.sdrec', '--in-memory']).ownStateDir, undefined);

    const c = await trader(up);
    const file = path.join(tmp.dir, 'own.sdrec');
    await recordSession(up, c, file, 1, { symbols: ['BTC-USDT'] });
    c.close();
    const cwd = path.join(tmp.dir, 'cwd-own');
    fs.mkdirSync(cwd);
    const child = spawn(process.execPath, [cli, '--replay', file, '--speed', '0'], { stdio: ['ignore', 'pipe', 'pipe'], cwd });
    const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => out.includes('\n'), 'the replay sandbox listening', 30_000);
      const m = /^SpotDesk sandbox listening on http:\/\/\S+ \(replay state in (.+)\)\n$/.exec(out);
      assert.ok(m, JSON.stringify(out));
      const dir = path.join(fs.realpathSync(cwd), borrowedMarketStateDir({ replay: file }));
      assert.equal(fs.realpathSync(m[1]), dir);
      assert.ok(fs.existsSync(path.join(dir, 'credentials.json')), 'the replay keeps its state in its own dir');
      assert.equal(fs.existsSync(path.join(cwd, DEFAULT_STATE_DIR)), false, 'the ordinary sandbox dir stays untouched');
    } finally {
      child.kill('SIGTERM');
      await exit;
    }
  });

  it('--replay builds the replay option from the file, and the CLI serves the recorded book through the mirror market', async () => {
    const c = await trader(up);
    const file = path.join(tmp.dir, 'r.sdrec');
    await recordSession(up, c, file, 1, { symbols: ['BTC-USDT'] });
    c.close();
    const opt = replayMirrorOption(file, 5, false);
    assert.equal(opt.label, 'replay');
    assert.deepEqual(opt.world.symbols.map((x) => x.symbol), ['BTC-USDT']);
    assert.deepEqual(opt.world.currencies.map((x) => x.currency).sort(), ['BTC', 'USDT']);
    assert.deepEqual(opt.world.candles, {});
    assert.equal(opt.source.header.source, up.baseUrl);
    await opt.source.close();
    assert.throws(() => parseArgs(['--replay', file, '--mirror', 'http://h', '--symbols', 'BTC-USDT']), /exclude each other/);
    // the bundled CLI serves the recording: its public book is the upstream's book as recorded (unchanged since)
    const child = spawn(process.execPath, [cli, '--replay', file, '--speed', '0', '--in-memory'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => /listening on http:\/\/\S+/.test(out), 'the replay sandbox listening', 30_000);
      const base = /listening on (http:\/\/\S+)/.exec(out)![1];
      type Book = { bids: [string, string][]; asks: [string, string][] };
      const norm = (b: Book) => JSON.stringify([b.bids, b.asks].map((side) => side.map(([p, q]) => [D.normalize(p), D.normalize(q)])));
      const want = norm(up.state.exchange.level2('BTC-USDT', 100) as Book);
      assert.ok((JSON.parse(want) as unknown[][])[0].length > 0 && (JSON.parse(want) as unknown[][])[1].length > 0, 'a book on both sides');
      let got = '';
      // the replay delivers the recording's events on timers even at speed 0: read until the book is complete
      const t0 = Date.now();
      while (got !== want && Date.now() - t0 < 30_000) {
        const r = (await (await fetch(`${base}/api/v1/market/orderbook/level2_100?symbol=BTC-USDT`)).json()) as { data: Book };
        got = norm(r.data);
      }
      assert.equal(got, want, 'the replayed book equals the recorded one');
    } finally {
      child.kill('SIGTERM');
    }
    const missing = await runAsync(cli, ['--replay', path.join(tmp.dir, 'none.sdrec')]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /ENOENT/);
  });
});
