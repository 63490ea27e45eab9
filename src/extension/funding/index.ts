/**
 * Funding feature (issue 7): `spotdesk.createDepositAddress` and `spotdesk.withdraw`.
 * Both take from their argument only the currency of the Accounts row they were run on
 * (src/extension/commandArgs.ts `currencyArg`); everything else is asked from the person through
 * `services.prompts`, and they return their outcome.
 *
 * Registration is light: the command implementations (./deposit, ./withdraw and the shared
 * funding rules they use) are loaded with dynamic `import()` on first use, which esbuild turns
 * into lazily-initialised modules of the CJS bundle, so activation does not pay for them.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';

export type { DepositArgs, DepositOutcome } from './deposit';
export type { WithdrawArgs, WithdrawOutcome } from './withdraw';

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
