/**
 * "SpotDesk: Reset Sandbox…" (sandbox profile only): back to the embedded sandbox's freshly seeded world
 * through its admin API (POST /sandbox/v1/reset, the embedded sandbox's admin token; the sandbox side is
 * src/exchange/server/reset.ts), after a modal that says what is lost. The sandbox keeps running on the same
 * port with the same API key (so bots configured with it keep working); the views reload once it answers.
 * Takes no arguments: another extension calling it gets the same modal as the person.
 */
import * as vscode from 'vscode';
import type { Services } from './services';

/** What the command resolves to (plain data). */
export interface SandboxResetOutcome {
  status: 'reset' | 'cancelled' | 'unavailable' | 'failed';
  /** ms the sandbox spent on the reset. */
  tookMs?: number;
  /** Why it failed, in words. */
  error?: string;
}

/** The modal's question, details and button (exported for the tests: what the person reads). */
export function resetConfirmation(baseUrl: string): { message: string; detail: string; action: string } {
  return {
    message: 'Reset the sandbox to its starting state?',
    detail:
      `Everything done on the local sandbox at ${baseUrl} is lost: orders and fills, balances (back to the starting play money), ` +
      'deposits, withdrawals and transfers, users created through its admin API, and the service status. ' +
      'Its API key stays the same, so bots using it keep working. No real exchange is touched. This cannot be undone.',
    action: 'Reset Sandbox',
  };
}

/**
 * Run the command. Never throws: failures are shown and returned.
 * @param refreshAll reloads every SpotDesk view (after a reset, nothing they show is true any more)
 */
export async function runResetSandbox(services: Services, refreshAll: () => Promise<void> | void): Promise<SandboxResetOutcome> {
  if (!services.profile().sandbox) {
    void vscode.window.showInformationMessage('SpotDesk: "Reset Sandbox…" works on the sandbox profile only; it never touches a real exchange. Switch with "SpotDesk: Select Profile".');
    return { status: 'unavailable' };
  }
  const mode = services.profile().mode;
  if (mode) {
    // a borrowed market's sandbox refuses a reset (its book is the upstream's or the recording's): say so before the modal
    const name = mode.kind === 'paper' ? 'Paper (KuCoin prices)' : 'Replay (recorded market)';
    void vscode.window.showInformationMessage(
      `SpotDesk: "Reset Sandbox…" resets the simulated sandbox only. The ${name} profile borrows its market (${mode.kind === 'paper' ? 'the live book' : 'a recording'}) and cannot be reset; switch to "Sandbox (local)" with "SpotDesk: Select Profile" to reset that one.`,
    );
    return { status: 'unavailable' };
  }
  try {
    const sandbox = await services.sandbox();
    if (!sandbox) return { status: 'unavailable' };
    const q = resetConfirmation(sandbox.baseUrl);
    if (!(await services.prompts.confirm(q.message, q.detail, q.action))) return { status: 'cancelled' };
    // a realistic market builds 3 × 24 h of history for the fresh world: seconds, so show that it works
    const res = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'SpotDesk: resetting the sandbox (a fresh world and its market history)…' }, () =>
      fetch(`${sandbox.baseUrl}/sandbox/v1/reset`, {
        method: 'POST',
        redirect: 'error',
        headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    const body = (await res.json().catch(() => undefined)) as { code?: string; msg?: string; data?: { tookMs?: number } } | undefined;
    if (!res.ok || body?.code !== '200000') throw new Error(`the sandbox refused the reset (HTTP ${res.status}${body?.msg ? `: ${body.msg}` : ''})`);
    const tookMs = typeof body.data?.tookMs === 'number' ? body.data.tookMs : undefined;
    services.log.info(`sandbox reset to its seeded world${tookMs === undefined ? '' : ` in ${tookMs.toFixed(1)} ms`}`);
    await refreshAll();
    void vscode.window.showInformationMessage('SpotDesk: the sandbox is back to its starting state (same API key). The views show it again.');
    return { status: 'reset', ...(tookMs === undefined ? {} : { tookMs }) };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    services.log.warn(`sandbox reset failed: ${error}`);
    void vscode.window.showErrorMessage(`SpotDesk: the sandbox reset failed — ${error}. Check the SpotDesk log, then try again.`);
    return { status: 'failed', error };
  }
}
