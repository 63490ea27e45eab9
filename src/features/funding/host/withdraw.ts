/**
 * "SpotDesk: Withdraw…" (`spotdesk.withdraw`): a guarded withdrawal, V1 (POST /api/v1/withdrawals)
 * or V4 (POST /api/v4/withdrawals).
 *
 * Flow: collect the draft from the person (multi-step QuickInput with step numbers and Back; the
 * only thing the command's argument can preset is the currency of the Accounts row it was run on)
 * → validate with exact decimals (src/features/funding/model/validate.ts), offering a trade → main
 * transfer when trade holds the funds → for V4 UID/MAIL/PHONE check the locally tracked rate limit
 * → modal summary + typed confirmation (the last 6 characters of the destination) → ONE
 * submission under an in-flight lock keyed by the confirmed request. Never retried; a
 * timeout/ambiguous outcome is reported as "status unknown — check withdrawal history". On success
 * the withdrawalId is shown and the Accounts view refreshed (holds change).
 *
 * Every question goes through `services.prompts` (frozen in Production; answerable by host tests
 * through the test door) and the client is `services.client()`: no argument can supply a
 * confirmation, a client or a draft.
 */
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import * as D from '../../../api/decimal';
import type { Services } from '../../../host/services';
import type { Prompts } from '../../../host/prompts';
import type { Confirmation, MoneyGate } from '../../../host/moneyGate';
import { fundsLabel, fundsPhrase, type FundsProfile } from '../../../api/moneyWords';
import { currencyArg } from '../../../host/commandArgs';
import { amountPrecision, defaultChain, needsMemo, withdrawChains, withdrawCurrencies } from '../model/chains';
import { explainFundingError, isRateLimited, isUnknownOutcome, type FundingErrorExplanation } from '../model/errors';
import { InFlightLock, requestKey } from '../model/lock';
import { deductionOptions } from '../model/quote';
import { formatWait, RateTracker } from '../model/rateLimit';
import { buildRequest, buildSummary, confirmationMatches, endpointOf, summaryText, type WithdrawalSummary } from '../model/summary';
import {
  REASONS_OF_TRANSFER,
  type FeeDeduction,
  type FundingAccount,
  type FundingChain,
  type FundingCurrency,
  type FundingQuota,
  type V4Recipient,
  type WithdrawalDraft,
  type WithdrawType,
} from '../model/types';
import { checkAmount, checkDestinationOn, identityTypeFor, validateWithdrawal, type TransferSuggestion, type ValidationIssue } from '../model/validate';
import type { FundingClient } from '../client';
import type { PickItem, Step } from '../../../host/multiStep';

/**
 * Argument of `spotdesk.withdraw` after normalisation ({@link currencyArg}): at most the currency
 * of the Accounts row the command was run on. Nothing else is taken from the argument.
 */
export interface WithdrawArgs {
  currency?: string;
}

/** What the command returns (tests read it). */
export interface WithdrawOutcome {
  status: 'sent' | 'cancelled' | 'invalid' | 'busy' | 'rate-limited' | 'failed' | 'unknown';
  withdrawalId?: string;
  issues?: ValidationIssue[];
  error?: FundingErrorExplanation;
  summary?: WithdrawalSummary;
  /** Endpoint and body that were (or would have been) sent. */
  request?: { endpoint: string; body: Record<string, unknown> };
  /** Set when a trade → main transfer was made first. */
  transferred?: TransferSuggestion;
}

const lock = new InFlightLock();
/**
 * The V4 UID/MAIL/PHONE rate tracker per client object. A profile's client lives until the profile
 * or its credentials change, so the tracker follows the account the client signs for.
 */
const trackers = new WeakMap<object, RateTracker>();

function trackerFor(client: object): RateTracker {
  let t = trackers.get(client);
  if (!t) trackers.set(client, (t = new RateTracker()));
  return t;
}

/**
 * The confirmation, through the money gate: a modal with the profile (what its money is) and the
 * summary ("Continue…"), then an input box where the person re-types the destination's last 6
 * characters from where they got it: the box shows neither the destination nor the characters, so
 * they cannot be copied from it (validated as typed).
 * @returns the withdrawal's confirmation, or undefined when dismissed at either step.
 */
