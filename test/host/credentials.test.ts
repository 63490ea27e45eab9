/**
 * Extension-host suite: user profiles and API credentials. Credentials typed into
 * "Set API Credentials" round-trip through SecretStorage (the profile then signs requests to the
 * sandbox), never appear in settings.json or in the SpotDesk log, and are removed by "Clear".
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { SpotClient } from '../../src/api/client';
import type { CurrencyNode } from '../../src/features/accounts/host/accounts';
import type { MarketSymbolNode } from '../../src/features/markets/host/markets';
import { children, isError, item, spotdesk, useSandboxProfile, waitFor } from './helpers';

const PROFILE = 'Sandbox via profile';

describe('SpotDesk profiles and credentials', function () {
  this.timeout(90_000);
  let api: SpotDeskTestHooks;
  let creds: { apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string };
  let baseUrl: string;

  before(async () => {
    await useSandboxProfile();
    api = await spotdesk();
    baseUrl = (await api.services.sandbox())!.baseUrl;
    // The sandbox writes its default user's key to its state directory (globalStorage/sandbox).
    const file = path.join(api.services.context.globalStorageUri.fsPath, 'sandbox', 'credentials.json');
    creds = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.ok(creds.apiSecret && creds.apiPassphrase, 'sandbox credentials file');
  });

  /** A client with the sandbox's own credentials (independent of the profile under test). */
  async function sandboxSigningClient(): Promise<SpotClient> {
    const { SpotClient: Client } = await import('../../src/api/client');
    return new Client({ baseUrl, credentials: { ...creds, keyVersion: String(creds.keyVersion) as '2' | '3' } });
  }

  after(async () => {
    api.resetPrompts();
    await api.connection.clearCredentials({ id: `user:${PROFILE}`, name: PROFILE, sandbox: false });
    await useSandboxProfile();
  });

  it('Select Profile switches to a user profile; without credentials the views stay empty (welcome content)', async () => {
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await cfg.update('profiles', [{ name: PROFILE, baseUrl }], vscode.ConfigurationTarget.Global);
    api.prompts.pick = (async (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label.endsWith(PROFILE))) as typeof api.prompts.pick;
    await vscode.commands.executeCommand('spotdesk.selectProfile');
    assert.deepStrictEqual(api.services.profile(), { id: `user:${PROFILE}`, name: PROFILE, baseUrl, sandbox: false });
    assert.strictEqual(vscode.workspace.getConfiguration('spotdesk').get('activeProfile'), PROFILE);
    assert.strictEqual(await api.services.credentialsPresent(), false);
    await api.trees.accounts.refresh();
    assert.deepStrictEqual(await children(api.trees.accounts), [], 'empty tree → viewsWelcome "Set API Credentials"');
    await assert.rejects(api.services.client(), /has no API credentials\. Run "SpotDesk: Set API Credentials"/);
  });

  it('without credentials, Markets and the status bar still show public data (GET /api/v2/symbols, allTickers, status)', async () => {
    // A user profile pointing at the sandbox's baseUrl, without credentials (also when run alone).
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await cfg.update('profiles', [{ name: PROFILE, baseUrl }], vscode.ConfigurationTarget.Global);
    await cfg.update('activeProfile', PROFILE, vscode.ConfigurationTarget.Global);
    await api.connection.clearCredentials({ id: `user:${PROFILE}`, name: PROFILE, sandbox: false });
    await waitFor('the user profile', () => api.services.profile().id === `user:${PROFILE}`);
    assert.strictEqual(await api.services.credentialsPresent(), false);
    await api.trees.markets.refresh();
    const roots = (await children(api.trees.markets)) as Array<MarketSymbolNode | { kind: string }>;
    assert.ok(!roots.some((r) => isError(r)), `no error item: ${JSON.stringify(roots)}`);
    // The same symbols as the sandbox lists to its own (signing) client (flat by default; Favourites too).
    const sandboxClient = await sandboxSigningClient();
    const favourites = roots.find((r) => r.kind === 'favourites');
    const syms = [...(favourites ? ((await children(api.trees.markets, favourites as never)) as MarketSymbolNode[]) : []), ...(roots.filter((r) => r.kind === 'marketSymbol') as MarketSymbolNode[])];
    assert.deepStrictEqual(syms.map((s) => s.symbol).sort(), (await sandboxClient.getSymbols()).map((s) => s.symbol).sort());
    const pub = await api.services.publicClient();
    assert.strictEqual(pub.baseUrl, baseUrl);
    assert.strictEqual(pub.hasCredentials, false, 'a credential-less client');
    assert.ok(syms.find((s) => s.symbol === 'BTC-USDT')?.ticker, 'tickers from allTickers');
    sandboxClient.close();
    // Private endpoints stay unavailable: Accounts keeps its welcome content.
    await api.trees.accounts.refresh();
    assert.deepStrictEqual(await children(api.trees.accounts), []);
    await api.statusBar.update();
    assert.strictEqual(api.statusBar.item.text, `$(key) ${PROFILE} · no credentials · open`);
  });

  it('without credentials, order documents still get the symbol rules (GET /api/v2/symbols is public)', async () => {
    assert.strictEqual(await api.services.credentialsPresent(), false);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-cred-')), 'nocreds.spotorder.json');
    fs.writeFileSync(file, '[\n  {"clientOid":"nc1","symbol":"NOPE-USDT","side":"buy","type":"limit","price":"1","size":"1"}\n]\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    // the order-document language server checks against this profile's GET /api/v2/symbols
    const language = api.language();
    await waitFor('the language server on this profile', async () => (await language.status()).baseUrl === baseUrl);
    const diags = await waitFor('unknown-symbol from the language server', () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.some((x) => x.code === 'unknown-symbol') ? d : undefined;
    });
    assert.deepStrictEqual(diags.map((d) => [d.code, doc.getText(d.range)]), [['unknown-symbol', '"NOPE-USDT"']]);
  });

  it('Set API Credentials stores them in SecretStorage only, and the profile then signs requests', async () => {
    const answers = [creds.apiKey, creds.apiSecret, creds.apiPassphrase];
    const passwords: boolean[] = [];
    api.prompts.input = async (o) => {
      passwords.push(o.password === true);
      return answers.shift();
    };
    api.prompts.pick = (async (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label === String(creds.keyVersion))) as typeof api.prompts.pick;
    await vscode.commands.executeCommand('spotdesk.setCredentials');
    assert.deepStrictEqual(passwords, [true, true, true], 'every credential input box is a password box');
    const stored = await api.connection.readCredentials(api.services.profile());
    assert.deepStrictEqual(stored, { apiKey: creds.apiKey, apiSecret: creds.apiSecret, apiPassphrase: creds.apiPassphrase, keyVersion: String(creds.keyVersion) });
    assert.strictEqual(await api.services.credentialsPresent(), true);

    await api.trees.accounts.refresh();
    const roots = (await children(api.trees.accounts)) as CurrencyNode[];
    assert.ok(roots.length > 0 && !roots.some((r) => isError(r)), 'signed GET /api/v1/accounts succeeded');
    const client = await api.services.client();
    assert.strictEqual(client.baseUrl, baseUrl);
    assert.ok(roots.some((r) => r.currency === 'USDT'));
  });

  it('never writes the secret or passphrase to settings.json or to the SpotDesk log', async () => {
    // User settings: <user-data>/User/settings.json; globalStorage is <user-data>/User/globalStorage/<ext>.
    const settingsFile = path.join(api.services.context.globalStorageUri.fsPath, '..', '..', 'settings.json');
    const settings = fs.readFileSync(settingsFile, 'utf8');
    assert.ok(settings.includes(PROFILE), 'the profile itself is in settings.json');
    for (const secret of [creds.apiSecret, creds.apiPassphrase, creds.apiKey]) assert.ok(!settings.includes(secret), 'no credential in settings.json');

    const logDir = api.services.context.logUri.fsPath;
    const logText = await waitFor('the request log to reach disk', () => {
      const files = fs.existsSync(logDir) ? fs.readdirSync(logDir).filter((f) => f.endsWith('.log')) : [];
      const text = files.map((f) => fs.readFileSync(path.join(logDir, f), 'utf8')).join('\n');
      return text.includes('GET /api/v1/accounts') ? text : '';
    });
    assert.match(logText, /GET \/api\/v1\/accounts {2}→ 200000 {2}HTTP 200 {2}\d+ ms {2}weight 5 \(management\)/);
    for (const secret of [creds.apiSecret, creds.apiPassphrase]) assert.ok(!logText.includes(secret), 'no secret in the log');
    assert.ok(!/KC-API-(SIGN|PASSPHRASE|KEY)\S*\s*[:=]\s*[^*\s]/i.test(logText), 'no KC-API-* header value in the log');
  });

  it('shows an error item with Retry (not an empty tree) when the exchange is unreachable', async () => {
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await cfg.update('profiles', [{ name: PROFILE, baseUrl: 'http://127.0.0.1:9' }], vscode.ConfigurationTarget.Global);
    await waitFor('the profile change', () => api.services.profile().baseUrl === 'http://127.0.0.1:9');
    await api.trees.markets.refresh();
    const roots = await children(api.trees.markets);
    assert.strictEqual(roots.length, 1);
    assert.ok(isError(roots[0]), `error item expected, got ${JSON.stringify(roots)}`);
    const ti = await item(api.trees.markets, roots[0]);
    assert.strictEqual(ti.command?.command, 'spotdesk.retry');
    assert.deepStrictEqual(ti.command?.arguments, ['spotdesk.markets']);
    assert.match(String(ti.label), /unreachable|ECONNREFUSED|network/i);
    assert.match(api.trees.markets.view!.description ?? '', /error$/);
    await cfg.update('profiles', [{ name: PROFILE, baseUrl }], vscode.ConfigurationTarget.Global);
  });

  it('Connect a KuCoin Account… adds the profile, stores its key in SecretStorage only, and switches only when the person says so', async () => {
    const NAME = 'Connected';
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    await useSandboxProfile();
    await cfg.update('profiles', [{ name: PROFILE, baseUrl }], vscode.ConfigurationTarget.Global);
    const asked: string[] = [];
    const answers = [NAME, `${baseUrl}/`, creds.apiKey, creds.apiSecret, creds.apiPassphrase];
    api.prompts.input = async (o) => {
      asked.push(o.title ?? '');
      // The name step proposes a free name and refuses a taken one.
      if (asked.length === 1) {
        assert.strictEqual(o.value, 'KuCoin');
        assert.match(String(await o.validateInput?.(PROFILE)), /exists already/);
      }
      if (asked.length === 2) assert.match(String(await o.validateInput?.('http://example.com')), /https/);
      return answers.shift();
    };
    api.prompts.pick = (async (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label === String(creds.keyVersion))) as typeof api.prompts.pick;
    let question = '';
    api.prompts.confirm = async (message) => {
      question = message;
      return true;
    };
    try {
      await vscode.commands.executeCommand('spotdesk.connectExchange');
      assert.match(asked[0], /Connect a KuCoin Account \(1\/2\)/);
      assert.deepStrictEqual(vscode.workspace.getConfiguration('spotdesk').get('profiles'), [
        { name: PROFILE, baseUrl },
        { name: NAME, baseUrl },
      ]);
      assert.strictEqual(question, `Switch SpotDesk to "${NAME}" now?`);
      await waitFor('the switch to the connected profile', () => api.services.profile().name === NAME);
      const stored = await api.connection.readCredentials(api.services.profile());
      assert.deepStrictEqual(stored, { apiKey: creds.apiKey, apiSecret: creds.apiSecret, apiPassphrase: creds.apiPassphrase, keyVersion: String(creds.keyVersion) });
      const settings = fs.readFileSync(path.join(api.services.context.globalStorageUri.fsPath, '..', '..', 'settings.json'), 'utf8');
      for (const secret of [creds.apiSecret, creds.apiPassphrase, creds.apiKey]) assert.ok(!settings.includes(secret), 'no credential in settings.json');
      await api.trees.accounts.refresh();
      const roots = (await children(api.trees.accounts)) as CurrencyNode[];
      assert.ok(roots.some((r) => r.currency === 'USDT'), 'the connected profile signs requests');
    } finally {
      await api.connection.clearCredentials({ id: `user:${NAME}`, name: NAME, sandbox: false });
      api.resetPrompts();
      await cfg.update('profiles', [{ name: PROFILE, baseUrl }], vscode.ConfigurationTarget.Global);
      await cfg.update('activeProfile', PROFILE, vscode.ConfigurationTarget.Global);
    }
  });

  it('Clear API Credentials asks first, naming the profile; declined, the key stays; confirmed, it leaves SecretStorage', async () => {
    await waitFor('the profile change', () => api.services.profile().baseUrl === baseUrl);
    const asked: string[] = [];
    try {
      // As another extension could: the profile's name in the argument. The person declines.
      api.prompts.confirm = async (message) => (asked.push(message), false);
      await vscode.commands.executeCommand('spotdesk.clearCredentials', PROFILE);
      assert.deepStrictEqual(asked, [`Remove the API key of profile "${PROFILE}"?`]);
      assert.ok(await api.connection.readCredentials(api.services.profile()), 'the key is still stored');
      api.prompts.confirm = async (message) => (asked.push(message), true);
      await vscode.commands.executeCommand('spotdesk.clearCredentials');
      assert.strictEqual(asked.length, 2);
    } finally {
      api.resetPrompts();
    }
    assert.strictEqual(await api.connection.readCredentials(api.services.profile()), undefined);
    assert.strictEqual(await api.services.credentialsPresent(), false);
    await api.trees.accounts.refresh();
    assert.deepStrictEqual(await children(api.trees.accounts), []);
  });
});
