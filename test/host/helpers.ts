/**
 * Shared helpers of the extension-host suites: activate SpotDesk and get the API object that
 * activate() returns (services, connection, tree providers, prompts).
 */
import * as vscode from 'vscode';
import type { SpotDeskApi } from '../../src/extension/extension';

/** The extension id (`publisher.name` from package.json). */
export const EXTENSION_ID = 'spotdesk.spotdesk';

/** Activate SpotDesk (if needed) and return its API. */
export async function spotdesk(): Promise<SpotDeskApi> {
  const ext = vscode.extensions.getExtension<SpotDeskApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.isActive ? ext.exports : await ext.activate();
}

/** Poll `check` every 100 ms until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Children of a tree provider node (root when `node` is undefined). */
export async function children<T>(provider: vscode.TreeDataProvider<T>, node?: T): Promise<T[]> {
  return ((await provider.getChildren(node)) ?? []) as T[];
}

/** The TreeItem a provider renders for `node`. */
export async function item<T>(provider: vscode.TreeDataProvider<T>, node: T): Promise<vscode.TreeItem> {
  return provider.getTreeItem(node);
}

/** Label of a TreeItem as a plain string. */
export function labelOf(it: vscode.TreeItem): string {
  const l = it.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Make the built-in sandbox the active profile (user-level setting). */
export async function useSandboxProfile(): Promise<void> {
  await vscode.workspace.getConfiguration('spotdesk').update('activeProfile', undefined, vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('spotdesk').update('profiles', undefined, vscode.ConfigurationTarget.Global);
}

/**
 * Whether a tree node is the error item. (Test bundles have their own copy of the extension's
 * classes, so `instanceof ErrorNode` cannot work across the two bundles: compare `kind`.)
 */
export function isError(node: unknown): node is { kind: 'error'; message: string; viewId: string } {
  return !!node && typeof node === 'object' && (node as { kind?: unknown }).kind === 'error';
}
