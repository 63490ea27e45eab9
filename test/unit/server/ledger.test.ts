/**
 * The ledger's parts on their own (src/exchange/server/ledger.ts, eventHub.ts), with events written
 * out as the core emits them (docs/events.md): the recorder turns one command's events into entries with
 * KuCoin's bizType, fee and context (hold-only changes make none, a failed command none); the book
 * keeps ids in order, drops entries past the retention (3 × 24 h), round-trips through plain data and
 * its snapshot records; the hub
 * routes each consumer only what it watches and keeps a core watch flag on while anyone watches.
 */
import { strict as assert } from 'node:assert';
import type { BalanceEvent, CoreEventSink, LevelEvent, OrderEvent, TradeEvent } from '../../../src/exchange/core';
import { EventHub, type EventSource } from '../../../src/exchange/server/eventHub';
import { LEDGER_RETENTION_MS, LedgerBook, LedgerRecorder, MAX_LEDGER_ENTRIES_PER_USER, type LedgerBalanceEvent } from '../../../src/exchange/server/ledger';

const T = 1_790_000_000_000;

function bal(p: Partial<LedgerBalanceEvent> & Pick<LedgerBalanceEvent, 'currency' | 'accountType' | 'total' | 'availableChange' | 'holdChange' | 'relationEvent'>): LedgerBalanceEvent {
  return { uid: 'u1', relationEventId: '', time: T, ...p };
}

