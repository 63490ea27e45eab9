/**
 * The language server's diagnostics are THE order rules: one order per rule the sandbox
 * enforces, each reported on the exact range of the property at fault; and for a set of orders the
 * server marks an error exactly when the sandbox's order test (POST /api/v1/hf/orders/test)
 * rejects the order. Through the protocol (stdio), against an in-process sandbox.
 */
import { strict as assert } from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver/node';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { startLsp, textOf, type LspSession } from './lspClient';
import { credsOf, signed, startTestSandbox } from '../server/helpers';

let docN = 0;
const newUri = () => `file:///x/rules-${++docN}.spotorder.json`;

/** [code, text at the range, line] of each diagnostic. */
function shown(text: string, diags: Diagnostic[]): [string, string, number][] {
  return diags.map((d) => [String(d.code), textOf(text, d.range), d.range.start.line]);
}

describe('language server: the order rules, as the sandbox enforces them', function () {
  this.timeout(60_000);
  let sb: RunningSandbox;
  let lsp: LspSession;

  before(async () => {
    sb = await startTestSandbox();
    lsp = await startLsp({ init: { baseUrl: sb.baseUrl, cacheDir: fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lsp-')) } });
    assert.equal((await lsp.refreshSymbols()).state, 'fresh');
  });

  after(async () => {
    await lsp?.stop();
    await sb?.close();
  });

  it('reports every order rule with the exact range of the property at fault', async () => {
    const lines = [
      '[',
      '  {"clientOid":"r1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000.05","size":"0.001"},',
      '  {"clientOid":"r2","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.000010001"},',
      '  {"clientOid":"r3","symbol":"BTC-USDT","side":"buy","type":"limit","price":"5000","size":"0.000001"},',
      '  {"clientOid":"r4","symbol":"BTC-USDT","side":"sell","type":"limit","price":"0.1","size":"10000000001"},',
      '  {"clientOid":"r5","symbol":"BTC-USDT","side":"buy","type":"market","funds":"10.0000001"},',
      '  {"clientOid":"r6","symbol":"BTC-USDT","side":"buy","type":"market","funds":"0.05"},',
      '  {"clientOid":"r7","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","timeInForce":"IOC","postOnly":true},',
      '  {"clientOid":"r8","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","iceberg":true},',
      '  {"clientOid":"r9","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","stp":"XX"},',
      '  {"clientOid":"r10","symbol":"BTCP-BTC","side":"buy","type":"limit","price":"0.001","size":"1"},',
      '  {"clientOid":"r1","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001"},',
      '  {"clientOid":"r12","symbol":"BTC-USDT","side":"hold","type":"limit","price":50000,"size":"0.001","postOnly":"yes"},',
      '  {"clientOid":"r13","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","foo":1},',
      '  {"clientOid":"r14","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","hidden":true,"iceberg":true,"visibleSize":"0.0001"},',
      '  {"clientOid":"r15","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","timeInForce":"GTT"},',
      '  {"clientOid":"r16","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","cancelAfter":60},',
      '  {"clientOid":"r17","symbol":"BTC-USDT","side":"sell","type":"market","size":"0.001","funds":"10"},',
      '  {"clientOid":"r18","symbol":"BTC-USDT","side":"buy","type":"limit","size":"0.001"},',
      '  {"clientOid":"r19","symbol":"NOPE-USDT","side":"buy","type":"limit","price":"1","size":"1"},',
      '  {"clientOid":"r20","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","iceberg":true,"visibleSize":"0.002"},',
      '  {"clientOid":"r21","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","visibleSize":"0.0001"},',
      '  {"clientOid":"r22","symbol":"BTC-USDT","side":"buy","type":"market","funds":"10","stp":"DC"},',
      '  {"clientOid":"r23","symbol":"BTC-USDT","side":"buy","type":"market","funds":"10","postOnly":true},',
      '  {"clientOid":"r24","symbol":"BTC-USDT","side":"buy","type":"limit","price":"50000","size":"0.001","timeInForce":"FOK","cancelAfter":-1}',
      ']',
    ];
    const text = lines.join('\n');
    const uri = newUri();
    lsp.open(uri, text);
    const diags = await lsp.diagnosticsNow(uri);
    assert.deepEqual(shown(text, diags), [
      ['price-increment', '"50000.05"', 1],
      ['size-increment', '"0.000010001"', 2],
      ['size-min', '"0.000001"', 3],
      ['min-funds', '"0.000001"', 3],
      ['size-max', '"10000000001"', 4],
      ['funds-max', '"10000000001"', 4],
      ['funds-increment', '"10.0000001"', 5],
      ['funds-min', '"0.05"', 6],
      ['post-only-tif', 'true', 7],
      ['iceberg-missing-visible-size', 'true', 8],
      ['invalid-enum', '"XX"', 9],
      ['trading-disabled', '"BTCP-BTC"', 10],
      ['duplicate-client-oid', '"r1"', 11],
      ['invalid-enum', '"hold"', 12],
      ['not-decimal-string', '50000', 12],
      ['invalid-type', '"yes"', 12],
      ['unknown-field', '"foo"', 13],
      ['hidden-and-iceberg', 'true', 14],
      ['gtt-missing-cancel-after', '"GTT"', 15],
      ['cancel-after-without-gtt', '60', 16],
      ['market-size-and-funds', '"10"', 17],
      ['limit-missing-price', '"limit"', 18],
      ['unknown-symbol', '"NOPE-USDT"', 19],
      ['visible-size-above-size', '"0.002"', 20],
      ['visible-size-without-iceberg', '"0.0001"', 21],
      ['market-funds-stp-dc', '"DC"', 22],
      ['market-limit-only', 'true', 23],
    ]);
    const byCode = (c: string) => diags.find((d) => d.code === c)!;
    assert.equal(byCode('price-increment').message, 'price 50000.05 is not a multiple of priceIncrement 0.1 (nearest valid: 50000 or 50000.1).');
    assert.equal(byCode('size-min').message, 'size 0.000001 BTC is below baseMinSize 0.00001.');
    assert.equal(byCode('duplicate-client-oid').message, 'clientOid "r1" is already used by order #1: the exchange rejects a second order with the clientOid of an open one (400100 "clientOid already exists").');
    assert.ok(diags.every((d) => d.source === 'SpotDesk'));
    // errors are errors (1), ignored fields and unknown ones warnings (2)
    assert.equal(byCode('trading-disabled').severity, 1);
    assert.equal(byCode('unknown-field').severity, 2);
  });

  it('every order the server marks with an error is one the sandbox rejects, and only those (POST /api/v1/hf/orders/test)', async () => {
    const orders: Record<string, unknown>[] = [
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000.05', size: '0.001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.000010001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '5000', size: '0.000001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10.0000001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '0.05' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', timeInForce: 'IOC', postOnly: true },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', timeInForce: 'GTC', postOnly: true },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', iceberg: true },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', iceberg: true, visibleSize: '0.0001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', stp: 'CO' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10', stp: 'DC' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', size: '0.0001', stp: 'DC' },
      { symbol: 'BTCP-BTC', side: 'buy', type: 'limit', price: '0.001', size: '1' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', hidden: true, iceberg: true, visibleSize: '0.0001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', timeInForce: 'GTT', cancelAfter: 60 },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', cancelAfter: 60 },
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '50000', size: '0.001', visibleSize: '0.0001' },
      { symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '10', postOnly: true },
      { symbol: 'BTC-USDT', side: 'sell', type: 'market', size: '0.001', price: '1' },
    ];
    const text = `[\n${orders.map((o) => `  ${JSON.stringify(o)}`).join(',\n')}\n]`;
    const uri = newUri();
    lsp.open(uri, text);
    const diags = await lsp.diagnosticsNow(uri);
    const creds = credsOf(sb);
    for (let i = 0; i < orders.length; i++) {
      const local = diags.filter((d) => d.severity === 1 && d.range.start.line === i + 1).map((d) => d.code);
      const r = await signed(sb, creds, 'POST', '/api/v1/hf/orders/test', orders[i]);
      const remote = r.json.code === '200000' ? 'accepted' : `rejected ${r.json.code} ${r.json.msg}`;
      assert.equal(local.length > 0 ? 'rejected' : 'accepted', remote.split(' ')[0], `order #${i + 1} ${JSON.stringify(orders[i])}: server ${JSON.stringify(local)}, sandbox ${remote}`);
    }
  });

});
