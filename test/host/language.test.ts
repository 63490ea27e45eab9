/**
 * Extension-host suite of the order-document language client in the real VS Code,
 * against the embedded sandbox: the client starts the language server (its own process, node IPC)
 * when the first `*.spotorder.json` opens; the document is of the `spotorder` language and gets the
 * server's diagnostics with exact ranges, live updates, completion, hovers with the live market
 * (answered by the extension through `spotdesk/market`), quick fixes applied as workspace edits, and
 * the code lenses: "Test order" and "Show signature" open the request builder as before, "Place
 * order…" goes through the request builder's guarded path (validation, then the modal
 * confirmation, answered through the test door's prompts). A profile change moves the
 * server to the new profile's base URL.
 *
 * Everything is observed through VS Code's own provider commands (vscode.executeHoverProvider…)
 * and `languages.getDiagnostics`, as an editor would.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as D from '../../src/api/decimal';
import type { LanguageTestHooks } from '../../src/features/language/host/index';
import { isOrderDocument } from '../../src/features/requestBuilder/host/ids';
import type { RequestBuilderTestHooks } from '../../src/features/requestBuilder/host/index';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { ToWebview } from '../../src/features/requestBuilder/protocol';
import { spotdesk, useSandboxProfile, waitFor } from './helpers';

/** [code, text at the range, line] of the SpotDesk diagnostics of `doc`. */
function shown(doc: vscode.TextDocument): [string, string, number][] {
  return vscode.languages
    .getDiagnostics(doc.uri)
    .filter((d) => d.source === 'SpotDesk')
    .map((d) => [String(d.code), doc.getText(d.range), d.range.start.line]);
}

/** Position of the first `needle` in `doc`, plus `plus` characters. */
function posOf(doc: vscode.TextDocument, needle: string, plus = 0, from = 0): vscode.Position {
  const i = doc.getText().indexOf(needle, from);
  assert.ok(i >= 0, `${needle} in the document`);
  return doc.positionAt(i + plus);
}

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
}

