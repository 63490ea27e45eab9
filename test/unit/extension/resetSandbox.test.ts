/**
 * "SpotDesk: Reset Sandbox…" (src/host/resetSandbox.ts) on the stand-in vscode, with the real prompts
 * (a modal warning) and a real in-process sandbox: refused outside the sandbox profile without asking;
 * the modal says what is lost; cancelled, nothing changes; confirmed, the sandbox is back to its seeded
 * world (a user created before is gone, the default key still works) and the views reload; a refusal of
 * the sandbox is shown and returned. The outcome is plain data.
 */
import { strict as assert } from 'node:assert';
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server/index';
import type { Services } from '../../../src/host/services';
import { createUser, credsOf, signed } from '../server/helpers';
import { fakeVscode, install, type FakeVscode } from './fakeVscode';

describe('SpotDesk: Reset Sandbox… (src/host/resetSandbox.ts)', function () {
  this.timeout(30_000);
  let fake: FakeVscode;
  let uninstall: () => void;
  let mod: typeof import('../../../src/host/resetSandbox');
  let prompts: Services['prompts'];
  let sb: RunningSandbox;

  before(async () => {
    fake = fakeVscode();
    uninstall = install(fake);
    /* eslint-disable @typescript-eslint/no-require-imports -- after the stand-in is installed */
    mod = require('../../../src/host/resetSandbox') as typeof mod;
    prompts = (require('../../../src/host/prompts') as typeof import('../../../src/host/prompts')).windowPrompts();
    /* eslint-enable @typescript-eslint/no-require-imports */
    sb = await startSandbox({ sim: false, manualClock: true, seed: 1 });
  });
  after(async () => {
    await sb?.close();
    uninstall();
  });
  beforeEach(() => {
    fake.messages.length = 0;
    fake.log.length = 0;
  });

  /** Services of a profile (`sandbox`: the embedded sandbox's admin access, or a wrong token). */
  function services(opts: { sandbox: boolean; token?: string; mode?: { kind: 'paper' } | { kind: 'replay'; speed: number } }): { services: Services; asked: { sandbox: number } } {
    const asked = { sandbox: 0 };
    const log = { info: (t: string) => fake.log.push(`info: ${t}`), warn: (t: string) => fake.log.push(`warn: ${t}`), error: (t: string) => fake.log.push(`error: ${t}`) };
    const s = {
      prompts,
      log,
      profile: () => ({ id: opts.mode?.kind ?? (opts.sandbox ? 'sandbox' : 'kucoin'), name: opts.sandbox ? 'Sandbox (local)' : 'KuCoin', sandbox: opts.sandbox, ...(opts.mode ? { mode: opts.mode } : {}) }),
      sandbox: async () => {
        asked.sandbox++;
        return { baseUrl: sb.baseUrl, adminToken: opts.token ?? sb.adminToken, uid: sb.credentials.uid };
      },
    };
    return { services: s as unknown as Services, asked };
  }

  it('outside the sandbox profile: unavailable, says why, asks nothing and touches no sandbox', async () => {
    const { services: s, asked } = services({ sandbox: false });
    let refreshed = 0;
    const r = await mod.runResetSandbox(s, () => void refreshed++);
    assert.deepStrictEqual(r, { status: 'unavailable' });
    assert.equal(asked.sandbox, 0);
    assert.equal(refreshed, 0);
    assert.deepStrictEqual(fake.messages.map((m) => [m.kind, m.modal]), [['info', false]]);
    assert.match(fake.messages[0].message, /sandbox profile only/);
  });

  for (const mode of [{ kind: 'paper' as const }, { kind: 'replay' as const, speed: 60 }])
  it(`on the ${mode.kind} profile (a borrowed market): unavailable, says why before any modal, touches no sandbox`, async () => {
    const { services: s, asked } = services({ sandbox: true, mode });
    let refreshed = 0;
    const r = await mod.runResetSandbox(s, () => void refreshed++);
    assert.deepStrictEqual(r, { status: 'unavailable' });
    assert.deepStrictEqual([asked.sandbox, refreshed], [0, 0]);
    assert.deepStrictEqual(fake.messages.map((m) => [m.kind, m.modal]), [['info', false]]);
    assert.match(fake.messages[0].message, mode.kind === 'paper' ? /Paper \(KuCoin prices\) profile borrows its market/ : /Replay \(recorded market\) profile borrows its market/);
  });

  it('the modal says what is lost; cancelled, nothing changes and the views are not reloaded', async () => {
    const user = await createUser(sb);
    fake.ui.message = () => undefined; // Escape
    let refreshed = 0;
    const r = await mod.runResetSandbox(services({ sandbox: true }).services, () => void refreshed++);
    assert.deepStrictEqual(r, { status: 'cancelled' });
    assert.equal(refreshed, 0);
    const [modal] = fake.messages;
    assert.deepStrictEqual([modal.kind, modal.modal, modal.message], ['warning', true, 'Reset the sandbox to its starting state?']);
    for (const lost of ['orders and fills', 'balances (back to the starting play money)', 'deposits, withdrawals and transfers', 'users created through its admin API', 'API key stays the same', 'cannot be undone', sb.baseUrl]) {
      assert.ok(modal.detail?.includes(lost), `the modal names "${lost}": ${modal.detail}`);
    }
    assert.equal((await signed(sb, user, 'GET', '/api/v1/accounts')).json.code, '200000', 'the user is still there');
  });

  it('confirmed: the sandbox is back to its seeded world (same key), the views reload, the outcome is plain data', async () => {
    const user = await createUser(sb);
    const old = sb.state;
    fake.ui.message = (_kind, _msg, _opts, actions) => actions.find((a) => a === 'Reset Sandbox');
    let refreshed = 0;
    const r = await mod.runResetSandbox(services({ sandbox: true }).services, () => void refreshed++);
    assert.equal(r.status, 'reset', JSON.stringify(r));
    assert.equal(typeof r.tookMs, 'number');
    assert.deepStrictEqual(JSON.parse(JSON.stringify(r)), r);
    assert.equal(refreshed, 1);
    assert.notEqual(sb.state, old);
    assert.equal((await signed(sb, user, 'GET', '/api/v1/accounts')).json.code, '400003', 'the user created before is gone');
    assert.equal((await signed(sb, credsOf(sb), 'GET', '/api/v1/accounts')).json.code, '200000', 'the default key still works');
    assert.ok(fake.messages.some((m) => m.kind === 'info' && /back to its starting state/.test(m.message)));
    assert.ok(fake.log.some((l) => /^info: sandbox reset to its seeded world/.test(l)));
  });

  it('the sandbox refuses (a wrong admin token): failed, shown and logged, no reload, nothing reset', async () => {
    const user = await createUser(sb);
    fake.ui.message = (_kind, _msg, _opts, actions) => actions.find((a) => a === 'Reset Sandbox');
    let refreshed = 0;
    const r = await mod.runResetSandbox(services({ sandbox: true, token: 'f'.repeat(48) }).services, () => void refreshed++);
    assert.equal(r.status, 'failed');
    assert.match(r.error ?? '', /refused the reset \(HTTP 401: admin API: missing or wrong Authorization/);
    assert.equal(refreshed, 0);
    assert.ok(fake.messages.some((m) => m.kind === 'error' && /the sandbox reset failed/.test(m.message)));
    assert.equal((await signed(sb, user, 'GET', '/api/v1/accounts')).json.code, '200000');
  });
});
