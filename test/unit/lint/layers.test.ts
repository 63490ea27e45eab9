/**
 * The layer table of docs/ARCHITECTURE.md ("Layers": which folder may import which) is enforced by
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
  ['src/api/x.ts', "import { emptyDraft } from '../features/requestBuilder/protocol';", "import { HfOrder } from './schemas';"],
  ['src/api/x.ts', "import { Services } from '../host/services';", "import { padFraction } from './numberFormat';"],
  ['src/api/x.ts', "import * as vscode from 'vscode';", "import { z } from 'zod';"],
  ['src/exchange/core/x.ts', "import { HfOrder } from '../../api/schemas';", "import type { HfOrder } from '../../api/schemas';"],
  ['src/exchange/core/x.ts', "import { SpotClient } from '../../api/client';", "import { parse } from '../../api/decimal';"],
  ['src/exchange/core/x.ts', "import { readFileSync } from 'node:fs';", "import type { z } from 'zod';"],
  ['src/exchange/core/x.ts', "import { SandboxState } from '../server/state';", "import { ExchangeError } from './errors';"],
  ['src/exchange/server/x.ts', "import { draftToOrder } from '../../features/requestBuilder/protocol';", "import { SpotClient } from '../../api/client';"],
  ['src/exchange/server/market/x.ts', "import { Services } from '../../../host/services';", "import type { MarketHost } from './host';"],
  ['src/exchange/cli.ts', "import { add } from '../api/decimal';", "import { startSandbox } from './server/index';"],
  ['src/webviewBridge/x.ts', "import { readFileSync } from 'node:fs';", "import { isObject } from './validate';"],
  ['src/features/f/model/y.ts', "import { SpotClient } from '../../../api/client';", "import { validateOrder } from '../../../api/orderRules';"],
  ['src/features/f/model/y.ts', "import { readFileSync } from 'node:fs';", "import { add } from '../../../api/decimal';"],
  ['src/features/f/model/y.ts', "import { Exchange } from '../../../exchange/core';", "import { HfOrder } from '../../../api/schemas';"],
  ['src/features/f/model/y.ts', "import * as vscode from 'vscode';", "import { formatAmount } from '../../../api/numberFormat';"],
  ['src/features/f/model/y.ts', "import { register } from '../host/index';", "import { other } from './other';"],
  ['src/features/f/protocol.ts', "import { Services } from '../../host/services';", "import { isObject } from '../../webviewBridge/validate';"],
  ['src/features/f/feed.ts', "import * as vscode from 'vscode';", "import { SpotClient } from '../../api/client';"],
  ['src/features/f/feed.ts', "import { panel } from './host/panel';", "import { viewModel } from './model/viewModel';"],
  ['src/features/f/webview/main.ts', "import { HfOrder } from '../../../api/schemas';", "import type { HfOrder } from '../../../api/schemas';"],
  ['src/features/f/webview/main.ts', "import { signRequest } from '../../../api/signing';", "import { validateOrder } from '../../../api/orderRules';"],
  ['src/features/f/webview/main.ts', "import { x } from '../../../host/connection';", "import { emptyDraft } from '../protocol';"],
  ['src/features/f/webview/main.ts', "import { x } from '../host/panel';", "import { vscodeApi } from '../../../webviewBridge/vscodeApi';"],
  ['src/language/x.ts', "import { draftToOrder } from '../features/requestBuilder/protocol';", "import { validateOrder } from '../api/orderRules';"],
  ['src/language/x.ts', "import * as vscode from 'vscode';", "import { SpotClient } from '../api/client';"],
  ['src/sandboxApi/x.ts', "import { startSandbox } from '../exchange/server/index';", "import { launch } from './launch';"],
  ['src/sandboxApi/x.ts', "import type { SandboxIpcMessage } from '../exchange/cli';", "import { fork } from 'node:child_process';"],
  ['src/host/x.ts', "import { OrderBookView } from '../features/market/webview/view';", "import * as vscode from 'vscode';"],
  ['src/features/f/host/x.ts', "import { main } from '../webview/main';", "import * as vscode from 'vscode';"],
];

describe('lint: the layer table of docs/ARCHITECTURE.md is enforced', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  for (const [file, forbidden, permitted] of CASES) {
    it(`${file}: rejects \`${forbidden}\`, accepts \`${permitted}\``, async () => {
      const bad = await layerMessages(file, `${forbidden}\nexport {};\n`);
      assert.equal(bad.length, 1, `expected one layer error for ${forbidden} in ${file}, got ${JSON.stringify(bad)}`);
      assert.match(bad[0], /ARCHITECTURE\.md/);
      assert.deepEqual(await layerMessages(file, `${permitted}\nexport {};\n`), [], `${permitted} must be allowed in ${file}`);
    });
  }

  it('the real source tree passes the layer rules', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    const hits = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.message}`));
    assert.deepEqual(hits, []);
  });

  it("host glue: a command registered with vscode.commands.registerCommand is reported (its result would reach any caller); registerCommand() of guardedCommand.ts is not", async () => {
    const lint = async (code: string) => (await eslint.lintText(code, { filePath: path.join(ROOT, 'src/host/x.ts') }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
    const bad = await lint("import * as vscode from 'vscode';\nexport const d = vscode.commands.registerCommand('spotdesk.x', () => ({}));\n");
    assert.equal(bad.length, 1, JSON.stringify(bad));
    assert.match(bad[0], /guardedCommand\.ts/);
    assert.deepEqual(await lint("import { registerCommand } from './guardedCommand';\nexport const d = registerCommand('spotdesk.x', () => ({}));\n"), []);
  });
});
