/**
 * The order-document language server through the protocol: the bundle is spawned with
 * `--stdio` and driven over JSON-RPC (test/unit/language/lspClient.ts) against an in-process
 * sandbox's symbols — didOpen/didChange, then publishDiagnostics, completion, hover, code actions,
 * code lenses and formatting as a client sees them. No server function is called directly.
 */
import { strict as assert } from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CodeAction, Diagnostic, MarkupContent, TextEdit } from 'vscode-languageserver/node';
import type { SymbolsStatus } from '../../../src/language/protocol';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { applyEdits, positionOf as pos, startLsp, textOf, type LspSession } from './lspClient';
import { startTestSandbox } from '../server/helpers';

const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lsp-'));
let docN = 0;
const newUri = () => `file:///x/orders-${++docN}.spotorder.json`;

/** [code, text at the range, line] of each diagnostic. */
function shown(text: string, diags: Diagnostic[]): [string, string, number][] {
  return diags.map((d) => [String(d.code), textOf(text, d.range), d.range.start.line]);
}

/** The offset of the `n`-th occurrence (0-based) of `needle` in `text`, plus `plus`. */
function at(text: string, needle: string, plus = 0, n = 0): number {
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`${needle} not in text`);
  }
  return i + plus;
}

describe('language server: order documents over LSP (stdio)', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let lsp: LspSession;

  before(async () => {
    sb = await startTestSandbox();
    lsp = await startLsp({ init: { baseUrl: sb.baseUrl, cacheDir: tmpDir(), market: 'server', commands: { testOrder: 't.test', showSignature: 't.sig', placeOrder: 't.place' } } });
    const status = await lsp.refreshSymbols();
    assert.equal(status.state, 'fresh');
    assert.equal(status.count, 13);
  });

  after(async () => {
    await lsp?.stop();
    await sb?.close();
  });

  it('announces incremental sync, completion, hover, quick fixes, formatting and (with client commands) code lenses', () => {
    const c = lsp.initResult.capabilities;
    assert.deepEqual(c.textDocumentSync, { openClose: true, change: 2 });
    assert.deepEqual(c.codeActionProvider, { codeActionKinds: ['quickfix'] });
    assert.equal(c.hoverProvider, true);
    assert.equal(c.documentFormattingProvider, true);
    assert.deepEqual(c.codeLensProvider, { resolveProvider: false });
    assert.deepEqual(lsp.initResult.serverInfo?.name, 'spotorder-language-server');
  });

  it('reports JSON syntax errors and a root that is not an order, then recovers as the text is fixed', async () => {
    const uri = newUri();
    const text = '[\n  {"clientOid":"s1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001"},\n  42\n]';
    lsp.open(uri, text);
    assert.deepEqual(shown(text, await lsp.diagnosticsNow(uri)), [['not-an-order', '42', 2]]);
    // delete the closing quote of "buy": a syntax error
    const q = at(text, '"buy"', 4);
    lsp.change(uri, { start: pos(text, q), end: pos(text, q + 1) }, '');
    const broken = await lsp.diagnosticsNow(uri);
    assert.ok(broken.some((d) => d.code === 'json-syntax' && d.severity === 1), JSON.stringify(broken));
    lsp.change(uri, { start: pos(lsp.text(uri), q), end: pos(lsp.text(uri), q) }, '"');
    assert.deepEqual(shown(lsp.text(uri), await lsp.diagnosticsNow(uri)), [['not-an-order', '42', 2]]);
    const other = newUri();
    lsp.open(other, '"BTC-USDT"');
    assert.deepEqual(shown('"BTC-USDT"', await lsp.diagnosticsNow(other)), [['not-an-order', '"BTC-USDT"', 0]]);
  });

  it('updates the diagnostics after each incremental change, with the document version', async () => {
    const uri = newUri();
    const text = ['[', '  {"clientOid":"u1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.05","size":"0.001"},', '  {"clientOid":"u2","symbol":"NOPE-USDT","side":"buy","type":"limit","price":"1","size":"0.01"}', ']'].join('\n');
    lsp.open(uri, text);
    assert.deepEqual(shown(text, await lsp.diagnosticsNow(uri)).map((d) => d[0]), ['price-increment', 'unknown-symbol']);
    // one character: 50000.05 → 50000.0 (on the grid)
    const p = at(text, '50000.05', 7);
    const v = lsp.change(uri, { start: pos(text, p), end: pos(text, p + 1) }, '');
    const after = await lsp.diagnosticsNow(uri);
    assert.equal(lsp.published(uri).at(-1)!.version, v);
    assert.deepEqual(shown(lsp.text(uri), after), [['unknown-symbol', '"NOPE-USDT"', 2]]);
    // rename the symbol in order #2 (its range moved by one character)
    const t2 = lsp.text(uri);
    const s = at(t2, 'NOPE');
    lsp.change(uri, { start: pos(t2, s), end: pos(t2, s + 4) }, 'BTC');
    assert.deepEqual(shown(lsp.text(uri), await lsp.diagnosticsNow(uri)), [['min-funds', '"0.01"', 2]]);
    // a new order typed between the two: the second one's diagnostics move down a line
    const t3 = lsp.text(uri);
    const nl = at(t3, '},\n') + 2;
    lsp.change(uri, { start: pos(t3, nl), end: pos(t3, nl) }, '\n  {"clientOid":"u3","symbol":"BTC-USDT","side":"buy","type":"limit","price":"1.05","size":"1"},');
    assert.deepEqual(shown(lsp.text(uri), await lsp.diagnosticsNow(uri)), [
      ['price-increment', '"1.05"', 2],
      ['min-funds', '"0.01"', 3],
    ]);
  });

  it('completes field names with their docs, enum values, symbols with base/quote and status, and a fresh clientOid', async () => {
    const uri = newUri();
    const text = '{"clientOid":"c1","symbol":"BTC-USDT","side":"buy","type":"limit", "" }';
    lsp.open(uri, text);
    await lsp.diagnosticsNow(uri);
    const keys = await lsp.completion(uri, at(text, '"" }', 1));
    const labels = keys.map((k) => k.label);
    // an HF order's own fields, then those that make it a stop order
    assert.deepEqual(labels, ['price', 'size', 'funds', 'timeInForce', 'cancelAfter', 'postOnly', 'hidden', 'iceberg', 'visibleSize', 'stp', 'remark', 'tags', 'stop', 'stopPrice']);
    const price = keys.find((k) => k.label === 'price')!;
    assert.match((price.documentation as MarkupContent).value, /priceIncrement/);
    assert.deepEqual(price.textEdit, { range: { start: pos(text, at(text, '"" }')), end: pos(text, at(text, '"" }') + 2) }, newText: '"price": ""' });

    const sides = await lsp.completion(uri, at(text, '"buy"', 1));
    assert.deepEqual(sides.map((s) => [s.label, (s.textEdit as TextEdit).newText]), [['buy', '"buy"'], ['sell', '"sell"']]);
    assert.deepEqual((sides[0].textEdit as TextEdit).range, { start: pos(text, at(text, '"buy"')), end: pos(text, at(text, '"buy"') + 5) });
    const types = await lsp.completion(uri, at(text, '"limit"', 1));
    assert.deepEqual(types.map((s) => s.label), ['limit', 'market']);

    const syms = await lsp.completion(uri, at(text, '"BTC-USDT"', 1));
    assert.equal(syms.length, 13);
    const btcp = syms.find((s) => s.label === 'BTCP-BTC')!;
    assert.equal(btcp.detail, 'BTCP / BTC · ALTS · trading disabled');
    assert.equal(syms.find((s) => s.label === 'ETH-BTC')!.detail, 'ETH / BTC · BTC · trading');
    assert.ok(btcp.sortText! > syms.find((s) => s.label === 'ETH-BTC')!.sortText!, 'disabled symbols sort last');

    const oid = await lsp.completion(uri, at(text, '"c1"', 1));
    assert.equal(oid.length, 1);
    assert.match(oid[0].label, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const tifDoc = newUri();
    const t2 = '{"symbol":"BTC-USDT","side":"buy","type":"limit","price":"1","size":"1","timeInForce": ,"stp": ""}';
    lsp.open(tifDoc, t2);
    const tif = await lsp.completion(tifDoc, at(t2, '"timeInForce": ') + 15);
    assert.deepEqual(tif.map((s) => s.label), ['GTC', 'GTT', 'IOC', 'FOK']);
    assert.match((tif[1].documentation as MarkupContent).value, /cancelAfter/);
    const stp = await lsp.completion(tifDoc, at(t2, '"stp": ""') + 8);
    assert.deepEqual(stp.map((s) => s.label), ['DC', 'CO', 'CN', 'CB']);
  });

  it('offers a limit, a market, a stop-limit and an OCO order skeleton between orders', async () => {
    const uri = newUri();
    const text = '[\n  \n]';
    lsp.open(uri, text);
    const items = await lsp.completion(uri, 4);
    assert.deepEqual(items.map((i) => i.label), ['limit order', 'market order', 'stop-limit order', 'OCO order']);
    const inserted = applyEdits(text, [items[0].textEdit as TextEdit]);
    const order = JSON.parse(inserted)[0];
    assert.deepEqual(Object.keys(order), ['clientOid', 'symbol', 'side', 'type', 'price', 'size']);
    const stop = JSON.parse(applyEdits(text, [items[2].textEdit as TextEdit]).replace(/\$\{\d+\|([a-z]+),[a-z,]+\|\}|\$\{\d+:([^}]*)\}|\$\d+/g, (_m, a?: string, b?: string) => a ?? b ?? ''))[0];
    assert.deepEqual(Object.keys(stop), ['clientOid', 'symbol', 'side', 'type', 'price', 'size', 'stopPrice', 'stop']);
    const oco = JSON.parse(applyEdits(text, [items[3].textEdit as TextEdit]).replace(/\$\{\d+\|([a-z]+),[a-z,]+\|\}|\$\{\d+:([^}]*)\}|\$\d+/g, (_m, a?: string, b?: string) => a ?? b ?? ''))[0];
    assert.deepEqual(Object.keys(oco), ['clientOid', 'symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice']);
  });

  it('hovers a symbol with its rules and the live best bid/ask and last price (GET /api/v1/market/allTickers of the sandbox)', async () => {
    const uri = newUri();
    const text = '{"clientOid":"h1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.002"}';
    lsp.open(uri, text);
    const h = await lsp.hover(uri, at(text, 'BTC-USDT', 3));
    const md = (h!.contents as MarkupContent).value;
    assert.deepEqual(h!.range, { start: pos(text, at(text, '"BTC-USDT"')), end: pos(text, at(text, '"BTC-USDT"') + 10) });
    assert.match(md, /\*\*BTC-USDT\*\* — BTC \/ USDT · market USDS · trading enabled/);
    assert.match(md, /\n- price: a multiple of 0\.1 USDT\n/);
    assert.match(md, /\n- size: 0\.00001 – 10000000000 BTC, a multiple of 0\.00000001\n/);
    assert.match(md, /\n- funds: 0\.1 – 99999999 USDT, a multiple of 0\.000001; order value at least 0\.1 USDT \(minFunds\)$/);
    const tickers = (await (await fetch(`${sb.baseUrl}/api/v1/market/allTickers`)).json()) as { data: { ticker: { symbol: string; buy: string; sell: string; last: string | null }[] } };
    const t = tickers.data.ticker.find((x) => x.symbol === 'BTC-USDT')!;
    assert.ok(md.includes(`bid **${t.buy}** · ask **${t.sell}** · last ${t.last ?? '—'} · mid `), md);
    assert.match(md, /_GET \/api\/v1\/market\/allTickers at \d{4}-/);
  });

  it('hovers a size with its funds in quote (exact price × size)', async () => {
    const uri = newUri();
    const text = '{"clientOid":"h2","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.1","size":"0.00012345"}';
    lsp.open(uri, text);
    const h = await lsp.hover(uri, at(text, '0.00012345', 2));
    assert.equal((h!.contents as MarkupContent).value, 'size 0.00012345 BTC × price 50000.1 = **6.172512345 USDT** (funds of the order, before fees).');
  });

  it('quick fix: round the price down or up to the tick (both offered), applied through didChange', async () => {
    const uri = newUri();
    const text = '[\n  {"clientOid":"q1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.07","size":"0.001"}\n]';
    lsp.open(uri, text);
    const [d] = await lsp.diagnosticsNow(uri);
    assert.equal(d.code, 'price-increment');
    const actions = await lsp.codeActions(uri, at(text, '50000.07', 1), at(text, '50000.07', 1), [d]);
    assert.deepEqual(actions.map((a) => [a.title, a.isPreferred === true, editsOf(a, uri).map((e) => e.newText)]), [
      ['Round price down to 50000 USDT (priceIncrement 0.1)', false, ['"50000"']],
      ['Round price up to 50000.1 USDT (priceIncrement 0.1)', true, ['"50000.1"']],
    ]);
    assert.equal(actions[0].kind, 'quickfix');
    assert.deepEqual(actions[0].diagnostics?.map((x) => x.code), ['price-increment']);
    lsp.applyEdits(uri, editsOf(actions[1], uri));
    assert.equal(JSON.parse(lsp.text(uri))[0].price, '50000.1');
    assert.deepEqual(await lsp.diagnosticsNow(uri), []);
  });

  it('quick fixes: round a size both ways, raise to the minimum size, raise the size to the minimum order value', async () => {
    const uri = newUri();
    const text = [
      '[',
      '  {"clientOid":"q2","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001000006"},',
      '  {"clientOid":"q3","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.000002"},',
      '  {"clientOid":"q4","symbol":"BTC-USDT","side":"buy","type":"limit","price":"3","size":"0.01"}',
      ']',
    ].join('\n');
    lsp.open(uri, text);
    await lsp.diagnosticsNow(uri);
    const titles = async (needle: string) => (await lsp.codeActions(uri, at(text, needle, 1))).map((a) => [a.title, editsOf(a, uri).map((e) => e.newText).join()]);
    assert.deepEqual(await titles('0.001000006'), [
      ['Round size down to 0.001 BTC (baseIncrement 0.00000001)', '"0.001"'],
      ['Round size up to 0.00100001 BTC (baseIncrement 0.00000001)', '"0.00100001"'],
    ]);
    assert.deepEqual(await titles('0.000002'), [
      ['Raise size to the minimum 0.00001 BTC (baseMinSize)', '"0.00001"'],
      // the order value 50000 × 0.000002 = 0.1 reaches minFunds: no value fix
    ]);
    assert.deepEqual(await titles('"0.01"'), [['Raise size to 0.03333334 BTC (price × size ≥ 0.1 USDT)', '"0.03333334"']]);
    const fix = (await lsp.codeActions(uri, at(text, '"0.01"', 1)))[0];
    lsp.applyEdits(uri, editsOf(fix, uri));
    const left = await lsp.diagnosticsNow(uri);
    assert.ok(!left.some((d) => d.range.start.line === 3), JSON.stringify(left));
  });

  it('quick fixes: fill a missing clientOid (in the order\'s own layout), replace a duplicated one', async () => {
    const uri = newUri();
    const text = ['[', '  {', '    "symbol": "BTC-USDT",', '    "side": "buy",', '    "type": "market",', '    "funds": "10"', '  },', '  {"clientOid":"d1","symbol":"BTC-USDT","side":"buy","type":"market","funds":"10"},', '  {"clientOid":"d1","symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001"}', ']'].join('\n');
    lsp.open(uri, text);
    const diags = await lsp.diagnosticsNow(uri);
    assert.deepEqual(shown(text, diags), [
      ['missing-client-oid', '{', 1],
      ['duplicate-client-oid', '"d1"', 8],
    ]);
    assert.equal(diags[0].severity, 4, 'a hint');
    const fill = await lsp.codeActions(uri, at(text, '{'));
    assert.deepEqual(fill.map((a) => a.title), ['Fill in a fresh clientOid']);
    lsp.applyEdits(uri, editsOf(fill[0], uri));
    const lines = lsp.text(uri).split('\n');
    assert.match(lines[2], /^ {4}"clientOid": "[0-9a-f-]{36}",$/);
    assert.equal(lines[3], '    "symbol": "BTC-USDT",');
    const t = lsp.text(uri);
    const dup = await lsp.codeActions(uri, at(t, '"d1"', 1, 1));
    assert.deepEqual(dup.map((a) => a.title), ['Replace with a fresh clientOid']);
    lsp.applyEdits(uri, editsOf(dup[0], uri));
    const orders = JSON.parse(lsp.text(uri)) as { clientOid: string }[];
    assert.equal(new Set(orders.map((o) => o.clientOid)).size, 3);
    assert.deepEqual(await lsp.diagnosticsNow(uri), []);
  });

  it('quick fix: remove the fields a market order ignores, and one that is not an order field', async () => {
    const uri = newUri();
    const text = '{"clientOid":"m1","symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001","price":"1","timeInForce":"GTC","foo":1}';
    lsp.open(uri, text);
    assert.deepEqual(shown(text, await lsp.diagnosticsNow(uri)), [
      ['market-price', '"1"', 0],
      ['market-ignored', '"GTC"', 0],
      ['unknown-field', '"foo"', 0],
    ]);
    const all = await lsp.codeActions(uri, 0, text.length);
    assert.deepEqual(all.map((a) => a.title), ['Remove "price" (a market order ignores it)', 'Remove "timeInForce" (a market order ignores it)', 'Remove "foo" (not an order field)']);
    lsp.applyEdits(uri, editsOf(all[0], uri));
    await lsp.diagnosticsNow(uri);
    const t = lsp.text(uri);
    lsp.applyEdits(uri, editsOf((await lsp.codeActions(uri, at(t, '"foo"', 1)))[0], uri));
    await lsp.diagnosticsNow(uri);
    const t2 = lsp.text(uri);
    lsp.applyEdits(uri, editsOf((await lsp.codeActions(uri, at(t2, '"GTC"', 1)))[0], uri));
    assert.deepEqual(await lsp.diagnosticsNow(uri), []);
    assert.equal(lsp.text(uri), '{"clientOid":"m1","symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001"}');
  });

  it('code lenses above each order: Test order (with its local error count), Show signature, Place order, with [uri, index]', async () => {
    const uri = newUri();
    const text = ['[', '  {"clientOid":"l1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001"},', '  {"clientOid":"l2","symbol":"BTC-USDT","side":"sell","type":"limit","price":"50000.01","size":"0.000001"}', ']'].join('\n');
    lsp.open(uri, text);
    await lsp.diagnosticsNow(uri);
    const lenses = await lsp.codeLenses(uri);
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.range.start.character, l.command!.title, l.command!.command, l.command!.arguments]),
      [
        [1, 2, '$(beaker) Test order', 't.test', [uri, 0]],
        [1, 2, '$(key) Show signature', 't.sig', [uri, 0]],
        [1, 2, '$(rocket) Place order…', 't.place', [uri, 0]],
        [2, 2, '$(beaker) Test order (3 local errors)', 't.test', [uri, 1]],
        [2, 2, '$(key) Show signature', 't.sig', [uri, 1]],
        [2, 2, '$(rocket) Place order…', 't.place', [uri, 1]],
      ],
    );
  });

  it('asks the client to refresh the code lenses when the symbol rules change (their error counts depend on them)', async () => {
    const uri = newUri();
    lsp.open(uri, '{"clientOid":"r1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"1","size":"1"}');
    await lsp.diagnosticsNow(uri);
    const before = lsp.lensRefreshes;
    await lsp.refreshSymbols();
    await lsp.waitForDiagnostics(uri, () => lsp.lensRefreshes > before);
    assert.equal(lsp.lensRefreshes, before + 1);
  });

  it('stop and OCO orders: their own rules as diagnostics (trigger tick, missing stopPrice, OCO sides, the stop leg, fields that are not theirs)', async () => {
    const uri = newUri();
    const text = [
      '[',
      '  {"clientOid":"st1","symbol":"BTC-USDT","side":"sell","type":"limit","price":"29000","size":"0.01","stopPrice":"29500","stop":"loss"},',
      '  {"clientOid":"st2","symbol":"BTC-USDT","side":"sell","type":"limit","price":"29000","size":"0.01","stopPrice":"29500.05","stop":"down"},',
      '  {"clientOid":"st3","symbol":"BTC-USDT","side":"buy","type":"market","size":"0.01","stop":"entry"},',
      '  {"clientOid":"oc1","symbol":"BTC-USDT","side":"sell","price":"31000","size":"0.01","stopPrice":"29500","limitPrice":"29400"},',
      '  {"clientOid":"oc2","symbol":"BTC-USDT","side":"sell","type":"limit","price":"29000","size":"0.01","stopPrice":"29500","limitPrice":"29400.05"},',
      '  {"symbol":"BTC-USDT","side":"buy","price":"28000","size":"0.01","stopPrice":"30000","limitPrice":"30100"}',
      ']',
    ].join('\n');
    lsp.open(uri, text);
    assert.deepEqual(shown(text, await lsp.diagnosticsNow(uri)), [
      ['price-increment', '"29500.05"', 2],
      ['invalid-enum', '"down"', 2],
      ['missing-field', '{', 3],
      ['price-increment', '"29400.05"', 5],
      ['oco-price-side', '"29000"', 5],
      ['unknown-field', '"type"', 5],
      ['missing-client-oid', '{', 6],
    ]);
    const diags = await lsp.diagnosticsNow(uri);
    assert.match(String(diags.find((d) => d.code === 'oco-price-side')!.message), /sell OCO needs price \(take profit\) above stopPrice/);
    assert.equal(diags.find((d) => d.code === 'missing-client-oid')!.severity, 1, 'an OCO order without a clientOid is an error, not a hint');
    // the rounding quick fix works on a trigger too
    const fixes = await lsp.codeActions(uri, at(text, '"29500.05"', 1), at(text, '"29500.05"', 1), diags);
    assert.deepEqual(fixes.map((f) => f.title), ['Round stopPrice down to 29500 USDT (priceIncrement 0.1)', 'Round stopPrice up to 29500.1 USDT (priceIncrement 0.1)']);
    // lenses: no signature view for stop and OCO orders; the tooltips name their endpoints
    const lenses = (await lsp.codeLenses(uri)).filter((l) => l.range.start.line === 1 || l.range.start.line === 4);
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command!.title, l.command!.command]),
      [
        [1, '$(beaker) Test order', 't.test'],
        [1, '$(rocket) Place order…', 't.place'],
        [4, '$(beaker) Test order', 't.test'],
        [4, '$(rocket) Place order…', 't.place'],
      ],
    );
    assert.match(lenses[1].command!.tooltip!, /POST \/api\/v1\/stop-order/);
    assert.match(lenses[3].command!.tooltip!, /POST \/api\/v3\/oco\/order/);
    assert.match(lenses[2].command!.tooltip!, /two limit orders its legs become/);
  });

  it('stop and OCO orders: completion of their fields and values, hover docs of their keys', async () => {
    const uri = newUri();
    const text = '[\n  {"clientOid":"c7","symbol":"BTC-USDT","side":"sell","price":"31000","limitPrice":"29400", "" },\n  {"clientOid":"c8","symbol":"BTC-USDT","side":"sell","type":"limit","stopPrice":"29500","stop":"loss", "" }\n]';
    lsp.open(uri, text);
    await lsp.diagnosticsNow(uri);
    const oco = await lsp.completion(uri, at(text, '"" }', 1, 0));
    assert.deepEqual(oco.map((k) => k.label), ['size', 'stopPrice', 'remark']);
    assert.match((oco.find((k) => k.label === 'stopPrice')!.documentation as MarkupContent).value, /stop-loss trigger/);
    assert.equal(oco.find((k) => k.label === 'size')!.detail, 'string · required');
    const stop = await lsp.completion(uri, at(text, '"" }', 1, 1));
    assert.ok(stop.map((k) => k.label).includes('timeInForce') && !stop.map((k) => k.label).includes('limitPrice'), JSON.stringify(stop.map((k) => k.label)));
    const kinds = await lsp.completion(uri, at(text, '"loss"', 1));
    assert.deepEqual(kinds.map((k) => k.label), ['loss', 'entry']);
    assert.match((kinds[1].documentation as MarkupContent).value, /rises to `stopPrice` or above/);
    const key = ((await lsp.hover(uri, at(text, '"price"', 2)))!.contents as MarkupContent).value;
    assert.match(key, /^\*\*price\*\* — OCO: the take-profit leg/);
    const notOco = ((await lsp.hover(uri, at(text, '"limitPrice"', 2)))!.contents as MarkupContent).value;
    assert.match(notOco, /stop leg's limit price/);
  });

  it('formats a document (jsonc-parser) with the requested indentation', async () => {
    const uri = newUri();
    const text = '[{"symbol":"BTC-USDT","side":"buy"}]';
    lsp.open(uri, text);
    const edits = await lsp.conn.sendRequest<TextEdit[]>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    assert.equal(applyEdits(text, edits), '[\n  {\n    "symbol": "BTC-USDT",\n    "side": "buy"\n  }\n]');
  });
});

