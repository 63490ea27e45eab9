/**
 * Extension-host suite: activation (lazy, measured), contributions, application-scoped settings
 * and the built-in Sandbox (local) profile coming up.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activated, EXTENSION_ID, spotdesk, TEST_HOOKS_COMMAND, useSandboxProfile, waitFor } from './helpers';

describe('SpotDesk activation and profiles', () => {
  it('declares no eager activation events and activates from its views and commands', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension loaded');
    const pkg = ext.packageJSON as { activationEvents: string[]; contributes: { views: Record<string, Array<{ id: string }>> } };
    // No '*': views and commands activate SpotDesk implicitly; the explicit events are webview-panel
    // restores of the features and onStartupFinished (after start-up, never delaying it), which price
    // alerts need so that an alert crossed while VS Code was closed fires on the next start;
    // with no armed alert, that activation does no network I/O (next test).
    assert.deepStrictEqual(pkg.activationEvents.filter((e) => !e.startsWith('onWebviewPanel:')), ['onStartupFinished']);
    assert.deepStrictEqual(
      pkg.contributes.views.spotdesk.map((v) => v.id),
      ['spotdesk.accounts', 'spotdesk.orders', 'spotdesk.markets', 'spotdesk.orderHistory', 'spotdesk.fills', 'spotdesk.fundingHistory', 'spotdesk.alerts'],
    );
  });

  it('activates without network I/O, reports how long activate() took and exports nothing else', async () => {
    const exported = await activated();
    assert.deepStrictEqual(Object.keys(exported), ['activationMs'], 'activate() exports only harmless data');
    assert.strictEqual(typeof exported.activationMs, 'number');
    assert.ok(Number.isFinite(exported.activationMs) && exported.activationMs > 0, `activationMs = ${exported.activationMs}`);
    console.log(`      activate() took ${exported.activationMs.toFixed(1)} ms`);
    // activate() did no network I/O: the sandbox starts on first need, no view has loaded yet.
    const api = await spotdesk();
    assert.strictEqual(api.connection.sandboxStarted(), false);
    assert.strictEqual(api.connection.currentClient(), undefined);
  });

  it('has exactly one test door, registered outside Production and not contributed in package.json', async () => {
    await spotdesk();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed = (ext.packageJSON as { contributes: { commands: Array<{ command: string }> } }).contributes.commands.map((c) => c.command);
    assert.ok(!contributed.some((c) => /testHooks/i.test(c)), 'no test command in package.json');
    // Registered but not contributed: only the door and the order-document lens (the request builder's
    // contributed "Run Order Test" is a palette command like any other).
    const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('spotdesk.') && /test/i.test(c) && !contributed.includes(c));
    assert.deepStrictEqual(registered.sort(), [TEST_HOOKS_COMMAND, 'spotdesk.orderDocument.testOrder'].sort());
  });

  it('registers the core commands', async () => {
    await spotdesk();
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of [
      'spotdesk.selectProfile',
      'spotdesk.setCredentials',
      'spotdesk.clearCredentials',
      'spotdesk.refresh',
      'spotdesk.transfer',
      'spotdesk.cancelOrder',
      'spotdesk.cancelAllForSymbol',
      'spotdesk.showFills',
      'spotdesk.copyOrderId',
      'spotdesk.addToWatchlist',
    ]) {
      assert.ok(all.has(id), `command ${id} registered`);
    }
  });

  it('declares the request-routing settings application-scoped', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const props = (ext.packageJSON as { contributes: { configuration: { properties: Record<string, { scope?: string }> } } }).contributes
      .configuration.properties;
    assert.strictEqual(props['spotdesk.profiles'].scope, 'application');
    assert.strictEqual(props['spotdesk.activeProfile'].scope, 'application');
  });

  it("ignores a workspace's attempt to add a profile or switch the active one", async () => {
    await useSandboxProfile();
    const api = await spotdesk();
    // The test workspace's .vscode/settings.json sets an "Evil" profile and makes it active.
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    assert.strictEqual(cfg.get('pollIntervalSeconds'), 7, 'control: the workspace settings file is read');
    assert.deepStrictEqual(cfg.get('profiles'), []);
    assert.strictEqual(cfg.get('activeProfile'), 'Sandbox (local)');
    assert.deepStrictEqual(api.services.profile(), { id: 'sandbox', name: 'Sandbox (local)', sandbox: true });
    // the built-in profiles only (a Replay profile appears once a recording was picked)
    assert.deepStrictEqual(api.connection.profiles().map((p) => p.name), ['Sandbox (local)', 'Paper (KuCoin prices)']);
    assert.strictEqual(cfg.get('paper.upstreamUrl'), 'https://api.kucoin.com', 'the paper upstream is application-scoped too');
  });

  it('starts the embedded sandbox on 127.0.0.1 on first need, with credentials provisioned', async () => {
    const api = await spotdesk();
    const sb = await api.services.sandbox();
    assert.ok(sb, 'sandbox running');
    assert.match(sb.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(sb.adminToken.length > 0);
    assert.strictEqual(await api.services.credentialsPresent(), true);
    const client = await api.services.client();
    const status = await client.getStatus();
    assert.strictEqual(status.status, 'open');
    const accounts = await client.getAccounts();
    assert.ok(accounts.length > 0, 'the sandbox provisions funded accounts');
  });

  it('checks an order document opened after activation (its provider loads on opening a *.spotorder.json)', async () => {
    await spotdesk();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-core-')), 'lazy.spotorder.json');
    fs.writeFileSync(file, '[\n  {"symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001","funds":"10"}\n]\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const diag = await waitFor('a SpotDesk diagnostic on the lazily loaded provider', () =>
      vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'SpotDesk'),
    );
    assert.strictEqual(diag.code, 'market-size-and-funds');
    assert.strictEqual(doc.getText(diag.range), '"10"');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the status bar shows the profile, the service status and the budget left per pool', async () => {
    const api = await spotdesk();
    await api.statusBar.update();
    assert.strictEqual(api.statusBar.item.text, '$(pulse) Sandbox (local) · open');
    const tooltip = (api.statusBar.item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /Service status: \*\*open\*\*/);
    const pools = api.statusBar.budgets().map((b) => b.pool);
    assert.deepStrictEqual(pools, ['management', 'public', 'spot']);
    for (const b of api.statusBar.budgets()) {
      assert.ok(tooltip.includes(`| ${b.pool} | ${b.remaining} | ${b.limit} |`), `tooltip row for ${b.pool}`);
    }
  });
});
