/**
 * `spotdesk-sandbox --mirror URL --symbols A,B`: argument parsing (exit code 2 on bad arguments) and a CLI
 * process mirroring an in-process upstream sandbox.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from '../../../src/exchange/cli';
import type { RunningSandbox } from '../../../src/exchange/server';
import { rawRequest } from '../server/helpers';
import { startUpstream } from './helpers';

const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

function run(args: string[]): { child: ReturnType<typeof spawn>; line: Promise<string>; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(tsx, ['src/exchange/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
