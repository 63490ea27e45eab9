/**
 * The order at an index of an order document, read by the EXTENSION from the text the person sees
 * (not from the language server, and never from a command's arguments): what the lens commands
 * "Test order", "Show signature" and "Place order…" load into the request builder. Parsed with the
 * server's pure document model (src/language/document.ts). Loaded on first use (dynamic import).
 */
import * as vscode from 'vscode';
import { OrderDocument } from '../../../language/document';

/**
 * The order object at `index` of the document `uri` (opened if needed), or undefined when the
 * document has no order there (it was edited since the lens was drawn) or is not valid JSON there.
 */
export async function orderAt(uri: vscode.Uri, index: number): Promise<Record<string, unknown> | undefined> {
  const doc = await vscode.workspace.openTextDocument(uri);
  return new OrderDocument(doc.getText()).orders[index]?.value;
}
