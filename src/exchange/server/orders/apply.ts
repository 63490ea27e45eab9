/**
 * The orders aggregate's command handler: every order op of the command union (commands.ts) — the plain HF
 * place / cancel ops, the HF variants (commands.ts of this folder) and stop / OCO orders
 * (advancedCommands.ts) — applied to the exchange core by the exec loop (exec.ts). Each op is one engine
 * call, so replaying the journal (same args, same `t`) rebuilds the same orders and holds.
 */
import type { Exchange } from '../../core';
import type { Command, CommandOp, CommandResults } from '../commands';
import type { UserDirectory } from '../users/commands';
import { applyAdvanced, isAdvancedCommand, type AdvancedCommand } from './advancedCommands';
import { applyOrderCommand } from './commands';

/** The order ops (the ones {@link isOrderCommand} accepts). */
export type OrderOpCommand =
  | Extract<Command, { op: 'order.place' | 'order.cancel' | 'order.cancelAll' | 'order.cancelByClientOid' | 'order.alter' | 'order.cancelPartial' | 'order.cancelAllSymbols' | 'order.deadCancel' }>
  | AdvancedCommand;

/** True for the ops of this aggregate: `order.*`, `stop.*`, `oco.*`. */
export function isOrderCommand(cmd: Command): cmd is OrderOpCommand {
  return cmd.op.startsWith('order.') || isAdvancedCommand(cmd);
}

/**
 * Apply an order op. The `order.*` ops need an existing user; stop / OCO ops leave that check to the core.
 * @throws SandboxError 400100 unknown uid; ExchangeError as the engine call (nothing changed either way).
 */
export function applyOrderOp(ex: Exchange, users: UserDirectory, cmd: OrderOpCommand): CommandResults[CommandOp] {
  if (isAdvancedCommand(cmd)) return applyAdvanced(ex, cmd);
  users.require(cmd.args.uid);
  switch (cmd.op) {
    case 'order.place':
      return ex.placeOrder(cmd.args.uid, cmd.args.req);
    case 'order.cancel':
      return ex.cancelOrder(cmd.args.uid, cmd.args.symbol, cmd.args.orderId);
    case 'order.cancelAll':
      return ex.cancelAll(cmd.args.uid, cmd.args.symbol);
    case 'order.cancelByClientOid':
      return ex.cancelOrderByClientOid(cmd.args.uid, cmd.args.symbol, cmd.args.clientOid);
    default:
      return applyOrderCommand(ex, cmd);
  }
}
