/**
 * Extension-host suite of the request builder against the embedded sandbox: the panel
 * opens and its webview initializes; a correct order test passes; a wrong secret gives 400005,
 * a skewed clock 400002, a key without Spot Trading 400007 — each with its diagnosis; "Place
 * order" (confirmation injected) creates an order that Active Orders shows. (Order documents and
 * their lenses: test/host/language.test.ts.)
 *
 * The panel is driven through its session (`session.handle(msg)` is what the webview's buttons
 * post); clients are swapped and the confirmation answered through the one test door
 * (`spotdesk.testHooks`: `setClient`, `prompts`, `requestBuilder()`).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as D from '../../src/api/decimal';
import type { RequestBuilderTestHooks } from '../../src/features/requestBuilder/host/index';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import { emptyDraft, type OrderDraft, type ToWebview } from '../../src/features/requestBuilder/protocol';
import { children, item, sandboxSuite, spotdesk, waitFor } from './helpers';

function oid(tag: string): string {
  return `rb${tag}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.slice(0, 40);
}

describe('Request builder', function () {
  this.timeout(60_000);
  const suite = sandboxSuite();
  let hooks: RequestBuilderTestHooks;
  let door: SpotDeskTestHooks;
  let price: string;
  /** `price` plus half a priceIncrement: off the tick grid. */
  let offPrice: string;

  const draft = (extra: Partial<OrderDraft> = {}): OrderDraft => ({ ...emptyDraft('BTC-USDT', oid('t')), price, size: '0.001', ...extra });
  const run = async (kind: 'runTest' | 'place', d: OrderDraft) => {
    const panel = hooks.panel();
    assert.ok(panel, 'panel open');
    const before = panel.session.lastRun;
    await panel.session.handle({ type: kind, draft: d });
    const after = panel.session.lastRun;
    return after === before ? undefined : after;
  };

  before(async () => {
    const api = (door = suite.hooks);
    await vscode.commands.executeCommand('spotdesk.openRequestBuilder');
    hooks = await api.requestBuilder();
    assert.ok(hooks, 'test hooks available in test mode');
    // A resting buy price: one increment below the best bid (never crosses the book).
    const client = await api.services.client();
    const rules = (await hooks.controller.symbols()).find((r) => r.symbol === 'BTC-USDT');
    assert.ok(rules, 'BTC-USDT listed');
    const book = await client.call('level2_20', { symbol: 'BTC-USDT' });
    const bid = book.bids[0]?.[0];
    price = bid ? D.roundDown(D.sub(bid, rules.priceIncrement), rules.priceIncrement) : D.roundDown('100', rules.priceIncrement);
    offPrice = D.add(price, D.mul(rules.priceIncrement, '0.5'));
  });

  after(() => {
    hooks?.panel()?.dispose();
  });

  it('opens the panel; the webview loads under its CSP and receives the symbol rules', async () => {
    const panel = hooks.panel();
    assert.ok(panel, 'spotdesk.openRequestBuilder opened the panel');
    // 30 s: room for the host's load watchdog (src/host/webviewHost.ts) to load a stuck page again.
    const init = await waitFor(
      'init message (webview posted "ready")',
      () => panel.session.posted.find((m): m is Extract<ToWebview, { type: 'init' }> => m.type === 'init'),
      30_000,
    ).catch((err: Error) => {
      // What the panel looked like when the webview had not said `ready`: shown or not, where.
      const p = panel.panel;
      const tabs = vscode.window.tabGroups.all.map((g) => `${g.viewColumn}${g.isActive ? '*' : ''}:[${g.tabs.map((t) => `${t.label}${t.isActive ? '*' : ''}`).join(', ')}]`);
      throw new Error(`${err.message}; panel visible=${p.visible} active=${p.active} column=${p.viewColumn} ready=${panel.host.ready}; tab groups ${tabs.join(' ')}; posted ${panel.session.posted.map((m) => m.type).join(',') || 'nothing'}`);
    });
    const btc = init.symbols.find((s) => s.symbol === 'BTC-USDT');
    assert.ok(btc, 'BTC-USDT rules sent');
    assert.ok(D.isDecimal(btc.priceIncrement) && D.isDecimal(btc.baseMinSize));
    assert.strictEqual(init.profile.sandbox, true);
  });

  it('preview: shows the prehash, body and redacted headers; never the secret', async () => {
    const u = await suite.newUser({ keyVersion: '1' });
    door.setClient(suite.clientOf(u));
    const panel = hooks.panel()!;
    const d = draft();
    await panel.session.handle({ type: 'draft', draft: d, seq: 1 });
    const pv = [...panel.session.posted].reverse().find((m): m is Extract<ToWebview, { type: 'preview' }> => m.type === 'preview');
    assert.ok(pv?.prepared, `preview signed: ${pv?.error}`);
    const body = `{"clientOid":"${d.clientOid}","symbol":"BTC-USDT","side":"buy","type":"limit","price":"${price}","size":"0.001"}`;
    assert.strictEqual(pv.prepared.body, body);
    assert.strictEqual(pv.prepared.prehash, `${pv.prepared.timestamp}POST/api/v1/hf/orders/test${body}`);
    assert.strictEqual(pv.prepared.headers['KC-API-SIGN'], '<redacted>');
    assert.match(pv.prepared.headers['KC-API-KEY'], /^.{4}….{4}$/);
    assert.strictEqual(typeof pv.prepared.measuredOffsetMs, 'number');
    assert.deepStrictEqual(pv.issues, []);
    assert.strictEqual(pv.prepared.keyVersion, '1');
    const all = JSON.stringify(panel.session.posted);
    assert.ok(!all.includes(u.apiSecret), 'secret never posted to the webview');
    assert.ok(!all.includes(u.apiPassphrase), 'plain (v1) passphrase never posted to the webview');
    assert.ok(!all.includes(u.apiKey), 'full API key never posted to the webview');
  });

  it('a correct order test passes (200000) with status, latency and rate-limit headers', async () => {
    const out = await run('runTest', draft());
    assert.ok(out, 'ran');
    assert.strictEqual(out.result.status, 200);
    assert.strictEqual(out.result.code, '200000');
    assert.strictEqual(out.result.diagnosis.title, 'Accepted (200000)');
    assert.ok(out.result.latencyMs >= 0);
    assert.ok(out.result.rateLimit.limit && out.result.rateLimit.remaining, `rate-limit headers: ${JSON.stringify(out.result.rateLimit)}`);
    assert.match(out.result.body, /"orderId": "/);
  });

  it('a deliberately wrong secret gives 400005 and the signature diagnosis', async () => {
    const u = await suite.newUser({ keyVersion: '1' });
    door.setClient(suite.clientOf(u, (c) => ({ ...c, apiSecret: `${c.apiSecret}x` })));
    const out = await run('runTest', draft());
    assert.ok(out);
    assert.strictEqual(out.result.code, '400005');
    assert.strictEqual(out.result.status, 401);
    const d = out.result.diagnosis;
    assert.strictEqual(d.title, 'Signature rejected (400005)');
    assert.strictEqual(d.details[0], 'The exchange said: "Invalid KC-API-SIGN".');
    assert.ok(d.details[1].endsWith(out.result.prepared.prehash.replace(/ /g, '·')), 'shows exactly what was signed');
    assert.ok(d.details.some((l) => l.startsWith('The API secret is wrong')));
    assert.ok(d.details.some((l) => l.startsWith('The body was re-serialized after signing')));
  });

  it('a skewed clock gives 400002 and the measured skew', async () => {
    const u = await suite.newUser({});
    const c = suite.clientOf(u);
    c.setClockOffset(-60_000);
    door.setClient(c);
    const out = await run('runTest', draft());
    assert.ok(out);
    assert.strictEqual(out.result.code, '400002');
    const d = out.result.diagnosis;
    assert.strictEqual(d.title, 'Timestamp rejected (400002)');
    const line = d.details.find((l) => l.startsWith('Measured against GET /api/v1/timestamp'));
    assert.ok(line, d.details.join('\n'));
    const m = /is \+(\d+\.\d{3}) s relative to the signing clock/.exec(line);
    assert.ok(m, line);
    assert.ok(Math.abs(Number(m[1]) - 60) < 5, `skew ≈ 60 s: ${m[1]}`);
    assert.ok(d.details.some((l) => l.startsWith('That exceeds the 5 s window')));
    assert.strictEqual(d.details[d.details.length - 1], 'Clock offset used when signing: −60.000 s.');
  });

  it('a key without Spot Trading gives 400007 and the permission diagnosis', async () => {
    const u = await suite.newUser({ permissions: ['General'] });
    door.setClient(suite.clientOf(u));
    const out = await run('runTest', draft());
    assert.ok(out);
    assert.strictEqual(out.result.code, '400007');
    assert.strictEqual(out.result.status, 403);
    assert.strictEqual(out.result.diagnosis.title, 'Missing permission (400007)');
    assert.match(out.result.diagnosis.details[1], /without the "Spot Trading" permission/);
  });

  it('an invalid parameter (400100) names the field at fault', async () => {
    const out = await run('runTest', draft({ price: offPrice }));
    assert.ok(out);
    assert.strictEqual(out.result.code, '400100', out.result.body);
    assert.strictEqual(out.result.diagnosis.field, 'price', JSON.stringify(out.result.diagnosis));
  });

  it('"Place order" asks first, naming the profile, with notional and fee; declining places nothing', async () => {
    let asked: { message: string; detail: string; action: string; cancel?: string } | undefined;
    door.prompts.confirm = async (message, detail, action, cancel) => {
      asked = { message, detail, action, cancel };
      return false;
    };
    const d = draft();
    const out = await run('place', d);
    assert.strictEqual(out, undefined);
    assert.ok(asked);
    // The sandbox is no real money: the question names the profile instead of saying "REAL".
    assert.strictEqual(asked.message, 'Place a buy limit order on BTC-USDT on the sandbox profile "Sandbox (local)"?');
    assert.deepStrictEqual([asked.action, asked.cancel], ['Place Order', "Don't Place"]);
    const lines = asked.detail.split('\n');
    assert.deepStrictEqual(lines.slice(0, 3), ['BUY limit on BTC-USDT', `price ${price}`, 'size 0.001']);
    // A resting buy one tick under the best bid: maker, at the sandbox user's maker rate (GET /api/v1/base-fee).
    const fees = await (await (await spotdesk()).services.client()).getBaseFee();
    const notional = D.mul(price, '0.001');
    assert.ok(lines.includes(`Notional: ${D.normalize(notional)} USDT`), asked.detail);
    assert.ok(lines.includes(`Estimated fee: ${D.normalize(D.mulUp(notional, fees.makerFeeRate, 6))} USDT (maker rate ${D.normalize(D.mul(fees.makerFeeRate, '100'))} %)`), asked.detail);
    assert.ok(asked.detail.endsWith('Profile: the sandbox profile "Sandbox (local)" (play money, not real). This sends POST /api/v1/hf/orders: the order goes to the matching engine.'), asked.detail);
    const client = await (await spotdesk()).services.client();
    const active = await client.getActiveOrders('BTC-USDT');
    assert.ok(!active.some((o) => o.clientOid === d.clientOid));
  });

  it('a limit buy above the best ask is confirmed with the crossing warning', async () => {
    let detail = '';
    door.prompts.confirm = async (_m, d) => {
      detail = d;
      return false;
    };
    const client = await (await spotdesk()).services.client();
    const ask = (await client.getLevel2('BTC-USDT')).asks[0][0];
    const above = D.add(ask, '100');
    assert.strictEqual(await run('place', draft({ price: above })), undefined);
    assert.match(detail, new RegExp(`⚠ This limit buy at ${above.replace('.', '\\.')} USDT crosses the spread \\(best ask [\\d.]+ USDT\\): it executes at once, as a taker\\.`));
    assert.match(detail, /Estimated fee: [\d.]+ USDT \(taker rate/);
  });

  it('"Place order" (confirmed) creates an order that Active Orders shows', async () => {
    const api = await spotdesk();
    door.prompts.confirm = async () => true;
    const d = draft();
    const out = await run('place', d);
    assert.ok(out);
    assert.strictEqual(out.result.code, '200000', out.result.body);
    assert.strictEqual(out.result.prepared.pathWithRawQuery, '/api/v1/hf/orders');
    const orderId = /"orderId": "([^"]+)"/.exec(out.result.body)?.[1];
    assert.ok(orderId);
    assert.ok(api.notedSymbols().includes('BTC-USDT'), 'symbol noted for Active Orders');
    const node = await waitFor('order in the Active Orders tree', async () => {
      const roots = await children(api.trees.orders);
      for (const r of roots) {
        for (const c of await children(api.trees.orders, r)) {
          const it = await item(api.trees.orders, c);
          if (it.id === `ord:BTC-USDT:${orderId}`) return c;
        }
      }
      return undefined;
    });
    assert.ok(node);
    const client = await api.services.client();
    await client.cancelOrder('BTC-USDT', orderId);
  });
});
