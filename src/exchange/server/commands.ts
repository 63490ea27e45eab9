/**
 * The sandbox's command language: every journaled command type (`Command`), what each returns
 * (`CommandResults`) and the journal interface. The single source of truth of what the journal holds and
 * replay applies (journal.ts, exec.ts); the handlers live with their aggregate (users/, funding/, orders/,
 * market/, adminCommands.ts).
 */
import type * as S from '../../api/schemas';
import type { PlaceOrderResult } from '../core';
import type { MarketBatchArgs, MarketBatchResult, MarketHistoryArgs, MarketHistoryResult } from './market/commands';
import type { AdvancedCommand, AdvancedResults } from './orders/advancedCommands';
import type { MirrorCommand, MirrorResults } from './mirror/commands';
import type { OrderCommand, OrderCommandResults } from './orders/commands';
import type { BalanceGrant, DepositAddressRecord, DepositRecord, FavoriteAddress, UserRecord, WithdrawalRecord } from './records';

/**
 * The sandbox's command language. Each command = `{op, t, args}` where `t` is the clock (ms) at which
 * it was executed. Every op is deterministic given (state, t, args). Ops:
 *
 * - `world.seed` {seed}: seed the initial books (liquidity user `uid 100000000` + resting orders).
 *   Executed once on the first start of a state dir.
 * - `user.create` {apiKey, apiSecret, apiPassphrase, keyVersion, permissions, balances?, takerFeeRate?,
 *   makerFeeRate?, isDefault?, label?} → UserRecord. uid assigned from a counter (deterministic).
 * - `fees.set` {uid, takerFeeRate, makerFeeRate}.
 * - `funds.grant` {uid, currency, type, amount}: admin credit (deposit to main, moved to trade if asked).
 * - `deposit` {uid, currency, chainId, amount, depositId}: credit main, recorded as a deposit.
 * - `transfer` {uid, clientOid, currency, from, to, amount} → {orderId}: inner transfer main↔trade.
 * - `order.place` {uid, req (PlaceOrderRequest wire fields)} → {orderId, clientOid}.
 * - `order.cancel` {uid, symbol, orderId} → {orderId}.
 * - `order.cancelAll` {uid, symbol} → {succeedList, failedList}.
 * - `withdrawal.create` {withdrawalId, uid, version, currency, chainId, withdrawType, toAddress, memo,
 *   isInner, remark, amount, feeDeductType?} → WithdrawalRecord (fee computed here; amount held in main).
 * - `withdrawal.settle` {withdrawalId}; `withdrawal.release` {withdrawalId, reason}.
 * - `withdrawal.cancel` {uid, withdrawalId} → WithdrawalRecord: the user cancels a PROCESSING
 *   withdrawal (DELETE /api/v1/withdrawals/{withdrawalId}); the hold is released, status FAILURE.
 * - `order.cancelByClientOid` {uid, symbol, clientOid} → {clientOid}.
 * - `order.alter` {uid, symbol, orderId | clientOid, newPrice?, newSize?} → {newOrderId, clientOid} (Exchange.alterOrder).
 * - `order.cancelPartial` {uid, symbol, orderId, cancelSize} → {orderId, cancelSize} (Exchange.cancelPartial).
 * - `order.cancelAllSymbols` {uid} → {succeedSymbols, failedSymbols, cancelledOrderIds}: every active order of
 *   every symbol (orders/hf.ts, orders/classic.ts).
 * - `order.deadCancel` {uid, timeout, symbols} → {currentTime, triggerTime} (Exchange.setDeadCancel).
 * - `depositAddress.create` {uid, currency, chainId, to, address, memo} → DepositAddressRecord.
 * - `status.set` {status, msg}.
 * - `whitelist.set` {uid, enabled, favorites}.
 * - `clock.set` {now}: manual clock moves to `now` (≥ current); `t` equals `now`.
 * - `market.batch` {u, s, a}: one step of the market simulation's bot orders (market/batch.ts).
 * - `market.history` {seed, profile, from, to}: a fresh state's past market (market/history.ts).
 */
