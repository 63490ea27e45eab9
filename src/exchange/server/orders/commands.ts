/**
 * The sandbox commands of the HF order variants (journaled and replayed like every command of
 * SandboxState.exec, src/exchange/server/state.ts): modify, partial cancel, cancel-all over every symbol
 * and the dead-man's switch. Each is one call of the exchange core, so replaying the journal (same args,
 * same `t`) rebuilds the same orders, holds and switches.
 */
import type { Exchange } from '../../core';

/** The ops of this module (SandboxState's `Command` union takes them with their `t`). */
export type OrderCommand =
  | { op: 'order.alter'; args: { uid: string; symbol: string; orderId?: string; clientOid?: string; newPrice?: string; newSize?: string } }
  | { op: 'order.cancelPartial'; args: { uid: string; symbol: string; orderId: string; cancelSize: string } }
  | { op: 'order.cancelAllSymbols'; args: { uid: string } }
  | { op: 'order.deadCancel'; args: { uid: string; timeout: number; symbols: string[] } };

/** What each op returns. */
export interface OrderCommandResults {
  /** Exchange.alterOrder */
  'order.alter': { newOrderId: string | null; clientOid: string };
  /** Exchange.cancelPartial */
  'order.cancelPartial': { orderId: string; cancelSize: string };
  /** the pairs that had active orders (all cancelled), none failed; and the ids, per pair oldest first */
  'order.cancelAllSymbols': { succeedSymbols: string[]; failedSymbols: { symbol: string; error: string }[]; cancelledOrderIds: string[] };
  /** Exchange.setDeadCancel (seconds) */
  'order.deadCancel': { currentTime: number; triggerTime: number };
}

/**
 * Apply one op to the engine (the user exists: the caller checked it).
 * @throws ExchangeError as the engine call (nothing changed).
 */
export function applyOrderCommand(ex: Exchange, cmd: OrderCommand): OrderCommandResults[OrderCommand['op']] {
  const a = cmd.args;
  switch (cmd.op) {
    case 'order.alter': {
      const c = cmd.args;
      const ref = c.orderId !== undefined ? { orderId: c.orderId } : { clientOid: c.clientOid };
      return ex.alterOrder(c.uid, c.symbol, ref, { ...(c.newPrice !== undefined ? { newPrice: c.newPrice } : {}), ...(c.newSize !== undefined ? { newSize: c.newSize } : {}) });
    }
    case 'order.cancelPartial':
      return ex.cancelPartial(cmd.args.uid, cmd.args.symbol, cmd.args.orderId, cmd.args.cancelSize);
    case 'order.cancelAllSymbols': {
      const succeedSymbols: string[] = [];
      const cancelledOrderIds: string[] = [];
      for (const s of ex.symbols()) {
        const ids = ex.cancelAll(a.uid, s.symbol);
        if (ids.length === 0) continue;
        succeedSymbols.push(s.symbol);
        cancelledOrderIds.push(...ids);
      }
      return { succeedSymbols, failedSymbols: [], cancelledOrderIds };
    }
    case 'order.deadCancel':
      return ex.setDeadCancel(cmd.args.uid, cmd.args.timeout, cmd.args.symbols);
  }
}
