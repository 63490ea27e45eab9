/**
 * The exec loop: the one way the sandbox's state changes. A command runs as
 *
 *   advance the engine to `t` (GTT expiry) → apply (validate and change, in memory, deterministic; on error
 *   nothing changed) → the account ledgers take the command's balance events → prune history when the clock
 *   entered a new 10-minute interval → journal.append(cmd) (unless replaying) → listeners.
 *
 * Replay applies journaled commands the same way without appending them again. `t` is the clock of the
 * command (never before the last one's); the engine reads it as "now" while the command runs (clock.ts).
 */
import type { Exchange } from '../core';
import type { SandboxClock } from './clock';
import type { Command, CommandArgs, CommandOp, CommandResult, JournalLike } from './commands';
import type { LedgerCommandInfo, LedgerRecorder } from './ledger';
import type { WithdrawalRecord } from './records';

/** The server's history is pruned when the command clock enters a new interval of this length (ms). */
export const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** What the loop drives. */
export interface ExecParts {
  readonly clock: SandboxClock;
  readonly exchange: Exchange;
  /** the account ledgers' recorder: flushed after a command succeeded, discarded when it threw */
  readonly recorder: LedgerRecorder;
  /** the withdrawals, for what a `withdrawal.settle` tells the ledger */
  readonly withdrawals: ReadonlyMap<string, WithdrawalRecord>;
  /** Validate and apply one command at `t`. @throws (nothing changed) */
  apply(cmd: Command, t: number, replaying: boolean): unknown;
  /** Drop the history older than the window at clock `t`. */
  prune(t: number): void;
}

/** Executes, journals and replays commands. */
export class CommandLoop {
  /** The 10-minute interval of the command clock in which the server's history was last pruned (snapshot `state` section). */
  pruneBucket = 0;
  private journal: JournalLike | null = null;
  private replayingNow = false;
  /** Listeners told after every successful command (e.g. tickers cache, tests). */
  private readonly listeners: Array<(cmd: Command, result: unknown) => void> = [];

  constructor(private readonly p: ExecParts) {}

  /** True while a journaled command is replayed. */
  get replaying(): boolean {
    return this.replayingNow;
  }

  /** Attach the durable journal; subsequent successful `exec` calls append to it. */
  attachJournal(journal: JournalLike): void {
    this.journal = journal;
  }

  /** Subscribe to successful commands (called after journaling). Returns an unsubscribe function. */
  onCommand(fn: (cmd: Command, result: unknown) => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /**
   * Apply one journaled command without appending it again (a start streams a journal through this); a
   * command that fails is skipped and reported in `warnings` as command #`index`.
   */
  replayCommand(cmd: Command, index: number, warnings: string[]): void {
    this.replayingNow = true;
    try {
      this.exec(cmd);
    } catch (e) {
      warnings.push(`journal command #${index} (${cmd.op}) failed on replay: ${(e as Error).message}`);
    } finally {
      this.replayingNow = false;
    }
    const clock = this.p.clock;
    if (clock.manual && clock.lastT > clock.manualNow) clock.manualNow = clock.lastT;
  }

  /** Shorthand: build `{op, t: now(), args}` and exec it; returns the op's typed result. */
  run<O extends CommandOp>(op: O, args: CommandArgs<O>): CommandResult<O> {
    // `{op, args}` of one O is a Command and apply() answers that op with CommandResults[O]; the
    // compiler cannot correlate a generic O across the union, hence these two assertions.
    return this.exec({ op, t: this.p.clock.now(), args } as Command) as CommandResult<O>;
  }

  /**
   * Apply one command. Throws ExchangeError / SandboxError (nothing changed) or returns the op's
   * result. On success, appends it to the journal (unless replaying) and notifies listeners.
   */
  exec(cmd: Command): unknown {
    const clock = this.p.clock;
    const t = Math.max(cmd.t, clock.lastT);
    clock.execT = t;
    let result: unknown;
    try {
      this.p.exchange.advanceTo(t);
      result = this.p.apply(cmd, t, this.replayingNow);
      this.p.recorder.flush(ledgerInfo(cmd, result, this.p.withdrawals));
    } catch (e) {
      this.p.recorder.discard();
      throw e;
    } finally {
      clock.execT = null;
    }
    // the clock a `clock.set` moved to counts at once (its own `t` is the time it was sent at)
    const at = cmd.op === 'clock.set' ? Math.max(t, clock.manualNow) : t;
    if (Math.floor(at / PRUNE_EVERY_MS) > this.pruneBucket) {
      this.pruneBucket = Math.floor(at / PRUNE_EVERY_MS);
      this.p.prune(at);
    }
    clock.lastT = t;
    if (!this.replayingNow && this.journal) this.journal.append(cmd);
    for (const l of this.listeners) l(cmd, result);
    return result;
  }

  /** Bring time-driven engine state (GTT expiry) up to now before a read. Deterministic, so not journaled. */
  syncClock(): void {
    const clock = this.p.clock;
    const t = Math.max(clock.now(), clock.lastT);
    clock.execT = t;
    try {
      this.p.exchange.advanceTo(t);
    } finally {
      clock.execT = null;
    }
  }
}

/** What a successful command tells the ledger about the balance events it caused. */
function ledgerInfo(cmd: Command, result: unknown, withdrawals: ReadonlyMap<string, WithdrawalRecord>): LedgerCommandInfo {
  switch (cmd.op) {
    case 'deposit':
      return { depositId: cmd.args.depositId };
    case 'transfer':
      return { transferId: (result as { orderId: string }).orderId };
    case 'withdrawal.settle': {
      const w = withdrawals.get(cmd.args.withdrawalId);
      return w ? { withdrawal: { withdrawalId: w.withdrawalId, fee: w.fee } } : {};
    }
    default:
      return {};
  }
}
