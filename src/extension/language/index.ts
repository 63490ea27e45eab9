/**
 * Order documents as a language (issue 24), the client half — vscode-eslint's architecture: this
 * extension starts the order-document language server (dist/spotorder-language-server.js, its own
 * process, node IPC) and speaks LSP to it through `vscode-languageclient`. The server brings the
 * diagnostics, completion, hover, quick fixes, formatting and the code lenses; the lens commands
 * are the request builder's (src/extension/requestBuilder/index.ts), which re-reads the order and
 * sends it through its own guarded path. Signing and sending stay in the extension: the server
 * gets only the active profile's base URL, for PUBLIC metadata.
 *
 * Registration is light: `register()` only watches for a `*.spotorder.json` document; the client
 * module (vscode-languageclient) is loaded with dynamic `import()` and the server started when the
 * first one is open (test/unit/extension/lazyActivation.test.ts guards it).
 *
 * Outside Production only, the command `spotdesk.orderLanguage.testHooks` (not contributed)
 * resolves to {@link LanguageTestHooks} for extension-host tests.
 */
import * as vscode from 'vscode';
import type { SymbolsStatus } from '../../language/protocol';
import { isOrderDocument } from '../requestBuilder/ids';
import type { Services } from '../services';
import type { OrderLanguageClient } from './client';

/** Command id of the test hooks (registered only outside Production; not in package.json). */
export const LANGUAGE_TEST_HOOKS_COMMAND = 'spotdesk.orderLanguage.testHooks';

/** What `spotdesk.orderLanguage.testHooks` resolves to (extension-host tests only). */
export interface LanguageTestHooks {
  /** Whether the client (and so the server process) has been started. */
  started(): boolean;
  /** Start it if needed and wait until the server is running. */
  client(): Promise<OrderLanguageClient>;
  /** The server's symbol-metadata state (spotdesk/status). */
  status(): Promise<SymbolsStatus>;
}

/** Start the order-document language client when the first order document is open (see module docs). */
export function register(context: vscode.ExtensionContext, services: Services): void {
  let clientP: Promise<OrderLanguageClient> | undefined;
  let disposed = false;
  const start = (): Promise<OrderLanguageClient> =>
    (clientP ??= import('./client').then(async ({ OrderLanguageClient: Client }) => {
      watcher.dispose();
      const c = new Client(context, services);
      await c.start();
      if (disposed) await c.dispose();
      return c;
    }));
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

  if (context.extensionMode !== vscode.ExtensionMode.Production) {
    const hooks: LanguageTestHooks = {
      started: () => clientP !== undefined,
      client: start,
      status: async () => (await start()).status(),
    };
    context.subscriptions.push(vscode.commands.registerCommand(LANGUAGE_TEST_HOOKS_COMMAND, () => hooks));
  }
}
