/**
 * The "deposit address already exists" path of the funding command, pure part: recognising the
 * refusal, picking the chain's address from GET /api/v2/deposit-addresses, and the view shown
 * (same as a created address + `existing` and its note line).
 */
import { strict as assert } from 'assert';
import { explainFundingError, isDepositAddressExists } from '../../../src/features/funding/model/errors';
import { depositAddressView, existingDepositAddressView, findExistingAddress } from '../../../src/features/funding/model/summary';
import { BTC_NATIVE, BTC_SEGWIT, ERC20, TRC20, XRP_CHAIN } from './fixtures';

describe('funding: existing deposit address', () => {
  it('isDepositAddressExists: 260000 (any message) or an API message saying "already exists"; never transport errors', () => {
    assert.equal(isDepositAddressExists({ code: '260000', msg: 'Deposit address already exists.' }), true);
    assert.equal(isDepositAddressExists({ code: '260000', msg: '' }), true);
    assert.equal(isDepositAddressExists({ code: '400100', msg: 'address already exist' }), true);
    assert.equal(isDepositAddressExists({ code: '400100', msg: 'currency NOPE is not supported' }), false);
    assert.equal(isDepositAddressExists({ code: '400007', msg: 'Access denied' }), false);
    assert.equal(isDepositAddressExists({ kind: 'network', message: 'already exists' }), false);
    assert.equal(isDepositAddressExists(new Error('Deposit address already exists')), false);
    // the explanation (used when the existing address cannot be fetched) is unchanged
    assert.equal(explainFundingError({ code: '260000', msg: 'Deposit address already exists.' }, 'deposit-address', { currency: 'USDT', chain: 'TRC20' }).title, 'A deposit address already exists for USDT on TRC20 (260000)');
  });

  it('findExistingAddress: by chainId (case-insensitive), by chain name when chainId is absent, the oldest of several, undefined when none', () => {
    const list = [
      { address: '0xaaa', memo: '', chain: 'ERC20', chainId: 'eth' },
      { address: 'TFirst', memo: '', chain: 'TRC20', chainId: 'TRX' },
      { address: 'TSecond', memo: '', chain: 'TRC20', chainId: 'trx' },
    ];
    assert.equal(findExistingAddress(list, TRC20)?.address, 'TFirst');
    assert.equal(findExistingAddress(list, ERC20)?.address, '0xaaa');
    assert.equal(findExistingAddress(list, XRP_CHAIN), undefined);
    assert.equal(findExistingAddress([], TRC20), undefined);
    const named = [
      { address: 'bc1q', memo: null, chain: 'BTC-Segwit' },
      { address: '1abc', memo: null, chain: 'btc' },
    ];
    assert.equal(findExistingAddress(named, BTC_SEGWIT)?.address, 'bc1q');
    assert.equal(findExistingAddress(named, BTC_NATIVE)?.address, '1abc');
    // a chainId that does not match is not rescued by a matching name
    assert.equal(findExistingAddress([{ address: 'x', chain: 'TRC20', chainId: 'kcc' }], TRC20), undefined);
  });

  it('existingDepositAddressView: the created view (memo, warning, min deposit, confirmations) + existing + note', () => {
    const entry = { address: 'rEXISTING', memo: '1234567890', chain: 'XRP', chainId: 'xrp', to: 'MAIN', currency: 'XRP', contractAddress: '' };
    const v = existingDepositAddressView('XRP', entry, { ...XRP_CHAIN, depositMinSize: '0.1', confirms: 3 });
    assert.deepEqual(v, {
      currency: 'XRP',
      address: 'rEXISTING',
      memo: '1234567890',
      chain: 'XRP',
      chainId: 'xrp',
      depositMinSize: '0.1',
      confirms: 3,
      memoWarning: 'This address needs the memo 1234567890. A deposit sent without it may not be credited — always include the memo (also called tag or note) when sending XRP.',
      existing: true,
      note: 'This is your existing XRP deposit address on XRP: the exchange keeps one address per currency and chain, so no new one was created.',
    });
    const { existing, note, ...rest } = existingDepositAddressView('USDT', { address: 'TX', memo: '', chain: 'TRC20', chainId: 'trx' }, TRC20);
    assert.equal(existing, true);
    assert.equal(note, 'This is your existing USDT deposit address on TRC20: the exchange keeps one address per currency and chain, so no new one was created.');
    assert.deepEqual(rest, depositAddressView('USDT', { address: 'TX', memo: '', chain: 'TRC20', chainId: 'trx' }, TRC20));
    assert.equal(rest.memoWarning, undefined);
    assert.equal(rest.depositMinSize, '1');
    assert.equal(rest.confirms, 1);
  });
});
