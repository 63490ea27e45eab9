/**
 * Request builder feature (issue 8): the `spotdesk.openRequestBuilder` panel, order documents
 * (`*.spotorder.json` diagnostics and CodeLenses) and their commands.
 *
 * Registration is light: `register()` only registers commands and a document watcher. The
 * implementation (controller, panel, webview protocol with its zod schemas, order-document
 * analysis) is loaded with dynamic `import()` — lazily-initialised modules in the CJS bundle — on
 * first use: when a command runs, or when a `*.spotorder.json` document is open or gets opened
 * (then the diagnostics/CodeLens provider is created and checks every open order document).
 *
 * In test/development mode only, the command `spotdesk.requestBuilder.testHooks` resolves to
 * {@link RequestBuilderTestHooks} so extension-host tests can swap the client (wrong secret,
 * skewed clock, key without Spot Trading), answer the placement confirmation and drive the panel.
 * Calling it loads the implementation and creates the order-document provider.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { SpotClient } from '../../api/client';
import type { Services } from '../services';
import type { RequestBuilderController } from './controller';
import { isOrderDocument, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';
import type { OrderDocuments } from './orderDocuments';
import type { RequestBuilderPanel } from './panel';

/** Command id of the panel. */
export const OPEN_COMMAND = 'spotdesk.openRequestBuilder';
/** Command id of the test hooks (registered only in Test/Development extension mode). */
export const TEST_HOOKS_COMMAND = 'spotdesk.requestBuilder.testHooks';

/** What `spotdesk.requestBuilder.testHooks` resolves to (extension-host tests only). */
export interface RequestBuilderTestHooks {
  controller: RequestBuilderController;
  documents: OrderDocuments;
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
  let disposed = false;

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

  let documentsP: Promise<OrderDocuments> | undefined;
  /** The order-document provider, created on first need (it checks every open order document). */
  const documents = (): Promise<OrderDocuments> =>
    (documentsP ??= import('./orderDocuments').then(({ OrderDocuments: Documents }) => {
      const d = new Documents(async () => (await controller()).symbolMap());
      if (disposed) d.dispose();
      else context.subscriptions.push(d);
      watcher.dispose();
      return d;
    }));
  const watcher = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (isOrderDocument(doc)) void documents();
  });
  if (vscode.workspace.textDocuments.some(isOrderDocument)) void documents();

  const openFromDocument = async (uri: unknown, index: unknown, runTest: boolean) => {
    if (typeof uri !== 'string' || typeof index !== 'number') return;
    const { OrderDocuments: Documents } = await import('./orderDocuments');
    const order = await Documents.orderAt(uri, index);
    if (!order) {
      void vscode.window.showWarningMessage(`SpotDesk: order #${index + 1} is no longer in the document.`);
      return;
    }
    const [{ orderToDraft }, { RequestBuilderPanel: Panel }, c] = await Promise.all([
      import('../../shared/requestBuilder/protocol'),
      panels(),
      controller(),
    ]);
    Panel.show(context.extensionUri, services, c, orderToDraft(order, randomBytes(16).toString('hex')), runTest);
  };

  context.subscriptions.push(
    watcher,
    vscode.commands.registerCommand(OPEN_COMMAND, async () => {
      const [{ RequestBuilderPanel: Panel }, c] = await Promise.all([panels(), controller()]);
      Panel.show(context.extensionUri, services, c);
    }),
    vscode.commands.registerCommand(TEST_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, true)),
    vscode.commands.registerCommand(SHOW_SIGNATURE_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, false)),
    services.onDidChangeProfile(() => {
      void (async () => {
        if (controllerP) (await controllerP).reset();
        if (documentsP) await (await documentsP).reloadSymbols();
      })();
    }),
    {
      dispose: () => {
        disposed = true;
        panelModule?.RequestBuilderPanel.instance?.dispose();
      },
    },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Production) {
    let hooksP: Promise<RequestBuilderTestHooks> | undefined;
    const hooks = (): Promise<RequestBuilderTestHooks> =>
      (hooksP ??= (async () => {
        const [c, d, mod] = await Promise.all([controller(), documents(), panels()]);
        return {
          controller: c,
          documents: d,
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
