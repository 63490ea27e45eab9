/**
 * What "Use the Sandbox from a Bot…" hands out works AS GIVEN: every snippet is written to a file in a
 * bot project (a temp dir with the packages installed: this repository's node_modules) next to the
 * `.env` the command writes, and run with the exact command line its header comment gives, against a
 * sandbox of its variant: a plain one (like the embedded sandbox) and one started with TLS whose state
 * dir is the project's `.spotdesk-sandbox` (the CLI's default, which the --tls snippets name). Each run
 * must exit 0 having printed the sandbox's real balances and book. The child's environment has no
 * KUCOIN_* nor CA variable of its own: only what the command line sets.
 *
 * Python: the ccxt (Python) snippets run the same way when `python3` has ccxt; otherwise they are only
 * compiled (py_compile), and the run is reported pending. The Python TLS instruction
 * (REQUESTS_CA_BUNDLE) is checked with `requests`, the HTTP library of Python ccxt, when python3 has it.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BOT_ENV, ccxtJsSnippet, ccxtPythonSnippet, DEFAULT_STATE_DIR, envLines, mergeEnv, universalSdkSnippet, type BotCredentials, type SnippetVariant } from '../../../src/features/botSetup/model/botSnippets';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';

/** The command line of a snippet's header comment (the indented line after "…; run"). */
function commandOf(snippet: string): string {
  const lines = snippet.split('\n');
  const i = lines.findIndex((l) => /; run$/.test(l));
  assert.ok(i >= 0, 'the snippet says how to run it');
  const m = /^(?:\/\/|#) {3}(\S.*)$/.exec(lines[i + 1]);
  assert.ok(m, `a command line follows: ${lines[i + 1]}`);
  return m[1];
}

/** Run `command` with sh in `cwd`; the environment without KUCOIN_* and CA variables. */
function run(command: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('KUCOIN_') && !['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE', 'NODE_OPTIONS'].includes(k)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const python = (code: string): boolean => spawnSync('python3', ['-c', code], { stdio: 'ignore' }).status === 0;

describe('bot snippets (Use the Sandbox from a Bot…) run as given', function () {
  this.timeout(60_000);
  let project: string;
  const sandboxes = {} as Record<SnippetVariant, RunningSandbox>;
  const credsOf = (v: SnippetVariant): BotCredentials => sandboxes[v].credentials;

  before(async () => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-bot-'));
    fs.symlinkSync(path.resolve(__dirname, '../../../node_modules'), path.join(project, 'node_modules'), 'junction');
    sandboxes.plain = await startSandbox({ sim: false, seed: 1 });
    sandboxes.tls = await startSandbox({ sim: false, seed: 1, stateDir: path.join(project, DEFAULT_STATE_DIR), tls: true });
    for (const sb of Object.values(sandboxes)) {
      // one BTC-USDT trade of the default user: the balances move off their seed and the ticker has a last price
      const ask = sb.state.exchange.level2('BTC-USDT', 1).asks[0][0];
      sb.state.run('order.place', { uid: sb.credentials.uid, req: { clientOid: 'snippet-seed', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: ask, size: '0.001', timeInForce: 'IOC' } });
    }
  });
  after(async () => {
    for (const sb of Object.values(sandboxes)) await sb.close();
    fs.rmSync(project, { recursive: true, force: true });
  });

  /** Write the `.env` of variant `v`'s sandbox (what the command writes) and the snippet, run its command. */
  async function runSnippet(v: SnippetVariant, file: string, snippet: string): Promise<string> {
    assert.match(sandboxes[v].baseUrl, v === 'tls' ? /^https:/ : /^http:/);
    fs.writeFileSync(path.join(project, '.env'), envLines(credsOf(v), Date.now()));
    fs.writeFileSync(path.join(project, file), snippet);
    const r = await run(commandOf(snippet), project);
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  }

  const usdt = (v: SnippetVariant): { balance: string; available: string; holds: string } => {
    const sb = sandboxes[v];
    return sb.state.exchange.accounts(sb.credentials.uid, { currency: 'USDT', type: 'trade' })[0];
  };
  const top = (v: SnippetVariant, depth = 1): { bids: string[][]; asks: string[][] } => sandboxes[v].state.exchange.level2('BTC-USDT', depth);

  it('.env lines carry exactly the five variables; snippets carry no secret and read every variable they need', () => {
    const creds = credsOf('plain');
    const env = envLines(creds, Date.UTC(2026, 10, 24, 8, 0, 0));
    assert.deepEqual(
      env.split('\n').filter((l) => l && !l.startsWith('#')),
      [
        `${BOT_ENV.baseUrl}=${sandboxes.plain.baseUrl}`,
        `${BOT_ENV.apiKey}=${creds.apiKey}`,
        `${BOT_ENV.apiSecret}=${creds.apiSecret}`,
        `${BOT_ENV.apiPassphrase}=${creds.apiPassphrase}`,
        `${BOT_ENV.keyVersion}=2`,
      ],
    );
    assert.match(env, /^# SpotDesk sandbox \(local exchange on this machine, not real money\), 2026-11-24 08:00:00 UTC\n/);
    for (const v of ['plain', 'tls'] as const) {
      for (const s of [ccxtJsSnippet(v), ccxtPythonSnippet(v), universalSdkSnippet(v)]) {
        for (const c of [credsOf('plain'), credsOf('tls')]) for (const secret of [c.apiKey, c.apiSecret, c.apiPassphrase]) assert.ok(!s.includes(secret));
        for (const name of Object.values(BOT_ENV).filter((n) => n !== BOT_ENV.keyVersion)) assert.ok(s.includes(name), `${name} read`);
      }
    }
    // the plain ccxt program loads the agent ccxt needs for ws:// (a real call, not a comment); the TLS one does not need it
    assert.match(ccxtJsSnippet('plain'), /^ {2}await exchange\.loadHttpProxyAgent\(\);$/m);
    assert.ok(!ccxtJsSnippet('tls').includes('loadHttpProxyAgent'));
    assert.match(commandOf(ccxtJsSnippet('tls')), /^NODE_EXTRA_CA_CERTS=\.spotdesk-sandbox\/ca\.pem node /);
    assert.match(commandOf(universalSdkSnippet('tls')), /^NODE_EXTRA_CA_CERTS=\.spotdesk-sandbox\/ca\.pem npx tsx /);
    assert.match(commandOf(ccxtPythonSnippet('tls')), /REQUESTS_CA_BUNDLE=\.spotdesk-sandbox\/ca\.pem python3 bot\.py$/);
  });

  it('mergeEnv replaces the KUCOIN_* lines in place and keeps the others', () => {
    const creds = credsOf('plain');
    const old = `DEBUG=1\n${envLines({ ...creds, apiKey: 'old-key' }, 0)}\nOTHER=x\n`;
    const merged = mergeEnv(old, envLines(creds, 0));
    assert.equal(merged.split('\n').filter((l) => l.startsWith(`${BOT_ENV.apiKey}=`)).join(), `${BOT_ENV.apiKey}=${creds.apiKey}`);
    const nonBlank = merged.split('\n').filter(Boolean);
    assert.deepEqual(nonBlank.slice(0, 3), ['DEBUG=1', 'OTHER=x', nonBlank[2]]);
    assert.match(nonBlank[2], /^# SpotDesk sandbox/);
    assert.equal(nonBlank.length, 2 + 6, 'one SpotDesk block');
    assert.equal(mergeEnv('', 'A=1\n'), 'A=1\n');
  });

  for (const v of ['plain', 'tls'] as const) {
    it(`the ccxt (JavaScript) snippet for ${v === 'tls' ? 'a --tls sandbox' : 'the plain sandbox'} runs as given: the USDT balance (REST) and the BTC/USDT book (watchOrderBook)`, async () => {
      const out = await runSnippet(v, 'bot.js', ccxtJsSnippet(v));
      const bal = /^USDT \{ free: ([\d.e+-]+), used: ([\d.e+-]+), total: ([\d.e+-]+) \}$/m.exec(out);
      assert.ok(bal, out);
      const a = usdt(v);
      assert.deepEqual(bal.slice(1).map(Number), [Number(a.available), Number(a.holds), Number(a.balance)]);
      assert.notEqual(a.balance, '100000', 'the seed trade moved it');
      const book = /^BTC\/USDT best bid \[ ([\d.e+-]+), ([\d.e+-]+) \] best ask \[ ([\d.e+-]+), ([\d.e+-]+) \]$/m.exec(out);
      assert.ok(book, out);
      const b = top(v);
      assert.deepEqual(book.slice(1).map(Number), [b.bids[0][0], b.bids[0][1], b.asks[0][0], b.asks[0][1]].map(Number));
    });

    it(`the kucoin-universal-sdk snippet for ${v === 'tls' ? 'a --tls sandbox' : 'the plain sandbox'} runs as given: the BTC-USDT ticker and the USDT trade account`, async () => {
      const out = await runSnippet(v, 'bot.ts', universalSdkSnippet(v));
      const t = /^BTC-USDT last (\S+), best bid (\S+), best ask (\S+)$/m.exec(out);
      assert.ok(t, out);
      const sb = sandboxes[v];
      const last = sb.state.exchange.trades('BTC-USDT').at(-1)!;
      const b = top(v);
      assert.deepEqual(t.slice(1), [last.price, b.bids[0][0], b.asks[0][0]]);
      const acc = /^USDT trade account: available (\S+), on hold (\S+)$/m.exec(out);
      assert.ok(acc, out);
      assert.deepEqual(acc.slice(1), [usdt(v).available, usdt(v).holds]);
    });
  }

  it('the ccxt (Python) snippets are valid Python (py_compile)', function () {
    if (!python('import sys')) this.skip();
    for (const v of ['plain', 'tls'] as const) {
      const file = path.join(project, `bot_${v}.py`);
      fs.writeFileSync(file, ccxtPythonSnippet(v));
      const r = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    }
  });

  for (const v of ['plain', 'tls'] as const) {
    it(`the ccxt (Python) snippet for ${v === 'tls' ? 'a --tls sandbox' : 'the plain sandbox'} runs as given (pending when python3 has no ccxt)`, async function () {
      if (!python('import ccxt')) this.skip();
      const out = await runSnippet(v, 'bot.py', ccxtPythonSnippet(v));
      // Python prints floats (100.0): compare the numbers
      const bal = /^USDT \{'free': ([\d.e+-]+), 'used': ([\d.e+-]+), 'total': ([\d.e+-]+)\}$/m.exec(out);
      assert.ok(bal, out);
      const a = usdt(v);
      assert.deepEqual(bal.slice(1).map(Number), [Number(a.available), Number(a.holds), Number(a.balance)]);
      const book = /^BTC\/USDT best bid \[([\d.e+-]+), ([\d.e+-]+)\] best ask \[([\d.e+-]+), ([\d.e+-]+)\]$/m.exec(out);
      assert.ok(book, out);
      const b = top(v);
      assert.deepEqual(book.slice(1).map(Number), [b.bids[0][0], b.bids[0][1], b.asks[0][0], b.asks[0][1]].map(Number));
    });
  }

  it('the Python TLS instruction: requests (Python ccxt’s HTTP client) trusts the --tls sandbox with REQUESTS_CA_BUNDLE, and not without', async function () {
    if (!python('import requests')) this.skip();
    const get = `python3 -c "import requests; print(requests.get('${sandboxes.tls.baseUrl}/api/v1/timestamp').json()['code'])"`;
    const ok = await run(`REQUESTS_CA_BUNDLE=${DEFAULT_STATE_DIR}/ca.pem ${get}`, project);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), '200000');
    const refused = await run(get, project);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /CERTIFICATE_VERIFY_FAILED/);
    // Python's own ssl module (urllib, aiohttp's default context) with SSL_CERT_FILE
    const stdlib = await run(
      `SSL_CERT_FILE=${DEFAULT_STATE_DIR}/ca.pem python3 -c "import json, urllib.request; print(json.load(urllib.request.urlopen('${sandboxes.tls.baseUrl}/api/v1/timestamp'))['code'])"`,
      project,
    );
    assert.equal(stdlib.code, 0, stdlib.stderr);
    assert.equal(stdlib.stdout.trim(), '200000');
  });
});
