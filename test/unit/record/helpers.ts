/**
 * Helpers of the record/replay suites: temp dirs, waiting for a state, driving an upstream sandbox's market with
 * real orders, and rebuilding books from recorded events.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SpotClient } from '../../../src/api/client';
import { startRecorder, type Recorder } from '../../../src/exchange/record';
import * as D from '../../../src/api/decimal';
import type { RunningSandbox } from '../../../src/exchange/server/index';
import { EventBook, type RecordedEvent } from '../../../src/exchange/server/mirror/recording';
import type { MarketEvent } from '../../../src/exchange/server/mirror/source';
import { createUser } from '../server/helpers';

/** A fresh temp dir (removed by the returned cleanup). */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Resolve once `cond()` holds (polled every 5 ms); reject after `timeoutMs` naming `what`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A funded trader of an upstream sandbox (10,000 USDT and 1 BTC in the trade account). */
export async function trader(sb: RunningSandbox): Promise<SpotClient> {
  const u = await createUser(sb, { balances: [{ currency: 'USDT', type: 'trade', amount: '10000' }, { currency: 'BTC', type: 'trade', amount: '1' }] });
  return new SpotClient({ baseUrl: sb.baseUrl, credentials: u, maxRetries: 0 });
}

let rounds = 0;

/**
 * Move the upstream's BTC-USDT market with round `i`: a resting bid and ask a few ticks off the touch (new levels
 * or bigger ones), a market buy and a market sell (trades that consume levels), and a cancel of the bid.
 */
export async function driveRound(sb: RunningSandbox, c: SpotClient, i: number, symbol = 'BTC-USDT'): Promise<void> {
  const k = `${i}-${++rounds}`;
  // the upstream's clock is manual: sign with its time, however long the test ran before
  c.setClockOffset(sb.state.now() - Date.now());
  const top = sb.state.exchange.level2(symbol, 1);
  const bid = D.sub(top.bids[0][0], D.add('0.5', D.mul('0.1', String(i % 7))));
  const ask = D.add(top.asks[0][0], D.add('0.5', D.mul('0.1', String(i % 5))));
  const b = await c.placeOrder({ symbol, side: 'buy', type: 'limit', price: D.normalize(bid), size: '0.001', clientOid: `rb${k}` });
  await c.placeOrder({ symbol, side: 'sell', type: 'limit', price: D.normalize(ask), size: '0.0012', clientOid: `ra${k}` });
  await c.placeOrder({ symbol, side: 'buy', type: 'market', size: '0.0003', clientOid: `mb${k}` });
  await c.placeOrder({ symbol, side: 'sell', type: 'market', size: '0.0002', clientOid: `ms${k}` });
  if (i % 2 === 0) await c.cancelOrder(symbol, b.orderId);
}

/** Books of every symbol rebuilt from events (snapshot + l2, KuCoin's sequence rule). */
export function booksOf(events: Iterable<MarketEvent | RecordedEvent>): Map<string, EventBook> {
  const books = new Map<string, EventBook>();
  for (const e of events) {
    if (e.type !== 'snapshot' && e.type !== 'l2') continue;
    let b = books.get(e.symbol);
    if (!b) books.set(e.symbol, (b = new EventBook()));
    b.apply(e);
  }
  return books;
}

/** Levels with canonical prices and sizes (for comparisons across formattings). */
export function canon(levels: readonly (readonly [string, string])[]): [string, string][] {
  return levels.map(([p, s]) => [D.normalize(p), D.normalize(s)]);
}

/**
 * Record `symbols` of the upstream `up` into `file` while `rounds` rounds of orders ({@link driveRound}) move
 * BTC-USDT; stop once the recorder has the upstream's current BTC-USDT sequence and every trade printed.
 * @returns the recorder and the upstream's BTC-USDT trade count before the session.
 */
export async function recordSession(
  up: RunningSandbox,
  c: SpotClient,
  file: string,
  rounds: number,
  opts: { snapshotEveryMs?: number; symbols?: string[]; during?: (rec: Recorder) => Promise<void>; afterRound?: (i: number) => Promise<void> } = {},
): Promise<{ rec: Recorder; tradesBefore: number }> {
  const SYM = 'BTC-USDT';
  const tradesBefore = up.state.exchange.trades(SYM).length;
  const rec = await startRecorder({ baseUrl: up.baseUrl, symbols: opts.symbols ?? [SYM, 'ETH-USDT'], out: file, flushMs: 20, snapshotEveryMs: opts.snapshotEveryMs ?? 0 });
  const keeper = rec.keepers.get(SYM)!;
  await waitFor(() => keeper.state === 'live', 'the recorder to sync BTC-USDT');
  for (let i = 0; i < rounds; i++) {
    await driveRound(up, c, i);
    await opts.afterRound?.(i);
  }
  if (opts.during) await opts.during(rec);
  const endSeq = BigInt(up.state.exchange.level2(SYM, 1).sequence);
  const tradesNow = up.state.exchange.trades(SYM).length;
  await waitFor(() => keeper.state === 'live' && keeper.sequence === endSeq && rec.stats.trades >= tradesNow - tradesBefore, `the recorder to reach sequence ${endSeq} and ${tradesNow - tradesBefore} trades`);
  await rec.stop('test');
  return { rec, tradesBefore };
}
