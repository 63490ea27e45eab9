/**
 * Command registration that never lets a failure escape to the caller (a menu, a key binding or
 * another extension's `executeCommand`): the error is logged and shown to the person instead.
 */
import * as vscode from 'vscode';
import { describeError } from './views/pollingTree';

/** Registers one command; see {@link guardedRegistrar}. */
export type GuardedRegister = (id: string, fn: (...args: never[]) => unknown) => vscode.Disposable;

/**
 * A `registerCommand` whose handler `fn` (sync or async) is guarded: when it throws or rejects, the
 * message ({@link describeError}) is logged as `"<id>: <message>"` on `log`, shown as the error
 * notification `"SpotDesk: <message>"`, and the command resolves to undefined.
 * Otherwise the command resolves to what `fn` returned.
 */
export function guardedRegistrar(log: Pick<vscode.LogOutputChannel, 'error'>): GuardedRegister {
  return (id, fn) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => unknown)(...args);
      } catch (err) {
        const msg = describeError(err);
        log.error(`${id}: ${msg}`);
        void vscode.window.showErrorMessage(`SpotDesk: ${msg}`);
        return undefined;
      }
    });
}
