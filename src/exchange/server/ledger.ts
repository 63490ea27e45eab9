/**
 * Account ledgers of the sandbox (GET /api/v1/accounts/ledgers, GET /api/v1/hf/accounts/ledgers):
 * {@link LedgerBook} keeps, per watched user, one entry per change of an account's BALANCE (holds
 * alone are not ledger entries, as on KuCoin), in execution order, each with KuCoin's `bizType`:
 * DEPOSIT, WITHDRAW, TRANSFER, TRADE_EXCHANGE (fee of the fill in `fee`), OTHER. Entries come from
 * the exchange core's balance events (docs/events.md `BalanceEvent`, `relationEvent`), recorded inside the
 * command that causes them; ids count up from 1 in that order, so a replay of the journal rebuilds
 * the same ledger with the same ids. The book is plain data (`export`/`import`) and streams as
 * snapshot records (`exportRecords`/`importRecords`, the snapshot section `ledger`). Only users with an
 * API key of their own are watched (never the simulation bots nor the seeded liquidity), so market
 * activity costs no ledger memory.
 *
 * Retention (cost follows live state, not history): entries older than
 * {@link LEDGER_RETENTION_MS} — the spec's 3 × 24 h history window, like fills and done orders; KuCoin
 * itself keeps a year — are dropped by {@link LedgerBook.prune} (SandboxState runs it with the server's
 * other history, every 10 minutes of command clock) and when the user's next entry arrives, and the
 * queries (history.ts) never list them; beyond {@link MAX_LEDGER_ENTRIES_PER_USER} per user the oldest go
 * as new ones arrive.
 */
import * as D from '../../api/decimal';
import type * as S from '../../api/schemas';
import { HISTORY_WINDOW_MS, type BalanceEvent, type OrderEvent } from '../core';

/** How long ledger entries are kept (ms): the spec's 3 × 24 h history window (sandbox choice; KuCoin keeps a year). */
export const LEDGER_RETENTION_MS = HISTORY_WINDOW_MS;

/** Entries per snapshot record (a record stays small: about 64 KB). */
const ENTRIES_PER_RECORD = 256;

/**
 * Entries kept per user at most (the oldest go first, a tenth at a time): bounds the memory of a user
 * whose bot trades all day (two entries per fill). Sandbox choice.
 */
export const MAX_LEDGER_ENTRIES_PER_USER = 200_000;

/** KuCoin ledger business types the sandbox produces. */
export type LedgerBizType = 'DEPOSIT' | 'WITHDRAW' | 'TRANSFER' | 'TRADE_EXCHANGE' | 'OTHER';

/** One ledger entry as plain data (amounts are positive decimal strings; `direction` gives the sign). */
export interface LedgerRecord {
  /** Counts up from 1 over all users, in execution order. */
  id: number;
  uid: string;
  currency: string;
  accountType: S.AccountType;
  /** |change of the balance|. */
  amount: string;
  /** Fee charged with this change ('0' when none): trade fee of a fill, withdrawal fee. */
  fee: string;
  /** Balance after the change. */
  balance: string;
  bizType: LedgerBizType;
  direction: 'in' | 'out';
  /** ms */
  createdAt: number;
  /** JSON text with the related ids (`{"symbol","orderId","tradeId"}` for trades, `{"withdrawalId"}`, `{"orderId"}` for transfers) or ''. */
  context: string;
}

/** The plain-data form of a {@link LedgerBook}. */
export interface LedgerBookExport {
  version: 1;
  nextId: number;
  entries: LedgerRecord[];
}

/** Per-user ledger entries (see module docstring). */
export class LedgerBook {
  private nextId = 1;
  private readonly byUser = new Map<string, LedgerRecord[]>();

  /** Append one entry (its id is assigned here); drops that user's entries older than the retention. */
  record(e: Omit<LedgerRecord, 'id'>): LedgerRecord {
    const rec: LedgerRecord = { id: this.nextId++, ...e };
    let list = this.byUser.get(e.uid);
    if (list === undefined) this.byUser.set(e.uid, (list = []));
    list.push(rec);
    const horizon = e.createdAt - LEDGER_RETENTION_MS;
    if (list[0].createdAt < horizon) {
      let k = 0;
      while (k < list.length && list[k].createdAt < horizon) k++;
      list.splice(0, k);
    }
    if (list.length > MAX_LEDGER_ENTRIES_PER_USER) list.splice(0, list.length - MAX_LEDGER_ENTRIES_PER_USER + MAX_LEDGER_ENTRIES_PER_USER / 10);
    return rec;
  }

