/**
 * src/extension/guardedCommand.ts with a stand-in `vscode` (./fakeVscode.ts): a guarded command
 * returns its handler's result; a throwing or rejecting handler is logged as "<id>: <message>",
 * shown as "SpotDesk: <message>", and the command resolves to undefined instead of rejecting.
 */
import { strict as assert } from 'assert';
import { fakeVscode, install, type FakeVscode } from './fakeVscode';

describe('guardedRegistrar (stand-in vscode)', () => {
  let fake: FakeVscode;
  let uninstall: () => void;
  let mod: typeof import('../../../src/extension/guardedCommand');
  const errors: string[] = [];
  const log = { error: (line: string) => void errors.push(line) };

  before(() => {
    fake = fakeVscode();
    uninstall = install(fake);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- after the stand-in is installed
    mod = require('../../../src/extension/guardedCommand') as typeof mod;
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
});