export async function confirmWithdrawal(gate: MoneyGate, prompts: Prompts, s: WithdrawalSummary, profile: FundsProfile): Promise<Confirmation | undefined> {
  const destLine = s.lines.find((l) => ['Address', 'KuCoin UID', 'E-mail', 'Phone'].includes(l.label));
  const dest = destLine?.value ?? '';
  const what = destLine?.label === 'Address' ? 'address' : (destLine?.label ?? 'destination');
  const n = s.suffix.length;
  return gate.confirm(
    'withdraw',
    `${s.title} — ${fundsLabel(profile)}`,
    `Profile: ${fundsPhrase(profile)}.\n${summaryText(s)}\n\nNext you will re-type the last ${n} characters of the destination.`,
    'Continue…',
    {
      also: async () => {
        const typed = await prompts.input({
          title: `Confirm: ${s.title}`,
          prompt: `To send, re-type the last ${n} characters of the ${what} you are sending to, from where you got it`,
          placeHolder: `last ${n} characters`,
          ignoreFocusOut: true,
          validateInput: (v) => (confirmationMatches(dest, v) ? undefined : `Type the last ${n} characters of the ${what} exactly (case-sensitive)`),
        });
        return typed !== undefined && confirmationMatches(dest, typed);
      },
    },
  );
}

function findChain(c: FundingCurrency, chain: string): FundingChain | undefined {
  const lc = chain.toLowerCase();
  return (c.chains ?? []).find((ch) => ch.chainId.toLowerCase() === lc || ch.chainName.toLowerCase() === lc);
}

