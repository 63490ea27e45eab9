/**
 * The HF order variants and classic orders are journaled, snapshotted and replayed like every order: a
 * sandbox (manual clock, state dir) places classic and HF orders, alters one, cancels part of another and
 * arms a dead-man's switch; then
 * - a copy of the state dir taken while it runs (what a SIGKILL leaves: the journal after the last snapshot)
 *   and the state dir after a clean stop (a snapshot) both start a sandbox whose orders, holds and switch
 *   equal the original's;
 * - each restarted sandbox fires the switch when the admin API moves its manual clock past the trigger,
 *   stamped with the trigger time, as the original does.
 * SpotDesk's own client places the orders (the third-party clients are exercised in
 * conformance.hfOrders.test.ts and test/unit/ccxt/kucoinOrders.test.ts); the checks read the sandbox's state.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import { admin, createUser } from './helpers';

const SYM = 'BTC-USDT';

/** What must survive: every order of the user (as the HF view shows it), its accounts, its switch. */
function observe(sb: RunningSandbox, uid: string, ids: string[]): unknown {
  const ex = sb.state.exchange;
  return {
    orders: ids.map((id) => ex.getOrder(uid, SYM, id)),
    active: ex.activeOrders(uid, SYM),
    accounts: ex.accounts(uid),
    // the switch (not its `currentTime`: the clock a restarted sandbox reads)
    switch: (({ currentTime: _c, ...rest }) => rest)(ex.deadCancelOf(uid) ?? { currentTime: 0 }),
    // the book (not its `time`: the clock a restarted sandbox reads)
    book: (({ time: _t, ...rest }) => rest)(ex.level2(SYM, 1000)),
  };
}

function copyDir(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) if (fs.statSync(path.join(from, f)).isFile()) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

describe('HF variants and classic orders survive a crash (journal replay) and a restart (snapshot)', function () {
  this.timeout(60_000);
  let root: string;
  const running: RunningSandbox[] = [];

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-hfdur-'));
  });
  after(async () => {
    for (const sb of running) await sb.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('orders, holds and the armed switch come back; the switch fires on the manual clock after the restart', async () => {
    const dir = path.join(root, 'state');
    const start = (stateDir: string) => startSandbox({ stateDir, sim: false, manualClock: true, seed: 3, log: () => undefined }).then((s) => (running.push(s), s));
    const sb = await start(dir);
    const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '20000' }] });
    const client = new SpotClient({ baseUrl: sb.baseUrl, credentials: u, maxRetries: 0 });
    const ids: string[] = [];
    try {
      ids.push((await client.placeClassicOrder({ clientOid: 'c-1', symbol: SYM, side: 'buy', price: '30000', size: '0.01' })).orderId);
      ids.push((await client.placeOrder({ clientOid: 'h-1', symbol: SYM, side: 'buy', type: 'limit', price: '30000', size: '0.02' })).orderId);
      const alt = await client.alterOrder({ symbol: SYM, orderId: ids[1], newPrice: '31000', newSize: '0.03' });
      ids.push(alt.newOrderId as string);
      await client.cancelPartialOrder(SYM, ids[0], '0.004');
      const set = await client.setDeadCancel(30, [SYM]);
      assert.equal(set.triggerTime - set.currentTime, 30);
    } finally {
      client.close();
    }
    const want = observe(sb, u.uid, ids);
    assert.equal((want as { active: unknown[] }).active.length, 2);

    // a crash: the state dir as it is now (the journal holds every command since the start's snapshot)
    const crashed = path.join(root, 'crashed');
    copyDir(dir, crashed);
    // a clean stop: a snapshot
    const trigger = (sb.state.exchange.deadCancelOf(u.uid) as { triggerTime: number }).triggerTime * 1000;
    await sb.close();
    running.splice(running.indexOf(sb), 1);

    for (const [label, stateDir] of [['journal replay', crashed], ['snapshot', dir]] as const) {
      const re = await start(stateDir);
      assert.deepEqual(re.warnings, [], label);
      assert.deepEqual(observe(re, u.uid, ids), want, label);
      re.state.exchange.checkInvariants();
      // move the manual clock past the trigger: the switch fires, stamped with the trigger time
      const now = re.state.now();
      const r = await admin(re, 'POST', '/sandbox/v1/clock', { advanceMs: trigger - now + 1_000 });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(re.state.exchange.activeOrders(u.uid, SYM), [], `${label}: every order of the pair cancelled`);
      const last = re.state.exchange.getOrder(u.uid, SYM, ids[2]);
      assert.deepEqual([last.active, last.cancelExist, Math.floor(last.lastUpdatedAt / 1000) * 1000], [false, true, trigger], label);
      assert.equal(re.state.exchange.accounts(u.uid, { currency: 'USDT', type: 'trade' })[0].holds, '0', label);
      assert.equal(re.state.exchange.deadCancelOf(u.uid), null, label);
      re.state.exchange.checkInvariants();
    }
  });
});
