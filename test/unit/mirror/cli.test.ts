/**
 * `spotdesk-sandbox --mirror URL --symbols A,B`: argument parsing (exit code 2 on bad arguments) and a CLI
 * process mirroring an in-process upstream sandbox.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { borrowedMarketStateDir, DEFAULT_STATE_DIR, parseArgs } from '../../../src/exchange/cli';
import type { RunningSandbox } from '../../../src/exchange/server';
import { rawRequest } from '../server/helpers';
import { startUpstream } from './helpers';

const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

function run(args: string[], cwd?: string): { child: ReturnType<typeof spawn>; line: Promise<string>; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(tsx, [path.join(process.cwd(), 'src', 'exchange', 'cli.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out);
    });
    void exit.then((code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  line.catch(() => undefined);
  return { child, line, exit, stderr: () => err };
}

describe('CLI --mirror', function () {
  this.timeout(30_000);

  it('parses --mirror and --symbols, refusing bad values and either one alone', () => {
    const a = parseArgs(['--mirror', 'https://api.kucoin.com/', '--symbols', 'btc-usdt,ETH-USDT,BTC-USDT']);
    assert.equal(a.mirrorUrl, 'https://api.kucoin.com');
    assert.deepEqual(a.symbols, ['BTC-USDT', 'ETH-USDT']);
    assert.throws(() => parseArgs(['--mirror', 'ftp://x']), /--mirror must be an http\(s\) URL/);
    assert.throws(() => parseArgs(['--mirror', 'http://127.0.0.1:1']), /--mirror needs --symbols/);
    assert.throws(() => parseArgs(['--symbols', 'BTC-USDT']), /--symbols is for --mirror/);
    assert.throws(() => parseArgs(['--mirror', 'http://127.0.0.1:1', '--symbols', 'BTCUSDT']), /--symbols must be a comma-separated list/);
  });

  it('without --state-dir, a mirror gets a state dir of its own (never the ordinary sandbox\'s), per upstream and symbol set', () => {
    const a = parseArgs(['--mirror', 'https://api.kucoin.com', '--symbols', 'BTC-USDT,ETH-USDT']);
    assert.match(a.stateDir ?? '', /^\.spotdesk-sandbox-mirror-[0-9a-f]{12}$/);
    assert.notEqual(a.stateDir, DEFAULT_STATE_DIR);
    assert.equal(a.ownStateDir, true);
    // the same market in another order is the same paper account; another symbol set or upstream is not
    assert.equal(parseArgs(['--mirror', 'https://api.kucoin.com', '--symbols', 'ETH-USDT,BTC-USDT']).stateDir, a.stateDir);
    assert.notEqual(parseArgs(['--mirror', 'https://api.kucoin.com', '--symbols', 'BTC-USDT']).stateDir, a.stateDir);
    assert.notEqual(parseArgs(['--mirror', 'http://127.0.0.1:9', '--symbols', 'BTC-USDT,ETH-USDT']).stateDir, a.stateDir);
    assert.equal(a.stateDir, borrowedMarketStateDir({ mirrorUrl: 'https://api.kucoin.com', symbols: ['ETH-USDT', 'BTC-USDT'] }));
    // an explicit --state-dir and --in-memory are kept as given; an ordinary sandbox keeps the default
    const given = parseArgs(['--mirror', 'https://api.kucoin.com', '--symbols', 'BTC-USDT', '--state-dir', 'mine']);
    assert.equal(given.stateDir, 'mine');
    assert.equal(given.ownStateDir, undefined);
    assert.equal(parseArgs(['--in-memory', '--mirror', 'https://api.kucoin.com', '--symbols', 'BTC-USDT']).ownStateDir, undefined);
    assert.equal(parseArgs([]).stateDir, DEFAULT_STATE_DIR);
    assert.equal(parseArgs([]).ownStateDir, undefined);
  });

  it('the startup line names the mirror\'s own state dir, and the ordinary default dir is not created', async () => {
    const up: RunningSandbox = await startUpstream();
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-mirror-cli-'));
    const p = run(['--mirror', up.baseUrl, '--symbols', 'BTC-USDT', '--port', '0'], cwd);
    try {
      const line = await p.line;
      const dir = path.join(fs.realpathSync(cwd), borrowedMarketStateDir({ mirrorUrl: up.baseUrl, symbols: ['BTC-USDT'] }));
      const m = /^SpotDesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+) \(mirror state in (.+)\)\n$/.exec(line);
      assert.ok(m, JSON.stringify(line));
      assert.equal(fs.realpathSync(m[2]), dir);
      assert.ok(fs.existsSync(path.join(dir, 'credentials.json')), 'the mirror keeps its state in its own dir');
      assert.equal(fs.existsSync(path.join(cwd, DEFAULT_STATE_DIR)), false, 'the ordinary sandbox dir stays untouched');
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
      await up.close();
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('exits with code 2 on bad arguments', async () => {
    const p = run(['--mirror', 'http://127.0.0.1:1']);
    assert.equal(await p.exit, 2);
    assert.match(p.stderr(), /--mirror needs --symbols/);
  });

  it('mirrors an upstream: listening line, the upstream book on its public endpoint, status open', async () => {
    const up: RunningSandbox = await startUpstream();
    const p = run(['--in-memory', '--mirror', up.baseUrl, '--symbols', 'BTC-USDT', '--port', '0']);
    try {
      const line = await p.line;
      const m = /^SpotDesk sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(line);
      assert.ok(m, JSON.stringify(line));
      const book = (await rawRequest(m[1], 'GET', '/api/v1/market/orderbook/level2_100?symbol=BTC-USDT')).json.data as { bids: string[][]; asks: string[][] };
      const want = up.state.exchange.level2('BTC-USDT', 100);
      assert.deepEqual(book.bids, want.bids);
      assert.deepEqual(book.asks, want.asks);
      assert.deepEqual((await rawRequest(m[1], 'GET', '/api/v1/status')).json.data, { status: 'open', msg: '' });
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
      await up.close();
    }
  });
});
