/**
 * Stock ccxt pro against a sandbox started with TLS, in a CHILD node process as a bot runs it:
 * `new ccxt.pro.kucoin({apiKey, secret, password, urls: {api: …}})` with only the URLs and the
 * credentials set, NO `loadHttpProxyAgent()` call (the streams are wss://), and an environment that
 * differs from the test's only by `NODE_EXTRA_CA_CERTS=<state dir>/ca.pem`, the instruction
 * docs/sandbox.md "TLS" gives. watchOrderBook, watchTrades, watchOrders and watchBalance are each
 * checked against the sandbox's own REST answers and engine.
 *
 * The child runs one watch call per command line on its stdin and prints the result as one JSON line;
 * the test sends a command, waits until the sandbox's feed has ccxt's subscription (a state), then makes
 * the change the watch call must report.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import ccxt from 'ccxt';
import { SpotClient } from '../../../src/api/client';
import * as D from '../../../src/api/decimal';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { ccxtApiUrls } from '../../../src/features/botSetup/model/botSnippets';
import { until } from './helpers';

const SYM = 'ETH-USDT';

/** The bot: stock ccxt pro, one watch call per command (see the module doc). */
const CHILD = `const ccxt = require('ccxt');
const readline = require('node:readline');
const config = require('./config.json');
const SYM = 'ETH/USDT';
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const queue = [];
let wake;
readline.createInterface({ input: process.stdin }).on('line', (l) => {
  queue.push(JSON.parse(l));
  if (wake) wake();
});
const next = async () => {
  while (!queue.length) await new Promise((r) => (wake = r));
  return queue.shift();
};
const levels = (side) => Array.from(side, ([p, a]) => [p, a]);

(async () => {
  const exchange = new ccxt.pro.kucoin(config);
  let book;
  try {
    for (;;) {
      const c = await next();
      if (c.cmd === 'close') break;
      if (c.cmd === 'watchOrderBook') {
        book = await exchange.watchOrderBook(SYM);
        out({ nonce: book.nonce });
      } else if (c.cmd === 'bookAt') {
        // the book watchOrderBook returned is kept current by ccxt: wait until it reached the sequence
        while (!(book.nonce >= c.nonce)) await new Promise((r) => setTimeout(r, 5));
        out({ nonce: book.nonce, bids: levels(book.bids), asks: levels(book.asks) });
      } else if (c.cmd === 'watchTrades') {
        const trades = await exchange.watchTrades(SYM);
        out(trades.map((t) => ({ id: t.id, price: t.price, amount: t.amount, side: t.side })));
      } else if (c.cmd === 'watchOrders') {
        const orders = await exchange.watchOrders(SYM);
        out(orders.map((o) => ({ id: o.id, status: o.status, price: o.price, amount: o.amount, side: o.side })));
      } else if (c.cmd === 'watchBalance') {
        const balance = await exchange.watchBalance();
        out({ USDT: balance.USDT });
      }
    }
  } finally {
    await exchange.close();
  }
})().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
`;

/** The child's stdout as JSON lines, each taken once. */
class Lines {
  private buf = '';
  private readonly lines: unknown[] = [];
  constructor(child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (c: Buffer) => {
      this.buf += c.toString('utf8');
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        try {
          this.lines.push(JSON.parse(line));
        } catch {
          this.lines.push({ notJson: line }); // fails the step that takes it, with the text
        }
        this.buf = this.buf.slice(i + 1);
      }
    });
  }
  get waiting(): number {
    return this.lines.length;
  }
  async take<T>(what: string, timeoutMs = 10_000): Promise<T> {
    await until(() => this.lines.length > 0, what, timeoutMs);
    return this.lines.shift() as T;
  }
}

