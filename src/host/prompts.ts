/**
 * The user prompts SpotDesk's commands use: modal confirmations, input boxes, quick picks and
 * multi-step flows. Every feature gets ONE object through `Services.prompts`, so whatever a command
 * asks the person goes through here.
 *
 * In Production mode the object is {@link windowPrompts} frozen: nothing can replace a method, and
 * it is not reachable from outside the extension (activate() exports nothing of it). Outside
 * Production the same object is handed to extension-host tests through the one test door
 * (`spotdesk.testHooks`, ./testHooks.ts), where tests replace methods to answer prompts.
 */
import * as vscode from 'vscode';
import type { Step } from './multiStep';

/** Options of {@link Prompts.pick}: a quick pick's options, plus the item to highlight first. */
export interface PickPromptOptions<T extends vscode.QuickPickItem> extends vscode.QuickPickOptions {
  /** Item made active when the pick opens (e.g. the default chain). */
  active?: T;
}

/** Prompt functions; each resolves to undefined/false when the user cancels. */
export interface Prompts {
  /**
   * Modal warning with one action button; true when the user chose `action`. `cancel` labels the
   * button that declines (default: VS Code's "Cancel"), e.g. "Keep Order" — so that neither button
   * can be misread.
   */
  confirm(message: string, detail: string, action: string, cancel?: string): Promise<boolean>;
  /** Input box (use `password: true` for secrets). */
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /** Single-choice quick pick. */
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickPromptOptions<T>): Promise<T | undefined>;
  /**
   * Run a multi-step flow (QuickInput steps with "n/total" and Back) from `start`.
   * @returns true when the last step completed, false when the person cancelled (Escape).
   */
  steps(start: Step): Promise<boolean>;
  /** Save dialog (where to write an export); undefined when cancelled. */
  saveFile(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined>;
  /** Open dialog for one file (e.g. a market recording); undefined when cancelled. */
  openFile(options: Omit<vscode.OpenDialogOptions, 'canSelectMany'>): Promise<vscode.Uri | undefined>;
}

/** The interactive implementation (VS Code's window API). */
export function windowPrompts(): Prompts {
  return {
    async confirm(message, detail, action, cancel) {
      if (cancel === undefined) return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
      const r = await vscode.window.showWarningMessage<vscode.MessageItem>(message, { modal: true, detail }, { title: action }, { title: cancel, isCloseAffordance: true });
      return r?.title === action;
    },
    async input(options) {
      return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
    },
    async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickPromptOptions<T>) {
      const { active, ...rest } = options;
      if (!active) return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...rest });
      const qp = vscode.window.createQuickPick<T>();
      qp.title = rest.title;
      qp.placeholder = rest.placeHolder;
      qp.matchOnDescription = rest.matchOnDescription ?? false;
      qp.matchOnDetail = rest.matchOnDetail ?? false;
      qp.ignoreFocusOut = true;
      qp.items = items;
      qp.activeItems = [active];
      try {
        return await new Promise<T | undefined>((resolve) => {
          qp.onDidAccept(() => {
            resolve(qp.selectedItems[0] ?? qp.activeItems[0]);
            qp.hide();
          });
          qp.onDidHide(() => resolve(undefined));
          qp.show();
        });
      } finally {
        qp.dispose();
      }
    },
    async saveFile(options) {
      return vscode.window.showSaveDialog(options);
    },
    async openFile(options) {
      const picked = await vscode.window.showOpenDialog({ ...options, canSelectMany: false, canSelectFiles: true, canSelectFolders: false });
      return picked?.[0];
    },
    async steps(start) {
      // Loaded on first use: activation stays light.
      const { MultiStepInput, CancelledSignal } = await import('./multiStep');
      try {
        await MultiStepInput.run(start);
        return true;
      } catch (err) {
        if (err instanceof CancelledSignal) return false;
        throw err;
      }
    },
  };
}