describe('language server: hover with the market the client supplies (spotdesk/market)', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let lsp: LspSession;

  before(async () => {
    sb = await startTestSandbox();
    lsp = await startLsp({ init: { baseUrl: sb.baseUrl, cacheDir: tmpDir(), market: 'client' }, market: (symbol, depth) =>
        symbol === 'ETH-USDT'
          ? {
              bestBid: '100',
              bestAsk: '102',
              last: '101.5',
              time: 1_700_000_000_000,
              source: depth ? 'test book' : 'test feed',
              ...(depth ? { bids: [['100', '0.2'], ['99', '0.5'], ['90', '1']] as const, asks: [['102', '1']] as const } : {}),
            }
          : symbol === 'LTC-USDT'
            ? { bestBid: null, bestAsk: '0', last: null, time: 1_700_000_000_000, source: 'test feed' }
            : null,
    });
    await lsp.refreshSymbols();
  });
  after(async () => {
    await lsp?.stop();
    await sb?.close();
  });

  it('price: distance from the mid in bps (exact, truncated to 0.01), and whether it crosses the spread', async () => {
    const uri = newUri();
    const text = ['[', '  {"clientOid":"p1","symbol":"ETH-USDT","side":"buy","type":"limit","price":"100.5","size":"1"},', '  {"clientOid":"p2","symbol":"ETH-USDT","side":"buy","type":"limit","price":"102.01","size":"1"},', '  {"clientOid":"p3","symbol":"ETH-USDT","side":"sell","type":"limit","price":"101","size":"1"}', ']'].join('\n');
    lsp.open(uri, text);
    const md = async (needle: string) => ((await lsp.hover(uri, at(text, needle, 2)))!.contents as MarkupContent).value;
    assert.equal(await md('"100.5"'), 'price 100.5 USDT is **49.5 bps below the mid** 101 (bid 100 / ask 102).');
    assert.equal(await md('"102.01"'), 'price 102.01 USDT is **100 bps above the mid** 101 (bid 100 / ask 102). A buy at this price crosses the best ask 102: it would take liquidity (not with postOnly).');
    assert.equal(await md('"101"'), 'price 101 USDT is **at the mid** 101 (bid 100 / ask 102).');
    assert.deepEqual([...new Set(lsp.marketRequests)], ['ETH-USDT']);
  });

  it('no mid (an empty side, a zero price) and an unknown symbol: the hover says so instead of failing', async () => {
    const uri = newUri();
    const text = '[\n  {"clientOid":"p5","symbol":"LTC-USDT","side":"buy","type":"limit","price":"80","size":"1"},\n  {"clientOid":"p6","symbol":"XRP-USDT","side":"buy","type":"limit","price":"0.5","size":"1"}\n]';
    lsp.open(uri, text);
    assert.equal(((await lsp.hover(uri, at(text, '"80"', 1)))!.contents as MarkupContent).value, 'price 80 USDT: no mid to compare with (a side of the book is empty).');
    const ltc = ((await lsp.hover(uri, at(text, 'LTC-USDT', 1)))!.contents as MarkupContent).value;
    assert.ok(ltc.includes('bid **—** · ask **0** · last — · no mid (a side of the book is empty)'), ltc);
    assert.equal(((await lsp.hover(uri, at(text, '"0.5"', 1)))!.contents as MarkupContent).value, 'price 0.5 USDT: no mid to compare with.');
  });

  it('stopPrice: when the stop fires against the last price (or that it fires at once); an OCO\'s take profit and legs', async () => {
    const uri = newUri();
    const text = [
      '[',
      '  {"clientOid":"h1","symbol":"ETH-USDT","side":"sell","type":"limit","price":"95","size":"1","stopPrice":"96.4","stop":"loss"},',
      '  {"clientOid":"h2","symbol":"ETH-USDT","side":"buy","type":"market","size":"1","stopPrice":"100","stop":"entry"},',
      '  {"clientOid":"h3","symbol":"ETH-USDT","side":"sell","price":"110","size":"2","stopPrice":"95","limitPrice":"94.5"}',
      ']',
    ].join('\n');
    lsp.open(uri, text);
    const md = async (needle: string, n = 0) => ((await lsp.hover(uri, at(text, needle, 2, n)))!.contents as MarkupContent).value;
    assert.equal(await md('"96.4"'), 'This stop order fires when the last trade price is **≤ 96.4 USDT**; the last price is 101.5, the trigger 5.02 % below it.');
    assert.equal(await md('"100"'), 'This stop order fires when the last trade price is **≥ 100 USDT**; the last price is 101.5: **already met, it fires at once**.');
    assert.equal(await md('"110"'), 'The take-profit leg (a limit order at 110) fires when the last trade price is **≥ 110 USDT**; the last price is 101.5, the trigger 8.37 % above it.');
    assert.equal(await md('"95"', 1), 'The stop leg fires when the last trade price is **≤ 95 USDT**; the last price is 101.5, the trigger 6.4 % below it.');
    assert.equal(await md('"94.5"'), 'Each leg is 2 ETH: take profit 2 × 110 = **220 USDT**, stop leg 2 × 94.5 = **189 USDT**; only one executes.');
  });

  it('symbol: the client\'s bid/ask/last and source; a market order\'s size and funds walk the side it takes (average, slippage, depth)', async () => {
    const uri = newUri();
    const text = '[\n  {"clientOid":"p4","symbol":"ETH-USDT","side":"sell","type":"market","size":"0.5"},\n  {"clientOid":"p7","symbol":"ETH-USDT","side":"sell","type":"market","size":"2"},\n  {"clientOid":"p8","symbol":"ETH-USDT","side":"buy","type":"market","funds":"51"}\n]';
    lsp.open(uri, text);
    const sym = ((await lsp.hover(uri, at(text, 'ETH-USDT', 1)))!.contents as MarkupContent).value;
    assert.ok(sym.includes('bid **100** · ask **102** · last 101.5 · mid 101 · spread 2 (198.01 bps)  \n_test feed at 2023-11-14T22:13:20.000Z_'), sym);
    const size = ((await lsp.hover(uri, at(text, '"0.5"', 1)))!.contents as MarkupContent).value;
    // 0.2 × 100 + 0.3 × 99 = 49.7 over 0.5 → 99.4; (50 − 49.7) / 50 = 60 bps
    assert.equal(size, 'size 0.5 ETH ≈ **49.7 USDT** — ≈ 99.4 USDT average over 2 bid levels, 60 bps below the best bid 100.\n\n_test book_');
    const deep = ((await lsp.hover(uri, at(text, '"2"', 1)))!.contents as MarkupContent).value;
    assert.match(deep, /^size 2 ETH ≈ \*\*/);
    assert.ok(deep.includes('⚠ Larger than the visible book: its 3 bid levels hold 1.7 ETH (159.5 USDT); the rest fills at prices nobody can see, or not at all.'), deep);
    const funds = ((await lsp.hover(uri, at(text, '"51"', 1)))!.contents as MarkupContent).value;
    assert.equal(funds, 'funds 51 USDT ≈ **0.5 ETH** — ≈ 102 USDT average over 1 ask level (the best ask).\n\n_test book_');
  });
});

