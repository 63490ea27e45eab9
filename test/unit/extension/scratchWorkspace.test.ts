/**
 * `npm start` opens an empty scratch workspace with one example order document, not
 * SpotDesk's own source folder: scripts/lib/scratch.js makes it, the example is a valid order for
 * the sandbox's BTC-USDT rules, and what the person edits there is kept.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { validateOrder } from '../../../src/api/orderRules';
import { EXAMPLE_NAME, ensureScratchWorkspace } from '../../../scripts/lib/scratch';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('npm start: the scratch workspace (scripts/lib/scratch.js)', () => {
  it('holds one example order document that passes the BTC-USDT rules of the sandbox', () => {
    const dir = ensureScratchWorkspace(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-scratch-')), 'scratch'));
    assert.deepEqual(fs.readdirSync(dir), [EXAMPLE_NAME]);
    const orders = JSON.parse(fs.readFileSync(path.join(dir, EXAMPLE_NAME), 'utf8')) as Record<string, unknown>[];
    const seed = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/exchange/server/seed/symbols.json'), 'utf8')) as Array<Record<string, unknown>> | { data?: Array<Record<string, unknown>> };
    const list = (Array.isArray(seed) ? seed : (seed.data ?? [])) as never[];
    const btc = (list as Array<{ symbol: string }>).find((s) => s.symbol === 'BTC-USDT');
    assert.ok(btc, 'BTC-USDT in the sandbox seed');
    assert.equal(orders.length, 1);
    assert.deepEqual(validateOrder(orders[0], { symbols: new Map([['BTC-USDT', btc as never]]) }), []);
  });

  it('keeps what the person wrote: no example over an existing order document', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-scratch-'));
    fs.writeFileSync(path.join(dir, 'mine.spotorder.json'), '{"symbol":"ETH-USDT"}\n');
    ensureScratchWorkspace(dir);
    assert.deepEqual(fs.readdirSync(dir), ['mine.spotorder.json']);
  });

  it('npm start opens that folder, never the repository itself', () => {
    const start = fs.readFileSync(path.join(ROOT, 'scripts/start.js'), 'utf8');
    assert.match(start, /ensureScratchWorkspace\(path\.join\(cs\.ROOT, '\.vscode-test', 'scratch'\)\)/);
    assert.doesNotMatch(start, /workspace: cs\.ROOT|folder: cs\.ROOT/);
  });
});
