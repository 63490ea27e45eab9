/** src/api/moneyWords.ts: what a profile's money is called in every confirmation and label. */
import { strict as assert } from 'assert';
import { fundsKind, fundsLabel, fundsPhrase, isLoopbackUrl } from '../../../src/api/moneyWords';

describe('money words (sandbox, local server, real funds)', () => {
  it('loopback URLs: localhost, 127.0.0.0/8, [::1]; nothing else', () => {
    for (const u of ['http://127.0.0.1:8100', 'http://localhost:1', 'https://127.5.6.7', 'http://[::1]:8100/api']) assert.equal(isLoopbackUrl(u), true, u);
    for (const u of [undefined, '', 'https://api.kucoin.com', 'http://127.0.0.1.evil.example', 'http://10.0.0.1', 'not a url', 'http://0.0.0.0:8100']) assert.equal(isLoopbackUrl(u), false, String(u));
  });

  it('the sandbox is play money, a loopback profile a local server, anything else REAL funds', () => {
    const sandbox = { name: 'Sandbox (local)', sandbox: true };
    const local = { name: 'Dev', sandbox: false, baseUrl: 'http://127.0.0.1:8100' };
    const real = { name: 'KuCoin', sandbox: false, baseUrl: 'https://api.kucoin.com' };
    assert.deepEqual([sandbox, local, real].map(fundsKind), ['sandbox', 'local', 'real']);
    assert.deepEqual([sandbox, local, real].map(fundsLabel), ['Sandbox · play money', 'Local server', 'REAL funds']);
    assert.equal(fundsPhrase(sandbox), 'the sandbox profile "Sandbox (local)" (play money, not real)');
    assert.equal(fundsPhrase(local), 'the profile "Dev" on a local server (http://127.0.0.1:8100): real funds only if that server is connected to a real exchange');
    assert.equal(fundsPhrase(real), 'REAL funds on the profile "KuCoin"');
  });
});