export type Command =
  | { op: 'world.seed'; t: number; args: { seed: number } }
  | {
      op: 'user.create';
      t: number;
      args: {
        apiKey: string;
        apiSecret: string;
        apiPassphrase: string;
        keyVersion: S.KeyVersion;
        permissions: S.KeyPermission[];
        balances?: BalanceGrant[];
        takerFeeRate?: string;
        makerFeeRate?: string;
        isDefault?: boolean;
        label?: string;
      };
    }
  | { op: 'fees.set'; t: number; args: { uid: string; takerFeeRate: string; makerFeeRate: string } }
  | { op: 'funds.grant'; t: number; args: { uid: string } & BalanceGrant }
  | { op: 'deposit'; t: number; args: { uid: string; currency: string; chainId: string; amount: string; depositId: string } }
  | {
      op: 'transfer';
      t: number;
      args: { uid: string; clientOid: string; currency: string; from: S.AccountType; to: S.AccountType; amount: string };
    }
  | { op: 'order.place'; t: number; args: { uid: string; req: S.PlaceOrderRequest } }
  | { op: 'order.cancel'; t: number; args: { uid: string; symbol: string; orderId: string } }
  | { op: 'order.cancelAll'; t: number; args: { uid: string; symbol: string } }
  | { op: 'order.cancelByClientOid'; t: number; args: { uid: string; symbol: string; clientOid: string } }
  | (OrderCommand & { t: number })
  | {
      op: 'withdrawal.create';
      t: number;
      /** the request; fee, totals and status are derived from it when applied (replay included) */
      args: Pick<
        WithdrawalRecord,
        'withdrawalId' | 'uid' | 'version' | 'currency' | 'chainId' | 'withdrawType' | 'toAddress' | 'memo' | 'isInner' | 'remark' | 'amount'
      > &
        Partial<Pick<WithdrawalRecord, 'feeDeductType'>>;
    }
  | { op: 'withdrawal.settle'; t: number; args: { withdrawalId: string } }
  | { op: 'withdrawal.release'; t: number; args: { withdrawalId: string; reason: string } }
  | { op: 'withdrawal.cancel'; t: number; args: { uid: string; withdrawalId: string } }
  | {
      op: 'depositAddress.create';
      t: number;
      args: { uid: string; currency: string; chainId: string; to: 'MAIN' | 'TRADE'; address: string; memo: string };
    }
  | { op: 'status.set'; t: number; args: S.ServiceStatus }
  | { op: 'whitelist.set'; t: number; args: { uid: string; enabled: boolean; favorites: FavoriteAddress[] } }
  | { op: 'clock.set'; t: number; args: { now: number } }
  | { op: 'market.batch'; t: number; args: MarketBatchArgs }
  | { op: 'market.history'; t: number; args: MarketHistoryArgs }
  /** stop and OCO orders: orders/advancedCommands.ts */
  | AdvancedCommand
  /** the mirror market's upstream levels, prints and candles: mirror/commands.ts */
  | MirrorCommand;

/** Names of all ops. */
export type CommandOp = Command['op'];
/** Args type of an op. */
export type CommandArgs<O extends CommandOp> = Extract<Command, { op: O }>['args'];

/** What `SandboxState.exec` (state.ts) returns for each op (the op list in {@link Command}'s docstring). */
export interface CommandResults extends AdvancedResults, OrderCommandResults, MirrorResults {
  'world.seed': { orders: number };
  'user.create': UserRecord;
  'fees.set': null;
  'funds.grant': null;
  deposit: DepositRecord;
  transfer: { orderId: string };
  'order.place': PlaceOrderResult;
  'order.cancel': { orderId: string };
  'order.cancelAll': string[];
  'order.cancelByClientOid': { clientOid: string };
  'withdrawal.create': WithdrawalRecord;
  'withdrawal.settle': WithdrawalRecord;
  'withdrawal.release': WithdrawalRecord;
  'withdrawal.cancel': WithdrawalRecord;
  'depositAddress.create': DepositAddressRecord;
  'status.set': S.ServiceStatus;
  'whitelist.set': UserRecord['whitelist'];
  'clock.set': { now: number };
  'market.batch': MarketBatchResult;
  'market.history': MarketHistoryResult;
}
/** Result type of an op. */
export type CommandResult<O extends CommandOp> = CommandResults[O];

/** The journal interface part B implements (src/exchange/server/journal.ts). */
export interface JournalLike {
  /** Synchronously persist one command (called after it executed successfully). */
  append(cmd: Command): void;
  close?(): void;
}

/** An in-memory journal (used when no state dir is given, and until a real journal is attached). */
export class MemoryJournal implements JournalLike {
  readonly commands: Command[] = [];
  /** Keep a structured copy (commands are plain JSON). */
  append(cmd: Command): void {
    this.commands.push(JSON.parse(JSON.stringify(cmd)) as Command);
  }
  close(): void {}
}
