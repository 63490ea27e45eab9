/**
 * Extension-host suite for the funding feature: deposit addresses and guarded
 * V1/V4 withdrawals against the embedded sandbox.
 *
 * Everything goes through the one test door (`spotdesk.testHooks`): withdrawal tests run each on
 * a FRESH sandbox user (admin API POST /sandbox/v1/users) whose client is set with the door's
 * `setClient`, so whitelists and V4 rate windows never leak into other suites; the person's
 * answers (the multi-step input, the modal summary, the typed confirmation, the transfer offer,
 * the deposit pickers) are given through the door's `prompts`. The commands' own arguments carry
 * at most a currency: a test below calls them the way another extension could — a complete draft,
 * a confirmation function and a client in the argument — and checks that none of it is used.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { SpotClient } from '../../src/api/client';
import { TransportError } from '../../src/api/errors';
import type { DepositOutcome, WithdrawOutcome } from '../../src/features/funding/host';
import type { FundingClient } from '../../src/features/funding/client';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { FundingChain, FundingCurrency, V4Recipient } from '../../src/features/funding/model/types';
import { sandboxSuite, scriptedSteps, waitFor, type AskedStep, type SandboxSuite, type StepAnswers } from './helpers';

interface WithdrawalRecord {
  withdrawalId: string;
  version: string;
  withdrawType: string;
  toAddress: string;
  amount: string;
  fee: string;
  feeDeductType: string;
  receiveAmount: string;
  totalDebit: string;
  chainId: string;
  status: string;
}

let suite: SandboxSuite;
let hooks: SpotDeskTestHooks;
const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => suite.admin<T>(method, path, body);
const freshUser: SandboxSuite['freshUser'] = (balances, permissions) => suite.freshUser(balances, permissions);

async function balances(client: SpotClient, currency: string): Promise<Record<string, { balance: string; available: string; holds: string }>> {
  const out: Record<string, { balance: string; available: string; holds: string }> = {};
  for (const a of await client.getAccounts({ currency })) out[a.type] = { balance: a.balance, available: a.available, holds: a.holds };
  return out;
}

/**
 * `client` with some funding methods replaced. SpotClient has private fields, so the proxy binds
 * every other method to the real client.
 */
