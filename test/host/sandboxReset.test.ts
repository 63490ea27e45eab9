/**
 * Extension-host suite for "SpotDesk: Reset Sandbox…" (src/host/resetSandbox.ts), loaded LAST by
 * ./index.ts: a reset wipes every sandbox user the other suites made. Through the real command registration
 * (guardedCommand's registrar, contributed in package.json): the modal's answer comes from the test door's
 * prompts; confirmed, the embedded sandbox is back to its seeded world on the same URL and key, and the
 * Accounts view shows the starting balances again.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as D from '../../src/api/decimal';
import { sandboxSuite, type SandboxSuite } from './helpers';

describe('SpotDesk: Reset Sandbox… (extension host)', () => {
  const suite: SandboxSuite = sandboxSuite();

  it('cancelled at the modal: the command resolves to {status: "cancelled"} and nothing changes', async () => {
    const { client } = await suite.freshUser([{ currency: 'USDT', type: 'trade', amount: '10' }]);
    const asked: string[] = [];
    suite.hooks.prompts.confirm = async (message, detail) => (asked.push(`${message} ${detail}`), false);
    const r = await vscode.commands.executeCommand<{ status: string }>('spotdesk.resetSandbox');
    assert.deepStrictEqual(r, { status: 'cancelled' });
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0], /^Reset the sandbox to its starting state\? Everything done on the local sandbox at http:\/\/127\.0\.0\.1:\d+ is lost: orders and fills/);
    const usdt = await client.getAccounts({ currency: 'USDT', type: 'trade' });
    assert.deepStrictEqual(usdt.map((a) => a.balance), ['10'], 'the user is still there');
  });

  it('confirmed: the sandbox is back to its seeded world (same URL, same key) and the Accounts view shows the starting balances', async () => {
    const { client } = await suite.freshUser([{ currency: 'USDT', type: 'trade', amount: '10' }]);
    const ltcMain = (): string | undefined =>
      (suite.hooks.trees.accounts.state.data as { accounts: { currency: string; type: string; balance: string }[] } | undefined)?.accounts.find((a) => a.currency === 'LTC' && a.type === 'main')?.balance;
    await suite.hooks.trees.accounts.refresh();
    const before = ltcMain() ?? '0';
    await suite.admin('POST', '/sandbox/v1/deposits', { uid: (await suite.hooks.services.sandbox())?.uid, currency: 'LTC', amount: '5' });
    await suite.hooks.trees.accounts.refresh();
    assert.strictEqual(ltcMain(), D.add(before, '5'), 'the view shows the deposit before the reset');
    suite.hooks.prompts.confirm = async () => true;
    const r = await vscode.commands.executeCommand<{ status: string; tookMs?: number }>('spotdesk.resetSandbox');
    assert.strictEqual(r?.status, 'reset', JSON.stringify(r));
    assert.strictEqual(typeof r.tookMs, 'number');
    const after = await suite.hooks.services.sandbox();
    assert.strictEqual(after?.baseUrl, suite.sandbox.baseUrl, 'same sandbox, no restart');
    await assert.rejects(client.getAccounts({ currency: 'USDT' }), /400003/, 'users made before the reset are gone');
    const own = await (await suite.hooks.services.client()).getAccounts({ currency: 'LTC', type: 'main' });
    assert.deepStrictEqual(own.map((a) => a.balance), ['100'], 'the default key works, with its starting LTC (the deposit is gone)');
    // the views were reloaded before the command resolved (it awaits the refresh)
    assert.strictEqual(ltcMain(), '100');
  });
});
