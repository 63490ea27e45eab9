/**
 * The layer table of CONTRIBUTING.md ("Layout": which folder may import which) is enforced by
 * eslint.config.mjs. This test lints small in-memory files with ESLint's API, placed (by their
 * virtual path) in each folder: every forbidden import must be reported by the layer rule, and its
 * permitted twin must not be — so a rule that stopped firing, or one that fires too widely, fails.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.join(__dirname, '..', '..', '..');
const RULE = '@typescript-eslint/no-restricted-imports';
let eslint: ESLint;

/** Messages of the layer rule for `code` linted as if it were the file `file` (relative to the repo). */
async function layerMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** [file, forbidden import, permitted import in the same file] */
const CASES: [file: string, forbidden: string, permitted: string][] = [
  ['src/api/x.ts', "import { Exchange } from '../exchange/core';", "import { add } from './decimal';"],
  ['src/api/x.ts', "import { emptyDraft } from '../shared/requestBuilder/protocol';", "import { HfOrder } from './schemas';"],
  ['src/api/x.ts', "import * as vscode from 'vscode';", "import { z } from 'zod';"],
  ['src/exchange/core/x.ts', "import { HfOrder } from '../../api/schemas';", "import type { HfOrder } from '../../api/schemas';"],
  ['src/exchange/core/x.ts', "import { SpotClient } from '../../api/client';", "import { parse } from '../../api/decimal';"],
  ['src/exchange/core/x.ts', "import { readFileSync } from 'node:fs';", "import type { z } from 'zod';"],
  ['src/exchange/core/x.ts', "import { SandboxState } from '../server/state';", "import { ExchangeError } from './errors';"],
  ['src/exchange/server/x.ts', "import { draftToOrder } from '../../shared/requestBuilder/protocol';", "import { SpotClient } from '../../api/client';"],
  ['src/exchange/cli.ts', "import { add } from '../api/decimal';", "import { startSandbox } from './server/index';"],
  ['src/shared/x/y.ts', "import { SpotClient } from '../../api/client';", "import { validateOrder } from '../../api/orderRules';"],
  ['src/shared/x/y.ts', "import { readFileSync } from 'node:fs';", "import { add } from '../../api/decimal';"],
  ['src/shared/x/y.ts', "import { Exchange } from '../../exchange/core';", "import { HfOrder } from '../../api/schemas';"],
  ['src/webview/p/main.ts', "import { HfOrder } from '../../api/schemas';", "import type { HfOrder } from '../../api/schemas';"],
  ['src/webview/p/main.ts', "import { signRequest } from '../../api/signing';", "import { validateOrder } from '../../api/orderRules';"],
  ['src/webview/p/main.ts', "import { x } from '../../extension/connection';", "import { emptyDraft } from '../../shared/requestBuilder/protocol';"],
  ['src/language/x.ts', "import { draftToOrder } from '../shared/requestBuilder/protocol';", "import { validateOrder } from '../api/orderRules';"],
  ['src/language/x.ts', "import * as vscode from 'vscode';", "import { SpotClient } from '../api/client';"],
  ['src/sandboxApi/x.ts', "import { startSandbox } from '../exchange/server/index';", "import { launch } from './launch';"],
  ['src/sandboxApi/x.ts', "import type { SandboxIpcMessage } from '../exchange/cli';", "import { fork } from 'node:child_process';"],
  ['src/extension/x.ts', "import { OrderBookView } from '../webview/orderbook/view';", "import * as vscode from 'vscode';"],
];

describe('lint: the layer table of CONTRIBUTING.md is enforced', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  for (const [file, forbidden, permitted] of CASES) {
    it(`${file}: rejects \`${forbidden}\`, accepts \`${permitted}\``, async () => {
      const bad = await layerMessages(file, `${forbidden}\nexport {};\n`);
      assert.equal(bad.length, 1, `expected one layer error for ${forbidden} in ${file}, got ${JSON.stringify(bad)}`);
      assert.match(bad[0], /CONTRIBUTING\.md/);
      assert.deepEqual(await layerMessages(file, `${permitted}\nexport {};\n`), [], `${permitted} must be allowed in ${file}`);
    });
  }

  it('the real source tree passes the layer rules', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const hits = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.message}`));
    assert.deepEqual(hits, []);
  });

  it("src/extension: a command registered with vscode.commands.registerCommand is reported (its result would reach any caller); registerCommand() of guardedCommand.ts is not", async () => {
    const lint = async (code: string) => (await eslint.lintText(code, { filePath: path.join(ROOT, 'src/extension/x.ts') }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
    const bad = await lint("import * as vscode from 'vscode';\nexport const d = vscode.commands.registerCommand('spotdesk.x', () => ({}));\n");
    assert.equal(bad.length, 1, JSON.stringify(bad));
    assert.match(bad[0], /guardedCommand\.ts/);
    assert.deepEqual(await lint("import { registerCommand } from './guardedCommand';\nexport const d = registerCommand('spotdesk.x', () => ({}));\n"), []);
  });
});
