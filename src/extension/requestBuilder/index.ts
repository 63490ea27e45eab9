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
 * "Place order" always asks in a modal through `services.prompts.confirm` (frozen in Production).
 * The order-document lens commands take only `(uri, orderIndex)` of a `*.spotorder.json` document
 * (src/extension/commandArgs.ts) and open the panel on that order; the lens "Test order" runs the
 * order TEST (POST /api/v1/hf/orders/test), which places nothing.
 *
 * Outside Production only, {@link RequestBuilderTestHooks} are reachable through the one test door
 * (`spotdesk.testHooks` → `requestBuilder()`, src/extension/testHooks.ts) so extension-host tests
 * can drive the panel; clients are swapped with the door's `setClient` (wrong secret, skewed
 * clock, key without Spot Trading) and confirmations answered through its `prompts`. Getting them
 * loads the implementation and creates the order-document provider.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { orderDocumentArgs } from '../commandArgs';
import type { TestSeams } from '../testHooks';
import type { RequestBuilderController } from './controller';
import { isOrderDocument, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';
import type { OrderDocuments } from './orderDocuments';
import type { RequestBuilderPanel } from './panel';

/** Command id of the panel. */
export const OPEN_COMMAND = 'spotdesk.openRequestBuilder';

/** The request builder's part of the test door (`(await spotdesk.testHooks).requestBuilder()`). */
export interface RequestBuilderTestHooks {
  controller: RequestBuilderController;
  documents: OrderDocuments;
  /** The open panel, if any. */
  panel(): RequestBuilderPanel | undefined;
}

/**
 * Registers the request builder's commands and the order-document watcher (implementation loads on
 * first use). `seams` exists only outside Production (src/extension/testHooks.ts).
 */
export function register(context: vscode.ExtensionContext, services: Services, seams?: TestSeams): void {
  let disposed = false;

  let controllerP: Promise<RequestBuilderController> | undefined;
  const controller = (): Promise<RequestBuilderController> =>
    (controllerP ??= import('./controller').then(
      ({ RequestBuilderController: Controller }) =>
        new Controller({
          client: () => services.client(),
          publicClient: () => services.publicClient(),
          confirm: (message, detail, action) => services.prompts.confirm(message, detail, action),
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

  const openFromDocument = async (rawUri: unknown, rawIndex: unknown, runTest: boolean) => {
    const target = orderDocumentArgs(rawUri, rawIndex);
    if (!target) return;
    const { uri, index } = target;
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

  if (seams) {
    let hooksP: Promise<RequestBuilderTestHooks> | undefined;
    seams.features.requestBuilder = () =>
      (hooksP ??= (async () => {
        const [c, d, mod] = await Promise.all([controller(), documents(), panels()]);
        return { controller: c, documents: d, panel: () => mod.RequestBuilderPanel.instance };
      })());
    context.subscriptions.push(
      seams.onDidChangeClient(() => {
        void controllerP?.then((c) => c.reset());
      }),
    );
  }
}