function wrap(client: SpotClient, over: Partial<FundingClient>): SpotClient {
  return new Proxy(client, {
    get(target, prop) {
      if (typeof prop === 'string' && prop in over) return (over as Record<string, unknown>)[prop];
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const TRON_ADDR = 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz';
const TRON_SUFFIX = TRON_ADDR.slice(-6);
const ETH_ADDR = '0x62d35481cb74fa959aec61d33a5d4507a1234567';
const RECIPIENT: V4Recipient = { receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD', identityNo: '12345678901', reasonOfTransfer: 'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM' };

/** What the person enters in the withdrawal flow. */
interface Entry {
  currency: string;
  chain: string;
  withdrawType: 'ADDRESS' | 'UID' | 'MAIL' | 'PHONE';
  destination: string;
  memo?: string;
  amount: string;
  feeDeduction: 'INTERNAL' | 'EXTERNAL' | 'AUTO';
  apiVersion?: 'V1' | 'V4';
  recipient?: V4Recipient;
}

/** Answers of the withdrawal's multi-step input for `e`, matched on each step's placeholder/prompt. */
function entryAnswers(e: Entry): StepAnswers {
  const r = e.recipient;
  return {
    pick(o) {
      const values = o.items.map((i) => i.value);
      const p = o.placeholder;
      if (p.startsWith('Currency to withdraw')) return values.find((v) => (v as FundingCurrency).currency === e.currency);
      if (p.startsWith('Chain for')) return values.find((v) => (v as FundingChain).chainId === e.chain);
      if (p === 'Where do you send it?') return e.withdrawType === 'ADDRESS' ? 'address' : 'user';
      if (p === 'How do you identify the KuCoin user?') return e.withdrawType;
      if (p === 'Does the receiving exchange need the travel-rule form?') return e.apiVersion;
      if (p === 'Who pays the withdrawal fee?') return e.feeDeduction;
      if (p.startsWith('Recipient type')) return r?.receiverType;
      if (p.startsWith('Recipient country')) return r?.country;
      if (p.startsWith('Reason of transfer')) return r?.reasonOfTransfer;
      return undefined;
    },
    text(o) {
      const p = o.prompt;
      if (/ address on |^Recipient (KuCoin UID|e-mail|phone number)/.test(p)) return e.destination;
      if (p.startsWith('Memo')) return e.memo;
      if (p.startsWith('Amount of')) return e.amount;
      if (p.startsWith('Recipient first name')) return r ? `${r.firstName}, ${r.lastName}` : undefined;
      if (p.startsWith('Recipient company')) return r?.companyName;
      if (p.startsWith('Recipient country code')) return r?.country;
      if (p.startsWith('Recipient ID card') || p.startsWith('Recipient passport')) return r?.identityNo;
      return undefined;
    },
  };
}

/** A modal the command showed: message, detail and its action button. */
interface Modal {
  message: string;
  detail: string;
  action: string;
}

/** What the person does at the confirmation and the transfer offer. */
interface Decisions {
  /** Press "Continue…" on the modal summary (default true). */
  continue?: boolean;
  /** What is typed into the confirmation box (default: the destination's last 6 characters). */
  typed?: string;
  /** Accept the trade → main transfer offer (default false). */
  transfer?: boolean;
}

/** Answer the prompts as the person would for `entry` + `decisions`; records everything asked. */
function answerAs(entry: Entry, decisions: Decisions = {}): { asked: AskedStep[]; modals: Modal[]; inputs: vscode.InputBoxOptions[] } {
  const asked: AskedStep[] = [];
  const modals: Modal[] = [];
  const inputs: vscode.InputBoxOptions[] = [];
  hooks.prompts.steps = scriptedSteps(entryAnswers(entry), asked);
  hooks.prompts.confirm = async (message, detail, action) => {
    modals.push({ message, detail, action });
    if (action === 'Continue…') return decisions.continue ?? true;
    if (action.startsWith('Transfer ')) return decisions.transfer ?? false;
    return false;
  };
  hooks.prompts.input = async (o) => {
    inputs.push(o);
    return decisions.typed ?? entry.destination.slice(-6);
  };
  return { asked, modals, inputs };
}

async function withdraw(arg?: unknown): Promise<WithdrawOutcome> {
  return await vscode.commands.executeCommand<WithdrawOutcome>('spotdesk.withdraw', arg);
}

describe('Funding: deposit addresses and guarded withdrawals', function () {
  this.timeout(60_000);

  suite = sandboxSuite();
  before(() => {
    hooks = suite.hooks;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('registers spotdesk.createDepositAddress and spotdesk.withdraw', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    assert.ok(all.has('spotdesk.createDepositAddress'));
    assert.ok(all.has('spotdesk.withdraw'));
  });

  describe('deposit address (active Sandbox profile)', () => {
    let trc20Address = '';
    let xrpFirst: NonNullable<DepositOutcome['view']>;
    /** Run the command on a currency row; the chain picker (if shown) is answered with `chain`. */
    async function create(currency: string, chain?: string): Promise<{ out: DepositOutcome; chainPicks: string[][] }> {
      const chainPicks: string[][] = [];
      hooks.prompts.pick = (async (items: readonly (vscode.QuickPickItem & { ch?: FundingChain })[], o: vscode.QuickPickOptions) => {
        assert.match(o.title ?? '', new RegExp(`Create Deposit Address — ${currency}`));
        chainPicks.push(items.map((i) => i.label));
        return items.find((i) => i.ch?.chainId === chain || i.label === chain);
      }) as typeof hooks.prompts.pick;
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { kind: 'currency', currency });
      return { out, chainPicks };
    }

    it('USDT on ERC20 and on TRC20 (multi-chain: the chain is picked, its id sent, min deposit and confirmations shown)', async () => {
      const cur = (await (await hooks.services.client()).getCurrencies()).find((c) => c.currency === 'USDT')!;
      for (const [name, id] of [['ERC20', 'eth'], ['TRC20', 'trx']]) {
        const { out, chainPicks } = await create('USDT', id);
        assert.strictEqual(out.status, 'created', JSON.stringify(out.error));
        assert.deepStrictEqual(chainPicks, [cur.chains.filter((c) => c.isDepositEnabled).map((c) => c.chainName)], 'the person picked the chain');
        assert.deepStrictEqual(out.request, { currency: 'USDT', chain: id });
        const ch = cur.chains.find((c) => c.chainId === id)!;
        const v = out.view!;
        assert.strictEqual(v.chain, name);
        assert.strictEqual(v.chainId, id);
        assert.ok(v.address.length >= 20, `address ${v.address}`);
        assert.strictEqual(v.memo, '');
        assert.strictEqual(v.memoWarning, undefined);
        assert.strictEqual(v.depositMinSize, ch.depositMinSize);
        assert.strictEqual(v.confirms, ch.confirms);
        assert.strictEqual(v.existing, undefined);
        if (id === 'trx') trc20Address = v.address;
      }
    });

    it('BTC on Native and on Segwit', async () => {
      const a = await create('BTC', 'btc');
      assert.strictEqual(a.out.status, 'created');
      assert.deepStrictEqual(a.out.request, { currency: 'BTC', chain: 'btc' });
      assert.strictEqual(a.out.view?.chain, 'BTC');
      const b = await create('BTC', 'bech32');
      assert.strictEqual(b.out.status, 'created');
      assert.deepStrictEqual(b.out.request, { currency: 'BTC', chain: 'bech32' });
      assert.strictEqual(b.out.view?.chain, 'BTC-Segwit');
      assert.notStrictEqual(a.out.view?.address, b.out.view?.address);
    });

    it('single-chain currency with a memo: no chain picker, no chain parameter, memo and warning shown', async () => {
      const { out, chainPicks } = await create('XRP');
      assert.strictEqual(out.status, 'created', JSON.stringify(out.error));
      assert.deepStrictEqual(chainPicks, [], 'no chain picker for a single chain');
      assert.deepStrictEqual(out.request, { currency: 'XRP' });
      const v = out.view!;
      xrpFirst = v;
      assert.ok(v.memo.length > 0, 'XRP address carries a memo');
      assert.strictEqual(v.memoWarning, `This address needs the memo ${v.memo}. A deposit sent without it may not be credited — always include the memo (also called tag or note) when sending XRP.`);
    });

    it('opens the funding webview; USDT TRC20 a second time shows the existing address', async () => {
      const { out } = await create('USDT', 'trx');
      assert.strictEqual(out.status, 'existing', JSON.stringify(out.error));
      assert.strictEqual(out.view?.address, trc20Address);
      assert.strictEqual(out.view?.existing, true);
      const tab = await waitFor('a "Deposit USDT (TRC20)" webview tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Deposit USDT (TRC20)'), 10_000);
      assert.ok(tab.input instanceof vscode.TabInputWebview);
      // One tab per address: the XRP address created before did not replace anything, and the
      // existing TRC20 address reuses its own tab instead of opening a second one.
      // (The workbench adds webview tabs asynchronously: wait for the tab model to hold them all.)
      const all = ['Deposit USDT (ERC20)', 'Deposit USDT (TRC20)', 'Deposit BTC (BTC)', 'Deposit BTC (BTC-Segwit)', 'Deposit XRP (XRP)'];
      const labels = await waitFor('a tab per address', () => {
        const l = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
        return all.every((x) => l.includes(x)) ? l : undefined;
      }, 20_000);
      assert.deepStrictEqual(labels.filter((l) => l.startsWith('Deposit ')).sort(), [...all].sort(), 'no second TRC20 tab');
    });

    it('already exists (260000): the existing address is fetched and shown like a created one, memo and warning included', async () => {
      const xrp = (await (await hooks.services.client()).getCurrencies()).find((c) => c.currency === 'XRP')!.chains[0];
      const { out } = await create('XRP');
      assert.strictEqual(out.status, 'existing', JSON.stringify(out.error));
      assert.deepStrictEqual(out.request, { currency: 'XRP' });
      assert.deepStrictEqual(out.view, {
        currency: 'XRP',
        address: xrpFirst.address,
        memo: xrpFirst.memo,
        chain: 'XRP',
        chainId: 'xrp',
        depositMinSize: xrp.depositMinSize,
        confirms: xrp.confirms,
        memoWarning: xrpFirst.memoWarning,
        existing: true,
        note: 'This is your existing XRP deposit address on XRP: the exchange keeps one address per currency and chain, so no new one was created.',
        simulated: true,
      });
      assert.ok(xrpFirst.memo.length > 0);
    });

    it('already exists but the existing address cannot be fetched: the original 260000 error is explained', async () => {
      const base = await hooks.services.client();
      hooks.setClient(wrap(base, { getDepositAddresses: () => Promise.reject(new TransportError({ kind: 'network', method: 'GET', path: '/api/v2/deposit-addresses', message: 'GET /api/v2/deposit-addresses: connection refused' })) }));
      const { out } = await create('USDT', 'eth');
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '260000');
      assert.strictEqual(out.error?.title, 'A deposit address already exists for USDT on ERC20 (260000)');
    });

    it('explains a missing General permission with its code', async () => {
      const { client } = await freshUser([], ['Spot']);
      hooks.setClient(client);
      const { out } = await create('USDT', 'eth');
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '400007');
      assert.strictEqual(out.error?.title, 'Missing API key permission: General (400007)');
    });

    it('takes only the currency from its argument: a chain, a client and a result hook passed by another extension are ignored', async () => {
      let foreignCalls = 0;
      const foreign = new Proxy({}, { get: () => () => { foreignCalls++; return Promise.reject(new Error('foreign client used')); } });
      let shown = 0;
      let asked: string[] = [];
      hooks.prompts.pick = (async (items: readonly vscode.QuickPickItem[]) => {
        asked = items.map((i) => i.label);
        return undefined; // the person dismisses the chain picker
      }) as typeof hooks.prompts.pick;
      const out = await vscode.commands.executeCommand<DepositOutcome>('spotdesk.createDepositAddress', { currency: 'USDT', chain: 'SOLANA', client: foreign, show: () => void shown++ });
      assert.strictEqual(out.status, 'cancelled');
      assert.ok(asked.includes('TRC20') && asked.includes('ERC20'), `the chain was asked: ${asked.join(', ')}`);
      assert.strictEqual(foreignCalls, 0, 'the client in the argument was never called');
      assert.strictEqual(shown, 0, 'the show hook in the argument was never called');
    });

    it('on the sandbox the address is marked simulated (the panel: a banner, no QR code); Simulate a Deposit… credits the chain the person chose and it shows in the deposit history', async () => {
      const { out } = await create('USDT', 'trx');
      assert.strictEqual(out.view?.simulated, true, 'a sandbox address is on no blockchain');
      const client = await hooks.services.client();
      const before = (await client.getDeposits({ currency: 'USDT' })).items.length;
      const asked: string[] = [];
      hooks.prompts.input = async (o) => (asked.push(o.prompt ?? ''), '25');
      const r = await vscode.commands.executeCommand<{ status: string; depositId?: string; chainId?: string; amount?: string }>('spotdesk.simulateDeposit', { currency: 'USDT', chain: 'trx' });
      hooks.resetPrompts();
      assert.deepStrictEqual([r.status, r.chainId, r.amount], ['credited', 'trx', '25'], JSON.stringify(r));
      assert.deepStrictEqual(asked, ['Amount of USDT to credit on TRC20 (play money, main account)'], 'the amount is always typed by the person');
      const deposits = (await client.getDeposits({ currency: 'USDT' })).items;
      assert.strictEqual(deposits.length, before + 1);
      assert.ok(deposits.some((d) => d.amount === '25' && d.chain === 'trx'), JSON.stringify(deposits.slice(0, 3)));
    });
  });

  describe('withdrawals (fresh sandbox user per test)', () => {
    const v1: Entry = { currency: 'USDT', chain: 'trx', withdrawType: 'ADDRESS', destination: TRON_ADDR, amount: '20', feeDeduction: 'EXTERNAL', apiVersion: 'V1' };

    it('V1 end to end: every step asked, summary, typed confirmation, withdrawalId, balances after', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const { asked, modals, inputs } = answerAs(v1);
      const out = await withdraw();
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.match(out.withdrawalId ?? '', /^\w+$/);
      assert.deepStrictEqual(out.request, { endpoint: '/api/v1/withdrawals', body: { currency: 'USDT', amount: '20', chain: 'trx', feeDeductType: 'EXTERNAL', address: TRON_ADDR } });
      assert.deepStrictEqual(
        asked.map((a) => `${a.kind} ${a.options.step}/${a.options.totalSteps ?? '?'}`),
        // One "n/N" counter throughout (USDT's chains need no memo, no travel-rule form: 7 steps).
        ['pick 1/7', 'pick 2/7', 'pick 3/7', 'text 4/7', 'pick 5/7', 'text 6/7', 'pick 7/7'],
        'currency, chain, send to an address, address, travel-rule form (no: V1), amount, who pays the fee',
      );
      assert.deepStrictEqual(
        asked.map((a) => (a.kind === 'pick' ? a.options.placeholder : a.options.prompt)),
        ['Currency to withdraw (withdraw-enabled only)', 'Chain for USDT (withdraw-enabled only)', 'Where do you send it?', 'USDT address on TRC20', 'Does the receiving exchange need the travel-rule form?', asked[5].kind === 'text' ? asked[5].options.prompt : '', 'Who pays the withdrawal fee?'],
        'the currency first, then the destination, then whether the travel-rule form is needed',
      );
      assert.strictEqual(modals.length, 1);
      assert.strictEqual(modals[0].message, 'Withdraw 20 USDT via V1 (POST /api/v1/withdrawals) — Sandbox · play money');
      assert.deepStrictEqual(modals[0].detail.split('\n').slice(0, 10), [
        'Profile: the sandbox profile "Sandbox (local)" (play money, not real).',
        'Amount: 20 USDT',
        'Fee: 1 USDT',
        'Who pays the fee: I pay it (EXTERNAL: from the main account, on top of the amount)',
        'Recipient receives: 20 USDT',
        'Main account pays: 21 USDT',
        `Address: ${TRON_ADDR}`,
        'Chain: TRC20 (trx)',
        'Memo: (none)',
        'API version: V1 — POST /api/v1/withdrawals',
      ]);
      assert.strictEqual(inputs.length, 1);
      assert.strictEqual(inputs[0].validateInput?.(TRON_SUFFIX), undefined);
      assert.strictEqual(String(inputs[0].validateInput?.(TRON_SUFFIX.toLowerCase())), 'Type the last 6 characters of the address exactly (case-sensitive)');
      // The re-type box shows neither the address nor the characters to type: they cannot be copied from it.
      for (const shown of [inputs[0].prompt, inputs[0].title, inputs[0].placeHolder, inputs[0].validateInput?.('x')]) {
        assert.ok(!String(shown).includes(TRON_SUFFIX), `"${String(shown)}" shows the characters to type`);
      }
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '100', available: '79', holds: '21' });
      const recs = await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`);
      assert.strictEqual(recs.length, 1);
      assert.strictEqual(recs[0].withdrawalId, out.withdrawalId);
      assert.deepStrictEqual(
        [recs[0].version, recs[0].toAddress, recs[0].amount, recs[0].fee, recs[0].feeDeductType, recs[0].receiveAmount, recs[0].totalDebit],
        ['v1', TRON_ADDR, '20', '1', 'EXTERNAL', '20', '21'],
      );
    });

    it('a submitted withdrawal is followed to its end: completion and failure each notify the person (with the reason) and the watch stops', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const watcher = hooks.withdrawals();
      answerAs(v1);
      const ok = await withdraw();
      assert.strictEqual(ok.status, 'sent', JSON.stringify(ok));
      assert.ok(watcher.watching().includes(ok.withdrawalId!), 'the submitted withdrawal is watched');
      answerAs({ ...v1, amount: '30' });
      const bad = await withdraw();
      assert.strictEqual(bad.status, 'sent', JSON.stringify(bad));
      await admin('POST', `/sandbox/v1/withdrawals/${bad.withdrawalId}/fail`, { reason: 'chain congested' });
      const failed = await waitFor('the failure notice', () => watcher.notices.find((n) => n.id === bad.withdrawalId), 30_000);
      assert.deepStrictEqual([failed.status, failed.level], ['FAILURE', 'error']);
      assert.strictEqual(failed.text, `Your withdrawal of 30 USDT to ${TRON_ADDR.slice(0, 6)}…${TRON_ADDR.slice(-4)} failed: chain congested. The held USDT is back in your main account.`);
      // The sandbox settles a withdrawal 5 s (its clock) after it was made.
      const done = await waitFor('the completion notice', () => watcher.notices.find((n) => n.id === ok.withdrawalId), 40_000);
      assert.deepStrictEqual([done.status, done.level], ['SUCCESS', 'info']);
      assert.match(done.text, new RegExp(`^Your withdrawal of 20 USDT to ${TRON_ADDR.slice(0, 6)}…${TRON_ADDR.slice(-4)} completed`));
      assert.deepStrictEqual(watcher.watching().filter((id) => id === ok.withdrawalId || id === bad.withdrawalId), [], 'settled withdrawals are no longer watched');
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '79', available: '79', holds: '0' }, '20 + 1 fee left; the failed 30 + 1 came back');
    });

    it('a complete draft, a confirmation function and a client passed as the argument are ignored: the modal is shown and dismissing it sends nothing', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      const { client: attacker } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      // The person dismisses the modal summary.
      const { asked, modals, inputs } = answerAs(v1, { continue: false });
      let argConfirmCalls = 0;
      const out = await withdraw({
        ...v1,
        confirm: async (s: { suffix: string }) => {
          argConfirmCalls++;
          return s.suffix;
        },
        acceptTransfer: true,
        client: attacker,
      });
      assert.strictEqual(out.status, 'cancelled', JSON.stringify(out));
      assert.strictEqual(argConfirmCalls, 0, 'the confirmation function in the argument was never called');
      assert.strictEqual(modals.length, 1, 'the modal summary was shown');
      assert.strictEqual(modals[0].message, 'Withdraw 20 USDT via V1 (POST /api/v1/withdrawals) — Sandbox · play money');
      assert.deepStrictEqual(inputs, [], 'dismissed before the typed confirmation');
      // Only the currency came from the argument: every other step was asked.
      assert.deepStrictEqual(asked.map((a) => a.options.title), Array(6).fill('SpotDesk: Withdraw'));
      assert.ok(!asked.some((a) => a.kind === 'pick' && a.options.placeholder.startsWith('Currency')), 'the currency step is preset from the argument');
      // Nothing changed on the exchange, for either account.
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
      assert.deepStrictEqual((await balances(attacker, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
    });

    it('with prompts that cancel at the first question, a complete draft in the argument sends nothing', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const asked: AskedStep[] = [];
      hooks.prompts.steps = scriptedSteps({ pick: () => undefined, text: () => undefined }, asked);
      let modals = 0;
      hooks.prompts.confirm = async () => {
        modals++;
        return true;
      };
      hooks.prompts.input = async () => TRON_SUFFIX;
      const out = await withdraw({ ...v1, confirm: async () => TRON_SUFFIX });
      assert.strictEqual(out.status, 'cancelled');
      assert.strictEqual(asked.length, 1, 'the first step (chain) was asked and dismissed');
      assert.strictEqual(modals, 0);
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
    });

    it('V4 end to end (address + recipient identity, INTERNAL fee): balances after', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '50' }]);
      hooks.setClient(client);
      const { asked, modals } = answerAs({ currency: 'USDT', chain: 'eth', withdrawType: 'ADDRESS', destination: ETH_ADDR, amount: '30', feeDeduction: 'INTERNAL', apiVersion: 'V4', recipient: RECIPIENT });
      const out = await withdraw();
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.strictEqual(asked.length, 12, 'currency, chain, type, address, amount, fee, version, receiver, names, country, identity, reason');
      assert.strictEqual(out.request?.endpoint, '/api/v4/withdrawals');
      assert.deepStrictEqual(out.request?.body, {
        currency: 'USDT', amount: '30', chain: 'eth', feeDeductType: 'INTERNAL', toAddress: ETH_ADDR, withdrawType: 'ADDRESS',
        receiverType: 'individual', firstName: 'Ada', lastName: 'Lovelace', country: 'TR', identityType: 'ID_CARD', identityNo: '12345678901',
        reasonOfTransfer: 'TRANSFER_TO_YOUR_OWN_ACCOUNT_HELD_IN_ANOTHER_PLATFORM',
      });
      const lines = modals[0].detail.split('\n');
      assert.ok(lines.includes('Fee: 3.2 USDT'), modals[0].detail);
      assert.ok(lines.includes('Recipient receives: 26.8 USDT'));
      assert.ok(lines.includes('Main account pays: 30 USDT'));
      assert.ok(lines.includes('API version: V4 — POST /api/v4/withdrawals'));
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '50', available: '20', holds: '30' });
      const recs = await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`);
      assert.deepStrictEqual([recs[0].version, recs[0].fee, recs[0].receiveAmount, recs[0].totalDebit], ['v4', '3.2', '26.8', '30']);
    });

    it('cancel at the confirmation step sends nothing (dismissed, or wrong characters typed)', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const entry: Entry = { ...v1, feeDeduction: 'AUTO' };
      const first = answerAs(entry, { continue: false });
      const a = await withdraw('USDT');
      const second = answerAs(entry, { typed: TRON_SUFFIX.toLowerCase() });
      const b = await withdraw('USDT');
      assert.strictEqual(first.modals.length + second.modals.length, 2, 'the confirmation step was reached twice');
      assert.strictEqual(second.inputs.length, 1, 'the wrong characters were typed');
      assert.strictEqual(a.status, 'cancelled');
      assert.strictEqual(b.status, 'cancelled');
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
    });

    it('whitelist refusal 260325 is explained (favorites, Account Security) and changes nothing', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      await admin('PUT', `/sandbox/v1/users/${user.uid}/withdrawal-whitelist`, { enabled: true, favorites: [{ address: TRON_ADDR.toLowerCase(), chain: 'trx' }] });
      const entry: Entry = { ...v1, feeDeduction: 'INTERNAL' };
      answerAs(entry);
      const out = await withdraw();
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.code, '260325');
      assert.strictEqual(out.error?.title, 'Withdrawal refused: address is not a favorite on the whitelist (260325)');
      assert.match(out.error?.detail ?? '', /Account Security → Withdrawal Address Management/);
      assert.match(out.error?.detail ?? '', /case-sensitive/);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
      // The exact favorite (case and chain) goes through.
      await admin('PUT', `/sandbox/v1/users/${user.uid}/withdrawal-whitelist`, { enabled: true, favorites: [{ address: TRON_ADDR, chain: 'trx' }] });
      answerAs(entry);
      const ok = await withdraw();
      assert.strictEqual(ok.status, 'sent', JSON.stringify(ok));
    });

    it('V4 UID rate limit: the 4th within 10 s is held back locally with the wait; the server refusal is explained too', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const uid: Entry = { currency: 'USDT', chain: 'trx', withdrawType: 'UID', destination: '226999001', amount: '10', feeDeduction: 'AUTO', recipient: RECIPIENT };
      for (let i = 0; i < 3; i++) {
        answerAs(uid);
        const r = await withdraw();
        assert.strictEqual(r.status, 'sent', `withdrawal ${i + 1}: ${JSON.stringify(r)}`);
      }
      answerAs(uid);
      const fourth = await withdraw();
      assert.strictEqual(fourth.status, 'rate-limited');
      assert.match(fourth.error?.detail ?? '', /limited to 3 per 10 seconds and 50 per 24 hours.*Wait \d+\.\d s before the next one\./);
      assert.strictEqual((await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`)).length, 3, 'nothing sent');
      // A second client object for the same account has no local history: the server refuses (260310).
      hooks.setClient(suite.clientOf(user));
      answerAs(uid);
      const refused = await withdraw();
      assert.strictEqual(refused.status, 'failed');
      assert.strictEqual(refused.error?.code, '260310');
      assert.strictEqual(refused.error?.title, 'Withdrawal rate limit reached (260310)');
      assert.match(refused.error?.detail ?? '', /Wait \d+\.\d s before the next one\./);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '70', holds: '30' });
    });

    it('missing Transfer permission (400007) is named as such', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }], ['General']);
      hooks.setClient(client);
      answerAs({ ...v1, feeDeduction: 'INTERNAL' });
      const out = await withdraw();
      assert.strictEqual(out.status, 'failed');
      assert.strictEqual(out.error?.title, 'Missing API key permission: Transfer (400007)');
    });

    it('the address step refuses an address that is not one of the chain ("hello" on TRC20): nothing is confirmed or sent', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const { asked, modals } = answerAs({ ...v1, destination: 'hello', amount: '11' });
      const out = await withdraw();
      assert.strictEqual(out.status, 'cancelled');
      const step = asked.find((a) => a.kind === 'text' && a.options.prompt === 'USDT address on TRC20');
      assert.ok(step && step.kind === 'text');
      assert.strictEqual(step.refused, 'Not a valid address for this chain (expected: TRON address (T…, 34 characters, base58check)). Check it for a typo or a missing character.');
      assert.deepStrictEqual(modals, []);
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
      assert.deepStrictEqual((await balances(client, 'USDT')).main, { balance: '100', available: '100', holds: '0' });
    });

    it('the address step names an address of another of the currency\'s chains (an EVM address on TRC20): nothing is sent', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const { asked, modals } = answerAs({ ...v1, destination: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', amount: '11' });
      const out = await withdraw();
      assert.strictEqual(out.status, 'cancelled');
      const step = asked.find((a) => a.kind === 'text' && a.options.prompt === 'USDT address on TRC20');
      assert.ok(step && step.kind === 'text');
      assert.match(step.refused ?? '', /^This looks like an ERC20((, KCC)? or (KCC|BEP20))? address; you chose TRC20\. Go Back to pick (that|its) chain, or check the address\.$/);
      assert.deepStrictEqual(modals, []);
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
    });

    it('the amount step refuses an amount off the precision grid: nothing is confirmed or sent', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      hooks.setClient(client);
      const { asked, modals } = answerAs({ ...v1, amount: '10.1234567', feeDeduction: 'INTERNAL' });
      const out = await withdraw();
      assert.strictEqual(out.status, 'cancelled');
      const amountStep = asked.find((a) => a.kind === 'text' && a.options.prompt.startsWith('Amount of'));
      assert.ok(amountStep && amountStep.kind === 'text');
      assert.strictEqual(amountStep.refused, 'The amount must be a multiple of 0.000001 (6 decimal places for USDT on TRC20).');
      assert.deepStrictEqual(modals, []);
      assert.deepStrictEqual(await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`), []);
    });

    it('funds in trade: offers the trade → main transfer first (declined: nothing moves), then withdraws', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '5' }, { currency: 'USDT', type: 'trade', amount: '50' }]);
      hooks.setClient(client);
      const declinedRun = answerAs(v1, { transfer: false });
      const declined = await withdraw();
      assert.strictEqual(declined.status, 'invalid');
      assert.match(declined.issues?.[0].message ?? '', /Trade holds 50: transfer 16 from trade to main first\./);
      assert.deepStrictEqual(declinedRun.modals.map((m) => [m.message, m.action]), [['Main lacks funds for this withdrawal', 'Transfer 16 USDT to main']]);
      assert.deepStrictEqual((await balances(client, 'USDT')).trade, { balance: '50', available: '50', holds: '0' });
      answerAs(v1, { transfer: true });
      const out = await withdraw();
      assert.strictEqual(out.status, 'sent', JSON.stringify(out));
      assert.deepStrictEqual(out.transferred, { currency: 'USDT', amount: '16' });
      const b = await balances(client, 'USDT');
      assert.deepStrictEqual(b.main, { balance: '21', available: '0', holds: '21' });
      assert.deepStrictEqual(b.trade, { balance: '34', available: '34', holds: '0' });
    });

    it('double invocation of the same confirmed request sends once (in-flight lock)', async () => {
      const { user, client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let calls = 0;
      hooks.setClient(
        wrap(client, {
          withdrawV1: async (req) => {
            calls++;
            await gate;
            return client.withdrawV1(req);
          },
        }),
      );
      answerAs({ ...v1, feeDeduction: 'INTERNAL' });
      const first = withdraw();
      for (let i = 0; i < 250 && calls === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.strictEqual(calls, 1, 'first submission in flight');
      const second = await withdraw();
      assert.strictEqual(second.status, 'busy');
      release();
      assert.strictEqual((await first).status, 'sent');
      assert.strictEqual(calls, 1);
      assert.strictEqual((await admin<WithdrawalRecord[]>('GET', `/sandbox/v1/withdrawals?uid=${user.uid}`)).length, 1);
    });

    it('an ambiguous outcome is reported as "status unknown — check withdrawal history" and never resent', async () => {
      const { client } = await freshUser([{ currency: 'USDT', type: 'main', amount: '100' }]);
      let calls = 0;
      hooks.setClient(
        wrap(client, {
          withdrawV1: async () => {
            calls++;
            throw TransportError.ambiguous('POST', '/api/v1/withdrawals', 'connection reset after the request was sent');
          },
        }),
      );
      answerAs({ ...v1, feeDeduction: 'INTERNAL' });
      const out = await withdraw();
      assert.strictEqual(out.status, 'unknown');
      assert.strictEqual(out.error?.title, 'Withdrawal status unknown — check withdrawal history');
      assert.strictEqual(out.error?.unknownOutcome, true);
      assert.strictEqual(calls, 1);
    });
  });
});
