/**
 * Request builder feature: the `spotdesk.openRequestBuilder` panel and the commands of the order-document
 * code lenses ("Test order", "Show signature", "Place order…"; the lenses and the diagnostics come from the
 * order-document language server and its client, src/features/language/host/). Each lens command takes only
 * `(uri, orderIndex)` of a `*.spotorder.json` document (src/host/commandArgs.ts), re-reads that order from the
 * document and opens the panel on it; a stop or OCO order is tested and placed by ./advancedOrder.ts instead.
 *
 * Key rules: `register()` only registers commands, and the implementation (controller, panel, webview protocol
 * with its zod schemas) is loaded with dynamic `import()` on first use. "Place order" always asks in a modal
 * through `services.prompts.confirm` (frozen in Production), after the local rules passed. Outside Production
 * only, {@link RequestBuilderTestHooks} are reachable through the one test door (`spotdesk.testHooks`). Details:
 * docs/ARCHITECTURE.md "Request builder host (`src/features/requestBuilder/host/index.ts`)".
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { registerCommand } from '../../../host/guardedCommand';
import type { Services } from '../../../host/services';
import { orderDocumentArgs, prefillArgs } from '../../../host/commandArgs';
import type { RequestBuilderTestHooks, TestSeams } from '../../../host/testHooks';
export type { RequestBuilderTestHooks } from '../../../host/testHooks';
import type { AfterLoad, RequestBuilderController } from '../controller';
import { PLACE_ORDER_COMMAND, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './ids';
import { COMMANDS, INTERNAL_COMMANDS } from '../../../host/commandIds';
import { orderKind } from '../../../api/advancedOrderRules';

/** Command id of the panel. */
export const OPEN_COMMAND = COMMANDS.openRequestBuilder;


/**
 * Registers the request builder's commands (implementation loads on first use). `seams` exists only
 * outside Production (src/host/testHooks.ts).
 */
export function register(context: vscode.ExtensionContext, services: Services, seams?: TestSeams): void {
  let controllerP: Promise<RequestBuilderController> | undefined;
  const controller = (): Promise<RequestBuilderController> =>
    (controllerP ??= import('../controller').then(
      ({ RequestBuilderController: Controller }) =>
        new Controller({
          client: () => services.client(),
          publicClient: () => services.publicClient(),
          symbols: (force) => services.symbols(force),
          profile: () => services.profile(),
          confirm: (message, detail, action, cancel) => services.prompts.confirm(message, detail, action, cancel),
          confirmPlacement: (message, detail, action, cancel) => services.gate.confirm('place', message, detail, action, { cancel }),
          withConfirmation: (confirmation, send) => services.gate.run(confirmation, send),
          afterPlace: (symbol) => {
            services.noteSymbol(symbol);
            services.refresh('orders');
          },
          log: (line) => services.log.info(line),
        }),
    ));

  let panelModule: typeof import('./panel') | undefined;
  const panels = async (): Promise<typeof import('./panel')> => (panelModule ??= await import('./panel'));

  const openFromDocument = async (rawUri: unknown, rawIndex: unknown, then: AfterLoad) => {
    const target = orderDocumentArgs(rawUri, rawIndex);
    if (!target) return;
    const { index } = target;
    const { orderAt } = await import('../../language/host/orderAt');
    const order = await orderAt(vscode.Uri.parse(target.uri, true), index);
    if (!order) {
      void vscode.window.showWarningMessage(`SpotDesk: order #${index + 1} is no longer in the document.`);
      return;
    }
    // A stop or OCO order is tested and placed by its own path (./advancedOrder.ts): the builder is an HF order form.
    if (orderKind(order) !== 'order') {
      if (then === undefined) {
        void vscode.window.showInformationMessage('SpotDesk: the signature view is for HF orders; a stop or OCO order is signed the same way for POST /api/v1/stop-order or /api/v3/oco/order.');
        return;
      }
      const { runAdvancedDocumentOrder } = await import('./advancedOrder');
      return runAdvancedDocumentOrder(services, then, order);
    }
    const [{ orderToDraft }, { RequestBuilderPanel: Panel }, c] = await Promise.all([
      import('../protocol'),
      panels(),
      controller(),
    ]);
    Panel.show(context.extensionUri, services, c, orderToDraft(order, randomBytes(16).toString('hex')), then);
  };

  context.subscriptions.push(
    // Keyboard shortcuts of the panel (when it is the active webview): the webview clicks the button.
    registerCommand(COMMANDS.requestBuilderRunTest, () => panelModule?.RequestBuilderPanel.instance?.host.post({ type: 'trigger', action: 'runTest' })),
    registerCommand(COMMANDS.requestBuilderPlace, () => panelModule?.RequestBuilderPanel.instance?.host.post({ type: 'trigger', action: 'place' })),
    registerCommand(OPEN_COMMAND, async () => {
      const [{ RequestBuilderPanel: Panel }, c] = await Promise.all([panels(), controller()]);
      Panel.show(context.extensionUri, services, c);
    }),
    registerCommand(TEST_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, 'test')),
    registerCommand(SHOW_SIGNATURE_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, undefined)),
    registerCommand(PLACE_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, 'place')),
    // A market panel's price level: a limit draft with that symbol, side and price. Nothing is sent.
    registerCommand(INTERNAL_COMMANDS.requestBuilderPrefill, async (symbol: unknown, side: unknown, price: unknown) => {
      const args = prefillArgs(symbol, side, price);
      if (!args) return;
      const [{ orderToDraft }, { RequestBuilderPanel: Panel }, c] = await Promise.all([import('../protocol'), panels(), controller()]);
      Panel.show(context.extensionUri, services, c, orderToDraft({ symbol: args.symbol, side: args.side, type: 'limit', price: args.price }, randomBytes(16).toString('hex')));
    }),
    services.onDidChangeProfile(() => {
      void controllerP?.then((c) => c.reset());
    }),
    {
      dispose: () => {
        panelModule?.RequestBuilderPanel.instance?.dispose();
      },
    },
  );

  if (seams) {
    let hooksP: Promise<RequestBuilderTestHooks> | undefined;
    seams.features.requestBuilder = () =>
      (hooksP ??= (async () => {
        const [c, mod] = await Promise.all([controller(), panels()]);
        return { controller: c, panel: () => mod.RequestBuilderPanel.instance };
      })());
    context.subscriptions.push(
      seams.onDidChangeClient(() => {
        void controllerP?.then((c) => c.reset());
      }),
    );
  }
}
