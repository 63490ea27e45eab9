import { strict as assert } from 'assert';
import { baseUrlError, freeProfileName, KUCOIN_BASE_URL, normalizeBaseUrl, profileNameError } from '../../../src/host/profileInput';

describe('profile input (src/host/profileInput.ts)', () => {
  const taken = ['Sandbox (local)', 'KuCoin'];

  it('accepts a fresh name and refuses empty, too long and taken ones (case-insensitive)', () => {
    assert.equal(profileNameError('KuCoin main', taken), undefined);
    assert.match(profileNameError('   ', taken)!, /name/);
    assert.match(profileNameError('x'.repeat(61), taken)!, /60/);
    assert.match(profileNameError(' kucoin ', taken)!, /"KuCoin" exists/);
    assert.match(profileNameError('sandbox (LOCAL)', taken)!, /"Sandbox \(local\)" exists/);
  });

  it('proposes the first free name', () => {
    assert.equal(freeProfileName('KuCoin', ['Sandbox (local)']), 'KuCoin');
    assert.equal(freeProfileName('KuCoin', taken), 'KuCoin 2');
    assert.equal(freeProfileName('KuCoin', [...taken, 'kucoin 2']), 'KuCoin 3');
  });

  it('accepts https URLs and loopback http; refuses the rest with a reason', () => {
    assert.equal(baseUrlError(KUCOIN_BASE_URL), undefined);
    assert.equal(baseUrlError('https://proxy.example.com/kucoin/'), undefined);
    assert.equal(baseUrlError('http://127.0.0.1:8100'), undefined);
    assert.equal(baseUrlError('http://localhost:8100'), undefined);
    assert.match(baseUrlError('http://api.kucoin.com')!, /https/);
    assert.match(baseUrlError('api.kucoin.com')!, /absolute URL/);
    assert.match(baseUrlError('ftp://api.kucoin.com')!, /https/);
    assert.match(baseUrlError('https://api.kucoin.com/?a=1')!, /query/);
    assert.match(baseUrlError('https://user:pw@api.kucoin.com')!, /passwords/);
  });

  it('stores the URL without trailing slashes', () => {
    assert.equal(normalizeBaseUrl(' https://api.kucoin.com/// '), 'https://api.kucoin.com');
  });
});