describe('stream/ccxt pro against the sandbox with --tls (child process, NODE_EXTRA_CA_CERTS only)', function () {
  this.timeout(60_000);
  let dir: string;
  let sb: RunningSandbox;
  let rest: SpotClient;
  let child: ChildProcessWithoutNullStreams;
  let lines: Lines;
  let stderr = '';
  let n = 0;

  const send = (cmd: Record<string, unknown>): void => {
    child.stdin.write(JSON.stringify(cmd) + '\n');
  };
  const subscribed = (channel: 'l2' | 'match' | 'orderV1' | 'balance', key: string): Promise<void> =>
    until(() => sb.feed.publishing.subscribers(channel, key) > 0, `ccxt's ${channel} subscription (child stderr: ${stderr})`, 15_000);
  const best = (): { bid: string; ask: string } => {
    const b = sb.state.exchange.level2(SYM, 1);
    return { bid: b.bids[0][0], ask: b.asks[0][0] };
  };
  async function restingBuy(size = '0.01'): Promise<string> {
    const tick = sb.state.world.symbolMap.get(SYM)!.priceIncrement;
    return (await rest.placeOrder({ clientOid: `tls${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: D.add(best().bid, tick), size })).orderId;
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-ccxt-tls-'));
    const stateDir = path.join(dir, 'state');
    sb = await startSandbox({ stateDir, sim: false, manualClock: false, rateLimits: false, tls: true });
    const caPath = sb.tls?.caPath;
    assert.equal(caPath, path.join(stateDir, 'ca.pem'));
    const c = sb.credentials;
    rest = new SpotClient({
      baseUrl: sb.baseUrl,
      credentials: { apiKey: c.apiKey, apiSecret: c.apiSecret, apiPassphrase: c.apiPassphrase, keyVersion: '2' },
      agent: new https.Agent({ ca: sb.tls!.caPem, keepAlive: true }),
    });
    // the bot's project: its code, its config, and ccxt installed (this repository's)
    const bot = path.join(dir, 'bot');
    fs.mkdirSync(bot);
    fs.symlinkSync(path.resolve(__dirname, '../../../node_modules'), path.join(bot, 'node_modules'), 'junction');
    fs.writeFileSync(path.join(bot, 'bot.js'), CHILD);
    const urls = { api: ccxtApiUrls(new ccxt.pro.kucoin().urls.api as Record<string, unknown>, sb.baseUrl) };
    assert.ok(Object.values(urls.api).every((u) => u.startsWith('https://127.0.0.1:')));
    fs.writeFileSync(path.join(bot, 'config.json'), JSON.stringify({ apiKey: c.apiKey, secret: c.apiSecret, password: c.apiPassphrase, urls }));
    child = spawn(process.execPath, ['bot.js'], { cwd: bot, env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath! }, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    lines = new Lines(child);
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      send({ cmd: 'close' });
      child.stdin.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      if (child.exitCode === null) child.kill();
    }
    rest?.close();
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('watchOrderBook over wss:// syncs and equals the sandbox’s REST book', async () => {
    send({ cmd: 'watchOrderBook' });
    await subscribed('l2', SYM);
    // ccxt takes its REST snapshot after 5 buffered increments: make changes until it resolves
    const ids: string[] = [];
    for (let i = 0; i < 40 && lines.waiting === 0; i++) {
      const sent = sb.feed.stats.deliveries;
      ids.push(await restingBuy());
      await until(() => sb.feed.stats.deliveries > sent || lines.waiting > 0, 'the increment written to ccxt');
    }
    await lines.take('watchOrderBook');
    for (const id of ids.splice(0, 3)) await rest.cancelOrder(SYM, id);
    const full = await rest.getFullOrderBook(SYM);
    assert.equal(Number(full.sequence), sb.state.exchange.sequence(SYM));
    send({ cmd: 'bookAt', nonce: Number(full.sequence) });
    const ob = await lines.take<{ nonce: number; bids: number[][]; asks: number[][] }>('the book at the REST sequence');
    assert.equal(ob.nonce, Number(full.sequence));
    assert.deepEqual(ob.bids, full.bids.map(([p, s]) => [Number(p), Number(s)]));
    assert.deepEqual(ob.asks, full.asks.map(([p, s]) => [Number(p), Number(s)]));
    assert.ok(ob.bids.length > 3 && ob.asks.length > 3);
    for (const id of ids) await rest.cancelOrder(SYM, id);
  });

  it('watchTrades: a taker buy arrives with the engine’s trade ids, prices and sizes', async () => {
    send({ cmd: 'watchTrades' });
    await subscribed('match', SYM);
    const before = sb.state.exchange.trades(SYM).length;
    await rest.placeOrder({ clientOid: `tls${++n}`, symbol: SYM, side: 'buy', type: 'limit', price: best().ask, size: '0.002', timeInForce: 'IOC' });
    const engine = sb.state.exchange.trades(SYM).slice(before);
    assert.ok(engine.length > 0, 'the IOC traded');
    const trades = await lines.take<Array<{ id: string; price: number; amount: number; side: string }>>('watchTrades');
    assert.ok(trades.length > 0);
    for (const t of trades) {
      const e = engine.find((x) => String(x.tradeId) === t.id);
      assert.ok(e, `trade ${t.id} is one of the engine's`);
      assert.deepEqual([t.price, t.amount, t.side], [Number(e.price), Number(e.size), 'buy']);
    }
  });

  it('watchOrders and watchBalance: a placed order shows up open as REST has it, its cancel in the balance', async () => {
    send({ cmd: 'watchOrders' });
    await subscribed('orderV1', sb.credentials.uid);
    const id = await restingBuy('0.003');
    const orders = await lines.take<Array<{ id: string; status: string; price: number; amount: number; side: string }>>('watchOrders');
    const o = orders.find((x) => x.id === id);
    assert.ok(o, `order ${id} in ${JSON.stringify(orders)}`);
    const view = await rest.getOrder(SYM, id);
    assert.deepEqual([o.status, o.price, o.amount, o.side], ['open', Number(view.price), Number(view.size), 'buy']);

    send({ cmd: 'watchBalance' });
    await subscribed('balance', sb.credentials.uid);
    const held = (await rest.getAccounts({ currency: 'USDT', type: 'trade' }))[0];
    assert.equal(D.cmp(held.holds, '0'), 1, 'the order holds USDT');
    await rest.cancelOrder(SYM, id);
    const acc = (await rest.getAccounts({ currency: 'USDT', type: 'trade' }))[0];
    assert.equal(acc.holds, '0');
    const bal = await lines.take<{ USDT: { free: number; used: number; total: number } }>('watchBalance');
    assert.deepEqual(bal.USDT, { free: Number(acc.available), used: Number(acc.holds), total: Number(acc.balance) });
  });
});
