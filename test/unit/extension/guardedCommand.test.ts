/**
 * src/host/guardedCommand.ts with a stand-in `vscode` (./fakeVscode.ts): a guarded command
 * returns its handler's result; a throwing or rejecting handler is logged as "<id>: <message>",
 * shown as "SpotDesk: <message>", and the command resolves to undefined instead of rejecting.
 */
import { strict as assert } from 'assert';
import { fakeVscode, install, type FakeVscode } from './fakeVscode';

describe('guardedRegistrar (stand-in vscode)', () => {
  let fake: FakeVscode;
  let uninstall: () => void;
  let mod: typeof import('../../../src/host/guardedCommand');
  const errors: string[] = [];
  const log = { error: (line: string) => void errors.push(line) };

  before(() => {
    fake = fakeVscode();
    uninstall = install(fake);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the stand-in is installed
    mod = require('../../../src/host/guardedCommand') as typeof mod;
  });
  after(() => uninstall());
  beforeEach(() => {
    errors.length = 0;
    fake.messages.length = 0;
  });

  it('passes the arguments through and resolves to what the handler returned; nothing logged or shown', async () => {
    const reg = mod.guardedRegistrar(log);
    const d = reg('spotdesk.test.ok', (a: number, b: number) => a + b);
    assert.equal(await fake.commands.get('spotdesk.test.ok')!(2, 3), 5);
    assert.deepEqual(errors, []);
    assert.deepEqual(fake.messages, []);
    d.dispose();
    assert.equal(fake.commands.has('spotdesk.test.ok'), false);
  });

  it('a throwing and a rejecting handler: logged with the id, shown once each, resolved to undefined', async () => {
    const reg = mod.guardedRegistrar(log);
    reg('spotdesk.test.throws', () => {
      throw new Error('boom');
    });
    reg('spotdesk.test.rejects', async () => Promise.reject(new Error('later')));
    assert.equal(await fake.commands.get('spotdesk.test.throws')!(), undefined);
    assert.equal(await fake.commands.get('spotdesk.test.rejects')!(), undefined);
    assert.equal(errors.length, 2);
    assert.match(errors[0], /^spotdesk\.test\.throws: .*boom/);
    assert.match(errors[1], /^spotdesk\.test\.rejects: .*later/);
    assert.deepEqual(
      fake.messages.map((m) => m.kind),
      ['error', 'error'],
    );
    assert.match(fake.messages[0].message, /^SpotDesk: .*boom/);
    assert.match(fake.messages[1].message, /^SpotDesk: .*later/);
  });

  it('plainResult: plain data comes back as a deep copy; functions, class instances and getters at any depth give undefined', () => {
    const data = { a: [1, 'x', true, null, { b: 2n }], c: { d: [] as unknown[] } };
    const copy = mod.plainResult(data) as typeof data;
    assert.deepEqual(copy, data);
    assert.notEqual(copy, data);
    assert.notEqual(copy.a, data.a, 'a copy: the caller cannot change SpotDesk\'s own objects');
    assert.equal(mod.plainResult('s'), 's');
    assert.equal(mod.plainResult(undefined), undefined);
    class Panel {
      deps = { place: () => 'order' };
    }
    for (const bad of [() => 1, new Panel(), { nested: [{ p: new Panel() }] }, new Map(), new Date(0), { f() {} }, Object.defineProperty({}, 'g', { get: () => 1, enumerable: true }), NaN, Promise.resolve(1)]) {
      assert.equal(mod.plainResult(bad), undefined, String(bad));
    }
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    assert.equal(mod.plainResult(deep), undefined, 'deeper than 32 levels');
  });

  it('a command that returns a live object resolves to undefined; one that returns data resolves to a copy of it', async () => {
    const panel = new (class Panel {
      place = () => 'order';
    })();
    const d1 = mod.registerCommand('spotdesk.test.panel', () => panel);
    const d2 = mod.guardedRegistrar(log)('spotdesk.test.data', async () => ({ symbol: 'BTC-USDT' }));
    assert.equal(await fake.commands.get('spotdesk.test.panel')!(), undefined);
    assert.deepEqual(await fake.commands.get('spotdesk.test.data')!(), { symbol: 'BTC-USDT' });
    d1.dispose();
    d2.dispose();
  });
});
