/**
 * Activation weight: the modules that loading dist/extension.js initialises eagerly (reachable from
 * src/host/extension.ts through static imports; dynamic import() becomes a lazily-initialised
 * module in the CJS bundle) must not include zod, the API client/schemas or the features' heavy
 * implementation modules. Computed from esbuild's metafile of the same bundle (no timing).
 */
import { strict as assert } from 'assert';
import * as path from 'path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Every module in the bundle (eager or lazy), from the same metafile. */
let allInputs: string[] = [];

async function eagerModules(): Promise<Set<string>> {
  const r = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/host/extension.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    write: false,
    metafile: true,
    outfile: 'out.js',
    logLevel: 'silent',
  });
  const inputs = r.metafile.inputs;
  allInputs = Object.keys(inputs);
  const seen = new Set<string>();
  const stack = ['src/host/extension.ts'];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of inputs[f]?.imports ?? []) if (i.kind !== 'dynamic-import' && !i.external) stack.push(i.path);
  }
  return seen;
}

describe('activation loads only light modules (dist/extension.js)', function () {
  this.timeout(60_000);
  let eager: Set<string>;
  before(async () => {
    eager = await eagerModules();
  });

  it('does not initialise zod, the API client or its schemas at load', () => {
    const heavy = [...eager].filter((f) => f.includes('node_modules/zod/') || f === 'src/api/client.ts' || f === 'src/api/schemas.ts');
    assert.deepEqual(heavy, []);
  });

  it('keeps the funding, request-builder and order-language-client implementations behind dynamic import()', () => {
    const lazy = [
      'src/features/funding/host/deposit.ts',
      'src/features/funding/host/withdraw.ts',
      'src/features/funding/host/panel.ts',
      'src/features/requestBuilder/controller.ts',
      'src/features/requestBuilder/host/panel.ts',
      'src/features/requestBuilder/protocol.ts',
      'src/features/language/host/client.ts',
      'src/features/language/host/orderAt.ts',
      'src/language/document.ts',
    ];
    assert.deepEqual(lazy.filter((f) => eager.has(f)), []);
    // Control: the light registration modules are in the eager set.
    assert.ok(eager.has('src/features/funding/host/index.ts') && eager.has('src/features/requestBuilder/host/index.ts') && eager.has('src/features/language/host/index.ts'));
  });

  it('the order-document language client is not even in the bundle (dist/language-client.js, loaded when an order document opens); jsonc-parser is not initialised', () => {
    assert.deepEqual(allInputs.filter((f) => /node_modules\/(vscode-languageclient|vscode-languageserver-protocol|vscode-jsonrpc)\/|src\/extension\/language\/client\.ts$/.test(f)), []);
    assert.deepEqual([...eager].filter((f) => /node_modules\/jsonc-parser\//.test(f)), []);
    // Control: the metafile does list lazily loaded packages (zod is in the bundle, behind import()).
    assert.ok(allInputs.some((f) => f.includes('node_modules/zod/')));
  });
});
