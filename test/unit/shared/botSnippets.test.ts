/**
 * What "Use the Sandbox from a Bot…" hands out works: the ccxt and kucoin-universal-sdk snippets, run
 * as written with the .env variables, talk to a live sandbox; the .env merge keeps other lines.
 */
import { strict as assert } from 'node:assert';
import * as esbuild from 'esbuild';
import { BOT_ENV, ccxtJsSnippet, ccxtPythonSnippet, envLines, mergeEnv, universalSdkSnippet, type BotCredentials } from '../../../src/shared/botSnippets';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { startTestSandbox } from '../server/helpers';

describe('bot snippets (Use the Sandbox from a Bot…)', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let creds: BotCredentials;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    sb = await startTestSandbox();
    creds = { ...sb.credentials, keyVersion: sb.credentials.keyVersion };
    // the variables a bot gets from the .env lines
    for (const line of envLines(creds, 0).split('\n')) {
      const m = /^(KUCOIN_[A-Z_]+)=(.*)$/.exec(line);
      if (!m) continue;
      saved[m[1]] = process.env[m[1]];
      process.env[m[1]] = m[2];
    }
  });
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await sb.close();
  });

  it('.env lines carry exactly the five variables; snippets carry no secret', () => {
    const env = envLines(creds, Date.UTC(2026, 10, 24, 8, 0, 0));
    assert.deepEqual(
      env.split('\n').filter((l) => l && !l.startsWith('#')),
      [
        `${BOT_ENV.baseUrl}=${sb.baseUrl}`,
        `${BOT_ENV.apiKey}=${creds.apiKey}`,
        `${BOT_ENV.apiSecret}=${creds.apiSecret}`,
        `${BOT_ENV.apiPassphrase}=${creds.apiPassphrase}`,
        `${BOT_ENV.keyVersion}=2`,
      ],
    );
    assert.match(env, /^# SpotDesk sandbox \(local exchange on this machine, not real money\), 2026-11-24 08:00:00 UTC\n/);
    for (const s of [ccxtJsSnippet(), ccxtPythonSnippet(), universalSdkSnippet()]) {
      for (const secret of [creds.apiKey, creds.apiSecret, creds.apiPassphrase]) assert.ok(!s.includes(secret));
      for (const name of Object.values(BOT_ENV).filter((n) => n !== BOT_ENV.keyVersion)) assert.ok(s.includes(name), `${name} read`);
    }
  });

  it('mergeEnv replaces the KUCOIN_* lines in place and keeps the others', () => {
    const old = `DEBUG=1\n${envLines({ ...creds, apiKey: 'old-key' }, 0)}\nOTHER=x\n`;
    const merged = mergeEnv(old, envLines(creds, 0));
    assert.equal(merged.split('\n').filter((l) => l.startsWith(`${BOT_ENV.apiKey}=`)).join(), `${BOT_ENV.apiKey}=${creds.apiKey}`);
    const nonBlank = merged.split('\n').filter(Boolean);
    assert.deepEqual(nonBlank.slice(0, 3), ['DEBUG=1', 'OTHER=x', nonBlank[2]]);
    assert.match(nonBlank[2], /^# SpotDesk sandbox/);
    assert.equal(nonBlank.length, 2 + 6, 'one SpotDesk block');
    assert.equal(mergeEnv('', 'A=1\n'), 'A=1\n');
  });

  it('the ccxt (JavaScript) snippet, run as written, reaches the sandbox with the key', async () => {
    const run = new Function('require', 'process', `${ccxtJsSnippet()}\nreturn exchange;`);
    const exchange = run(require, process) as { urls: { api: Record<string, string> }; fetchTime(): Promise<number>; apiKey: string; close(): Promise<void> };
    try {
      assert.ok(Object.values(exchange.urls.api).every((u) => u === sb.baseUrl));
      assert.equal(exchange.apiKey, creds.apiKey);
      const t = await exchange.fetchTime();
      assert.ok(Math.abs(t - sb.state.now()) < 5_000, `server time ${t}`);
    } finally {
      await exchange.close();
    }
  });

  it('the kucoin-universal-sdk snippet, compiled as written, reaches the sandbox', async () => {
    const js = (await esbuild.transform(universalSdkSnippet(), { loader: 'ts', format: 'cjs' })).code;
    const mod = { exports: {} as { spot?: { getMarketApi(): { getServerTime(): Promise<{ data: number }> } } } };
    new Function('require', 'module', 'exports', 'process', js)(require, mod, mod.exports, process);
    const t = await mod.exports.spot!.getMarketApi().getServerTime();
    assert.ok(Math.abs(t.data - sb.state.now()) < 5_000, `server time ${t.data}`);
  });
});
