/**
 * No import cycles in src/ (type-only imports included): madge's dependency graph of every .ts file,
 * with the repository's tsconfig. A cycle makes a newcomer read two modules to understand either, and
 * a runtime cycle can hand a module a half-initialised import. The test fails naming each cycle.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import madge from 'madge';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('lint: no import cycles in src/', function () {
  this.timeout(120_000);

  it('madge finds 0 circular dependencies (type-only imports count)', async () => {
    const graph = await madge(path.join(ROOT, 'src'), {
      fileExtensions: ['ts'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
    });
    const files = Object.keys(graph.obj());
    assert.ok(files.length > 150, `madge saw ${files.length} files`);
    assert.ok(files.includes('host/services.ts') && graph.obj()['host/services.ts'].length > 0, 'imports are resolved');
    assert.deepEqual(graph.circular().map((c) => c.join(' > ')), []);
  });

  it('a cycle is reported (control: two modules that import each other)', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-cycle-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
    const graph = await madge(dir, { fileExtensions: ['ts'], detectiveOptions: { ts: { skipTypeImports: false } } });
    assert.deepEqual(graph.circular(), [['a.ts', 'b.ts']]);
  });
});
