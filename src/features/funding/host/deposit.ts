/**
 * "SpotDesk: Create Deposit Address…" (`spotdesk.createDepositAddress`), from the palette or the
 * Accounts tree (argument: the row's currency, the only thing taken from it; see
 * src/host/commandArgs.ts). Picks a currency (deposit-enabled chains only,
 * with its full name), a chain when there are several (default marked), calls
 * POST /api/v1/deposit-addresses and shows address, memo and chain with copy buttons, the memo
 * warning, the minimum deposit and confirmations. When the exchange answers that the address already
 * exists (260000), the existing one is fetched with GET /api/v2/deposit-addresses and shown the same
 * way, with a line saying it is the existing address (outcome 'existing'); if that fetch fails, the
 * original error is explained. Errors are explained in words with their code.
 */
import * as vscode from 'vscode';
import type { Services } from '../../../host/services';
import { currencyArg } from '../../../host/commandArgs';
import { defaultChain, depositChains, depositCurrencies } from '../model/chains';
import { explainFundingError, isDepositAddressExists, type FundingErrorExplanation } from '../model/errors';
import { depositAddressView, existingDepositAddressView, findExistingAddress, type DepositAddressView } from '../model/summary';
import type { FundingChain, FundingCurrency } from '../model/types';
import type { FundingClient } from '../client';
import { FundingPanel } from './panel';
import type { PanelSet } from '../../../host/webviewHost';

/**
 * Argument of `spotdesk.createDepositAddress` after normalisation ({@link currencyArg}): at most
 * the currency of the Accounts row the command was run on. The chain is always picked by the
 * person (skipped only when the currency has a single deposit-enabled chain).
 */
export interface DepositArgs {
  currency?: string;
}

/**
 * What the command returns. `existing`: the create answered "already exists" and `view` is the
 * address the user already had (GET /api/v2/deposit-addresses).
 */
export interface DepositOutcome {
  status: 'created' | 'existing' | 'cancelled' | 'failed';
  view?: DepositAddressView;
  /** The request body sent. */
  request?: { currency: string; chain?: string };
  error?: FundingErrorExplanation;
}

function fail(e: FundingErrorExplanation): DepositOutcome {
  void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
  return { status: 'failed', error: e };
}

/**
 * The address the user already has for `currency` on `chain` (GET /api/v2/deposit-addresses with the
 * chain id), as a view; undefined when the request fails (logged) or lists none for that chain.
 */
async function existingView(services: Services, client: FundingClient, currency: string, chain: FundingChain): Promise<DepositAddressView | undefined> {
  try {
    const found = findExistingAddress(await client.getDepositAddresses(currency, chain.chainId), chain);
    if (!found) services.log.warn(`deposit address for ${currency} on ${chain.chainName} exists, but GET /api/v2/deposit-addresses listed none for that chain`);
    return found ? existingDepositAddressView(currency, found, chain) : undefined;
  } catch (err) {
    services.log.warn(`could not fetch the existing ${currency} deposit address on ${chain.chainName}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** Run the command; the address is shown in a panel of `panels`. Never throws. */
export async function runCreateDepositAddress(services: Services, raw: unknown, panels: PanelSet<string, FundingPanel>): Promise<DepositOutcome> {
  const args: DepositArgs = currencyArg(raw);
  const prompts = services.prompts;
  let currencies: FundingCurrency[];
  let client: FundingClient;
  try {
    client = await services.client();
    currencies = depositCurrencies(await client.getCurrencies());
  } catch (err) {
    return fail(explainFundingError(err, 'deposit-address'));
  }

  let currency: FundingCurrency | undefined = args.currency ? currencies.find((c) => c.currency === args.currency?.toUpperCase()) : undefined;
  if (args.currency && !currency) {
    return fail({ title: `Deposits of ${args.currency} are not available`, detail: `${args.currency} is unknown or has no deposit-enabled chain (GET /api/v3/currencies).`, unknownOutcome: false });
  }
  if (!currency) {
    const picked = await prompts.pick(
      currencies.map((c) => ({ label: c.currency, description: c.fullName, detail: depositChains(c).map((ch) => ch.chainName).join(', '), c })),
      { title: 'SpotDesk: Create Deposit Address', placeHolder: 'Currency to deposit (deposit-enabled only)', matchOnDescription: true },
    );
    if (!picked) return { status: 'cancelled' };
    currency = picked.c;
  }

  const chains = depositChains(currency);
  let chain: FundingChain | undefined;
  if (chains.length === 1) {
    chain = chains[0];
  } else {
    const def = defaultChain(currency.currency, chains);
    const items = chains.map((ch) => ({
      label: ch.chainName,
      description: `${ch.chainId}${ch === def ? ' · default' : ''}`,
      detail: `min deposit ${ch.depositMinSize ?? 'not published'} · ${ch.confirms ?? '?'} confirmations${ch.needTag ? ' · needs memo' : ''}`,
      ch,
    }));
    const picked = await prompts.pick(items, {
      title: `SpotDesk: Create Deposit Address — ${currency.currency}`,
      placeHolder: 'Chain (the default is marked)',
      active: items.find((i) => i.ch === def),
    });
    chain = picked?.ch;
    if (!chain) return { status: 'cancelled' };
  }

  // Spec: `chain` only for multi-chain currencies; the chain id is what KuCoin accepts.
  const request = { currency: currency.currency, ...(chains.length > 1 || (currency.chains ?? []).length > 1 ? { chain: chain.chainId } : {}) };
  let view: DepositAddressView;
  let status: 'created' | 'existing';
  try {
    view = depositAddressView(currency.currency, await client.createDepositAddress(request), chain);
    status = 'created';
    services.log.info(`deposit address created for ${currency.currency} on ${view.chain}`);
  } catch (err) {
    // "Already exists" (260000): show the address the user already has, like a created one.
    const existing = isDepositAddressExists(err) ? await existingView(services, client, currency.currency, chain) : undefined;
    if (!existing) {
      const e = explainFundingError(err, 'deposit-address', { currency: currency.currency, chain: chain.chainName });
      void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
      return { status: 'failed', error: e, request };
    }
    view = existing;
    status = 'existing';
    services.log.info(`deposit address for ${currency.currency} on ${view.chain} already existed; showing it`);
  }
  // On the sandbox the address is on no blockchain: the panel says so and draws no QR code.
  if (services.profile().sandbox) view = { ...view, simulated: true };
  try {
    FundingPanel.showDeposit({ extensionUri: services.context.extensionUri, log: services.log }, panels, view);
  } catch (err) {
    const e = explainFundingError(err, 'deposit-address', { currency: currency.currency, chain: chain.chainName });
    void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
    return { status: 'failed', error: e, request };
  }
  return { status, view, request };
}
