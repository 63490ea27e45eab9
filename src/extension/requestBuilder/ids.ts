/**
 * Identifiers of the request builder feature that its light registration code needs without
 * loading the feature's implementation (see ./index.ts): command ids, the order-document glob and
 * the order-document test. It imports only the command id table (../commandIds.ts), so importing
 * this module costs nothing.
 */
import type * as vscode from 'vscode';
import { INTERNAL_COMMANDS } from '../commandIds';

/** Glob of order documents. */
export const ORDER_DOCUMENT_GLOB = '**/*.spotorder.json';
/** Command run by the "Test order" lens: args (uri: string, orderIndex: number). */
export const TEST_ORDER_COMMAND = INTERNAL_COMMANDS.orderDocumentTestOrder;
/** Command run by the "Show signature" lens: args (uri: string, orderIndex: number). */
export const SHOW_SIGNATURE_COMMAND = INTERNAL_COMMANDS.orderDocumentShowSignature;

/** True for a `*.spotorder.json` document (case-insensitive on the file name). */
export function isOrderDocument(doc: Pick<vscode.TextDocument, 'uri'>): boolean {
  return doc.uri.path.toLowerCase().endsWith('.spotorder.json');
}