  /**
   * Drop every entry older than `cutoff` (ms), of every user (the retention, see module docstring).
   * @returns how many entries were dropped.
   */
  prune(cutoff: number): number {
    let n = 0;
    for (const [uid, list] of this.byUser) {
      let k = 0;
      while (k < list.length && list[k].createdAt < cutoff) k++;
      if (k === 0) continue;
      n += k;
      if (k === list.length) this.byUser.delete(uid);
      else list.splice(0, k);
    }
    return n;
  }

  /** The entries of `uid`, oldest first (read-only view). */
  entriesOf(uid: string): readonly LedgerRecord[] {
    return this.byUser.get(uid) ?? [];
  }

  /** Plain-data copy (for snapshots). */
  export(): LedgerBookExport {
    const entries: LedgerRecord[] = [];
    for (const list of this.byUser.values()) for (const e of list) entries.push({ ...e });
    entries.sort((a, b) => a.id - b.id);
    return { version: 1, nextId: this.nextId, entries };
  }

  /**
   * The book as snapshot records (section `ledger`), streamed: `{k: 'meta', nextId}`, then
   * `{k: 'entries', uid, list}` blocks of at most 256 of one user's entries, oldest first. Changes nothing.
   */
  *exportRecords(): Generator<LedgerSnapshotRecord> {
    yield { k: 'meta', nextId: this.nextId };
    for (const [uid, list] of this.byUser) {
      for (let i = 0; i < list.length; i += ENTRIES_PER_RECORD) {
        yield { k: 'entries', uid, list: list.slice(i, i + ENTRIES_PER_RECORD).map(entryRow) };
      }
    }
  }

  /**
   * Restore {@link exportRecords}' records into this (empty) book.
   * @throws Error on a record of an unknown kind, a missing meta record, or entries out of id order.
   */
  importRecords(records: Iterable<unknown>): void {
    let meta = false;
    for (const rec of records) {
      const r = rec as LedgerSnapshotRecord;
      if (r.k === 'meta') {
        this.nextId = r.nextId;
        meta = true;
      } else if (r.k === 'entries') {
        let list = this.byUser.get(r.uid);
        if (list === undefined) this.byUser.set(r.uid, (list = []));
        for (const row of r.list) {
          const e = entryOf(r.uid, row);
          if (e.id >= this.nextId || (list.length > 0 && list[list.length - 1].id >= e.id)) throw new Error(`snapshot: ledger entry ${e.id} of ${r.uid} out of order`);
          list.push(e);
        }
      } else {
        throw new Error(`snapshot: unknown record ${String((r as { k: unknown }).k)} of section ledger`);
      }
    }
    if (!meta) throw new Error('snapshot: the ledger section has no meta record');
  }

  /** Rebuild from {@link export}'s data. @throws Error on an unknown version. */
  static import(data: LedgerBookExport): LedgerBook {
    if (data.version !== 1) throw new Error(`ledger export version ${String(data.version)} is not supported`);
    const book = new LedgerBook();
    book.nextId = data.nextId;
    for (const e of data.entries) {
      let list = book.byUser.get(e.uid);
      if (list === undefined) book.byUser.set(e.uid, (list = []));
      list.push({ ...e });
    }
    return book;
  }
}

/**
 * One ledger entry in a snapshot: [id, currency, accountType, amount, fee, balance, bizType, direction,
 * createdAt, context] (the uid is the record's).
 */
export type LedgerEntryRow = [number, string, S.AccountType, string, string, string, LedgerBizType, 'in' | 'out', number, string];

/** A record of the snapshot section `ledger` (see {@link LedgerBook.exportRecords}). */
export type LedgerSnapshotRecord = { k: 'meta'; nextId: number } | { k: 'entries'; uid: string; list: LedgerEntryRow[] };

function entryRow(e: LedgerRecord): LedgerEntryRow {
  return [e.id, e.currency, e.accountType, e.amount, e.fee, e.balance, e.bizType, e.direction, e.createdAt, e.context];
}

function entryOf(uid: string, r: LedgerEntryRow): LedgerRecord {
  const [id, currency, accountType, amount, fee, balance, bizType, direction, createdAt, context] = r;
  return { id, uid, currency, accountType, amount, fee, balance, bizType, direction, createdAt, context };
}

/** What the recorder reads of the core's order events (docs/events.md `OrderEvent`). */
export type LedgerOrderEvent = Pick<OrderEvent, 'uid' | 'orderId'> & { match?: Pick<NonNullable<OrderEvent['match']>, 'tradeId' | 'fee' | 'feeCurrency'> };

