/**
 * Chromium end-to-end check of the request-builder webview, outside VS Code:
 *
 * - an in-process sandbox (startSandbox) and a real SpotClient with its default user's key;
 * - the panel's own message handling (RequestBuilderSession + RequestBuilderController, the same
 *   code the VS Code panel runs) bridged to the page through a fake `acquireVsCodeApi`;
 * - a loopback server serving the built bundle dist/webview/request-builder.js and
 *   media/request-builder.css under the panel's exact CSP (src/features/requestBuilder/page.ts),
 *   with VS Code Dark+ theme variables set on <html> through the CSSOM as VS Code does;
 * - headless Debian Chromium through playwright-core.
 *
 * Flow: fill a limit order, check live validation (price off the tick grid shows the reason next
 * to the field), fix it, run the order test, assert the result (200000, diagnosis, prehash,
 * masked key, no secret anywhere in the DOM), screenshot to screenshots/request-builder*.png.
 * Then the Experiment (a timestamp 6 s ahead: 400002, marked as an experiment, for one run), and a
 * wrong-secret client: 400005 with the diagnosis, more screenshots.
 *
 *   node esbuild.js --only webview-request-builder && npx tsx test/e2e/requestBuilder.e2e.ts
 */
import { strict as assert } from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { chromium, type Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { SpotClient } from '../../src/api/client';
import * as D from '../../src/api/decimal';
import { startSandbox } from '../../src/exchange/server/index';
import { RequestBuilderController, RequestBuilderSession } from '../../src/features/requestBuilder/controller';
import { panelHtml } from '../../src/features/requestBuilder/page';
import { emptyDraft, REQUEST_BUILDER_PROTOCOL, type ToWebview } from '../../src/features/requestBuilder/protocol';
import { FailureRecord } from './failure';

const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.join(ROOT, 'screenshots');

/** VS Code Dark+ colours (built-in theme values) for the variables the panel uses. */
const DARK: Record<string, string> = {
  '--vscode-font-family': '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", "Liberation Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': '"Droid Sans Mono", "Liberation Mono", "DejaVu Sans Mono", monospace',
  '--vscode-editor-font-size': '12px',
  '--vscode-foreground': '#cccccc',
  '--vscode-editor-background': '#1e1e1e',
  '--vscode-descriptionForeground': 'rgba(204, 204, 204, 0.7)',
  '--vscode-errorForeground': '#f48771',
  '--vscode-editorWarning-foreground': '#cca700',
  '--vscode-panel-border': 'rgba(128, 128, 128, 0.35)',
  '--vscode-widget-border': '#303031',
  '--vscode-focusBorder': '#007fd4',
  '--vscode-input-background': '#3c3c3c',
  '--vscode-input-foreground': '#cccccc',
  '--vscode-input-placeholderForeground': '#a6a6a6',
  '--vscode-dropdown-background': '#3c3c3c',
  '--vscode-dropdown-foreground': '#f0f0f0',
  '--vscode-dropdown-border': '#3c3c3c',
  '--vscode-inputValidation-errorBackground': '#5a1d1d',
  '--vscode-inputValidation-errorBorder': '#be1100',
  '--vscode-inputValidation-warningBackground': '#352a05',
  '--vscode-inputValidation-warningBorder': '#b89500',
  '--vscode-button-background': '#0e639c',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-hoverBackground': '#1177bb',
  '--vscode-button-secondaryBackground': '#3a3d41',
  '--vscode-button-secondaryForeground': '#ffffff',
  '--vscode-button-secondaryHoverBackground': '#45494e',
  '--vscode-statusBarItem-errorBackground': '#c72e0f',
  '--vscode-badge-background': '#4d4d4d',
  '--vscode-badge-foreground': '#ffffff',
  '--vscode-textCodeBlock-background': 'rgba(10, 10, 10, 0.4)',
  '--vscode-textBlockQuote-background': 'rgba(127, 127, 127, 0.1)',
  '--vscode-textBlockQuote-border': 'rgba(0, 122, 204, 0.5)',
  '--vscode-textLink-foreground': '#3794ff',
  '--vscode-charts-blue': '#3794ff',
  '--vscode-charts-purple': '#b180d7',
  '--vscode-charts-green': '#89d185',
  '--vscode-charts-orange': '#d18616',
  '--vscode-testing-iconPassed': '#73c991',
  '--vscode-diffEditor-insertedTextBackground': 'rgba(156, 204, 44, 0.2)',
};

async function main(): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const bundle = path.join(ROOT, 'dist', 'webview', 'request-builder.js');
  assert.ok(fs.existsSync(bundle), 'build first: node esbuild.js --only webview-request-builder');

  const sandbox = await startSandbox({ sim: false });
  const creds = sandbox.credentials;
  let client = new SpotClient({ baseUrl: sandbox.baseUrl, credentials: { apiKey: creds.apiKey, apiSecret: creds.apiSecret, apiPassphrase: creds.apiPassphrase, keyVersion: creds.keyVersion } });
  const controller = new RequestBuilderController({
    client: async () => client,
    publicClient: async () => client,
    symbols: () => client.getSymbols(),
    profile: () => ({ name: 'Sandbox (local)', sandbox: true }),
    confirm: async () => false,
    confirmPlacement: async () => undefined,
    withConfirmation: (_c, send) => send(),
    afterPlace: () => undefined,
    log: () => undefined,
  });

  let page: Page | undefined;
  const toPage: ToWebview[] = [];
  const session = new RequestBuilderSession(
    controller,
    {
      post: (msg) => {
        toPage.push(msg);
        void page?.evaluate((m) => window.postMessage(m, '*'), msg);
      },
      writeClipboard: async () => undefined,
      profile: () => ({ name: 'Sandbox (local)', sandbox: true }),
      warn: (line) => console.warn(line),
    },
    emptyDraft('', 'e2e0000000000000000000000000001'),
    false,
  );

  const nonce = crypto.randomBytes(16).toString('base64');
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (url === '/') {
      const vars = JSON.stringify(DARK);
      const pre = `(function(){var v=${vars};for(var k in v)document.documentElement.style.setProperty(k,v[k]);` +
        `var st=null;window.acquireVsCodeApi=function(){return{postMessage:function(m){window.__toExtension(m)},getState:function(){return st},setState:function(s){st=s}}}})();`;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(panelHtml({ cspSource: origin, nonce, scriptUri: `${origin}/dist/webview/request-builder.js`, styleUri: `${origin}/media/request-builder.css`, preScript: pre, bodyClass: 'vscode-dark' }));
    } else if (url === '/dist/webview/request-builder.js' || url === '/media/request-builder.css') {
      res.writeHead(200, { 'Content-Type': url.endsWith('.js') ? 'text/javascript' : 'text/css' });
      res.end(fs.readFileSync(path.join(ROOT, url)));
    } else if (url === '/favicon.ico') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  const cspViolations: string[] = [];
  const record = new FailureRecord('request-builder');
  try {
    page = record.watch(await browser.newPage({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 }), 'request builder');
    page.on('console', (m) => {
      if (m.type() === 'error') cspViolations.push(m.text());
    });
    page.on('pageerror', (e) => cspViolations.push(String(e)));
    await page.exposeFunction('__toExtension', (m: unknown) => {
      const msg = REQUEST_BUILDER_PROTOCOL.parseToHost(m);
      assert.ok(msg, `webview sent a message outside the protocol: ${JSON.stringify(m)}`);
      void session.handle(msg);
    });
    await page.goto(`${origin}/`);

    // init → symbols loaded, BTC-USDT selected, rules shown.
    await page.waitForSelector('#f-symbol option[value="BTC-USDT"]', { state: 'attached' });
    assert.equal(await page.inputValue('#f-symbol'), 'BTC-USDT');
    const rulesText = await page.textContent('.rb-rules');
    const btc = (await controller.symbols()).find((s) => s.symbol === 'BTC-USDT')!;
    assert.ok(rulesText?.includes(btc.priceIncrement), `rules box shows priceIncrement ${btc.priceIncrement}: ${rulesText}`);

    // No error before input: the empty limit order lacks price and size, but nothing is flagged yet.
    await page.waitForFunction(() => document.querySelector('.rb-badge')?.textContent === 'Profile: Sandbox (local) · sandbox');
    const shownBefore = await page.$$eval('.rb-field-msg', (els) => els.map((e) => e.textContent).filter((t) => t));
    assert.deepEqual(shownBefore, [], 'no error before input');
    assert.equal(await page.isDisabled('.rb-danger'), true, 'yet Place order is disabled');
    assert.equal(await page.getAttribute('.rb-danger', 'title'), 'Not ready to place: A limit order needs "price".');
    await page.screenshot({ path: path.join(SHOTS, 'request-builder-fresh.png') });
    // Typing a size alone flags nothing else; trying the order shows the missing price AT the price field.
    await page.fill('#f-size', '0.001');
    assert.equal(await page.textContent('#f-price-msg'), '');
    assert.equal(await page.textContent('#f-type-msg'), '');

    // Live validation: a price off the tick grid.
    const off = D.add('50000', D.mul(btc.priceIncrement, '0.5'));
    await page.fill('#f-price', off);
    await page.fill('#f-size', '0.001');
    await page.fill('#f-remark', 'e2e test');
    const priceMsg = await page.waitForSelector('#f-price-msg.rb-error');
    const priceText = (await priceMsg.textContent()) ?? '';
    assert.match(priceText, /is not a multiple of priceIncrement/);
    console.log(`live validation: "${priceText}"`);
    assert.equal(await page.isDisabled('.rb-danger'), true, 'Place order disabled while the form has errors');
    await page.waitForFunction(() => document.querySelector('.rb-prehash')?.textContent?.includes('"remark":"e2e·test"'));
    await page.screenshot({ path: path.join(SHOTS, 'request-builder-validation.png') });

    // Fix the price; the signed preview follows.
    await page.fill('#f-price', '50000');
    await page.waitForFunction(() => !document.querySelector('#f-price-msg')?.textContent);
    await page.waitForFunction(() => document.querySelector('.rb-prehash')?.textContent?.includes('"price":"50000"'));
    const prehash = (await page.textContent('.rb-prehash')) ?? '';
    assert.match(prehash, /^\d{13}POST\/api\/v1\/hf\/orders\/test\{"clientOid":"e2e0+1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","remark":"e2e·test"\}$/);

    // Run the order test against the sandbox.
    await page.click('text=Run order test');
    await page.waitForSelector('.rb-banner-ok');
    const banner = (await page.textContent('.rb-banner')) ?? '';
    assert.equal(banner, 'Order test: Accepted (200000)');
    const meta = (await page.textContent('.rb-result .rb-meta')) ?? '';
    assert.match(meta, /HTTP status200/);
    assert.match(meta, /Code200000/);
    assert.match(meta, /Latency\d+ ms/);
    const body = (await page.textContent('.rb-result pre.rb-body')) ?? '';
    assert.match(body, /"code": "200000"/);
    const html = await page.content();
    assert.ok(!html.includes(creds.apiSecret), 'secret never in the DOM');
    assert.ok(!html.includes(creds.apiPassphrase), 'passphrase never in the DOM');
    assert.ok(!html.includes(creds.apiKey), 'full API key never in the DOM');
    assert.ok(html.includes(`${creds.apiKey.slice(0, 4)}…${creds.apiKey.slice(-4)}`), 'masked API key shown');
    await page.screenshot({ path: path.join(SHOTS, 'request-builder.png'), fullPage: true });
    console.log(`order test: ${banner}; ${meta.replace(/\s+/g, ' ')}`);

    // The Experiment (sandbox profile): one order test signed 6 s ahead → 400002, marked as an experiment;
    // the override is for that run only.
    assert.equal(await page.isVisible('.rb-experiment'), true, 'the Experiment section shows on a sandbox profile');
    await page.click('.rb-experiment summary');
    await page.fill('#x-offset', '6000');
    await page.click('text=Run experiment (order test)');
    await page.waitForFunction(() => document.querySelector('.rb-banner strong')?.textContent === 'Experiment: Timestamp rejected (400002)');
    assert.equal(await page.textContent('.rb-experiment-tag'), 'Signed wrongly on purpose: timestamp +6000 ms.');
    assert.equal(await page.inputValue('#x-offset'), '', 'for one run only');
    await page.screenshot({ path: path.join(SHOTS, 'request-builder-experiment.png'), fullPage: true });
    console.log('experiment: timestamp +6000 ms → Timestamp rejected (400002)');

    // Wrong secret: 400005 and its diagnosis. (Key version 1 so the passphrase check passes.)
    const u = await fetch(`${sandbox.baseUrl}/sandbox/v1/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sandbox.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ keyVersion: '1' }),
    }).then((r) => r.json() as Promise<{ data: { apiKey: string; apiSecret: string; apiPassphrase: string } }>);
    client = new SpotClient({ baseUrl: sandbox.baseUrl, credentials: { apiKey: u.data.apiKey, apiSecret: `${u.data.apiSecret}x`, apiPassphrase: u.data.apiPassphrase, keyVersion: '1' } });
    await page.click('text=Run order test');
    await page.waitForSelector('.rb-banner-error');
    assert.equal(await page.textContent('.rb-banner'), 'Order test: Signature rejected (400005)');
    const diag = (await page.textContent('.rb-diagnosis')) ?? '';
    assert.match(diag, /API secret is wrong/);
    await page.screenshot({ path: path.join(SHOTS, 'request-builder-400005.png'), fullPage: true });
    console.log('wrong secret: Signature rejected (400005) with diagnosis');

    // A profile switch: the result belonged to the other exchange; the panel says whom it speaks to now.
    await session.profileChanged();
    await page.waitForFunction(() => document.querySelector('.rb-result')?.textContent === 'Run an order test to see the response.');
    assert.equal(
      await page.textContent('.rb-status span'),
      'Now speaking to profile "Sandbox (local)" (sandbox): the previous profile\'s result was cleared.',
    );
    assert.equal(session.lastRun, undefined);
    await page.screenshot({ path: path.join(SHOTS, 'request-builder-profile-switch.png'), fullPage: true });

    const csp = cspViolations.filter((t) => /Content Security Policy|Refused/.test(t));
    assert.deepEqual(csp, [], 'no CSP violations');
    assert.deepEqual(cspViolations, [], 'no console errors');
    console.log(`messages to webview: ${toPage.length}; screenshots in ${path.relative(ROOT, SHOTS)}/request-builder*.png`);
  } catch (err) {
    await record.save(err, [`messages to the webview: ${toPage.length}`, ...toPage.slice(-20).map((m) => JSON.stringify(m).slice(0, 500))]);
    throw err;
  } finally {
    await browser.close();
    server.close();
    client.close();
    await sandbox.close();
  }
}

main().then(
  () => {
    console.log('request builder e2e: OK');
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
