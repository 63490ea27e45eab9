/**
 * "SpotDesk: Simulate a Deposit…" (sandbox profile only): credits play money to the sandbox's
 * main account through its admin API (POST /sandbox/v1/deposits, the embedded sandbox's admin
 * token), so the deposit flow can be tried end to end; the deposit shows in Funding History like
 * any other. The currency and chain may come from the caller (the deposit panel, an Accounts row);
 * the amount is always typed by the person.
 */
import * as vscode from 'vscode';
import type { Services } from '../../../host/services';
import { currencyArg } from '../../../host/commandArgs';
import { COMMANDS } from '../../../host/commandIds';
import { defaultChain, depositChains, depositCurrencies } from '../model/chains';
import type { FundingChain, FundingCurrency } from '../model/types';
import { validateAmount } from '../../../api/displayFormat';

/** What the command resolves to (plain data). */
export interface SimulatedDepositOutcome {
  status: 'credited' | 'cancelled' | 'unavailable' | 'failed';
  depositId?: string;
  currency?: string;
  chainId?: string;
  amount?: string;
  /** Why it failed, in words. */
  error?: string;
}

/** Largest amount one simulated deposit may credit (play money, but the total stays readable). */
const MAX_AMOUNT = '1000000000';

/**
 * Run the command. `rawArg` may name `{currency, chain}` (kept only when the sandbox lists them).
 * Never throws: failures are shown and returned.
 */
export async function runSimulateDeposit(services: Services, rawArg?: unknown): Promise<SimulatedDepositOutcome> {
  if (!services.profile().sandbox) {
    void vscode.window.showInformationMessage('SpotDesk: "Simulate a Deposit…" works on the sandbox profile only; a real exchange credits real deposits. Switch with "SpotDesk: Select Profile".');
    return { status: 'unavailable' };
  }
  const prompts = services.prompts;
  const title = 'SpotDesk: Simulate a Deposit (sandbox, play money)';
  try {
    const sandbox = await services.sandbox();
    if (!sandbox) return { status: 'unavailable' };
    const client = await services.client();
    const currencies = depositCurrencies((await client.getCurrencies()) as FundingCurrency[]);
    const wanted = currencyArg(rawArg).currency;
    let currency = currencies.find((c) => c.currency === wanted);
    if (!currency) {
      const picked = await prompts.pick(
        currencies.map((c) => ({ label: c.currency, description: c.fullName, c })),
        { title, placeHolder: 'Currency to credit to the sandbox main account' },
      );
      if (!picked) return { status: 'cancelled' };
      currency = picked.c;
    }
    const chains = depositChains(currency);
    const rawChain = (rawArg as { chain?: unknown } | undefined)?.chain;
    let chain: FundingChain | undefined = typeof rawChain === 'string' ? chains.find((ch) => ch.chainId.toLowerCase() === rawChain.toLowerCase() || ch.chainName === rawChain) : undefined;
    if (!chain && chains.length === 1) chain = chains[0];
    if (!chain) {
      const def = defaultChain(currency.currency, chains);
      const items = chains.map((ch) => ({ label: ch.chainName, description: ch === def ? `${ch.chainId} (default)` : ch.chainId, ch }));
      const picked = await prompts.pick(items, { title, placeHolder: `Network of the ${currency.currency} deposit`, active: items.find((i) => i.ch === def) });
      if (!picked) return { status: 'cancelled' };
      chain = picked.ch;
    }
    const c = currency;
    const amount = await prompts.input({
      title,
      prompt: `Amount of ${c.currency} to credit on ${chain.chainName} (play money, main account)`,
      placeHolder: chain.depositMinSize ? `at least ${chain.depositMinSize}` : 'e.g. 100',
      validateInput: (v) => validateAmount(v, MAX_AMOUNT, c.currency, c.precision),
    });
    if (amount === undefined || validateAmount(amount, MAX_AMOUNT, c.currency, c.precision)) return { status: 'cancelled' };
    const res = await fetch(`${sandbox.baseUrl}/sandbox/v1/deposits`, {
      method: 'POST',
      redirect: 'error',
      headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uid: sandbox.uid, currency: c.currency, chain: chain.chainId, amount: amount.trim() }),
    });
    const body = (await res.json().catch(() => undefined)) as { code?: string; msg?: string; data?: { depositId?: string; chainId?: string; amount?: string } } | undefined;
    if (!res.ok || body?.code !== '200000' || !body.data) throw new Error(`the sandbox refused the deposit (HTTP ${res.status}${body?.msg ? `: ${body.msg}` : ''})`);
    services.log.info(`simulated deposit ${body.data.depositId}: ${amount.trim()} ${c.currency} on ${chain.chainId}`);
    services.refresh('accounts');
    void vscode.commands.executeCommand(COMMANDS.fundingHistoryRefresh);
    void vscode.window.showInformationMessage(`SpotDesk: simulated deposit of ${amount.trim()} ${c.currency} on ${chain.chainName} credited to the sandbox main account (play money). It shows in Funding History.`);
    return { status: 'credited', depositId: body.data.depositId, currency: c.currency, chainId: chain.chainId, amount: amount.trim() };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    services.log.warn(`simulated deposit failed: ${error}`);
    void vscode.window.showErrorMessage(`SpotDesk: the simulated deposit failed — ${error}. Check the SpotDesk log, then try again.`);
    return { status: 'failed', error };
  }
}
