/**
 * Identifiers of the request builder feature that its light registration code (and the
 * order-document language client, src/features/language/host/) need without loading the feature's
 * implementation (see ./index.ts): command ids, the order-document glob and the order-document
 * test. It imports only the command id table (../commandIds.ts), so importing this module costs nothing.
 */
import type * as vscode from 'vscode';
import { INTERNAL_COMMANDS } from '../../../host/commandIds';

/** Glob of order documents. */
export const ORDER_DOCUMENT_GLOB = '**/*.spotorder.json';
/** Command run by the "Test order" lens: args (uri: string, orderIndex: number). */
export const TEST_ORDER_COMMAND = INTERNAL_COMMANDS.orderDocumentTestOrder;
/** Command run by the "Show signature" lens: args (uri: string, orderIndex: number). */
export const SHOW_SIGNATURE_COMMAND = INTERNAL_COMMANDS.orderDocumentShowSignature;
/**
 * Command run by the "Place order…" lens: args (uri: string, orderIndex: number). It opens the
 * request builder on the order and places it through the builder's guarded path (local
 * validation, then the modal confirmation): the arguments can never skip the confirmation.
 */
export const PLACE_ORDER_COMMAND = INTERNAL_COMMANDS.orderDocumentPlaceOrder;

/** True for a `*.spotorder.json` document (case-insensitive on the file name). */
export function isOrderDocument(doc: Pick<vscode.TextDocument, 'uri'>): boolean {
  return doc.uri.path.toLowerCase().endsWith('.spotorder.json');
}
