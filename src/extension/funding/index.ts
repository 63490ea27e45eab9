/**
 * Funding feature (issue 7): `spotdesk.createDepositAddress` and `spotdesk.withdraw`.
 * Both commands accept an argument object (see DepositArgs / WithdrawArgs) so tests and other
 * features can drive them without UI, and return their outcome.
 *
 * Registration is light: the command implementations (./deposit, ./withdraw and the shared
 * funding rules they use) are loaded with dynamic `import()` on first use, which esbuild turns
 * into lazily-initialised modules of the CJS bundle, so activation does not pay for them.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';

export type { DepositArgs, DepositOutcome } from './deposit';
export type { ConfirmFn, WithdrawArgs, WithdrawOutcome } from './withdraw';

/** Registers the funding commands (implementations load on first invocation). */
export function register(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('spotdesk.createDepositAddress', async (arg?: unknown) => {
      const { runCreateDepositAddress } = await import('./deposit');
      return runCreateDepositAddress(services, arg);
    }),
    vscode.commands.registerCommand('spotdesk.withdraw', async (arg?: unknown) => {
      const { runWithdraw } = await import('./withdraw');
      return runWithdraw(services, arg);
    }),
  );
}
