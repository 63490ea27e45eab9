/**
 * The user prompts SpotDesk's commands use (modal confirmations, input boxes, quick picks).
 * One mutable object is shared by all commands and exposed through the API returned by
 * `activate()`, so extension-host tests can answer prompts without clicking through the UI.
 */
import * as vscode from 'vscode';

/** Prompt functions; each resolves to undefined/false when the user cancels. */
export interface Prompts {
  /** Modal warning with one action button; true when the user chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** Input box (use `password: true` for secrets). */
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** Single-choice quick pick. */
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
}

/** The interactive implementation (VS Code's window API). */
export function windowPrompts(): Prompts {
  return {
    async confirm(message, detail, action) {
      const r = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
      return r === action;
    },
    async input(options) {
      return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
    },
    async pick(items, options) {
      return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options });
    },
  };
}
