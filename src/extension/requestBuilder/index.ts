/**
 * Request builder feature (issue 8): the `spotdesk.openRequestBuilder` panel and the commands of
 * the order-document code lenses ("Test order", "Show signature", "Place order…"; the lenses, the
 * diagnostics and the rest of the order-document support come from the language server, issue 24,
 * src/extension/language/). Each lens command takes `(uri, orderIndex)` of a `*.spotorder.json`
 * document, re-reads that order from the document and opens the panel on it; "Place order…" then
 * places it through the panel's guarded path (local validation, then the modal confirmation).
 *
 * Registration is light: `register()` only registers commands. The implementation (controller,
 * panel, webview protocol with its zod schemas) is loaded with dynamic `import()` —
 * lazily-initialised modules in the CJS bundle — on first use.
 *
 * In test/development mode only, the command `spotdesk.requestBuilder.testHooks` resolves to
 * {@link RequestBuilderTestHooks} so extension-host tests can swap the client (wrong secret,
 * skewed clock, key without Spot Trading), answer the placement confirmation and drive the panel.
 * Calling it loads the implementation.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { SpotClient } from '../../api/client';
import type { Services } from '../services';
import type { AfterLoad, RequestBuilderController } from './controller';
import { isOrderDocument, PLACE_ORDER_COMMAND, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';
import type { RequestBuilderPanel } from './panel';

/** Command id of the panel. */
export const OPEN_COMMAND = 'spotdesk.openRequestBuilder';
/** Command id of the test hooks (registered only in Test/Development extension mode). */
export const TEST_HOOKS_COMMAND = 'spotdesk.requestBuilder.testHooks';

/** What `spotdesk.requestBuilder.testHooks` resolves to (extension-host tests only). */
export interface RequestBuilderTestHooks {
  controller: RequestBuilderController;
  /** The open panel, if any. */
  panel(): RequestBuilderPanel | undefined;
  /** Use this client instead of the profile's (undefined restores the profile's). */
  setClient(client: SpotClient | undefined): void;
  /** Answer confirmations (undefined restores the modal dialog). Receives (message, detail, action). */
  setConfirm(fn: ((message: string, detail: string, action: string) => Promise<boolean>) | undefined): void;
}

/** Registers the request builder's commands and the order-document watcher (implementation loads on first use). */
export function register(context: vscode.ExtensionContext, services: Services): void {
  let clientOverride: SpotClient | undefined;
  let confirmOverride: ((message: string, detail: string, action: string) => Promise<boolean>) | undefined;

  let controllerP: Promise<RequestBuilderController> | undefined;
  const controller = (): Promise<RequestBuilderController> =>
    (controllerP ??= import('./controller').then(
      ({ RequestBuilderController: Controller }) =>
        new Controller({
          client: () => (clientOverride ? Promise.resolve(clientOverride) : services.client()),
          publicClient: () => (clientOverride ? Promise.resolve(clientOverride) : services.publicClient()),
          confirm: async (message, detail, action) => {
            if (confirmOverride) return confirmOverride(message, detail, action);
            const r = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
            return r === action;
          },
          afterPlace: (symbol) => {
            services.noteSymbol(symbol);
            services.refresh('orders');
          },
          log: (line) => services.log.info(line),
        }),
    ));

  let panelModule: typeof import('./panel') | undefined;
  const panels = async (): Promise<typeof import('./panel')> => (panelModule ??= await import('./panel'));

  const openFromDocument = async (rawUri: unknown, index: unknown, then: AfterLoad) => {
    if (typeof rawUri !== 'string' || typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return;
    const uri = vscode.Uri.parse(rawUri, true);
    if (!isOrderDocument({ uri })) return;
    const { orderAt } = await import('../language/orderAt');
    const order = await orderAt(uri, index);
    if (!order) {
      void vscode.window.showWarningMessage(`SpotDesk: order #${index + 1} is no longer in the document.`);
      return;
    }
    const [{ orderToDraft }, { RequestBuilderPanel: Panel }, c] = await Promise.all([
      import('../../shared/requestBuilder/protocol'),
      panels(),
      controller(),
    ]);
    Panel.show(context.extensionUri, services, c, orderToDraft(order, randomBytes(16).toString('hex')), then);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_COMMAND, async () => {
      const [{ RequestBuilderPanel: Panel }, c] = await Promise.all([panels(), controller()]);
      Panel.show(context.extensionUri, services, c);
    }),
    vscode.commands.registerCommand(TEST_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, 'test')),
    vscode.commands.registerCommand(SHOW_SIGNATURE_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, undefined)),
    vscode.commands.registerCommand(PLACE_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, 'place')),
    services.onDidChangeProfile(() => {
      void controllerP?.then((c) => c.reset());
    }),
    {
      dispose: () => {
        panelModule?.RequestBuilderPanel.instance?.dispose();
      },
    },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Production) {
    let hooksP: Promise<RequestBuilderTestHooks> | undefined;
    const hooks = (): Promise<RequestBuilderTestHooks> =>
      (hooksP ??= (async () => {
        const [c, mod] = await Promise.all([controller(), panels()]);
        return {
          controller: c,
          panel: () => mod.RequestBuilderPanel.instance,
          setClient: (client) => {
            clientOverride = client;
            c.reset();
          },
          setConfirm: (fn) => {
            confirmOverride = fn;
          },
        };
      })());
    context.subscriptions.push(vscode.commands.registerCommand(TEST_HOOKS_COMMAND, hooks));
  }
}
