/**
 * The history a trader looks up, as the API answers it: done HF orders (GET /api/v1/hf/orders/done)
 * and the account ledgers (GET /api/v1/accounts/ledgers, GET /api/v1/hf/accounts/ledgers; the
 * entries themselves are kept by ledger.ts).
 */
import type { ParsedParamsOf, WireResponseOf } from '../../api/endpoints';
import type { LedgerRecord } from './ledger';
import { withTax } from './orders/common';
import { SandboxError, type SandboxState } from './state';

/** Filters shared by both ledger queries. */
function matches(e: LedgerRecord, q: { currency?: string[]; direction?: 'in' | 'out'; bizType?: string; startAt?: number; endAt?: number }): boolean {
  if (q.currency !== undefined && !q.currency.includes(e.currency)) return false;
  if (q.direction !== undefined && e.direction !== q.direction) return false;
  if (q.bizType !== undefined && e.bizType !== q.bizType) return false;
  if (q.startAt !== undefined && e.createdAt < q.startAt) return false;
  if (q.endAt !== undefined && e.createdAt > q.endAt) return false;
  return true;
}

/**
 * GET /api/v1/accounts/ledgers: the user's main and trade entries (accountType MAIN / TRADE),
 * newest first, filtered, one `currentPage` of `pageSize` (defaults 1 and 50). Without a time range
 * every retained entry is listed: those of the last 3 × 24 h (ledger.ts, "Retention"; sandbox choice,
 * KuCoin limits the range).
 */
export function ledgerPage(state: SandboxState, uid: string, q: ParsedParamsOf<'ledgers'>): WireResponseOf<'ledgers'> {
  const list = state.ledger.entriesOf(uid);
  const since = state.historyStart();
  const hits: LedgerRecord[] = [];
  for (let i = list.length - 1; i >= 0 && list[i].createdAt >= since; i--) if (matches(list[i], q)) hits.push(list[i]);
  const cp = q.currentPage ?? 1;
  const ps = q.pageSize ?? 50;
  const items = hits.slice((cp - 1) * ps, cp * ps).map((e) => ({
    id: String(e.id),
    currency: e.currency,
    amount: e.amount,
    fee: e.fee,
    balance: e.balance,
    accountType: e.accountType === 'main' ? 'MAIN' : 'TRADE',
    bizType: e.bizType,
    direction: e.direction,
    createdAt: e.createdAt,
    context: e.context,
  }));
  return { currentPage: cp, pageSize: ps, totalNum: hits.length, totalPage: Math.ceil(hits.length / ps), items };
}

/**
 * GET /api/v1/hf/accounts/ledgers: the user's trade-account entries (accountType TRADE_HF), newest
 * first, with id < `lastId` when given, at most `limit` (default 100), of the last 3 × 24 h. `createdAt` is sent as a digit
 * string and `tax` as "0", as KuCoin does.
 */
export function hfLedgerList(state: SandboxState, uid: string, q: ParsedParamsOf<'hfLedgers'>): WireResponseOf<'hfLedgers'> {
  const list = state.ledger.entriesOf(uid);
  const limit = q.limit ?? 100;
  const lastId = q.lastId === undefined ? Infinity : Number(q.lastId);
  const since = state.historyStart();
  const out: WireResponseOf<'hfLedgers'> = [];
  for (let i = list.length - 1; i >= 0 && out.length < limit && list[i].createdAt >= since; i--) {
    const e = list[i];
    if (e.accountType !== 'trade' || e.id >= lastId || !matches(e, q)) continue;
    out.push({
      id: String(e.id),
      currency: e.currency,
      amount: e.amount,
      fee: e.fee,
      tax: '0',
      balance: e.balance,
      accountType: 'TRADE_HF',
      bizType: e.bizType,
      direction: e.direction,
      createdAt: String(e.createdAt),
      context: e.context,
    });
  }
  return out;
}

/**
 * GET /api/v1/hf/orders/done: the user's done orders of a symbol, newest first (by lastUpdatedAt),
 * filtered by side/type and [startAt, endAt] (ms, within the last 3 × 24 h), after `lastId`, at most
 * `limit` (default 20), as the core pages them (`Exchange.doneOrders`). `lastId` of the answer = the
 * order sequence number of the last item (the counter part of its id), to pass back for the next
 * page; 0 when the page is empty. A `lastId` that is no done order of this list gives an empty page, as
 * KuCoin answers it (`lastId` 0). Every order carries `tax` "0" (the sandbox charges no tax).
 */
export function doneOrdersPage(state: SandboxState, uid: string, q: ParsedParamsOf<'doneOrders'>): WireResponseOf<'doneOrders'> {
  const items = state.exchange.doneOrders(uid, q.symbol, {
    ...(q.startAt !== undefined ? { startAt: q.startAt } : {}),
    ...(q.endAt !== undefined ? { endAt: q.endAt } : {}),
    ...(q.side !== undefined ? { side: q.side } : {}),
    ...(q.type !== undefined ? { type: q.type } : {}),
    ...(q.lastId !== undefined ? { lastId: safeLastId(q.lastId) } : {}),
    limit: q.limit ?? 20,
  });
  return { lastId: items.length ? orderSeqOf(items[items.length - 1].id) : 0, items: items.map(withTax) };
}

/** A lastId (exact digit string) as an order sequence number. @throws SandboxError 400100 beyond 2^53. */
function safeLastId(lastId: string): number {
  const n = Number(lastId);
  if (!Number.isSafeInteger(n)) throw new SandboxError('400100', `lastId: ${lastId} is not an order of this list`);
  return n;
}

/** The sequence number of a sandbox order id (its last 16 hex digits). */
function orderSeqOf(orderId: string): number {
  return parseInt(orderId.slice(-16), 16);
}