/** What the recorder reads of the core's balance events (docs/events.md `BalanceEvent`). */
export type LedgerBalanceEvent = Pick<
  BalanceEvent,
  'uid' | 'currency' | 'accountType' | 'total' | 'availableChange' | 'holdChange' | 'relationEvent' | 'relationEventId' | 'relationContext' | 'time'
>;

/** What the command that caused the events says about them (the server's own records). */
export interface LedgerCommandInfo {
  /** `deposit`: its depositId. */
  depositId?: string;
  /** `transfer`: the transfer's orderId. */
  transferId?: string;
  /** `withdrawal.settle`: the withdrawal and its fee. */
  withdrawal?: { withdrawalId: string; fee: string };
}

/**
 * Turns the core's events of ONE command into ledger entries: order `match` events give each fill's
 * fee (by order id and trade id), balance events whose BALANCE changed give one entry each
 * (hold-only changes — order holds, withdrawal holds and their release — give none):
 * - `trade.setted` → TRADE_EXCHANGE, `fee` = the fill's fee on the account in the fee currency,
 *   context `{"symbol","orderId","tradeId"}` (KuCoin's form);
 * - `main.deposit` → DEPOSIT (context `{"depositId"}` for a deposit, '' for an admin credit);
 * - `main.transfer` / `trade.transfer` → TRANSFER (context `{"orderId"}` of the transfer);
 * - `main.withdraw_done` → WITHDRAW, `fee` = the withdrawal's fee (context `{"withdrawalId"}`);
 * - any other balance change → OTHER.
 * Events are buffered while the command runs ({@link order}, {@link balance}) and recorded by
 * {@link flush}, after the command succeeded; {@link discard} drops them when it failed.
 */
export class LedgerRecorder {
  private orders: LedgerOrderEvent[] = [];
  private balances: LedgerBalanceEvent[] = [];

  constructor(private readonly book: LedgerBook) {}

  /** Buffer an order event (only `match` events matter). */
  order(e: LedgerOrderEvent): void {
    if (e.match !== undefined) this.orders.push(e);
  }

  /** Buffer a balance event. */
  balance(e: LedgerBalanceEvent): void {
    this.balances.push(e);
  }

  /** Drop the buffered events (the command failed). */
  discard(): void {
    this.orders = [];
    this.balances = [];
  }

  /** Record the buffered events of the command that just succeeded. */
  flush(info: LedgerCommandInfo): void {
    const fees = new Map<string, { fee: string; feeCurrency: string }>();
    for (const o of this.orders) if (o.match) fees.set(`${o.orderId}:${o.match.tradeId}`, { fee: o.match.fee, feeCurrency: o.match.feeCurrency });
    for (const b of this.balances) {
      const change = D.add(b.availableChange, b.holdChange);
      if (D.isZero(change)) continue;
      let bizType: LedgerBizType = 'OTHER';
      let fee = '0';
      let context = '';
      switch (b.relationEvent) {
        case 'trade.setted': {
          bizType = 'TRADE_EXCHANGE';
          const c = b.relationContext ?? {};
          const f = fees.get(`${c.orderId ?? b.relationEventId}:${c.tradeId ?? ''}`);
          if (f && f.feeCurrency === b.currency) fee = f.fee;
          context = JSON.stringify({ symbol: c.symbol ?? '', orderId: c.orderId ?? b.relationEventId, tradeId: c.tradeId ?? '' });
          break;
        }
        case 'main.deposit':
          bizType = 'DEPOSIT';
          context = info.depositId !== undefined ? JSON.stringify({ depositId: info.depositId }) : '';
          break;
        case 'main.transfer':
        case 'trade.transfer':
          bizType = 'TRANSFER';
          context = info.transferId !== undefined ? JSON.stringify({ orderId: info.transferId }) : '';
          break;
        case 'main.withdraw_done':
          bizType = 'WITHDRAW';
          if (info.withdrawal) {
            fee = info.withdrawal.fee;
            context = JSON.stringify({ withdrawalId: info.withdrawal.withdrawalId });
          }
          break;
      }
      this.book.record({
        uid: b.uid,
        currency: b.currency,
        accountType: b.accountType,
        amount: D.isNegative(change) ? D.sub('0', change) : change,
        fee,
        balance: b.total,
        bizType,
        direction: D.isNegative(change) ? 'out' : 'in',
        createdAt: b.time,
        context,
      });
    }
    this.discard();
  }
}
