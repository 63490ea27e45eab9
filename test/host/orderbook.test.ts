/**
 * Extension-host suite of the order book panel: opens the panel against the embedded
 * sandbox, receives level-2 snapshots, checks one panel per symbol, pause-while-hidden and the
 * fresh snapshot on becoming visible again. `spotdesk.openOrderBook` returns nothing (no command hands
 * out an object); the panel's {@link OrderBookPanelHandle}, which records the last snapshot posted
 * to the webview, is read through the test door (`openMarketPanel` in ./helpers.ts).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { cmp } from '../../src/api/decimal';
import type { OrderBookPanelHandle } from '../../src/features/market/host';
import { parseSequence } from '../../src/features/market/model/viewModel';
import { openMarketPanel, spotdesk, useSandboxProfile, waitFor } from './helpers';

function assertSortedBook(s: { bids: readonly (readonly [string, string])[]; asks: readonly (readonly [string, string])[] }): void {
  assert.ok(s.bids.length > 0 && s.asks.length > 0, 'both sides have levels');
  for (let i = 1; i < s.bids.length; i++) assert.strictEqual(cmp(s.bids[i - 1][0], s.bids[i][0]), 1, 'bids high → low');
  for (let i = 1; i < s.asks.length; i++) assert.strictEqual(cmp(s.asks[i - 1][0], s.asks[i][0]), -1, 'asks low → high');
  assert.strictEqual(cmp(s.bids[0][0], s.asks[0][0]), -1, 'best bid below best ask');
}

describe('Order book panel', function () {
  this.timeout(90_000);
  let handle: OrderBookPanelHandle | undefined;

  before(async () => {
    await useSandboxProfile();
    await spotdesk();
  });

  after(async () => {
    (handle as unknown as { dispose?: () => void } | undefined)?.dispose?.();
  });

  it('is contributed as "SpotDesk: Open Order Book" with depth and interval settings', () => {
    const ext = vscode.extensions.getExtension('spotdesk.spotdesk')!;
    const pkg = ext.packageJSON as {
      activationEvents: string[];
      contributes: { commands: Array<{ command: string; title: string; category: string }>; configuration: { properties: Record<string, { default?: unknown; enum?: unknown }> } };
    };
    const cmd = pkg.contributes.commands.find((c) => c.command === 'spotdesk.openOrderBook');
    assert.deepStrictEqual(cmd && [cmd.category, cmd.title], ['SpotDesk', 'Open Order Book']);
    assert.deepStrictEqual(pkg.contributes.configuration.properties['spotdesk.orderBook.depth'].enum, [20, 100]);
    assert.strictEqual(pkg.contributes.configuration.properties['spotdesk.orderBook.refreshIntervalMs'].default, 1000);
    assert.ok(pkg.activationEvents.includes('onWebviewPanel:spotdesk.orderBook'), 'serializer restore activates the extension');
  });

  // First among the tests that open webviews: in code-server, a webview created while another one is
  // being torn down can wait forever for its service worker ("Found unexpected service worker
  // controller … Waiting for controllerchange" in the workbench console) and never load. The panels
  // below close and reopen freely; the request builder's first load must not race with that.
  it('switching to an unreachable profile with the book and the request builder open asks for the symbols once, then backs off', async () => {
    const api = await spotdesk();
    const seen: string[] = [];
    const original = api.connection.logRequest;
    api.connection.logRequest = function (e) {
      seen.push(`${e.method} ${e.path}${e.error ? ' failed' : ''}`);
      return original.call(this, e);
    };
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    try {
      // The request builder (kept alive while hidden) first, then the book in front of it (a hidden book does not poll).
      await vscode.commands.executeCommand('spotdesk.openRequestBuilder');
      const rb = await api.requestBuilder();
      await waitFor('the request builder initialised', () => rb.panel()?.session.posted.some((m) => m.type === 'init')).catch(async (err: Error) => {
        const p = rb.panel();
        const tabs = vscode.window.tabGroups.all.map((g) => g.tabs.map((t) => `${t.label}${t.isActive ? '*' : ''}`).join(', ')).join(' | ');
        const symbols = await Promise.race([rb.controller.symbols().then((l) => `${l.length} symbols`, (e: Error) => `symbols failed: ${e.message}`), new Promise((r) => setTimeout(() => r('symbols still pending after 5 s'), 5000))]);
        throw new Error(`${err.message}; panel ${p ? `visible=${p.host.panel.visible} active=${p.host.panel.active} hostReady=${p.host.ready} posted=${JSON.stringify(p.session.posted.map((m) => m.type))}` : 'none'}; ${String(symbols)}; tabs: ${tabs}`);
      });
      const book = await openMarketPanel('BTC-USDT');
      await book.nextSnapshot(30_000);
      await cfg.update('profiles', [{ name: 'Offline', baseUrl: 'http://127.0.0.1:9' }], vscode.ConfigurationTarget.Global);
      seen.length = 0;
      await cfg.update('activeProfile', 'Offline', vscode.ConfigurationTarget.Global);
      await waitFor('the book shows the failure', () => book.lastError, 30_000);
      const init = await waitFor('the request builder says the symbols failed', () =>
        rb.panel()?.session.posted.find((m) => m.type === 'init' && /Unreachable: connection refused/.test(m.symbolsError ?? '')),
      );
      // …and that it now speaks to the other profile: the old result is gone.
      assert.ok(init.type === 'init' && init.profileChanged === true && init.profile.name === 'Offline');
      assert.strictEqual(rb.panel()?.session.lastRun, undefined);
      // (Requests still answered by the sandbox while the switch propagates are not counted.)
      const symbols = () => seen.filter((r) => r === 'GET /api/v2/symbols failed').length;
      assert.strictEqual(symbols(), 3, `one shared request (its 3 attempts), not one per view: ${JSON.stringify(seen)}`);
      // Within the back-off every further caller gets the same failure without a request.
      await assert.rejects(api.services.symbols(), /ECONNREFUSED/);
      await assert.rejects(rb.controller.symbols(), /ECONNREFUSED/);
      assert.strictEqual(symbols(), 3);
      rb.panel()?.dispose();
      (book as unknown as { dispose(): void }).dispose();
    } finally {
      api.connection.logRequest = original;
      await useSandboxProfile();
    }
  });

  it('opens a panel for BTC-USDT and posts level-2 snapshots from the sandbox', async () => {
    handle = await openMarketPanel('BTC-USDT');
    assert.ok(handle, 'the test door has the panel the command opened');
    assert.strictEqual(handle.symbol, 'BTC-USDT');
    const first = await waitFor('first snapshot', () => handle!.lastPosted, 30_000);
    assert.strictEqual(first.symbol, 'BTC-USDT');
    assert.match(first.sequence, /^\d+$/);
    assert.ok(first.bids.length <= 20 && first.asks.length <= 20, 'level2_20 by default');
    assertSortedBook(first);
    // Polling goes on while visible (default interval 1000 ms).
    const next = await handle.nextSnapshot(15_000);
    assert.ok(parseSequence(next.sequence) >= parseSequence(first.sequence), `sequence ${next.sequence} not older than ${first.sequence}`);
    assert.ok(handle.postedCount >= 2);
  });

  it('relays the stream\'s heartbeat to the webview while the book is live (a quiet book is not a stale stream)', async () => {
    assert.ok(handle);
    await waitFor('the book live on the stream', () => handle!.feed.mode === 'stream' && handle!.feed.state === 'live', 30_000);
    const n = handle.heartbeatsPosted;
    // The sandbox publishes /market/snapshot every 2 s and answers pings: the connection beats whether or not the book changes.
    await waitFor('two more heartbeats posted', () => handle!.heartbeatsPosted >= n + 2, 15_000);
    assert.ok(!handle.posted.some((m) => m.type === 'heartbeat'), 'heartbeats are not kept in the message log');
  });

  it('reveals the existing panel instead of opening a second one', async () => {
    const again = await openMarketPanel('btc-usdt');
    assert.strictEqual(again, handle);
    const viaNode = await openMarketPanel({ symbol: 'BTC-USDT' });
    assert.strictEqual(viaNode, handle);
  });

  it('stops polling while hidden and sends a fresh snapshot when visible again', async () => {
    assert.ok(handle);
    const doc = await vscode.workspace.openTextDocument({ content: 'cover the order book', language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
    await waitFor('polling paused', () => !handle!.polling, 10_000);
    const polls = handle.pollCount;
    await new Promise((r) => setTimeout(r, 2500));
    assert.strictEqual(handle.pollCount, polls, 'no level-2 request while hidden');
    const before = handle.postedCount;
    const fresh = handle.nextSnapshot(15_000);
    await vscode.commands.executeCommand('spotdesk.openOrderBook', 'BTC-USDT'); // reveal
    const s = await fresh;
    assert.ok(handle.postedCount > before);
    assertSortedBook(s);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('closes cleanly and a new panel can use 100 levels', async () => {
    await waitFor('panel disposed', () => handle!.disposed, 10_000);
    assert.strictEqual(handle!.polling, false);
    await vscode.workspace.getConfiguration('spotdesk.orderBook').update('depth', 100, vscode.ConfigurationTarget.Global);
    try {
      handle = await openMarketPanel('BTC-USDT');
      assert.ok(handle && handle !== undefined);
      assert.strictEqual(handle.settings.depth, 100);
      const s = await handle.nextSnapshot(30_000);
      assertSortedBook(s);
      assert.ok(s.bids.length <= 100 && s.asks.length <= 100);
    } finally {
      await vscode.workspace.getConfiguration('spotdesk.orderBook').update('depth', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an unreachable profile: the public book is requested without credentials and the real failure is shown; switching back clears it', async () => {
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await cfg.update('profiles', [{ name: 'Offline', baseUrl: 'http://127.0.0.1:9' }], vscode.ConfigurationTarget.Global);
    await cfg.update('activeProfile', 'Offline', vscode.ConfigurationTarget.Global);
    try {
      const h = await openMarketPanel('ETH-USDT');
      assert.ok(h);
      const shown = await waitFor('the failure in the panel', () => h.lastError, 30_000);
      assert.match(shown, /^Unreachable: connection refused \(GET \/api\/v1\/market\/orderbook\/level2_20\) — check the profile's base URL/);
      assert.doesNotMatch(shown, /credentials/i, 'public data needs no key');
      assert.strictEqual(h.lastPosted, undefined);
      // Back to the sandbox: the book of the new profile replaces the error.
      await useSandboxProfile();
      const s = await h.nextSnapshot(30_000);
      assert.strictEqual(s.symbol, 'ETH-USDT');
      assert.strictEqual(h.lastError, null);
      (h as unknown as { dispose(): void }).dispose();
    } finally {
      await useSandboxProfile();
    }
  });

  it('rejects a malformed symbol argument', async () => {
    const r = await vscode.commands.executeCommand<unknown>('spotdesk.openOrderBook', '<img src=x onerror=alert(1)>');
    assert.strictEqual(r, undefined);
    assert.strictEqual((await spotdesk()).marketPanel('<img src=x onerror=alert(1)>'), undefined, 'no panel opened');
  });
});
