/**
 * The one webview panel host (src/host/webviewHost.ts) with a stand-in `vscode`
 * (./fakeVscode.ts): the page's CSP carries a fresh nonce; messages posted before `ready` are
 * queued and delivered in order; a hidden webview without retained context is not ready until it
 * says so again; invalid messages are logged and dropped; disposal runs once; and the funding
 * feature's panels — disposed by nobody before — close with the extension.
 */
import { strict as assert } from 'assert';
import * as v from '../../../src/webviewBridge/validate';
import { defineProtocol } from '../../../src/webviewBridge/protocol';
import { fakeContext, fakeVscode, install, type FakeVscode, type FakeWebviewPanel } from './fakeVscode';

const PROTOCOL = defineProtocol({
  toWebview: { n: v.object({ n: v.number() }) },
  toHost: { ready: v.object({}), click: v.object({ id: v.string({ max: 4 }) }) },
});
const KIND = { viewType: 'spotdesk.test', name: 'test panel', page: { title: 'T', script: 't.js', styles: ['t.css'] }, protocol: PROTOCOL };

describe('WebviewHost (stand-in vscode)', () => {
  let fake: FakeVscode;
  let uninstall: () => void;
  let mod: typeof import('../../../src/host/webviewHost');
  const env = () => ({ extensionUri: (fakeContext(3) as { extensionUri: never }).extensionUri, log: (fake.module.window as { createOutputChannel(): never }).createOutputChannel() });

  before(() => {
    fake = fakeVscode();
    uninstall = install(fake);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the stand-in is installed
    mod = require('../../../src/host/webviewHost') as typeof mod;
  });
  after(() => uninstall());
  beforeEach(() => {
    fake.panels.length = 0;
    fake.log.length = 0;
  });

  const open = (retain = false) => {
    const host = mod.WebviewHost.open(env(), { ...KIND, retainContextWhenHidden: retain }, 'Title');
    return { host, panel: fake.panels[fake.panels.length - 1] as FakeWebviewPanel };
  };

  it('renders the page under the strict policy with a fresh nonce, scripts on, command URIs off', () => {
    const a = open();
    const b = open();
    const nonce = (html: string) => /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonce(a.panel.webview.html));
    assert.notEqual(nonce(a.panel.webview.html), nonce(b.panel.webview.html));
    assert.match(a.panel.webview.html, /default-src 'none'/);
    assert.match(a.panel.webview.html, /<script nonce="[^"]+" src="file:\/\/[^"]*\/dist\/webview\/t\.js"><\/script>/);
    assert.match(a.panel.webview.html, /<link rel="stylesheet" href="file:\/\/[^"]*\/media\/t\.css">/);
    assert.equal(a.panel.options.enableScripts, true);
    assert.equal(a.panel.options.enableCommandUris, false);
    assert.equal(a.panel.options.retainContextWhenHidden, false);
    a.host.dispose();
    b.host.dispose();
  });

  it('queues what is posted before `ready` and delivers it in order, then fires onReady', () => {
    const { host, panel } = open();
    const order: string[] = [];
    host.onReady(() => order.push(`ready after ${panel.posted.length}`));
    host.post({ type: 'n', n: 1 });
    host.post({ type: 'n', n: 2 });
    assert.deepEqual(panel.posted, [], 'nothing reaches a webview that has not loaded');
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted, [{ type: 'n', n: 1 }, { type: 'n', n: 2 }]);
    assert.deepEqual(order, ['ready after 2']);
    host.post({ type: 'n', n: 3 });
    assert.deepEqual(panel.posted.at(-1), { type: 'n', n: 3 }, 'sent at once when ready');
    host.dispose();
  });

  it('a hidden webview without retained context queues until it says `ready` again; a retained one does not', () => {
    const { host, panel } = open(false);
    const seen: boolean[] = [];
    host.onDidChangeVisibility((vis) => seen.push(vis));
    panel.receive({ type: 'ready' });
    panel.setVisible(false);
    assert.equal(host.ready, false);
    host.post({ type: 'n', n: 7 });
    panel.setVisible(true);
    assert.deepEqual(panel.posted, []);
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted, [{ type: 'n', n: 7 }]);
    assert.deepEqual(seen, [false, true]);
    host.dispose();
    const r = open(true);
    r.panel.receive({ type: 'ready' });
    r.panel.setVisible(false);
    assert.equal(r.host.ready, true);
    r.host.dispose();
  });

  it('hands valid messages to the owner; logs and drops invalid ones', () => {
    const { host, panel } = open();
    const got: unknown[] = [];
    host.onMessage((m) => got.push(m));
    panel.receive({ type: 'click', id: 'a', extra: 'x' });
    panel.receive({ type: 'click', id: 'toolong' });
    panel.receive({ type: 'eval', code: '1' });
    assert.deepEqual(got, [{ type: 'click', id: 'a' }]);
    assert.deepEqual(fake.log, [
      'warn: test panel: ignored an invalid message from the webview (click.id: expected a string of at most 4 characters)',
      'warn: test panel: ignored an invalid message from the webview (unknown message type "eval")',
    ]);
    host.dispose();
  });

  it('disposes once: the tab closing fires onDidDispose, releases what the owner tracked, and stops posting', () => {
    const { host, panel } = open();
    let fired = 0;
    let released = 0;
    host.onDidDispose(() => fired++);
    host.track({ dispose: () => released++ });
    panel.receive({ type: 'ready' });
    panel.close();
    host.dispose();
    assert.equal(fired, 1);
    assert.equal(released, 1);
    assert.equal(host.disposed, true);
    host.post({ type: 'n', n: 1 });
    assert.deepEqual(panel.posted, []);
    host.track({ dispose: () => released++ });
    assert.equal(released, 2, 'tracking after disposal disposes at once');
  });

  describe('load watchdog (a page that never says `ready`)', () => {
    /** A manual clock: the watchdog's timers, fired by the test. */
    let timers: Array<{ fire: () => void; ms: number; live: boolean }>;
    const setTimer = (fire: () => void, ms: number) => {
      const t = { fire, ms, live: true };
      timers.push(t);
      return { dispose: () => void (t.live = false) };
    };
    const live = () => timers.filter((t) => t.live);
    /** Fire the one live timer (asserting there is exactly one). */
    const elapse = () => {
      const l = live();
      assert.equal(l.length, 1, 'one watchdog timer running');
      l[0].live = false;
      l[0].fire();
    };
    const openWatched = (retain = false) => {
      const host = mod.WebviewHost.open({ ...env(), setTimer }, { ...KIND, retainContextWhenHidden: retain }, 'Title');
      return { host, panel: fake.panels[fake.panels.length - 1] as FakeWebviewPanel };
    };
    beforeEach(() => {
      timers = [];
      fake.messages.length = 0;
      fake.ui.message = () => undefined;
    });
    const nonce = (html: string) => /script-src 'nonce-([^']+)'/.exec(html)?.[1];

    it('a webview that says ready in time: the timer stops and the page is loaded once', () => {
      const { host, panel } = openWatched();
      assert.deepEqual(live().map((t) => t.ms), [mod.READY_TIMEOUT_MS]);
      const html = panel.webview.html;
      panel.receive({ type: 'ready' });
      assert.deepEqual(live(), []);
      assert.equal(panel.webview.html, html);
      assert.deepEqual(fake.log, []);
      host.dispose();
    });

    it('reloads the page (fresh nonce) until the last load, then tells the person; a late ready still delivers the queue', async () => {
      const { host, panel } = openWatched();
      let reloads = 0;
      fake.ui.message = (_kind: string, _msg: string, _o: unknown, actions: string[]) => (actions.includes('Reload Window') ? 'Reload Window' : undefined);
      fake.commands.set('workbench.action.reloadWindow', () => void reloads++);
      host.post({ type: 'n', n: 1 });
      const pages = [panel.webview.html];
      for (let load = 2; load <= mod.MAX_PAGE_LOADS; load++) {
        elapse();
        pages.push(panel.webview.html);
        assert.match(fake.log.at(-1)!, new RegExp(`^warn: test panel: the webview did not say ready within 8 s; loading its page again \\(load ${load} of ${mod.MAX_PAGE_LOADS}\\)$`));
      }
      assert.equal(new Set(pages.map(nonce)).size, mod.MAX_PAGE_LOADS, 'each load has its own nonce');
      assert.equal(fake.messages.length, 0, 'nothing shown before the last load');
      elapse();
      assert.equal(panel.webview.html, pages.at(-1), 'no page load after the last');
      assert.deepEqual(live(), [], 'the watchdog gives up');
      assert.match(fake.log.at(-1)!, /^error: test panel: the webview did not say ready after 3 page loads/);
      assert.equal(fake.messages.length, 1);
      assert.equal(fake.messages[0].kind, 'error');
      assert.match(fake.messages[0].message, /the test panel panel did not load .*Close the panel and open it again; if it stays blank, reload the window\./);
      await new Promise((r) => setImmediate(r));
      assert.equal(reloads, 1, '"Reload Window" reloads the window');
      panel.receive({ type: 'ready' });
      assert.deepEqual(panel.posted, [{ type: 'n', n: 1 }]);
      assert.equal(fake.log.at(-1), `info: test panel: the webview said ready on page load ${mod.MAX_PAGE_LOADS}`);
      host.dispose();
    });

    it('watches only while the panel is shown: a hidden panel starts the count again when shown', () => {
      const { host, panel } = openWatched();
      elapse(); // load 2
      panel.setVisible(false);
      assert.deepEqual(live(), [], 'no timer while hidden');
      panel.setVisible(true);
      elapse();
      assert.match(fake.log.at(-1)!, /\(load 2 of 3\)$/, 'the count starts again for the new showing');
      panel.receive({ type: 'ready' });
      panel.setVisible(false);
      panel.setVisible(true);
      assert.equal(live().length, 1, 'a webview without retained context reloads when shown, so it is watched again');
      panel.receive({ type: 'ready' });
      host.dispose();
      const r = openWatched(true);
      r.panel.receive({ type: 'ready' });
      r.panel.setVisible(false);
      r.panel.setVisible(true);
      assert.deepEqual(live(), [], 'a retained, ready webview is not watched again');
      r.host.dispose();
    });

    it('a closed panel stops its watchdog', () => {
      const { panel } = openWatched();
      panel.close();
      assert.deepEqual(live(), []);
    });
  });

  it('PanelSet: panels leave it when closed, and disposing it closes the rest', () => {
    const set = new mod.PanelSet<string, import('../../../src/host/webviewHost').WebviewHost<typeof PROTOCOL>>();
    const a = open();
    const b = open();
    set.add('a', a.host);
    set.add('b', b.host);
    a.panel.close();
    assert.deepEqual(set.values(), [b.host]);
    set.dispose();
    assert.equal(b.panel.disposed, true);
    assert.equal(set.size, 0);
  });

  it('the funding feature disposes its deposit panels with the extension', () => {
    /* eslint-disable @typescript-eslint/no-require-imports -- the modules need the stand-in vscode */
    const { register } = require('../../../src/features/funding/host/index') as typeof import('../../../src/features/funding/host/index');
    const { FundingPanel } = require('../../../src/features/funding/host/panel') as typeof import('../../../src/features/funding/host/panel');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const ctx = fakeContext(3) as { subscriptions: Array<{ dispose(): void }>; extensionUri: never };
    const services = { context: ctx, log: env().log, onDidChangeProfile: () => ({ dispose() {} }), profile: () => ({ id: 'sandbox', name: 'Sandbox (local)', sandbox: true }) } as never;
    register(ctx as never, services);
    const panels = ctx.subscriptions.find((d) => d instanceof mod.PanelSet) as import('../../../src/host/webviewHost').PanelSet<string, import('../../../src/features/funding/host/panel').FundingPanel>;
    assert.ok(panels, 'the feature pushes its panel set to the subscriptions');
    const view = { currency: 'XRP', address: 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', memo: '12345', chain: 'XRP', depositMinSize: null, confirms: 1 };
    FundingPanel.showDeposit(env(), panels, view);
    const panel = fake.panels.at(-1)!;
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted, [{ type: 'deposit', view }]);
    for (const d of ctx.subscriptions.splice(0)) d.dispose();
    assert.equal(panel.disposed, true, 'closed with the extension');
  });
});
