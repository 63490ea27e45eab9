/** The deposit panel in a person's words. */
import { strict as assert } from 'assert';
import { depositWording } from '../../../src/features/funding/model/depositWording';

const usdt = { currency: 'USDT', address: 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', memo: '', chain: 'TRC20', chainId: 'trx', depositMinSize: '1', confirms: 12 };
const xrp = { currency: 'XRP', address: 'rpYEK4MFgMTFRp4x43fGVDZ7hedrpnUPZ3', memo: '1219253501', chain: 'XRP', chainId: 'xrp', depositMinSize: null, confirms: 1 };

describe('deposit wording (src/features/funding/model/depositWording.ts)', () => {
  it('names the network, counts confirmations in the right number, says what to send where', () => {
    assert.deepEqual(depositWording(usdt), {
      title: 'Deposit USDT on TRC20',
      network: 'TRC20 (chain id trx)',
      minimum: '1 USDT',
      confirmations: '12 confirmations',
      hint: 'Send only USDT to this address, on the TRC20 network. Deposits below 1 USDT may not be credited.',
    });
  });

  it('"1 confirmation", a chain id equal to its name not repeated, the memo in the instruction, an unpublished minimum said so', () => {
    assert.deepEqual(depositWording(xrp), {
      title: 'Deposit XRP on XRP',
      network: 'XRP',
      minimum: 'not published',
      confirmations: '1 confirmation',
      hint: 'Send only XRP to this address, on the XRP network, with the memo.',
    });
    assert.equal(depositWording({ ...xrp, confirms: null }).confirmations, 'not published');
  });

  it('a sandbox address says it is on no blockchain and points to Simulate a Deposit…, never "Send only"', () => {
    const w = depositWording({ ...usdt, simulated: true });
    assert.equal(w.title, 'Deposit USDT on TRC20 (sandbox)');
    assert.equal(w.banner, 'Sandbox address: not on any blockchain. Do not send real funds.');
    assert.match(w.hint, /Simulate a Deposit…/);
    assert.doesNotMatch(w.hint, /Send only/);
    assert.equal(depositWording(usdt).banner, undefined, 'a real address has no sandbox banner');
  });
});
