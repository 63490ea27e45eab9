/**
 * Funding feature (issue 7): `spotdesk.createDepositAddress` and `spotdesk.withdraw`.
 * Both commands accept an argument object (see DepositArgs / WithdrawArgs) so tests and other
 * features can drive them without UI, and return their outcome.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { runCreateDepositAddress } from './deposit';
import { runWithdraw } from './withdraw';

export type { DepositArgs, DepositOutcome } from './deposit';
export type { ConfirmFn, WithdrawArgs, WithdrawOutcome } from './withdraw';

/** Registers the funding commands. */
export function register(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('spotdesk.createDepositAddress', (arg?: unknown) => runCreateDepositAddress(services, arg)),
    vscode.commands.registerCommand('spotdesk.withdraw', (arg?: unknown) => runWithdraw(services, arg)),
  );
}