describe('ledger recorder and book', () => {
  it('a fill: quote and base entries with the fee on the fee currency, KuCoin context; holds alone make none', () => {
    const book = new LedgerBook();
    const r = new LedgerRecorder(book);
    const orderId = '6a5d0c000000000000000011';
    // order placed: hold taken (no entry)
    r.balance(bal({ currency: 'USDT', accountType: 'trade', total: '1000', availableChange: '-100.2', holdChange: '100.2', relationEvent: 'trade.hold', relationEventId: orderId }));
    r.flush({});
    assert.equal(book.entriesOf('u1').length, 0);
    // a fill of 0.001 BTC at 100000: funds 100, fee 0.2 (taker, quote)
    r.order({ uid: 'u1', orderId, match: { tradeId: 7, fee: '0.2', feeCurrency: 'USDT' } });
    const ctx = { symbol: 'BTC-USDT', orderId, tradeId: '7' };
    r.balance(bal({ currency: 'USDT', accountType: 'trade', total: '899.8', availableChange: '0', holdChange: '-100.2', relationEvent: 'trade.setted', relationEventId: orderId, relationContext: ctx }));
    r.balance(bal({ currency: 'BTC', accountType: 'trade', total: '0.001', availableChange: '0.001', holdChange: '0', relationEvent: 'trade.setted', relationEventId: orderId, relationContext: ctx }));
    r.flush({});
    const [q, b] = book.entriesOf('u1');
    assert.deepEqual(
      { ...q, context: JSON.parse(q.context) as unknown },
      { id: 1, uid: 'u1', currency: 'USDT', accountType: 'trade', amount: '100.2', fee: '0.2', balance: '899.8', bizType: 'TRADE_EXCHANGE', direction: 'out', createdAt: T, context: ctx },
    );
    assert.deepEqual([b.id, b.currency, b.amount, b.fee, b.direction, b.bizType], [2, 'BTC', '0.001', '0', 'in', 'TRADE_EXCHANGE']);
  });

  it('deposit, transfer and withdrawal: bizType, direction, fee and context from the command', () => {
    const book = new LedgerBook();
    const r = new LedgerRecorder(book);
    r.balance(bal({ currency: 'USDT', accountType: 'main', total: '50', availableChange: '50', holdChange: '0', relationEvent: 'main.deposit' }));
    r.flush({ depositId: 'd1' });
    r.balance(bal({ currency: 'USDT', accountType: 'main', total: '40', availableChange: '-10', holdChange: '0', relationEvent: 'main.transfer' }));
    r.balance(bal({ currency: 'USDT', accountType: 'trade', total: '10', availableChange: '10', holdChange: '0', relationEvent: 'trade.transfer' }));
    r.flush({ transferId: 't1' });
    r.balance(bal({ currency: 'USDT', accountType: 'main', total: '40', availableChange: '-21', holdChange: '21', relationEvent: 'main.withdraw_hold', relationEventId: 'wh1' }));
    r.flush({});
    r.balance(bal({ currency: 'USDT', accountType: 'main', total: '19', availableChange: '0', holdChange: '-21', relationEvent: 'main.withdraw_done', relationEventId: 'wh1' }));
    r.flush({ withdrawal: { withdrawalId: 'w1', fee: '1' } });
    assert.deepEqual(
      book.entriesOf('u1').map((e) => [e.id, e.bizType, e.accountType, e.direction, e.amount, e.fee, e.balance, e.context]),
      [
        [1, 'DEPOSIT', 'main', 'in', '50', '0', '50', '{"depositId":"d1"}'],
        [2, 'TRANSFER', 'main', 'out', '10', '0', '40', '{"orderId":"t1"}'],
        [3, 'TRANSFER', 'trade', 'in', '10', '0', '10', '{"orderId":"t1"}'],
        [4, 'WITHDRAW', 'main', 'out', '21', '1', '19', '{"withdrawalId":"w1"}'],
      ],
    );
  });

  it('a failed command records nothing; a later one starts clean', () => {
    const book = new LedgerBook();
    const r = new LedgerRecorder(book);
    r.balance(bal({ currency: 'USDT', accountType: 'main', total: '5', availableChange: '5', holdChange: '0', relationEvent: 'main.deposit' }));
    r.discard();
    r.flush({});
    assert.equal(book.entriesOf('u1').length, 0);
  });

  it('book: ids count up over users; entries past the retention go; plain-data round trip', () => {
    const book = new LedgerBook();
    const e = (uid: string, t: number) => book.record({ uid, currency: 'USDT', accountType: 'main', amount: '1', fee: '0', balance: '1', bizType: 'DEPOSIT', direction: 'in', createdAt: t, context: '' });
    e('a', T);
    e('b', T + 1);
    e('a', T + 2);
    assert.deepEqual(book.entriesOf('a').map((x) => x.id), [1, 3]);
    const copy = LedgerBook.import(JSON.parse(JSON.stringify(book.export())) as ReturnType<LedgerBook['export']>);
    assert.deepEqual(copy.export(), book.export());
    e('a', T + LEDGER_RETENTION_MS + 3);
    assert.deepEqual(book.entriesOf('a').map((x) => x.id), [4]);
    assert.equal(copy.record({ uid: 'a', currency: 'X', accountType: 'trade', amount: '1', fee: '0', balance: '1', bizType: 'OTHER', direction: 'in', createdAt: T, context: '' }).id, 4);
    assert.throws(() => LedgerBook.import({ version: 2 } as never), /version 2/);
  });

  it('book: retention is the 3 × 24 h history window; prune drops older entries of every user, a user left with none is forgotten', () => {
    assert.equal(LEDGER_RETENTION_MS, 3 * 24 * 3600 * 1000);
    const book = new LedgerBook();
    const e = (uid: string, t: number) => book.record({ uid, currency: 'USDT', accountType: 'trade', amount: '1', fee: '0', balance: '1', bizType: 'TRANSFER', direction: 'in', createdAt: t, context: '' });
    e('a', T);
    e('b', T + 10);
    e('a', T + 20);
    e('b', T + 30);
    assert.equal(book.prune(T + 20), 2);
    assert.deepEqual([book.entriesOf('a').map((x) => x.id), book.entriesOf('b').map((x) => x.id)], [[3], [4]]);
    assert.equal(book.prune(T + 25), 1);
    assert.deepEqual([...book.exportRecords()], [{ k: 'meta', nextId: 5 }, { k: 'entries', uid: 'b', list: [[4, 'USDT', 'trade', '1', '0', '1', 'TRANSFER', 'in', T + 30, '']] }]);
    assert.equal(book.prune(T + 31), 1);
    assert.deepEqual(book.export(), { version: 1, nextId: 5, entries: [] });
  });

  it('book: snapshot records (blocks of 256 entries per user) restore the same book, which continues the ids; bad records are refused', () => {
    const book = new LedgerBook();
    for (let i = 0; i < 700; i++) {
      book.record({ uid: i % 3 === 0 ? 'a' : 'b', currency: 'BTC', accountType: i % 2 ? 'main' : 'trade', amount: `0.${i + 1}`, fee: String(i % 5), balance: String(i), bizType: 'TRADE_EXCHANGE', direction: i % 2 ? 'in' : 'out', createdAt: T + i, context: i % 7 ? '' : `{"orderId":"${i}"}` });
    }
    const records = [...book.exportRecords()] as { k: string; list?: unknown[] }[];
    assert.ok(records.every((r) => r.list === undefined || r.list.length <= 256));
    assert.equal(records.length, 1 + 1 + 2); // meta, a: 234 entries, b: 466 entries
    const copy = new LedgerBook();
    copy.importRecords(JSON.parse(JSON.stringify(records)) as unknown[]);
    assert.deepEqual(copy.export(), book.export());
    const next = { uid: 'c', currency: 'X', accountType: 'trade' as const, amount: '1', fee: '0', balance: '1', bizType: 'OTHER' as const, direction: 'in' as const, createdAt: T, context: '' };
    assert.equal(copy.record(next).id, book.record(next).id);
    assert.throws(() => new LedgerBook().importRecords([]), /no meta record/);
    assert.throws(() => new LedgerBook().importRecords([{ k: 'meta', nextId: 3 }, { k: 'entries', uid: 'a', list: [[2, 'X', 'trade', '1', '0', '1', 'OTHER', 'in', T, ''], [2, 'X', 'trade', '1', '0', '1', 'OTHER', 'in', T, '']] }]), /ledger entry 2 of a out of order/);
    assert.throws(() => new LedgerBook().importRecords([{ k: 'meta', nextId: 3 }, { k: 'entries', uid: 'a', list: [[3, 'X', 'trade', '1', '0', '1', 'OTHER', 'in', T, '']] }]), /out of order/);
    assert.throws(() => new LedgerBook().importRecords([{ k: 'x' }]), /unknown record x of section ledger/);
  });

  it('book: at most MAX_LEDGER_ENTRIES_PER_USER entries per user, the oldest dropped a tenth at a time', () => {
    const book = new LedgerBook();
    for (let i = 0; i <= MAX_LEDGER_ENTRIES_PER_USER; i++) book.record({ uid: 'a', currency: 'USDT', accountType: 'trade', amount: '1', fee: '0', balance: '1', bizType: 'TRADE_EXCHANGE', direction: 'in', createdAt: T, context: '' });
    const list = book.entriesOf('a');
    assert.equal(list.length, MAX_LEDGER_ENTRIES_PER_USER * 0.9);
    assert.equal(list[list.length - 1].id, MAX_LEDGER_ENTRIES_PER_USER + 1);
    assert.equal(list[0].id, MAX_LEDGER_ENTRIES_PER_USER * 0.1 + 2);
  });
});

