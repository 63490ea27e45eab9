/**
 * Order-document language server (issue 24): diagnostics of a 1,000-order document after a
 * one-character edit, p50/p99, next to a full `JSON.parse` of the same text measured in the same
 * run (`npm run bench -- lsp`). Target: ≤ 5 ms p50 for the edit.
 *
 * 1. Through the protocol, as an editor sees it: the bundled server (built like esbuild.js's
 *    `language-server` target) is spawned with `--stdio` against an in-process sandbox's symbols;
 *    each sample sends one `textDocument/didChange` (one character of a price in order #500) and
 *    waits for the `publishDiagnostics` of that version — parse, rules, ranges, JSON-RPC both ways.
 *    For comparison, the same with an edit BETWEEN two orders (whitespace), which the server
 *    answers by re-parsing the whole document (its non-incremental path).
 * 2. In process, the server's document model alone: `OrderDocument.update` of the one-character
 *    edit + `analyze` (incremental: one order re-parsed and re-validated) vs building the model
 *    from scratch + `analyze` with cold caches (what a non-incremental server does per keystroke).
 * The document has 1,000 orders (limit and market, three symbols, each with a clientOid, 167 KB
 * pretty-printed); three in every 20 break a rule (price off the tick, size below the minimum,
 * postOnly with IOC), which gives a few hundred diagnostics to send with every change.
 *
 * Env: BENCH_SAMPLES (per protocol measurement, default 300).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { analyze } from '../src/language/analysis';
import { OrderDocument } from '../src/language/document';
import { startSandbox } from '../src/exchange/server/index';
import type { SymbolMeta } from '../src/language/symbols';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const N_ORDERS = 1000;
const TARGET_P50_MS = 5;

/** The 1,000-order document (pretty-printed, 2-space indent, one property per line). */
function document(): string {
  const orders: Record<string, unknown>[] = [];
  const syms = [
    { symbol: 'BTC-USDT', price: 66000, tick: 1, size: '0.0015' },
    { symbol: 'ETH-USDT', price: 3200, tick: 2, size: '0.25' },
    { symbol: 'KCS-USDT', price: 9, tick: 3, size: '12.5' },
  ];
  for (let i = 0; i < N_ORDERS; i++) {
    const s = syms[i % 3];
    const o: Record<string, unknown> = { clientOid: `bench-${String(i).padStart(5, '0')}`, symbol: s.symbol, side: i % 2 ? 'sell' : 'buy' };
    if (i % 7 === 6) Object.assign(o, { type: 'market', funds: '25' });
    else Object.assign(o, { type: 'limit', price: (s.price + (i % 50) / 10 ** s.tick).toFixed(s.tick), size: s.size, timeInForce: 'GTC' });
    if (i % 20 === 5) o.price = `${(s.price - 1).toFixed(s.tick)}3`; // off the tick
    if (i % 20 === 11) o.size = '0.00000001'; // below the minimum
    if (i % 20 === 17 && o.type === 'limit') Object.assign(o, { timeInForce: 'IOC', postOnly: true });
    orders.push(o);
  }
  return `${JSON.stringify(orders, null, 2)}\n`;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

function timeSync(fn: () => unknown, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

/** Line/character of an offset. */
function positionOf(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

async function main(): Promise<void> {
  const text = document();
  console.log(`document: ${N_ORDERS} orders, ${(text.length / 1024).toFixed(1)} KB, ${text.split('\n').length} lines`);

  // ---- baseline: a full JSON.parse of the same text --------------------------------------------
  timeSync(() => JSON.parse(text), 50);
  const parse = timeSync(() => JSON.parse(text), SAMPLES);
  const parseP50 = quantile(parse, 0.5);
  console.log(`JSON.parse (baseline)                          p50 ${fmt(parseP50)}  p99 ${fmt(quantile(parse, 0.99))}`);

  // ---- the server through the protocol -----------------------------------------------------------
  const sb = await startSandbox({ sim: false, manualClock: true, seed: 1, log: () => undefined });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-lsp-bench-'));
  const server = path.join(dir, 'spotorder-language-server.js');
  await esbuild.build({ entryPoints: [path.join(__dirname, '..', 'src', 'language', 'main.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['vscode'], outfile: server, minify: true, logLevel: 'warning' });
  const proc = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  let onDiag: ((p: PublishDiagnosticsParams) => void) | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => onDiag?.(p));
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { baseUrl: sb.baseUrl, cacheDir: dir, market: 'none' } });
  void conn.sendNotification('initialized', {});
  await conn.sendRequest('spotdesk/refreshSymbols');

  const uri = 'file:///bench/orders.spotorder.json';
  let version = 1;
  const waitFor = (v: number) => new Promise<PublishDiagnosticsParams>((resolve) => (onDiag = (p) => p.version === v && resolve(p)));
  const opened = waitFor(1);
  void conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'spotorder', version, text } });
  const first = await opened;
  const byCode = new Map<string, number>();
  for (const d of first.diagnostics) byCode.set(String(d.code), (byCode.get(String(d.code)) ?? 0) + 1);
  console.log(`server: ${first.diagnostics.length} diagnostics on the document (${[...byCode].map(([c, n]) => `${n} ${c}`).join(', ')})`);

  // one character of the price of order #500, toggled between two digits (the diagnostics change: the price-increment error of order 505 stays)
  let cur = text;
  const priceAt = cur.indexOf('"price": "', cur.indexOf('"clientOid": "bench-00500"')) + '"price": "'.length;
  const digits = ['1', '2'];
  const editInside = async (i: number): Promise<number> => {
    const pos = positionOf(cur, priceAt);
    const ch = digits[i % 2];
    cur = cur.slice(0, priceAt) + ch + cur.slice(priceAt + 1);
    const v = ++version;
    const done = waitFor(v);
    const t0 = process.hrtime.bigint();
    void conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range: { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: ch }] });
    await done;
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  // a space after the comma that separates orders #500 and #501, inserted and removed: outside any order
  const between = cur.indexOf('},\n', priceAt) + 2;
  const editBetween = async (i: number): Promise<number> => {
    const pos = positionOf(cur, between);
    const insert = i % 2 === 0;
    cur = insert ? cur.slice(0, between) + ' ' + cur.slice(between) : cur.slice(0, between) + cur.slice(between + 1);
    const v = ++version;
    const done = waitFor(v);
    const t0 = process.hrtime.bigint();
    void conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: insert ? { start: pos, end: pos } : { start: pos, end: { line: pos.line, character: pos.character + 1 } }, text: insert ? ' ' : '' }],
    });
    await done;
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const run = async (f: (i: number) => Promise<number>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await f(i));
    return out;
  };
  await run(editInside, 50);
  const inside = await run(editInside, SAMPLES);
  await run(editBetween, 10);
  const full = await run(editBetween, Math.min(SAMPLES, 100));
  const last = await new Promise<PublishDiagnosticsParams>((resolve) => {
    const v = ++version;
    onDiag = (p) => p.version === v && resolve(p);
    void conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text: cur }] });
  });
  if (last.diagnostics.length !== first.diagnostics.length) throw new Error(`diagnostics drifted: ${first.diagnostics.length} → ${last.diagnostics.length}`);
  await conn.sendRequest('shutdown');
  void conn.sendNotification('exit');
  await new Promise((r) => proc.once('exit', r));
  conn.dispose();
  await sb.close();

  const p50 = quantile(inside, 0.5);
  console.log(`LSP: 1-char edit in an order → diagnostics    p50 ${fmt(p50)}  p99 ${fmt(quantile(inside, 0.99))}  (${(p50 / parseP50).toFixed(2)}× JSON.parse)`);
  console.log(`LSP: edit between orders (full re-parse)        p50 ${fmt(quantile(full, 0.5))}  p99 ${fmt(quantile(full, 0.99))}  (${(quantile(full, 0.5) / parseP50).toFixed(2)}× JSON.parse)`);

  // ---- in process: the document model alone ------------------------------------------------------
  const symbols = new Map<string, SymbolMeta>(
    (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'src', 'exchange', 'server', 'seed', 'symbols.json'), 'utf8')) as SymbolMeta[]).map((s) => [s.symbol, s]),
  );
  const ctx = { symbols, version: 1 };
  const model = new OrderDocument(text);
  analyze(model, ctx);
  let t = text;
  const inc = timeSync(() => {
    const ch = t[priceAt] === '1' ? '2' : '1';
    t = t.slice(0, priceAt) + ch + t.slice(priceAt + 1);
    model.update([{ start: priceAt, end: priceAt + 1, text: ch }]);
    return analyze(model, ctx);
  }, SAMPLES);
  const cold = timeSync(() => analyze(new OrderDocument(t), ctx), Math.min(SAMPLES, 100));
  console.log(`model: incremental update + analyze             p50 ${fmt(quantile(inc, 0.5))}  p99 ${fmt(quantile(inc, 0.99))}  (${model.stats.incremental} incremental, ${model.stats.full - 1} full re-parses)`);
  console.log(`model: full parse + analyze (non-incremental)   p50 ${fmt(quantile(cold, 0.5))}  p99 ${fmt(quantile(cold, 0.99))}  (${(quantile(cold, 0.5) / quantile(inc, 0.5)).toFixed(1)}× the incremental path)`);
  console.log(`target: 1-char edit → diagnostics p50 ≤ ${TARGET_P50_MS} ms: ${p50 <= TARGET_P50_MS ? 'met' : 'MISSED'} (${fmt(p50)})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
