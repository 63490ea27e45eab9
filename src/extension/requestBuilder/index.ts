import type * as vscode from 'vscode';
import type { Services } from '../services';

/** Registers the requestBuilder feature's commands, panels and providers. (Placeholder until the feature lands.) */
export function register(_context: vscode.ExtensionContext, _services: Services): void {}
