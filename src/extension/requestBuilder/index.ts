/**
 * Request builder feature (issue 8): the `spotdesk.openRequestBuilder` panel, order documents
 * (`*.spotorder.json` diagnostics and CodeLenses) and their commands.
 *
 * In test/development mode only, the command `spotdesk.requestBuilder.testHooks` returns
 * {@link RequestBuilderTestHooks} so extension-host tests can swap the client (wrong secret,
 * skewed clock, key without Spot Trading), answer the placement confirmation and drive the panel.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { SpotClient } from '../../api/client';
import { orderToDraft } from '../../shared/requestBuilder/protocol';
import type { Services } from '../services';
import { RequestBuilderController } from './controller';
import { OrderDocuments, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from './orderDocuments';
import { RequestBuilderPanel } from './panel';

/** Command id of the panel. */
export const OPEN_COMMAND = 'spotdesk.openRequestBuilder';
/** Command id of the test hooks (registered only in Test/Development extension mode). */
export const TEST_HOOKS_COMMAND = 'spotdesk.requestBuilder.testHooks';

/** What `spotdesk.requestBuilder.testHooks` returns (extension-host tests only). */
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

/** Registers the request builder's commands, panel and order-document providers. */
export function register(context: vscode.ExtensionContext, services: Services): void {
  let clientOverride: SpotClient | undefined;
  let confirmOverride: ((message: string, detail: string, action: string) => Promise<boolean>) | undefined;
  const controller = new RequestBuilderController({
    client: () => (clientOverride ? Promise.resolve(clientOverride) : services.client()),
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
  });
  const documents = new OrderDocuments(() => controller.symbolMap());

  const openFromDocument = async (uri: unknown, index: unknown, runTest: boolean) => {
    if (typeof uri !== 'string' || typeof index !== 'number') return;
    const order = await OrderDocuments.orderAt(uri, index);
    if (!order) {
      void vscode.window.showWarningMessage(`SpotDesk: order #${index + 1} is no longer in the document.`);
      return;
    }
    RequestBuilderPanel.show(context.extensionUri, services, controller, orderToDraft(order, randomBytes(16).toString('hex')), runTest);
  };

  context.subscriptions.push(
    documents,
    vscode.commands.registerCommand(OPEN_COMMAND, () => {
      RequestBuilderPanel.show(context.extensionUri, services, controller);
    }),
    vscode.commands.registerCommand(TEST_ORDER_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, true)),
    vscode.commands.registerCommand(SHOW_SIGNATURE_COMMAND, (uri: unknown, index: unknown) => openFromDocument(uri, index, false)),
    services.onDidChangeProfile(() => {
      controller.reset();
      void documents.reloadSymbols();
    }),
    { dispose: () => RequestBuilderPanel.instance?.dispose() },
  );

  if (context.extensionMode !== vscode.ExtensionMode.Production) {
    const hooks: RequestBuilderTestHooks = {
      controller,
      documents,
      panel: () => RequestBuilderPanel.instance,
      setClient: (c) => {
        clientOverride = c;
        controller.reset();
      },
      setConfirm: (fn) => {
        confirmOverride = fn;
      },
    };
    context.subscriptions.push(vscode.commands.registerCommand(TEST_HOOKS_COMMAND, () => hooks));
  }
}