describe('Order documents: the language server in VS Code', function () {
  this.timeout(90_000);
  let door: SpotDeskTestHooks;
  let rb: RequestBuilderTestHooks;
  let language: LanguageTestHooks;
  let sb: { baseUrl: string; adminToken: string };
  let price: string;
  let offPrice: string;
  let doc: vscode.TextDocument;
  let startedBeforeOpen: boolean;
  let orderDocOpenBefore: boolean;

  before(async () => {
    await useSandboxProfile();
    const api = await spotdesk();
    door = api;
    const s = await api.services.sandbox();
    assert.ok(s, 'sandbox running');
    sb = s;
    language = api.language();
    orderDocOpenBefore = vscode.workspace.textDocuments.some(isOrderDocument);
    startedBeforeOpen = language.started();
    rb = await api.requestBuilder();
    const rules = (await rb.controller.symbols()).find((r) => r.symbol === 'BTC-USDT');
    assert.ok(rules, 'BTC-USDT listed');
    const book = await (await api.services.client()).call('level2_20', { symbol: 'BTC-USDT' });
    const bid = book.bids[0]?.[0] ?? '100';
    // half the best bid: rests far from the simulated market
    price = D.roundDown(D.mul(bid, '0.5'), rules.priceIncrement);
    offPrice = D.add(price, D.mul(rules.priceIncrement, '0.5'));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lang-')), 'test.spotorder.json');
    fs.writeFileSync(
      file,
      [
        '[',
        `  {"clientOid":"lang1${Date.now().toString(36)}","symbol":"BTC-USDT","side":"buy","type":"limit","price":"${price}","size":"0.001"},`,
        `  {"clientOid":"lang2","symbol":"BTC-USDT","side":"buy","type":"limit","price":"${offPrice}","size":"0.001"},`,
        '  {"clientOid":"lang3","symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001","funds":"10"},',
        '  {"clientOid":"lang4","symbol":"NOPE-USDT","side":"sell","type":"market","size":"1"}',
        ']',
      ].join('\n'),
    );
    doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
  });

  afterEach(() => {
    door.resetPrompts();
  });

  after(() => {
    rb?.panel()?.dispose();
  });

  it('starts the server only once an order document is open; the document is of the spotorder language', async () => {
    assert.strictEqual(startedBeforeOpen, orderDocOpenBefore, 'started exactly when an order document was already open');
    await waitFor('the client started', () => language.started());
    await language.client();
    assert.strictEqual(doc.languageId, 'spotorder');
    const status = await language.status();
    assert.strictEqual(status.baseUrl, sb.baseUrl, 'the server reads the active profile\'s base URL');
    assert.strictEqual(status.count > 0, true);
    const pkg = vscode.extensions.getExtension('spotdesk.spotdesk')!.packageJSON as { contributes: Record<string, unknown> };
    assert.strictEqual(pkg.contributes.jsonValidation, undefined, 'the schema comes from the server, not the JSON service');
  });

  it('shows the server\'s diagnostics with ranges on the offending property', async () => {
    await waitFor('three rule diagnostics', () => shown(doc).length === 3);
    assert.deepStrictEqual(shown(doc), [
      ['price-increment', `"${offPrice}"`, 2],
      ['market-size-and-funds', '"10"', 3],
      ['unknown-symbol', '"NOPE-USDT"', 4],
    ]);
    const d = vscode.languages.getDiagnostics(doc.uri).find((x) => x.code === 'unknown-symbol')!;
    assert.strictEqual(d.message, 'Unknown symbol "NOPE-USDT": not listed by GET /api/v2/symbols.');
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
  });

  it('updates the diagnostics as the user types', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const start = posOf(doc, 'NOPE-USDT');
    await editor.edit((e) => e.replace(new vscode.Range(start, start.translate(0, 'NOPE-USDT'.length)), 'BTC-USDT'));
    await waitFor('diagnostics without unknown-symbol', () => shown(doc).length === 2 && !shown(doc).some((x) => x[0] === 'unknown-symbol'));
  });

  it('completes enum values, symbols (base/quote, status) and field names with docs', async () => {
    const sides = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, posOf(doc, '"buy"', 1));
    const labels = sides.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('buy') && labels.includes('sell'), labels.join());
    const syms = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, posOf(doc, '"BTC-USDT"', 1));
    const btc = syms.items.find((i) => i.label === 'BTC-USDT');
    assert.ok(btc, 'BTC-USDT offered');
    assert.strictEqual(btc.detail, 'BTC / USDT · USDS · trading');
  });

  it('hovers: the symbol with its rules and the live market from the extension; a price in bps from the mid', async () => {
    const sym = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, posOf(doc, 'BTC-USDT', 2)));
    assert.match(sym, /\*\*BTC-USDT\*\* — BTC \/ USDT/);
    assert.match(sym, /- price: a multiple of 0\.1 USDT/);
    assert.match(sym, /bid \*\*[\d.]+\*\* · ask \*\*[\d.]+\*\* · last [\d.—]+ · mid [\d.]+ · spread [\d.]+ \([\d.]+ bps\)/);
    assert.match(sym, /_GET \/api\/v1\/market\/allTickers at /);
    const px = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, posOf(doc, `"${price}"`, 2)));
    assert.match(px, new RegExp(`^price ${price.replace('.', '\\.')} USDT is \\*\\*[\\d.]+ bps below the mid\\*\\* [\\d.]+ \\(bid [\\d.]+ / ask [\\d.]+\\)\\.$`));
  });

  it('quick fix: round the price to the tick (both ways offered), applied as a workspace edit', async () => {
    const range = new vscode.Range(posOf(doc, `"${offPrice}"`, 1), posOf(doc, `"${offPrice}"`, 1));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, range);
    const ours = actions.filter((a) => a.title.startsWith('Round price'));
    assert.deepStrictEqual(
      ours.map((a) => a.title),
      [`Round price down to ${price} USDT (priceIncrement 0.1)`, `Round price up to ${D.add(price, '0.1')} USDT (priceIncrement 0.1)`],
    );
    assert.ok(await vscode.workspace.applyEdit(ours[0].edit!));
    await waitFor('the price-increment diagnostic gone', () => shown(doc).length === 1 && shown(doc)[0][0] === 'market-size-and-funds');
    assert.ok(doc.getText().includes(`"price":"${price}","size":"0.001"},\n  {"clientOid":"lang3"`));
  });

  it('code lenses: Test order runs the order test, Show signature loads the panel, three lenses per order', async () => {
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
    const ours = lenses.filter((l) => l.command?.command.startsWith('spotdesk.orderDocument.'));
    assert.deepStrictEqual(
      ours.map((l) => [l.range.start.line, l.command!.title]),
      [1, 2, 3, 4].flatMap((line) => [
        [line, line === 3 ? '$(beaker) Test order (1 local error)' : '$(beaker) Test order'],
        [line, '$(key) Show signature'],
        [line, '$(rocket) Place order…'],
      ]),
    );
    const prev = rb.panel()?.session.lastRun;
    await vscode.commands.executeCommand(ours[0].command!.command, ...(ours[0].command!.arguments ?? []));
    const panel = await waitFor('the request builder panel', () => rb.panel());
    const run = await waitFor('order test from the lens', () => (panel.session.lastRun !== prev ? panel.session.lastRun : undefined));
    assert.strictEqual(run.result.kind, 'test');
    assert.strictEqual(run.result.code, '200000', run.result.body);
    assert.match(run.result.prepared.body, new RegExp(`"symbol":"BTC-USDT","side":"buy","type":"limit","price":"${price.replace('.', '\\.')}","size":"0.001"}$`));

    const n = panel.session.posted.length;
    const lastRun = panel.session.lastRun;
    await vscode.commands.executeCommand(ours[10].command!.command, ...(ours[10].command!.arguments ?? []));
    const init = await waitFor('init with order #4', () => panel.session.posted.slice(n).find((m): m is Extract<ToWebview, { type: 'init' }> => m.type === 'init'));
    assert.deepStrictEqual([init.replaceDraft, init.draft.side, init.draft.type, init.draft.symbol, init.draft.size], [true, 'sell', 'market', 'BTC-USDT', '1']);
    assert.strictEqual(panel.session.lastRun, lastRun, 'Show signature sends nothing');
  });

  it('Place order… goes through the request builder\'s guarded path: refused locally when invalid, asks first, places only when confirmed', async () => {
    const lenses = ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? []).filter((l) => l.command?.command === 'spotdesk.orderDocument.placeOrder');
    assert.strictEqual(lenses.length, 4);
    const panel = await waitFor('the panel', () => rb.panel());
    const asked: string[] = [];

    // order #3 (size and funds): refused by the local rules, the confirmation is not even asked
    door.prompts.confirm = async (message) => {
      asked.push(message);
      return false;
    };
    let n = panel.session.posted.length;
    await vscode.commands.executeCommand(lenses[2].command!.command, ...(lenses[2].command!.arguments ?? []));
    const refused = await waitFor('refusal notice', () => panel.session.posted.slice(n).find((m): m is Extract<ToWebview, { type: 'notice' }> => m.type === 'notice'));
    assert.strictEqual(refused.message, 'The order is not valid: A market order takes either "size" or "funds", not both.');
    assert.strictEqual(asked.length, 0, 'no confirmation asked for an invalid order');

    // order #1, declined: nothing is sent
    const before = panel.session.lastRun;
    n = panel.session.posted.length;
    await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []));
    const cancelled = await waitFor('cancel notice', () => panel.session.posted.slice(n).find((m): m is Extract<ToWebview, { type: 'notice' }> => m.type === 'notice'));
    assert.strictEqual(cancelled.message, 'Placement cancelled.');
    assert.deepStrictEqual(asked, ['Place a buy limit order on BTC-USDT on the sandbox profile "Sandbox (local)"?']);
    assert.strictEqual(panel.session.lastRun, before);

    // order #1, confirmed: placed (POST /api/v1/hf/orders), then cancelled again here
    door.prompts.confirm = async (message) => {
      asked.push(message);
      return true;
    };
    await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []));
    const placed = await waitFor('placement', () => (panel.session.lastRun !== before && panel.session.lastRun?.result.kind === 'place' ? panel.session.lastRun : undefined));
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(placed.result.code, '200000', placed.result.body);
    assert.strictEqual(placed.result.prepared.pathWithRawQuery, '/api/v1/hf/orders');
    const orderId = /"orderId": "([^"]+)"/.exec(placed.result.body)?.[1];
    assert.ok(orderId);
    const api = await spotdesk();
    await (await api.services.client()).cancelOrder('BTC-USDT', orderId);
  });

  it('a lens command with arguments that are not an order document does nothing', async () => {
    const asked: string[] = [];
    door.prompts.confirm = async (m) => {
      asked.push(m);
      return true;
    };
    const panel = rb.panel();
    const before = panel?.session.lastRun;
    const n = panel?.session.posted.length ?? 0;
    await vscode.commands.executeCommand('spotdesk.orderDocument.placeOrder', vscode.Uri.file(path.join(os.tmpdir(), 'x.json')).toString(), 0);
    await vscode.commands.executeCommand('spotdesk.orderDocument.placeOrder', doc.uri.toString(), -1);
    await vscode.commands.executeCommand('spotdesk.orderDocument.placeOrder', { uri: doc.uri.toString() }, 0);
    assert.deepStrictEqual(asked, []);
    assert.strictEqual(rb.panel()?.session.lastRun, before);
    assert.strictEqual(rb.panel()?.session.posted.length ?? 0, n);
  });

  it('a profile change moves the server to the new base URL (and back)', async () => {
    const cfg = vscode.workspace.getConfiguration('spotdesk');
    const offline = 'http://127.0.0.1:9';
    try {
      await cfg.update('profiles', [{ name: 'Offline', baseUrl: offline }], vscode.ConfigurationTarget.Global);
      await cfg.update('activeProfile', 'Offline', vscode.ConfigurationTarget.Global);
      await waitFor('the server on the Offline profile', async () => (await language.status()).baseUrl === offline);
      await waitFor('the symbols-unavailable note', () => vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'symbols-unavailable'), 30_000);
    } finally {
      await useSandboxProfile();
    }
    await waitFor('the server back on the sandbox', async () => (await language.status()).baseUrl === sb.baseUrl);
    await waitFor('symbol rules again', () => !vscode.languages.getDiagnostics(doc.uri).some((d) => String(d.code).startsWith('symbols-')), 30_000);
  });
});