describe('language server: symbol metadata refresh policy and offline use', function () {
  this.timeout(60_000);
  const order = '[\n  {"clientOid":"o1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.05","size":"0.001"}\n]';

  it('fresh within the max age (no refetch on use); once stale, the next use refreshes it in the background', async () => {
    const maxAgeMs = 1500;
    const sb = await startTestSandbox();
    const lsp = await startLsp({ init: { baseUrl: sb.baseUrl, cacheDir: tmpDir(), symbolsMaxAgeMs: maxAgeMs } });
    const poll = async (what: string, pred: (s: SymbolsStatus) => boolean): Promise<SymbolsStatus> => {
      const end = Date.now() + 10_000;
      for (;;) {
        const s = await lsp.status();
        if (pred(s)) return s;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      const first = await lsp.refreshSymbols();
      assert.equal(first.state, 'fresh');
      const uri = newUri();
      lsp.open(uri, order);
      await lsp.diagnosticsNow(uri);
      const stillFresh = await lsp.status();
      assert.ok(Date.now() - first.fetchedAt! < maxAgeMs, 'the checks ran within the max age');
      assert.deepEqual([stillFresh.state, stillFresh.fetchedAt], ['fresh', first.fetchedAt], 'a use while fresh fetches nothing');
      // no use: the copy goes stale and stays so
      const stale = await poll('stale', (s) => s.state === 'stale');
      assert.equal(stale.fetchedAt, first.fetchedAt);
      // the next use (an edit) starts one background refresh
      lsp.change(uri, { start: pos(order, 1), end: pos(order, 1) }, ' ');
      await lsp.diagnosticsNow(uri);
      const refreshed = await poll('a refresh', (s) => s.fetchedAt! > first.fetchedAt!);
      assert.equal(refreshed.state, 'fresh');
    } finally {
      await lsp.stop();
      await sb.close();
    }
  });

  it('offline: keeps checking against the last known rules and says so; a new server uses the copy on disk', async () => {
    const sb = await startTestSandbox();
    const cacheDir = tmpDir();
    const lsp = await startLsp({ init: { baseUrl: sb.baseUrl, cacheDir } });
    const url = sb.baseUrl;
    try {
      assert.equal((await lsp.refreshSymbols()).state, 'fresh');
      await sb.close();
      const s = await lsp.refreshSymbols();
      assert.equal(s.state, 'offline');
      assert.equal(s.count, 13);
      assert.ok(s.error);
      const uri = newUri();
      lsp.open(uri, order);
      const diags = await lsp.diagnosticsNow(uri);
      assert.deepEqual(shown(order, diags).map((d) => d[0]), ['symbols-offline', 'price-increment']);
      assert.equal(diags[0].severity, 3, 'information');
      assert.match(diags[0].message as string, new RegExp(`^Offline: checked against the last known symbol rules \\(13 symbols fetched \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); GET ${url.replace(/[.]/g, '\\.')}/api/v2/symbols failed: `));
    } finally {
      await lsp.stop();
    }
    const later = await startLsp({ init: { baseUrl: url, cacheDir } });
    try {
      const uri = newUri();
      later.open(uri, order);
      const diags = await later.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'symbols-offline'));
      assert.deepEqual(diags.map((d) => d.code), ['symbols-offline', 'price-increment']);
      const hover = ((await later.hover(uri, at(order, 'BTC-USDT', 1)))!.contents as MarkupContent).value;
      assert.match(hover, /_Offline: symbol rules as of \d{4}-/);
    } finally {
      await later.stop();
    }
  });

  it('nothing known and no network: says the symbol rules are unknown and checks the rest', async () => {
    const lsp = await startLsp({ init: { baseUrl: 'http://127.0.0.1:9', cacheDir: tmpDir() } });
    try {
      const s = await lsp.refreshSymbols();
      assert.equal(s.state, 'none');
      const uri = newUri();
      const text = '{"symbol":"NOPE-USDT","side":"buy","type":"limit","price":"50000.05","size":"0.001","postOnly":true,"timeInForce":"FOK"}';
      lsp.open(uri, text);
      const diags = await lsp.diagnosticsNow(uri);
      assert.deepEqual(shown(text, diags).map((d) => d[0]), ['symbols-unavailable', 'post-only-tif', 'missing-client-oid']);
      assert.match(diags[0].message as string, /^Symbol rules unknown: GET http:\/\/127\.0\.0\.1:9\/api\/v2\/symbols failed \(.+\) and no earlier copy is cached\./);
    } finally {
      await lsp.stop();
    }
  });

  it('a profile change (spotdesk/profile) switches the base URL: rules of the new exchange apply', async () => {
    const sb = await startTestSandbox();
    const lsp = await startLsp({ init: { baseUrl: 'http://127.0.0.1:9', cacheDir: tmpDir() } });
    try {
      const uri = newUri();
      lsp.open(uri, order);
      await lsp.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'symbols-unavailable'));
      void lsp.conn.sendNotification('spotdesk/profile', { baseUrl: sb.baseUrl, profileName: 'Sandbox (local)' });
      const diags = await lsp.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'price-increment'));
      assert.deepEqual(diags.map((d) => d.code), ['price-increment']);
      assert.equal((await lsp.status()).baseUrl, sb.baseUrl);
    } finally {
      await lsp.stop();
      await sb.close();
    }
  });

  it('--base-url on the command line is used when the client passes none; no code lenses without client commands', async () => {
    const sb = await startTestSandbox();
    const lsp = await startLsp({ args: ['--base-url', sb.baseUrl, '--cache-dir', tmpDir()] });
    try {
      assert.equal(lsp.initResult.capabilities.codeLensProvider, undefined);
      assert.equal((await lsp.refreshSymbols()).baseUrl, sb.baseUrl);
    } finally {
      await lsp.stop();
      await sb.close();
    }
  });
});

/** The edits of a code action for `uri`. */
function editsOf(a: CodeAction, uri: string): TextEdit[] {
  return a.edit?.changes?.[uri] ?? [];
}

