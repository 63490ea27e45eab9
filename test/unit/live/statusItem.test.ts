/**
 * The live status bar item (src/features/live/host/statusItem.ts), its pure part on the stand-in
 * vscode: the portfolio value in the fiat currency (computed as the Accounts view's Portfolio row, so the
 * two never differ by a cent), and the text and tooltip for each stream state — live, reconnecting with
 * the backoff's countdown, polling with the reason.
 */
import { strict as assert } from 'node:assert';
import * as D from '../../../src/api/decimal';
import type { Account } from '../../../src/api/schemas';
import type { FeedStatus } from '../../../src/features/live/feed';
import { fakeVscode, install } from '../extension/fakeVscode';

const acc = (currency: string, type: 'main' | 'trade', balance: string): Account => ({ id: `${currency}-${type}`, currency, type, balance, available: balance, holds: '0' });
const st = (state: FeedStatus['state'], over: Partial<FeedStatus> = {}): FeedStatus => ({ state, reason: null, attempt: 0, nextAttemptAt: null, since: 0, ...over });

describe('live status bar item (src/features/live/host/statusItem.ts)', () => {
  let uninstall: () => void;
  let mod: typeof import('../../../src/features/live/host/statusItem');
  let fiatValue: typeof import('../../../src/api/displayFormat').fiatValue;

  before(() => {
    uninstall = install(fakeVscode());
    /* eslint-disable @typescript-eslint/no-require-imports -- after the stand-in is installed */
    mod = require('../../../src/features/live/host/statusItem') as typeof mod;
    fiatValue = (require('../../../src/api/displayFormat') as typeof import('../../../src/api/displayFormat')).fiatValue;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  after(() => uninstall());

  it('portfolio value: per currency (main + trade) at its price, truncated to cents, summed — as the Accounts Portfolio row', () => {
    const accounts = [acc('BTC', 'main', '0.333'), acc('BTC', 'trade', '0.0001'), acc('USDT', 'trade', '10.009'), acc('XYZ', 'main', '5'), acc('ETH', 'main', '0')];
    const prices = { BTC: '66976.47', USDT: '1.0001', ETH: '3000' };
    const v = mod.portfolioValue(accounts, prices);
    // BTC 0.3331 × 66976.47 = 22309.862157 → 22309.86; USDT 10.009 × 1.0001 = 10.0100009 → 10.01
    assert.deepEqual(v, { total: '22319.87', missing: ['XYZ'] });
    assert.equal(v.total, D.add(fiatValue('0.3331', '66976.47')!, fiatValue('10.009', '1.0001')!), 'the Accounts view\'s per-currency values, summed');
    assert.deepEqual(mod.portfolioValue(accounts, undefined), { total: '0', missing: ['BTC', 'USDT', 'XYZ'] });
    assert.deepEqual([mod.money('22319.87'), mod.money('1234567'), mod.money('0.5')], ['22,319.87', '1,234,567.00', '0.50']);
  });

  it('live: the tower icon, the value in the fiat currency; the tooltip lists both streams and the portfolio', () => {
    const v = mod.liveItemView({ status: { private: st('live'), public: st('idle') }, accounts: [acc('USDT', 'trade', '100')], prices: { USDT: '0.92' }, fiat: 'EUR', now: 0 });
    assert.equal(v.text, '$(radio-tower) live · 92.00 EUR');
    assert.equal(v.warning, false);
    assert.match(v.tooltip, /^\*\*SpotDesk live\*\* — live\n/);
    assert.match(v.tooltip, /- Account stream \(orders, balances\): \*\*live\*\*/);
    assert.match(v.tooltip, /- Market stream \(books, trades, tickers\): not connected \(nothing needs it\)/);
    assert.match(v.tooltip, /Portfolio: \*\*92\.00 EUR\*\*/);
  });

  it('reconnecting counts down to the next attempt; polling warns and gives the reason', () => {
    const now = 1_000_000;
    const r = mod.liveItemView({ status: { private: st('reconnecting', { reason: 'the connection closed (code 1006)', attempt: 3, nextAttemptAt: now + 2400 }), public: st('live') }, fiat: 'USD', now });
    assert.equal(r.text, '$(sync~spin) reconnecting in 2 s');
    assert.match(r.tooltip, /\*\*reconnecting\*\* — the connection closed \(code 1006\) — next attempt in 2 s \(attempt 3, jittered backoff\)/);
    const p = mod.liveItemView({ status: { private: st('polling', { reason: 'private stream: Unreachable: connection refused', attempt: 4, nextAttemptAt: now + 8000 }), public: st('live') }, fiat: 'USD', now });
    assert.equal(p.text, '$(warning) polling');
    assert.equal(p.warning, true);
    assert.match(p.tooltip, /Account stream \(orders, balances\): down, \*\*polling\*\* REST instead — private stream: Unreachable: connection refused — next attempt in 8 s/);
    assert.equal(mod.liveItemView({ status: { private: st('idle'), public: st('idle') }, fiat: 'USD', now }).text, '$(circle-outline) offline');
  });
});
