/**
 * The sandbox's commands of stop and OCO orders (KuCoin /api/v1/stop-order and /api/v3/oco): their journal
 * form and how one is applied to the exchange core (its StopBook part, `Exchange.advanced`). Like every
 * command (state.ts `Command`), each is deterministic given the state, its `t` and its args, so the journal
 * replays it exactly; the stops that fire inside later `order.place` commands need no command of their own.
 *
 * Ops:
 * - `stop.place` {uid, req} → {orderId, clientOid};
 * - `stop.cancel` {uid, orderId} → the cancelled ids (an OCO leg's id: both legs);
 * - `stop.cancelByClientOid` {uid, clientOid, symbol?} → {cancelledOrderId, clientOid};
 * - `stop.cancelBatch` {uid, symbol?, orderIds?} → the cancelled ids;
 * - `oco.place` {uid, req} → {orderId};
 * - `oco.cancel` {uid, orderId}, `oco.cancelByClientOid` {uid, clientOid}, `oco.cancelBatch` {uid, symbol?,
 *   orderIds?} → the cancelled legs' ids.
 */
import type * as S from '../../../api/schemas';
import type { Exchange } from '../../core';

/** A stop or OCO command (`t`: the clock in ms at which it ran). */
export type AdvancedCommand =
  | { op: 'stop.place'; t: number; args: { uid: string; req: S.StopOrderRequest } }
  | { op: 'stop.cancel'; t: number; args: { uid: string; orderId: string } }
  | { op: 'stop.cancelByClientOid'; t: number; args: { uid: string; clientOid: string; symbol?: string } }
  | { op: 'stop.cancelBatch'; t: number; args: { uid: string; symbol?: string; orderIds?: string[] } }
  | { op: 'oco.place'; t: number; args: { uid: string; req: S.OcoOrderRequest } }
  | { op: 'oco.cancel'; t: number; args: { uid: string; orderId: string } }
  | { op: 'oco.cancelByClientOid'; t: number; args: { uid: string; clientOid: string } }
  | { op: 'oco.cancelBatch'; t: number; args: { uid: string; symbol?: string; orderIds?: string[] } };

/** What each op returns. */
export interface AdvancedResults {
  'stop.place': { orderId: string; clientOid: string };
  'stop.cancel': string[];
  'stop.cancelByClientOid': { cancelledOrderId: string; clientOid: string };
  'stop.cancelBatch': string[];
  'oco.place': { orderId: string };
  'oco.cancel': string[];
  'oco.cancelByClientOid': string[];
  'oco.cancelBatch': string[];
}

const OPS: ReadonlySet<string> = new Set<keyof AdvancedResults>(['stop.place', 'stop.cancel', 'stop.cancelByClientOid', 'stop.cancelBatch', 'oco.place', 'oco.cancel', 'oco.cancelByClientOid', 'oco.cancelBatch']);

/** True when `cmd` is one of this module's commands. */
export function isAdvancedCommand<C extends { op: string }>(cmd: C | AdvancedCommand): cmd is AdvancedCommand {
  return OPS.has(cmd.op);
}

/**
 * Apply a stop or OCO command to the core. @returns the op's result.
 * @throws ExchangeError (nothing changed) as the StopBook methods say.
 */
export function applyAdvanced(ex: Exchange, cmd: AdvancedCommand): AdvancedResults[keyof AdvancedResults] {
  const a = ex.advanced;
  switch (cmd.op) {
    case 'stop.place':
      return a.place(cmd.args.uid, cmd.args.req);
    case 'stop.cancel':
      return a.cancel(cmd.args.uid, cmd.args.orderId);
    case 'stop.cancelByClientOid':
      return a.cancelByClientOid(cmd.args.uid, cmd.args.clientOid, cmd.args.symbol);
    case 'stop.cancelBatch':
      return a.cancelBatch(cmd.args.uid, { ...(cmd.args.symbol !== undefined ? { symbol: cmd.args.symbol } : {}), ...(cmd.args.orderIds !== undefined ? { orderIds: cmd.args.orderIds } : {}) });
    case 'oco.place':
      return a.placeOco(cmd.args.uid, cmd.args.req);
    case 'oco.cancel':
      return a.cancelOco(cmd.args.uid, cmd.args.orderId);
    case 'oco.cancelByClientOid':
      return a.cancelOcoByClientOid(cmd.args.uid, cmd.args.clientOid);
    case 'oco.cancelBatch':
      return a.cancelOcoBatch(cmd.args.uid, { ...(cmd.args.symbol !== undefined ? { symbol: cmd.args.symbol } : {}), ...(cmd.args.orderIds !== undefined ? { orderIds: cmd.args.orderIds } : {}) });
  }
}
