/**
 * Funding feature: `spotdesk.createDepositAddress` and `spotdesk.withdraw`.
 * Both take from their argument only the currency of the Accounts row they were run on
 * (src/host/commandArgs.ts `currencyArg`); everything else is asked from the person through
 * `services.prompts`, and they return their outcome.
 *
 * Registration is light: the command implementations (./deposit, ./withdraw and the shared
 * funding rules they use) are loaded with dynamic `import()` on first use, which esbuild turns
 * into lazily-initialised modules of the CJS bundle, so activation does not pay for them.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../../../host/guardedCommand';
import type { Services } from '../../../host/services';
import { PanelSet } from '../../../host/webviewHost';
import type { FundingPanel } from './panel';
import { COMMANDS } from '../../../host/commandIds';
import type { TestSeams } from '../../../host/testHooks';
import { WithdrawalWatcher } from './watcher';

export type { DepositArgs, DepositOutcome } from './deposit';
export type { WithdrawArgs, WithdrawOutcome } from './withdraw';

/** Delay before a user profile's withdrawals in flight are looked up after activation (ms). */
const RESUME_AFTER_ACTIVATION_MS = 5_000;

/**
 * Registers the funding commands (implementations load on first invocation), the withdrawal
 * watcher (./watcher.ts: a submitted withdrawal is followed to SUCCESS or FAILURE and the person is
 * told), and disposes the funding panels with the extension. `seams` (outside Production only)
 * gets the watcher for the test door.
 */
export function register(context: vscode.ExtensionContext, services: Services, seams?: TestSeams): void {
  const panels = new PanelSet<string, FundingPanel>();
  const watcher = new WithdrawalWatcher(services);
  if (seams) seams.features.withdrawals = watcher;
  // A user profile's withdrawals in flight (e.g. from before a reload). Not for the sandbox at
  // activation: that would start it before any view asks (its withdrawals settle within 5 s).
  const resume = setTimeout(() => {
    if (!services.profile().sandbox) void watcher.resume();
  }, RESUME_AFTER_ACTIVATION_MS);
  context.subscriptions.push(
    panels,
    watcher,
    { dispose: () => clearTimeout(resume) },
    registerCommand(COMMANDS.createDepositAddress, async (arg?: unknown) => {
      const { runCreateDepositAddress } = await import('./deposit');
      return runCreateDepositAddress(services, arg, panels);
    }),
    registerCommand(COMMANDS.simulateDeposit, async (arg?: unknown) => {
      const { runSimulateDeposit } = await import('./simulateDeposit');
      return runSimulateDeposit(services, arg);
    }),
    registerCommand(COMMANDS.withdraw, async (arg?: unknown) => {
      const { runWithdraw } = await import('./withdraw');
      const outcome = await runWithdraw(services, arg);
      const currency = outcome.request?.body.currency;
      if (outcome.status === 'sent' && outcome.withdrawalId && typeof currency === 'string') watcher.track(outcome.withdrawalId, currency);
      return outcome;
    }),
  );
}
