/**
 * The Active Orders commands of KuCoin's fuller order API (issue "The whole KuCoin spot API that bots use"):
 *
 * - **Edit Order…** (`spotdesk.editOrder`) on an active limit order: asks the new price and the new total size
 *   (prefilled with the order's, checked against the symbol's tick and lot as the person types:
 *   ./views/orderEdit.ts), confirms in the money gate's modal (a modify is a placement: KuCoin cancels the order
 *   and places a new one) and sends POST /api/v1/hf/orders/alter. The row then shows the new order id.
 * - **Cancel All Orders (Every Symbol)…** (`spotdesk.cancelAllOrders`): counts the active HF orders of every pair
 *   (GET /api/v1/hf/orders/active/symbols, then GET /api/v1/hf/orders/active of each), names the profile and the
 *   count in the money gate's modal, and sends DELETE /api/v1/hf/orders/cancelAll (marked `moves: 'cancelAll'`
 *   in src/api/endpoints.ts, so a real profile's client refuses it without that confirmation).
 * - **Cancel Order** on a stop order or OCO row ({@link cancelAdvancedOrder}, called by `spotdesk.cancelOrder`):
 *   re-reads the order (GET /api/v1/stop-order/{orderId} or GET /api/v3/oco/order/details/{orderId}), asks as
 *   the cancel of an HF order does (setting `spotdesk.confirm.cancelOrder`), then DELETE /api/v1/stop-order/{orderId}
 *   or DELETE /api/v3/oco/order/{orderId}.
 *
 * Like every money command (./commands.ts), they keep only the identity of the row they run on
 * (./commandArgs.ts) and show what the exchange says, never the row's copy; each resolves to plain data only.
 */
import * as vscode from 'vscode';
import * as D from '../../../api/decimal';
import { symbolRules } from '../../../api/orderRules';
import { triggerSign } from '../../../api/advancedOrderRules';
import { COMMANDS } from '../../../host/commandIds';
import { orderArg } from '../../../host/commandArgs';
import { guardedRegistrar } from '../../../host/guardedCommand';
import type { Services } from '../../../host/services';
import type { AccountsTree } from '../../accounts/host/accounts';
import type { OrdersTree } from './orders';
import { editPriceError, editRequest, editSizeError } from '../model/orderEdit';
import { fundsPhrase } from '../../../api/moneyWords';
import { statusText } from '../model/advancedRows';

/** The trees the commands refresh. */
export interface OrderCommandTrees {
  orders: OrdersTree;
  accounts: AccountsTree;
}

/** Whether the setting asks before a single cancel (never skips a placement or a cancel-all). */
function askBeforeCancel(): boolean {
  return vscode.workspace.getConfiguration('spotdesk').get<boolean>('confirm.cancelOrder', true) !== false;
}

/**
 * Cancel the waiting stop order or OCO order `target` (see the module docs).
 * @returns true when it was cancelled, false when the person kept it or it is no longer waiting.
 */
export async function cancelAdvancedOrder(services: Services, trees: OrderCommandTrees, target: { kind: 'stop' | 'oco'; orderId: string }): Promise<boolean> {
  const client = await services.client();
  let message: string;
  let detail: string;
  if (target.kind === 'stop') {
    const o = await client.getStopOrder(target.orderId);
    if (o.status !== 'NEW') {
      void vscode.window.showInformationMessage(`SpotDesk: stop order ${o.id} on ${o.symbol} is no longer waiting (${statusText(o.status)}).`);
      await trees.orders.refresh();
      return false;
    }
    message = `Cancel ${o.side} stop-${o.type} order on ${o.symbol}?`;
    detail = `${o.size ?? `funds ${o.funds ?? '?'}`} @ ${o.type === 'limit' ? o.price : 'market'}, trigger ${triggerSign(o.stop)} ${o.stopPrice} (${o.stop}), waiting. Stop order id ${o.id}.`;
  } else {
    const o = await client.getOcoOrderDetail(target.orderId);
    if (o.status !== 'NEW') {
      void vscode.window.showInformationMessage(`SpotDesk: OCO order ${o.orderId} on ${o.symbol} is no longer waiting (${statusText(o.status)}).`);
      await trees.orders.refresh();
      return false;
    }
    const legs = o.orders.map((l) => `${l.size} @ ${l.price} when the price reaches ${l.stopPrice}`).join('; ');
    message = `Cancel ${o.orders[0]?.side ?? ''} OCO order on ${o.symbol}?`;
    detail = `Both legs are cancelled: ${legs}. OCO order id ${o.orderId}.`;
  }
  const ask = askBeforeCancel();
  if (ask && !(await services.prompts.confirm(message, detail, 'Cancel Order', 'Keep Order'))) return false;
  if (!ask) services.log.info(`cancelling ${target.kind} order ${target.orderId} without asking (setting spotdesk.confirm.cancelOrder is off)`);
  const ids = target.kind === 'stop' ? await client.cancelStopOrder(target.orderId) : await client.cancelOcoOrder(target.orderId);
  services.log.info(`cancelled ${target.kind === 'stop' ? 'stop' : 'OCO'} order ${target.orderId} (${ids.join(', ')})`);
  await trees.orders.refresh();
  return true;
}

