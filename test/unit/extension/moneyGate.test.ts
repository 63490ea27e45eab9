/**
 * The money gate (src/host/moneyGate.ts) at the lowest layer that moves money: a real
 * profile's client, built by the extension's `Connection` with the gate's guard, against an
 * in-process sandbox (stand-in `vscode`, ./fakeVscode.ts).
 * - Called directly, as a leaked reference would be, with no confirmation: the placement, the
 *   cancel-all and the withdrawal are refused before anything is sent (the sandbox's state checked).
 * - A confirmation the person gave in the modal lets exactly one request of its action through, on
 *   its profile only, within its lifetime; a dismissed modal, or a declined follow-up question
 *   (the withdrawal's re-typed address), gives none.
 */
import { strict as assert } from 'assert';
import { SpotClient } from '../../../src/api/client';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { balanceOf, bundleNodeEntry, createUser, startTestSandbox } from '../server/helpers';
import { fakeContext, fakeVscode, install, type FakeVscode } from './fakeVscode';

const TRON = 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz';
const PRODUCTION = 1;

describe('money gate: a real profile\'s client moves no money without the person\'s confirmation', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let fake: FakeVscode;
  let uninstall: () => void;
  // The bundle of ./moneyGateEntry.ts, loaded after the stand-in vscode is installed.
  type Entry = typeof import('./moneyGateEntry');
  let Connection: Entry['Connection'];
  let MoneyGate: Entry['MoneyGate'];
  let ConfirmationRequiredError: Entry['ConfirmationRequiredError'];
  let windowPrompts: Entry['windowPrompts'];
  const disposables: Array<{ dispose(): void }> = [];

  before(async () => {
    sb = await startTestSandbox({ manualClock: false });
    fake = fakeVscode();
    uninstall = install(fake);
    const outfile = await bundleNodeEntry('test/unit/extension/moneyGateEntry.ts', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-gate-')), 'entry.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ({ Connection, MoneyGate, ConfirmationRequiredError, windowPrompts } = require(outfile) as Entry);
  });

  after(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    uninstall();
    await sb.close();
  });

  /** A user profile "Exchange" on the sandbox with a fresh funded user's key, its Connection and gate. */
  async function setup(now: () => number = Date.now) {
    const user = await createUser(sb, {
      balances: [
        { currency: 'USDT', type: 'trade', amount: '1000' },
        { currency: 'USDT', type: 'main', amount: '100' },
      ],
    });
    fake.config.set('spotdesk.activeProfile', 'Exchange');
    fake.config.set('spotdesk.profiles', [{ name: 'Exchange', baseUrl: sb.baseUrl }]);
    const secrets = new Map([['spotdesk.credentials/user:Exchange', JSON.stringify({ apiKey: user.apiKey, apiSecret: user.apiSecret, apiPassphrase: user.apiPassphrase, keyVersion: String(user.keyVersion) })]]);
    const ctx = fakeContext(PRODUCTION, secrets) as never;
    const prompts = Object.freeze(windowPrompts());
    // eslint-disable-next-line prefer-const
    let connection: InstanceType<typeof Connection>;
    const gate = new MoneyGate(prompts, () => connection.profile().id, now);
    const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {} };
    connection = new Connection(ctx, log as never, (id) => gate.guardFor(id));
    disposables.push(connection);
    const client = await connection.client();
    const direct = new SpotClient({ baseUrl: sb.baseUrl, credentials: user });
    disposables.push({ dispose: () => direct.close() });
    return { user, connection, gate, client, direct };
  }

  const order = (n: number) => ({ symbol: 'BTC-USDT', side: 'buy' as const, type: 'limit' as const, price: '1000', size: '0.001', clientOid: `gate-${Date.now()}-${n}` });
  /** The person chooses the modal's action button. */
  const accept = () => (fake.ui = { pick: () => undefined, input: () => undefined, message: (_k, _m, o, actions) => ((o as { modal?: boolean } | undefined)?.modal ? actions[0] : undefined) });
  /** The person dismisses every modal. */
  const dismiss = () => (fake.ui = { pick: () => undefined, input: () => undefined, message: () => undefined });

  it('placement, cancel-all and withdrawal sent directly with no confirmation are refused and change nothing', async () => {
    const { user, client, direct } = await setup();
    await direct.placeOrder(order(0)); // an order of the user's own, for the cancel-all
    const before = { trade: balanceOf(sb, user.uid, 'USDT', 'trade'), main: balanceOf(sb, user.uid, 'USDT', 'main') };

    await assert.rejects(client.placeOrder(order(1)), (e: Error) => e instanceof ConfirmationRequiredError && /did not send an order placement \(POST \/api\/v1\/hf\/orders\)/.test(e.message));
    await assert.rejects(client.cancelAllOrders('BTC-USDT'), ConfirmationRequiredError);
    await assert.rejects(client.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' }), ConfirmationRequiredError);
    // The request builder's path (prepare + send) is the same client: refused as well.
    await assert.rejects(client.send(client.prepare('placeOrder', order(2))), ConfirmationRequiredError);

    assert.equal((await direct.getActiveOrders('BTC-USDT')).length, 1, 'only the order placed directly by the test');
    assert.deepEqual((await direct.getWithdrawals({})).items, [], 'no withdrawal');
    assert.deepEqual({ trade: balanceOf(sb, user.uid, 'USDT', 'trade'), main: balanceOf(sb, user.uid, 'USDT', 'main') }, before);
    // Reads and the order test are not money-moving: they go through.
    assert.equal((await client.testOrder(order(3))).orderId.length > 0, true);
  });

  it('a confirmation from the modal lets one request of its action through, within gate.run only', async () => {
    const { gate, client, direct } = await setup();
    dismiss();
    assert.equal(await gate.confirm('place', 'Place?', 'detail', 'Place Buy Order'), undefined, 'dismissed: no confirmation');
    accept();
    const c = await gate.confirm('place', 'Place?', 'detail', 'Place Buy Order');
    assert.ok(c);
    await assert.rejects(client.placeOrder(order(1)), ConfirmationRequiredError, 'outside gate.run the confirmation is not carried');
    await assert.rejects(gate.run(c, () => client.cancelAllOrders('BTC-USDT')), ConfirmationRequiredError, 'a placement confirmation does not cancel everything');
    const placed = await gate.run(c, () => client.placeOrder(order(2)));
    assert.ok(placed.orderId);
    await assert.rejects(gate.run(c, () => client.placeOrder(order(3))), ConfirmationRequiredError, 'used up by the first placement');
    assert.deepEqual((await direct.getActiveOrders('BTC-USDT')).map((o) => o.id), [placed.orderId]);

    const all = await gate.confirm('cancelAll', 'Cancel all?', 'detail', 'Cancel All Orders');
    await gate.run(all, () => client.cancelAllOrders('BTC-USDT'));
    assert.deepEqual(await direct.getActiveOrders('BTC-USDT'), []);
  });

  it('the withdrawal confirmation needs the modal AND the follow-up answer; it is bound to its profile and expires', async () => {
    let t = 1_000_000;
    const { gate, client, direct } = await setup(() => t);
    accept();
    assert.equal(await gate.confirm('withdraw', 'Withdraw?', 'd', 'Continue…', { also: async () => false }), undefined, 'the re-typed address was wrong or dismissed');
    const late = await gate.confirm('withdraw', 'Withdraw?', 'd', 'Continue…', { also: async () => true });
    t += 120_001;
    await assert.rejects(gate.run(late, () => client.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' })), ConfirmationRequiredError, 'expired');
    // Another profile's guard refuses a confirmation given on this one.
    const c = await gate.confirm('withdraw', 'Withdraw?', 'd', 'Continue…', { also: async () => true });
    const req = { action: 'withdraw' as const, endpoint: 'withdrawV1' as const, method: 'POST', path: '/api/v1/withdrawals', body: '{}' };
    await assert.rejects(gate.run(c, async () => gate.guardFor('user:Other')(req)), ConfirmationRequiredError);
    const w = await gate.run(c, () => client.withdrawV1({ currency: 'USDT', address: TRON, amount: '20', chain: 'trx' }));
    assert.deepEqual((await direct.getWithdrawals({})).items.map((x) => x.id), [w.withdrawalId]);
  });
});
