/**
 * Order documents as a language, the client half — vscode-eslint's architecture: this
 * extension starts the order-document language server (dist/spotorder-language-server.js, its own
 * process, node IPC) and speaks LSP to it through `vscode-languageclient`. The server brings the
 * diagnostics, completion, hover, quick fixes, formatting and the code lenses; the lens commands
 * are the request builder's (src/features/requestBuilder/host/index.ts), which re-reads the order and
 * sends it through its own guarded path. Signing and sending stay in the extension: the server
 * gets only the active profile's base URL, for PUBLIC metadata.
 *
 * Registration is light: `register()` only watches for a `*.spotorder.json` document. The client
 * (./client.ts with vscode-languageclient, ~1 MB) is a bundle of its own, dist/language-client.js,
 * loaded when the first one is open — not even parsed at activation (esbuild target
 * `language-client`; test/unit/extension/lazyActivation.test.ts guards it).
 *
 * Outside Production only, {@link LanguageTestHooks} are reachable through the one test door
 * (`spotdesk.testHooks` → `language()`, src/host/testHooks.ts) for extension-host tests.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { isOrderDocument } from '../../requestBuilder/host/ids';
import type { Services } from '../../../host/services';
import type { TestSeams } from '../../../host/testHooks';
export type { LanguageTestHooks } from '../../../host/testHooks';
import type { OrderLanguageClient } from './client';

/**
 * Start the order-document language client when the first order document is open (see module
 * docs). `seams` exists only outside Production (src/host/testHooks.ts).
 */
export function register(context: vscode.ExtensionContext, services: Services, seams?: TestSeams): void {
  let clientP: Promise<OrderLanguageClient> | undefined;
  let disposed = false;
  const start = (): Promise<OrderLanguageClient> =>
    (clientP ??= (async () => {
      watcher.dispose();
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own, resolved at run time (see module docs)
      const { OrderLanguageClient: Client } = require(context.asAbsolutePath(path.join('dist', 'language-client.js'))) as typeof import('./client');
      const c = new Client(context, services);
      await c.start();
      if (disposed) await c.dispose();
      return c;
    })());
  const watcher = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (isOrderDocument(doc)) void start().catch((err: unknown) => services.log.error(`order-document language server: ${err instanceof Error ? err.message : String(err)}`));
  });
  if (vscode.workspace.textDocuments.some(isOrderDocument)) void start().catch(() => undefined);

  context.subscriptions.push(watcher, {
    dispose: () => {
      disposed = true;
      void clientP?.then((c) => c.dispose()).catch(() => undefined);
    },
  });

  if (seams) {
    seams.features.language = {
      started: () => clientP !== undefined,
      client: start,
      status: async () => (await start()).status(),
    };
  }
}