/** Register Edit Order… and Cancel All Orders (Every Symbol)…; returns their disposables. */
export function registerOrderCommands(services: Services, trees: OrderCommandTrees): vscode.Disposable[] {
  const reg = guardedRegistrar(services.log);
  const prompts = services.prompts;
  return [
    reg(COMMANDS.editOrder, async (row?: unknown) => {
      const target = orderArg(row) ?? orderArg(trees.orders.view?.selection[0]);
      if (!target) throw new Error('Run "Edit Order…" on an order of the Active Orders view.');
      const client = await services.client();
      // What the person edits is the order as the exchange has it (GET /api/v1/hf/orders/{orderId}).
      const o = await client.getOrder(target.symbol, target.orderId);
      if (!o.active) {
        void vscode.window.showInformationMessage(`SpotDesk: order ${o.id} on ${o.symbol} is no longer active.`);
        await trees.orders.refresh();
        return false;
      }
      if (o.type !== 'limit') throw new Error(`Order ${o.id} is a ${o.type} order: only a limit order's price and size can be modified.`);
      const info = (await services.symbols()).find((s) => s.symbol === o.symbol);
      if (!info) throw new Error(`${o.symbol} is not listed by the exchange (GET /api/v2/symbols): its tick and lot are unknown.`);
      const rules = symbolRules(info);
      const title = `Edit ${o.side.toUpperCase()} ${o.symbol} order`;
      const price = await prompts.input({
        title: `${title} (1/2)`,
        prompt: `New price in ${info.quoteCurrency} (now ${o.price}; a multiple of ${rules.priceIncrement})`,
        value: o.price,
        validateInput: (v) => editPriceError(v, rules),
      });
      if (price === undefined) return undefined;
      const priceError = editPriceError(price, rules);
      if (priceError) throw new Error(priceError);
      const size = await prompts.input({
        title: `${title} (2/2)`,
        prompt: `New total size in ${info.baseCurrency} (now ${o.size}, ${o.dealSize} filled; a multiple of ${rules.baseIncrement})`,
        value: o.size,
        validateInput: (v) => editSizeError(v, price, o, rules),
      });
      if (size === undefined) return undefined;
      const sizeError = editSizeError(size, price, o, rules);
      if (sizeError) throw new Error(sizeError);
      const change = editRequest(o, price, size);
      if (!change) {
        void vscode.window.showInformationMessage(`SpotDesk: order ${o.id} already has price ${o.price} and size ${o.size}; nothing was sent.`);
        return false;
      }
      const confirmation = await services.gate.confirm(
        'place',
        `Modify ${o.side} order on ${o.symbol}: ${o.size} @ ${o.price} → ${size.trim()} @ ${price.trim()}?`,
        [
          `Profile: ${fundsPhrase(services.profile())}.`,
          `Filled so far: ${o.dealSize} ${info.baseCurrency}; the new order is for the rest, ${D.sub(size.trim(), o.dealSize)} ${info.baseCurrency}.`,
          '',
          `This sends POST /api/v1/hf/orders/alter: the exchange cancels order ${o.id} and places a NEW order with a new id, at the back of the queue of its price level.`,
        ].join('\n'),
        'Modify Order',
        { cancel: 'Keep Order' },
      );
      if (!confirmation) return false;
      const r = await services.gate.run(confirmation, () => client.alterOrder({ symbol: o.symbol, orderId: o.id, ...change }));
      services.log.info(`modified order ${o.id} on ${o.symbol} (${JSON.stringify(change)}) → new order ${r.newOrderId ?? '(none)'}`);
      void vscode.window.setStatusBarMessage(`SpotDesk: order ${o.id} replaced by ${r.newOrderId ?? '(none)'}`, 5000);
      await Promise.all([trees.orders.refresh(), trees.accounts.refresh()]);
      return { orderId: o.id, newOrderId: r.newOrderId, ...change };
    }),

    reg(COMMANDS.cancelAllOrders, async () => {
      const client = await services.client();
      // The count shown is the exchange's: the pairs with active orders, then each pair's orders.
      const symbols = await client.getActiveOrderSymbols();
      const counts: Array<[string, number]> = [];
      for (const s of symbols) counts.push([s, (await client.getActiveOrders(s)).length]);
      const n = counts.reduce((a, [, c]) => a + c, 0);
      const profile = services.profile();
      if (n === 0) {
        void vscode.window.showInformationMessage(`SpotDesk: profile "${profile.name}" has no active orders.`);
        await trees.orders.refresh();
        return { cancelled: 0, symbols: [] };
      }
      const waiting = trees.orders.stopRows().length + trees.orders.ocoRows().length;
      const per = counts.filter(([, c]) => c > 0).map(([s, c]) => `${s} (${c})`);
      const confirmation = await services.gate.confirm(
        'cancelAll',
        `Cancel all ${n} active order${n === 1 ? '' : 's'} of profile "${profile.name}" on ${per.length} symbol${per.length === 1 ? '' : 's'}?`,
        [
          `Every active HF order of every symbol on ${fundsPhrase(profile)} is cancelled, including orders placed outside SpotDesk: ${per.join(', ')}.`,
          ...(waiting ? [`The ${waiting} waiting stop and OCO order${waiting === 1 ? '' : 's'} are not affected.`] : []),
          '',
          'This sends DELETE /api/v1/hf/orders/cancelAll.',
        ].join('\n'),
        'Cancel All Orders',
        { cancel: 'Keep Orders' },
      );
      if (!confirmation) return false;
      const r = await services.gate.run(confirmation, () => client.cancelAllOrdersOfAllSymbols());
      services.log.info(`cancelled every active order (${n}) on ${r.succeedSymbols.join(', ') || 'no symbol'}${r.failedSymbols.length ? `; failed: ${r.failedSymbols.map((f) => `${f.symbol} (${f.error})`).join(', ')}` : ''}`);
      if (r.failedSymbols.length) void vscode.window.showWarningMessage(`SpotDesk: the orders of ${r.failedSymbols.map((f) => `${f.symbol} (${f.error})`).join(', ')} could not be cancelled.`);
      await Promise.all([trees.orders.refresh(), trees.accounts.refresh()]);
      return { cancelled: n, symbols: r.succeedSymbols, failed: r.failedSymbols.map((f) => f.symbol) };
    }),
  ];
}