/** Run the withdraw command. Never throws; reports to the user and returns the outcome. */
export async function runWithdraw(services: Services, rawArgs?: unknown): Promise<WithdrawOutcome> {
  const args: WithdrawArgs = currencyArg(rawArgs);
  const prompts = services.prompts;
  let client: FundingClient;
  let currencies: FundingCurrency[];
  try {
    client = await services.client();
    currencies = await client.getCurrencies();
  } catch (err) {
    const e = explainFundingError(err, 'withdraw-v1');
    void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
    return { status: 'failed', error: e };
  }

  let draft: WithdrawalDraft;
  try {
    const collected = await collectDraft(prompts, client, currencies, args);
    if (!collected) return { status: 'cancelled' };
    draft = collected;
  } catch (err) {
    const e = explainFundingError(err, 'withdraw-v1');
    void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
    return { status: 'failed', error: e };
  }
  const op = draft.apiVersion === 'V1' ? 'withdraw-v1' : 'withdraw-v4';
  const currency = currencies.find((c) => c.currency === draft.currency);
  const chain = currency && findChain(currency, draft.chain);
  if (!currency || !chain) {
    const issues: ValidationIssue[] = [{ field: currency ? 'chain' : 'currency', message: currency ? `${draft.currency} has no chain ${draft.chain}.` : `Unknown currency ${draft.currency}.` }];
    void vscode.window.showErrorMessage(`SpotDesk: withdrawal not sent — ${issues[0].message}`);
    return { status: 'invalid', issues };
  }
  draft = { ...draft, chain: chain.chainId };

  // Validate against fresh balances and quota; offer trade → main when trade holds the funds.
  let transferred: TransferSuggestion | undefined;
  let validation;
  for (;;) {
    let accounts: FundingAccount[];
    let quota: FundingQuota | undefined;
    try {
      accounts = await client.getAccounts({ currency: draft.currency });
      quota = await client.getWithdrawalQuotas(draft.currency, chain.chainId).catch((err: unknown) => {
        services.log.warn(`withdrawal quota of ${draft.currency}/${chain.chainId} unavailable: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      });
    } catch (err) {
      const e = explainFundingError(err, op);
      void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
      return { status: 'failed', error: e };
    }
    validation = validateWithdrawal(draft, { currency, chain, accounts, quota });
    const onlyShortfall = validation.transfer && validation.issues.length === 1;
    if (!onlyShortfall || transferred || !validation.transfer) break;
    const t = validation.transfer;
    const accept = await prompts.confirm(
      'Main lacks funds for this withdrawal',
      `${validation.issues[0].message}\n\nTransfer ${t.amount} ${t.currency} from trade to main now? (Transfers between main and trade carry no fee.)`,
      `Transfer ${t.amount} ${t.currency} to main`,
    );
    if (!accept) break;
    try {
      await client.innerTransfer({ clientOid: randomUUID(), currency: t.currency, from: 'trade', to: 'main', amount: t.amount });
      transferred = t;
      services.refresh('accounts');
    } catch (err) {
      const e = explainFundingError(err, op);
      void vscode.window.showErrorMessage(`SpotDesk: transfer to main failed — ${e.title}. ${e.detail}`);
      return { status: 'failed', error: e };
    }
  }
  if (!validation.ok || !validation.quote) {
    const text = validation.issues.map((i) => i.message).join(' ');
    void vscode.window.showErrorMessage(`SpotDesk: withdrawal not sent — ${text}`);
    return { status: 'invalid', issues: validation.issues, transferred };
  }

  const built = buildRequest(draft);
  const endpoint = endpointOf(draft);
  const request = { endpoint, body: built.body as unknown as Record<string, unknown> };
  const byIdentity = draft.apiVersion === 'V4' && draft.withdrawType !== 'ADDRESS';
  const tracker = trackerFor(client);
  if (byIdentity) {
    const c = tracker.check(Date.now());
    if (c.waitMs > 0) {
      const e: FundingErrorExplanation = {
        title: 'Withdrawal rate limit reached (not sent)',
        detail: `Withdrawals by UID, e-mail or phone (V4) are limited to 3 per 10 seconds and 50 per 24 hours, rolling from the first request; the ${c.rule?.label} limit is used up. Wait ${formatWait(c.waitMs)} before the next one.`,
        unknownOutcome: false,
      };
      void vscode.window.showWarningMessage(`SpotDesk: ${e.title}. ${e.detail}`);
      return { status: 'rate-limited', error: e, request, transferred };
    }
  }

  const summary = buildSummary(draft, chain, validation.quote);
  let confirmation: Confirmation | undefined;
  try {
    confirmation = await confirmWithdrawal(services.gate, prompts, summary, services.profile());
  } catch {
    confirmation = undefined;
  }
  if (!confirmation) {
    void vscode.window.showInformationMessage('SpotDesk: withdrawal cancelled — nothing was sent.');
    return { status: 'cancelled', summary, request, transferred };
  }

  const key = requestKey(endpoint, request.body);
  if (!lock.tryAcquire(key)) {
    void vscode.window.showWarningMessage('SpotDesk: this exact withdrawal is already being submitted — it was not sent a second time.');
    return { status: 'busy', summary, request, transferred };
  }
  try {
    services.log.info(`withdrawal ${draft.apiVersion}: POST ${endpoint} ${draft.amount} ${draft.currency} on ${chain.chainId} (${draft.withdrawType})`);
    const res = await services.gate.run(confirmation, () => (built.version === 'V1' ? client.withdrawV1(built.body) : client.withdrawV4(built.body)));
    if (byIdentity) tracker.record(Date.now());
    services.refresh('accounts');
    void vscode.window.showInformationMessage(
      `SpotDesk: withdrawal submitted — withdrawalId ${res.withdrawalId}. ${validation.quote.receiveAmount} ${draft.currency} to ${draft.destination}; main pays ${validation.quote.accountPays} ${draft.currency}.`,
    );
    return { status: 'sent', withdrawalId: res.withdrawalId, summary, request, transferred };
  } catch (err) {
    if (isUnknownOutcome(err)) {
      if (byIdentity) tracker.record(Date.now());
      services.refresh('accounts');
      const e = explainFundingError(err, op);
      services.log.warn(`withdrawal outcome unknown: ${err instanceof Error ? err.message : String(err)}`);
      void vscode.window.showWarningMessage(`SpotDesk: ${e.title}. ${e.detail}`);
      return { status: 'unknown', error: e, summary, request, transferred };
    }
    const e = explainFundingError(err, op, { waitMs: isRateLimited(err) ? tracker.check(Date.now()).waitMs : undefined, currency: draft.currency, chain: chain.chainName });
    services.log.warn(`withdrawal refused: ${e.title}`);
    void vscode.window.showErrorMessage(`SpotDesk: ${e.title}. ${e.detail}`);
    return { status: 'failed', error: e, summary, request, transferred };
  } finally {
    lock.release(key);
  }
}

type StepId = 'sendTo' | 'userBy' | 'version' | 'currency' | 'chain' | 'destination' | 'memo' | 'amount' | 'fee' | 'receiver' | 'names' | 'company' | 'country' | 'identity' | 'reason';

interface Collect {
  /** The first, plain choice: a blockchain address, or another KuCoin user. */
  sendTo?: 'address' | 'user';
  currency?: FundingCurrency;
  chain?: FundingChain;
  d: Partial<WithdrawalDraft>;
  r: Partial<V4Recipient>;
}

/**
 * Interactive draft collection through `prompts.steps`, in the order a person thinks of it: the
 * currency (and its chain, when it has more than one withdraw-enabled chain), then where it goes —
 * "Send to an address" or "Send to a KuCoin user (UID, e-mail, phone)", then the address (and memo)
 * or the user — and only then, for an address, whether the travel-rule form (V4, the recipient's
 * identity) is needed; then the amount and who pays the fee ("Recipient pays the fee" / "I pay the
 * fee"), and the travel-rule fields when asked for. The API terms (V1/V4, ADDRESS/UID/…,
 * INTERNAL/EXTERNAL) stay visible as each choice's detail.
 *
 * The step counter is "n/N" on every step: N is the length of the path as chosen so far (open
 * choices counted as their default: an address, no memo, no travel-rule form), so a choice that adds
 * or removes steps — a KuCoin user, a chain with a memo, the travel-rule form — changes N from the
 * next step on, never behind the person's back. The currency of the Accounts row (if any) skips the
 * currency step, and a currency with one withdraw-enabled chain skips the chain step.
 * An address that is valid on another of the currency's chains is refused with what it looks like
 * ("this looks like an ERC20 address; you chose TRC20"). Undefined when the person cancelled.
 */
async function collectDraft(prompts: Prompts, client: FundingClient, currencies: FundingCurrency[], args: WithdrawArgs): Promise<WithdrawalDraft | undefined> {
  const list = withdrawCurrencies(currencies);
  const mains = await client.getAccounts({ type: 'main' }).catch(() => [] as FundingAccount[]);
  const mainOf = (cur: string) => mains.find((a) => a.currency === cur)?.available ?? '0';
  let regions: { code: string; name: string }[] | undefined;
  const s: Collect = { d: {}, r: {} };
  if (args.currency) s.currency = list.find((c) => c.currency === args.currency);
  if (s.currency && withdrawChains(s.currency).length === 1) s.chain = withdrawChains(s.currency)[0];
  // Only the currency can be preset (by the Accounts row); it is decided before the flow starts.
  const currencyPreset = !!s.currency;

  const v4 = () => s.sendTo === 'user' || s.d.apiVersion === 'V4';
  const plan = (): StepId[] => {
    const out: StepId[] = [];
    if (!currencyPreset) out.push('currency');
    if (!s.currency || withdrawChains(s.currency).length > 1) out.push('chain');
    out.push('sendTo');
    if (s.sendTo === 'user') out.push('userBy');
    out.push('destination');
    if (s.sendTo !== 'user' && s.chain && needsMemo(s.chain)) out.push('memo');
    if (s.sendTo !== 'user') out.push('version');
    out.push('amount', 'fee');
    if (v4()) out.push('receiver', s.r.receiverType === 'company' ? 'company' : 'names', 'country', 'identity', 'reason');
    return out;
  };
  const title = 'SpotDesk: Withdraw';
  const pos = (id: StepId) => {
    const p = plan();
    return { step: p.indexOf(id) + 1, totalSteps: p.length };
  };
  const next = (id: StepId): Step | void => {
    const p = plan();
    const nid = p[p.indexOf(id) + 1];
    return nid ? steps[nid] : undefined;
  };
  const cur = () => s.currency?.currency ?? '';

  const steps: Record<StepId, Step> = {
    version: async (input) => {
      const items: PickItem<'V1' | 'V4'>[] = [
        { label: 'No: the address is enough', description: 'V1 · POST /api/v1/withdrawals', detail: 'The address (and memo) is all the exchange needs.', value: 'V1' },
        { label: "Yes: add the recipient's identity (travel rule)", description: 'V4 · POST /api/v4/withdrawals', detail: "Adds the recipient's name, country and ID (5 more steps), which some exchanges and countries require.", value: 'V4' },
      ];
      s.d.apiVersion = await input.pick({ title, ...pos('version'), placeholder: 'Does the receiving exchange need the travel-rule form?', items, active: items.find((i) => i.value === (s.d.apiVersion ?? 'V1')) });
      return next('version');
    },
    currency: async (input) => {
      const items: PickItem<FundingCurrency>[] = list.map((c) => ({
        label: c.currency,
        description: c.fullName,
        detail: `main available ${mainOf(c.currency)} · chains: ${withdrawChains(c).map((ch) => ch.chainName).join(', ')}`,
        value: c,
      }));
      const picked = await input.pick({ title, ...pos('currency'), placeholder: 'Currency to withdraw (withdraw-enabled only)', items, active: items.find((i) => i.value === s.currency) });
      if (picked !== s.currency) s.chain = undefined;
      s.currency = picked;
      const chains = withdrawChains(picked);
      if (chains.length === 1) s.chain = chains[0];
      return next('currency');
    },
    chain: async (input) => {
      const chains = withdrawChains(s.currency!);
      const def = defaultChain(cur(), chains);
      const items: PickItem<FundingChain>[] = chains.map((ch) => ({
        label: ch.chainName,
        description: `${ch.chainId}${ch === def ? ' · default' : ''}`,
        detail: `min ${ch.withdrawalMinSize} · fee ≥ ${ch.withdrawalMinFee}${ch.withdrawFeeRate && !D.isZero(ch.withdrawFeeRate) ? ` or ${D.mul(ch.withdrawFeeRate, '100')} %` : ''}${ch.withdrawMaxFee ? ` (max ${ch.withdrawMaxFee})` : ''}${needsMemo(ch) ? ' · needs memo' : ''}`,
        value: ch,
      }));
      s.chain = await input.pick({ title, ...pos('chain'), placeholder: `Chain for ${cur()} (withdraw-enabled only)`, items, active: items.find((i) => i.value === (s.chain ?? def)) });
      return next('chain');
    },
    sendTo: async (input) => {
      const items: PickItem<'address' | 'user'>[] = [
        { label: 'Send to an address', description: 'withdrawType ADDRESS', detail: 'A withdrawal on a blockchain to a wallet or exchange address (chain fee applies).', value: 'address' },
        { label: 'Send to a KuCoin user (UID, e-mail, phone)', description: 'withdrawType UID · MAIL · PHONE, V4', detail: 'An internal transfer to another KuCoin account: no chain, no withdrawal fee.', value: 'user' },
      ];
      const picked = await input.pick({ title, ...pos('sendTo'), placeholder: 'Where do you send it?', items, active: items.find((i) => i.value === s.sendTo) });
      if (picked !== s.sendTo) {
        s.d.withdrawType = picked === 'address' ? 'ADDRESS' : undefined;
        s.d.apiVersion = picked === 'user' ? 'V4' : undefined;
      }
      s.sendTo = picked;
      return next('sendTo');
    },
    userBy: async (input) => {
      const items: PickItem<WithdrawType>[] = [
        { label: 'By KuCoin UID', description: 'UID', detail: 'The recipient\'s KuCoin user id.', value: 'UID' },
        { label: 'By e-mail', description: 'MAIL', detail: 'The e-mail of the recipient\'s KuCoin account.', value: 'MAIL' },
        { label: 'By phone number', description: 'PHONE', detail: 'The phone number of the recipient\'s KuCoin account.', value: 'PHONE' },
      ];
      s.d.withdrawType = await input.pick({ title, ...pos('userBy'), placeholder: 'How do you identify the KuCoin user?', items, active: items.find((i) => i.value === s.d.withdrawType) });
      s.d.apiVersion = 'V4';
      return next('userBy');
    },
    destination: async (input) => {
      const t = s.d.withdrawType ?? 'ADDRESS';
      s.d.destination = await input.text({
        title, ...pos('destination'),
        prompt: t === 'ADDRESS' ? `${cur()} address on ${s.chain?.chainName ?? ''}` : `Recipient ${t === 'UID' ? 'KuCoin UID' : t === 'MAIL' ? 'e-mail' : 'phone number'}`,
        value: s.d.destination,
        validate: (v) => checkDestinationOn(t, v, s.chain, s.currency ? withdrawChains(s.currency) : []),
      });
      return next('destination');
    },
    memo: async (input) => {
      s.d.memo = await input.text({ title, ...pos('memo'), prompt: `Memo / tag required by ${s.chain?.chainName ?? 'this chain'} (funds sent without it may be lost)`, value: s.d.memo, validate: (v) => (v.trim() ? undefined : 'This chain needs a memo') });
      return next('memo');
    },
    amount: async (input) => {
      const ch = s.chain!;
      const inc = D.precisionIncrement(amountPrecision(s.currency!, ch));
      s.d.amount = await input.text({
        title, ...pos('amount'),
        prompt: `Amount of ${cur()} to withdraw, fees excluded (min ${ch.withdrawalMinSize}, step ${inc}; main available ${mainOf(cur())})`,
        value: s.d.amount,
        validate: (v) => checkAmount(v.trim(), s.currency!, ch),
      });
      s.d.amount = s.d.amount.trim();
      return next('amount');
    },
    fee: async (input) => {
      const opts = deductionOptions(
        { amount: s.d.amount!, chain: s.chain!, precision: amountPrecision(s.currency!, s.chain!), mainAvailable: mainOf(cur()), apiVersion: s.d.apiVersion ?? 'V1', withdrawType: s.d.withdrawType },
        cur(),
      );
      const items: PickItem<FeeDeduction>[] = opts.map((o) => ({ label: o.disabled ? `$(circle-slash) ${o.label}` : o.label, description: o.term, detail: o.detail, value: o.value }));
      for (;;) {
        const v = await input.pick({ title, ...pos('fee'), placeholder: 'Who pays the withdrawal fee?', items, active: items.find((i) => i.value === s.d.feeDeduction) });
        if (!opts.find((o) => o.value === v)?.disabled) {
          s.d.feeDeduction = v;
          break;
        }
      }
      return next('fee');
    },
    receiver: async (input) => {
      const items: PickItem<'individual' | 'company'>[] = [
        { label: 'individual', description: 'a person (first and last name)', value: 'individual' },
        { label: 'company', description: 'a company (company name)', value: 'company' },
      ];
      s.r.receiverType = await input.pick({ title, ...pos('receiver'), placeholder: 'Recipient type (receiverType)', items, active: items.find((i) => i.value === s.r.receiverType) });
      return next('receiver');
    },
    names: async (input) => {
      const full = await input.text({
        title, ...pos('names'),
        prompt: 'Recipient first name and last name, separated by a comma (e.g. "Ada, Lovelace")',
        value: s.r.firstName ? `${s.r.firstName}, ${s.r.lastName ?? ''}` : '',
        validate: (v) => (/^[^,]*\S[^,]*,[^,]*\S[^,]*$/.test(v) ? undefined : 'Enter "first name, last name"'),
      });
      const [first, last] = full.split(',').map((x) => x.trim());
      s.r.firstName = first;
      s.r.lastName = last;
      s.r.companyName = undefined;
      return next('names');
    },
    company: async (input) => {
      s.r.companyName = (await input.text({ title, ...pos('company'), prompt: 'Recipient company name', value: s.r.companyName, validate: (v) => (v.trim() ? undefined : 'Enter the company name') })).trim();
      s.r.firstName = s.r.lastName = undefined;
      return next('company');
    },
    country: async (input) => {
      if (!regions) regions = await client.getRegions().catch(() => []);
      if (regions.length > 0) {
        const items: PickItem<string>[] = regions.map((r) => ({ label: r.code, description: r.name, value: r.code }));
        s.r.country = await input.pick({ title, ...pos('country'), placeholder: 'Recipient country (GET /kyc/regions/v4)', items, active: items.find((i) => i.value === s.r.country) });
      } else {
        s.r.country = (await input.text({ title, ...pos('country'), prompt: 'Recipient country code (regions list unavailable)', value: s.r.country, validate: (v) => (/^[A-Za-z]{2}$/.test(v.trim()) ? undefined : 'Two letters, e.g. TR') })).trim().toUpperCase();
      }
      s.r.identityType = identityTypeFor(s.r.country);
      return next('country');
    },
    identity: async (input) => {
      const kind = s.r.identityType === 'ID_CARD' ? 'ID card (ID_CARD, required for TR)' : 'passport (PASSPORT)';
      s.r.identityNo = (await input.text({ title, ...pos('identity'), prompt: `Recipient ${kind} number`, value: s.r.identityNo, validate: (v) => (v.trim() ? undefined : 'Enter the document number') })).trim();
      return next('identity');
    },
    reason: async (input) => {
      const items: PickItem<V4Recipient['reasonOfTransfer']>[] = REASONS_OF_TRANSFER.map((r) => ({ label: r, value: r }));
      s.r.reasonOfTransfer = await input.pick({ title, ...pos('reason'), placeholder: 'Reason of transfer (reasonOfTransfer)', items, active: items.find((i) => i.value === s.r.reasonOfTransfer) });
      return next('reason');
    },
  };

  if (!(await prompts.steps(steps[plan()[0]]))) return undefined;
  if (!s.currency || !s.chain) return undefined;
  const isV4 = v4();
  return {
    currency: s.currency.currency,
    chain: s.chain.chainId,
    withdrawType: s.d.withdrawType ?? 'ADDRESS',
    destination: s.d.destination ?? '',
    memo: s.d.memo,
    amount: s.d.amount ?? '',
    feeDeduction: s.d.feeDeduction ?? 'AUTO',
    apiVersion: isV4 ? 'V4' : 'V1',
    remark: s.d.remark,
    isInner: s.d.isInner,
    recipient: isV4 ? (s.r as V4Recipient) : undefined,
  };
}
