import { strict as assert } from 'assert';
import type { WithdrawalItem } from '../../../src/api/schemas';
import { nextLookDelayMs, settledMessage, settledWithdrawals, shortAddress, type WatchedWithdrawal } from '../../../src/features/funding/model/withdrawalWatch';

function rec(id: string | undefined, status: WithdrawalItem['status'], extra: Partial<WithdrawalItem> = {}): WithdrawalItem {
  return {
    id,
    currency: 'USDT',
    chain: 'trx',
    status,
    address: 'TQrZ9wBzhLnTx2jcS4wF6pP3RHWv9vQvCr',
    memo: '',
    isInner: false,
    amount: '20',
    fee: '1',
    walletTxId: null,
    createdAt: 1,
    updatedAt: 2,
    remark: '',
    ...extra,
  };
}

describe('withdrawal watch (src/features/funding/model/withdrawalWatch.ts)', () => {
  const watched = new Map<string, WatchedWithdrawal>([
    ['w1', { id: 'w1', currency: 'USDT' }],
    ['w2', { id: 'w2', currency: 'USDT' }],
  ]);

  it('settles only watched withdrawals in a final status, matched by id', () => {
    const page = [rec('w1', 'SUCCESS'), rec('w2', 'PROCESSING'), rec('w3', 'FAILURE'), rec(undefined, 'SUCCESS')];
    assert.deepEqual(
      settledWithdrawals(watched, page).map((r) => r.id),
      ['w1'],
    );
    assert.deepEqual(
      settledWithdrawals(watched, [rec('w2', 'WALLET_PROCESSING'), rec('w2', 'REVIEW')]).map((r) => r.id),
      [],
    );
    assert.deepEqual(
      settledWithdrawals(watched, [rec('w2', 'FAILURE')]).map((r) => r.id),
      ['w2'],
    );
  });

  it('says what happened in words: completed with the transaction, or failed with the reason and where the funds are', () => {
    assert.deepEqual(settledMessage(rec('w1', 'SUCCESS', { walletTxId: '0x5b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e' })), {
      level: 'info',
      text: 'Your withdrawal of 20 USDT to TQrZ9w…QvCr completed (transaction 0x5b1f…8d7e).',
    });
    assert.equal(settledMessage(rec('w1', 'SUCCESS', { isInner: true, address: '12345678' })).text, 'Your withdrawal of 20 USDT to KuCoin user 12345678 completed (internal transfer, no chain transaction).');
    assert.deepEqual(settledMessage(rec('w2', 'FAILURE', { remark: 'FAIL test' })), {
      level: 'error',
      text: 'Your withdrawal of 20 USDT to TQrZ9w…QvCr failed: FAIL test. The held USDT is back in your main account.',
    });
    assert.equal(settledMessage(rec('w2', 'FAILURE')).text, 'Your withdrawal of 20 USDT to TQrZ9w…QvCr failed. The held USDT is back in your main account.');
  });

  it('shortens long addresses only', () => {
    assert.equal(shortAddress('12345678'), '12345678');
    assert.equal(shortAddress('TQrZ9wBzhLnTx2jcS4wF6pP3RHWv9vQvCr'), 'TQrZ9w…QvCr');
  });

  it('looks again after 2 s, doubling while nothing changes, never later than 60 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50].map(nextLookDelayMs), [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });
});