describe('event hub', () => {
  /** A core stand-in recording its watch flags. */
  function core(): EventSource & { sink: CoreEventSink | null; users: Set<string>; symbols: Set<string> } {
    const c = {
      sink: null as CoreEventSink | null,
      users: new Set<string>(),
      symbols: new Set<string>(),
      setEventSink: (s: CoreEventSink | null) => void (c.sink = s),
      watchUser: (u: string, on: boolean) => void (on ? c.users.add(u) : c.users.delete(u)),
      watchSymbol: (s: string, on: boolean) => void (on ? c.symbols.add(s) : c.symbols.delete(s)),
    };
    return c;
  }

  const level = (symbol: string): LevelEvent => ({ symbol, side: 'buy', price: '1', size: '1', sequence: 1, time: T });
  const trade = (symbol: string): TradeEvent => ({ symbol, tradeId: 1, sequence: 1, price: '1', size: '1', side: 'buy', takerOrderId: 'a', makerOrderId: 'b', takerUid: 'x', makerUid: 'y', time: T });
  const order = (uid: string): OrderEvent => ({ uid, symbol: 'BTC-USDT', orderId: 'o', clientOid: '', type: 'received', side: 'buy', orderType: 'limit', price: '1', size: '1', funds: '1', filledSize: '0', remainSize: '1', canceledSize: '0', remainFunds: '1', orderTime: T, time: T });
  const balance = (uid: string): BalanceEvent => ({ uid, accountId: 'a', currency: 'USDT', accountType: 'main', total: '1', available: '1', hold: '0', availableChange: '1', holdChange: '0', relationEvent: 'main.deposit', relationEventId: '', time: T });

  it('routes each consumer only what it watches; a flag stays on while any consumer watches', () => {
    const c = core();
    const hub = new EventHub(c);
    assert.equal(c.sink, hub);
    const seen: Record<string, string[]> = { ledger: [], feed: [] };
    const mk = (name: string): CoreEventSink => ({
      level: (e) => seen[name].push(`level ${e.symbol}`),
      trade: (e) => seen[name].push(`trade ${e.symbol}`),
      order: (e) => seen[name].push(`order ${e.uid}`),
      balance: (e) => seen[name].push(`balance ${e.uid}`),
    });
    const ledger = hub.source();
    const feed = hub.source();
    ledger.setEventSink(mk('ledger'));
    feed.setEventSink(mk('feed'));
    ledger.watchUser('u1', true);
    feed.watchUser('u1', true);
    feed.watchUser('bot', true);
    feed.watchSymbol('BTC-USDT', true);
    feed.watchUser('u1', true); // twice: still one reference
    assert.deepEqual([...c.users].sort(), ['bot', 'u1']);
    hub.balance(balance('u1'));
    hub.order(order('bot'));
    hub.level(level('BTC-USDT'));
    hub.trade(trade('ETH-USDT'));
    assert.deepEqual(seen, { ledger: ['balance u1'], feed: ['balance u1', 'order bot', 'level BTC-USDT'] });
    // the feed lets go of u1: the ledger still watches it
    feed.watchUser('u1', false);
    assert.ok(c.users.has('u1'));
    ledger.watchUser('u1', false);
    assert.ok(!c.users.has('u1'));
    feed.setEventSink(null);
    hub.order(order('bot'));
    assert.deepEqual(seen.feed, ['balance u1', 'order bot', 'level BTC-USDT']);
  });
});
