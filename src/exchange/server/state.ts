/**
 * Sandbox state: the one place where the sandbox exchange changes.
 *
 * `SandboxState` is a facade over parts it owns: the matching engine + ledger (`Exchange` from
 * src/exchange/core), the users and their API keys (users/commands.ts), funding records (funding/commands.ts),
 * the seeded books and the market simulation (market/apply.ts), the service status and the clock
 * (adminCommands.ts, clock.ts). EVERY mutation is a {@link Command} (commands.ts) applied by
 * {@link SandboxState.exec} (the exec loop, exec.ts):
 *
 *   validate (routes) → exec(cmd) (in memory, deterministic; on error nothing changed)
 *                     → journal.append(cmd) (done inside exec, synchronously) → respond.
 *
 * Determinism: `exec` reads "now" only from `cmd.t`, and anything random (secrets, ids, addresses) is drawn by
 * the caller BEFORE exec and carried in `args`, so replaying the journal rebuilds the same state. Callers only
 * call `exec` (or `run(op, args)`, which stamps `t = now()`), never the journal. Snapshots: the core's records
 * plus every {@link StateSection} in registration order. Retention: the bots keep no history; the server's
 * history follows the 3 × 24 h window ({@link SandboxState.historyStart}). Each in full: docs/sandbox.md
 * "Sandbox state facade (`state.ts`)"; also "State and determinism" and "State dir: snapshots, journals,
 * retention, recovery".
 */
import * as S from '../../api/schemas';
import { Exchange, ExchangeError, HISTORY_WINDOW_MS, type SnapshotRecord } from '../core';
import { AdminControls } from './adminCommands';
import { SandboxClock } from './clock';
import type { Command, CommandArgs, CommandOp, CommandResult, CommandResults, JournalLike } from './commands';
import { EventHub, type EventSource } from './eventHub';
import { CommandLoop, PRUNE_EVERY_MS } from './exec';
import { Funding, type TransferRecord } from './funding/commands';
import { LedgerBook, LedgerRecorder } from './ledger';
import { MarketCommands } from './market/apply';
import { MarketTape } from './marketTape';
import { applyOrderOp, isOrderCommand } from './orders/apply';
import { LIQUIDITY_UID, type DepositAddressRecord, type DepositRecord, type InnerWithdrawalWindow, type UserRecord, type WithdrawalRecord } from './records';
import { applyMirror, isMirrorCommand, MirrorCommandError } from './mirror/commands';
import { SandboxError } from './sandboxError';
import { UserDirectory } from './users/commands';
import { World, buildWorld, ChainInfo, CurrencyInfo } from './world';

// the public surface of this module before the split: callers import these from here
export * from './commands';
export * from './records';
export { SandboxError } from './sandboxError';

/**
 * A part of the sandbox's state that snapshots carry, registered with {@link SandboxState.registerSection}.
 * Records are plain data (snapshotCodec.ts: JSON, plus typed arrays, BigInts and non-finite numbers), produced
 * and consumed one at a time so that no snapshot is ever held whole in memory. Export must not change state;
 * import runs on a state freshly constructed from the same snapshot, before any command, and must read every
 * record it is given.
 */
export interface StateSection {
  /** unique; not `core`, `meta` or `end` */
  readonly name: string;
  /** The section's state as records, in an order {@link importRecords} understands. */
  exportRecords(): Iterable<unknown>;
  /** Restore the state from its records. @throws Error when they are inconsistent. */
  importRecords(records: Iterable<unknown>): void;
}

/** Where a state is restored from: the records of a snapshot's sections, in order (snapshot.ts SnapshotReader). */
export interface SnapshotSource {
  /** the section of the next record, null at the end */
  peek(): string | null;
  /** the records of the section at hand, which must be `name` */
  section(name: string): Iterable<unknown>;
  /** skip the section at hand */
  skip(): void;
}

/** Options of {@link SandboxState}. */
export interface SandboxStateOptions {
  /** Manual clock: time only moves by `clock.set` commands (admin POST /sandbox/v1/clock). */
  manualClock?: boolean;
  /** Initial clock value (ms) for a manual clock; default Date.now() at construction. */
  startTime?: number;
  /** Wall clock used when the clock is not manual (tests may inject). Default Date.now. */
  wallClock?: () => number;
  /** Restore from a snapshot: its `core` section is read here; the rest by {@link SandboxState.importSections}. */
  snapshot?: SnapshotSource;
  /** Reference data (default `buildWorld()`, the seeded world); mirror mode passes the upstream's (mirror/world.ts). */
  world?: World;
}

/**
 * The sandbox's whole mutable state. Read methods are plain getters; mutations only via `exec`.
 */
export class SandboxState {
  readonly exchange: Exchange;
  readonly world: World;
  readonly users: Map<string, UserRecord>;
  readonly usersByKey: Map<string, UserRecord>;
  readonly withdrawals: Map<string, WithdrawalRecord>;
  readonly deposits: DepositRecord[];
  readonly depositAddresses: DepositAddressRecord[];
  readonly innerWithdrawalWindows: Map<string, InnerWithdrawalWindow>;
  readonly transfers: Map<string, TransferRecord>;
  /** Candles and recent public trades, fed by every engine trade (snapshot section `tape`; 3 × 24 h retention). */
  readonly tape = new MarketTape();
  /** Account ledgers of the users with API keys (ledger.ts), recorded from the core's balance events (snapshot section `ledger`; 3 × 24 h retention). */
  readonly ledger = new LedgerBook();
  /**
   * The one receiver of the core's events, shared by its consumers (eventHub.ts): the ledgers
   * here, the WebSocket feed through `events.source()`.
   */
  readonly events: EventHub;
  readonly manualClock: boolean;
  private readonly recorder = new LedgerRecorder(this.ledger);
  /** The ledgers' own event source: watches every user with an API key of its own (not the bots). */
  private readonly ledgerSource: EventSource;
  private readonly clock: SandboxClock;
  private readonly directory: UserDirectory;
  private readonly funding: Funding;
  private readonly market: MarketCommands;
  private readonly admin: AdminControls;
  private readonly loop: CommandLoop;
  /** Snapshot sections besides the core's, in registration order. */
  private readonly sections = new Map<string, StateSection>();

  constructor(opts: SandboxStateOptions = {}) {
    this.manualClock = opts.manualClock ?? false;
    const clock = new SandboxClock(this.manualClock, opts.wallClock ?? Date.now, opts.startTime);
    this.clock = clock;
    const now = (): number => clock.engineNow();
    this.world = opts.world ?? buildWorld();
    if (opts.snapshot) {
      this.exchange = Exchange.importSnapshot({ now }, opts.snapshot.section('core') as Iterable<SnapshotRecord>);
      // reference data the world gained since the snapshot was written (a newer seed) joins
      const known = new Set(this.exchange.currencyList().map((c) => c.currency));
      for (const c of this.world.currencies) if (!known.has(c.currency)) this.exchange.addCurrency({ currency: c.currency, precision: c.precision });
      for (const s of this.world.symbols) if (!this.exchange.hasSymbol(s.symbol)) this.exchange.addSymbol(s);
    } else {
      this.exchange = new Exchange({ now });
      for (const c of this.world.currencies) this.exchange.addCurrency({ currency: c.currency, precision: c.precision });
      for (const s of this.world.symbols) this.exchange.addSymbol(s);
    }
    this.exchange.onTrade((t) => this.tape.add(t));
    this.events = new EventHub(this.exchange);
    this.ledgerSource = this.events.source();
    this.ledgerSource.setEventSink({
      level: () => undefined,
      trade: () => undefined,
      order: (e) => this.recorder.order(e),
      balance: (e) => this.recorder.balance(e),
    });
    this.directory = new UserDirectory(this.exchange, this.world, this.ledgerSource);
    this.users = this.directory.users;
    this.usersByKey = this.directory.usersByKey;
    this.funding = new Funding(this.exchange, this.world, this.directory);
    this.withdrawals = this.funding.withdrawals;
    this.deposits = this.funding.deposits;
    this.depositAddresses = this.funding.depositAddresses;
    this.innerWithdrawalWindows = this.funding.innerWithdrawalWindows;
    this.transfers = this.funding.transfers;
    this.market = new MarketCommands(this, this.directory);
    this.admin = new AdminControls(clock);
    this.loop = new CommandLoop({
      clock,
      exchange: this.exchange,
      recorder: this.recorder,
      withdrawals: this.withdrawals,
      apply: (cmd, t, replaying) => this.apply(cmd, t, replaying),
      prune: (t) => this.pruneHistory(t),
    });
    this.registerSection({ name: 'state', exportRecords: () => this.exportOwn(), importRecords: (rs) => this.importOwn(rs) });
    // what lives outside the engine and a replay used to rebuild: the account ledgers and the market tape
    // (a start replays only the journal after the snapshot)
    this.registerSection({ name: 'ledger', exportRecords: () => this.ledger.exportRecords(), importRecords: (rs) => this.ledger.importRecords(rs) });
    this.registerSection({ name: 'tape', exportRecords: () => this.tape.exportRecords(), importRecords: (rs) => this.tape.importRecords(rs) });
  }

  /** The service status GET /api/v1/status answers (`status.set` changes it). */
  get status(): S.ServiceStatus {
    return this.admin.status;
  }

  set status(s: S.ServiceStatus) {
    this.admin.status = s;
  }

  // ---- snapshots ----

  /** Add a section to every snapshot from now on (and to {@link importSections}). @throws Error on a taken name. */
  registerSection(section: StateSection): void {
    if (section.name === 'core' || section.name === 'meta' || section.name === 'end' || this.sections.has(section.name)) {
      throw new Error(`snapshot section name ${section.name} is taken`);
    }
    this.sections.set(section.name, section);
  }

  /** The whole state as snapshot sections: the core's records, then every registered section's (streamed). */
  exportSections(): { name: string; records: Iterable<unknown> }[] {
    return [{ name: 'core', records: this.exchange.exportSnapshot() }, ...[...this.sections.values()].map((s) => ({ name: s.name, records: s.exportRecords() }))];
  }

  /**
   * Restore every registered section from the rest of `src` (after the constructor read `core`). A section
   * of the snapshot that nobody registered is skipped with a warning; a registered section the snapshot lacks
   * stays empty. @returns warnings. @throws Error when a section's records are inconsistent.
   */
  importSections(src: SnapshotSource): string[] {
    const warnings: string[] = [];
    for (let name = src.peek(); name !== null; name = src.peek()) {
      const s = this.sections.get(name);
      if (s === undefined) {
        warnings.push(`snapshot section ${name} ignored: nothing registered it`);
        src.skip();
        continue;
      }
      s.importRecords(src.section(name));
      if (src.peek() === name) throw new Error(`snapshot section ${name} was not read to its end`);
    }
    return warnings;
  }

  /** Records of the `state` section: the parts' own fields (users, funding records, status, clock…). */
  private *exportOwn(): Generator<unknown> {
    const c = this.clock;
    yield { k: 'meta', manualNow: c.manualNow, lastT: c.lastT, nextUid: this.directory.nextUid, seq: this.funding.seq, seeded: this.market.seeded, status: this.status, pruneBucket: this.loop.pruneBucket };
    const blocks = function* <T>(k: string, list: readonly T[]): Generator<unknown> {
      for (let i = 0; i < list.length; i += 256) yield { k, list: list.slice(i, i + 256) };
    };
    yield* blocks('users', [...this.users.values()]);
    yield* blocks('withdrawals', [...this.withdrawals.values()]);
    yield* blocks('deposits', this.deposits);
    yield* blocks('addresses', this.depositAddresses);
    yield* blocks('windows', [...this.innerWithdrawalWindows]);
    yield* blocks('transfers', [...this.transfers]);
  }

  /** Restore the `state` section. @throws Error on a record of an unknown kind. */
  private importOwn(records: Iterable<unknown>): void {
    for (const rec of records) {
      const r = rec as { k: string; list: unknown[] } & Record<string, unknown>;
      switch (r.k) {
        case 'meta':
          this.clock.manualNow = r.manualNow as number;
          this.clock.lastT = r.lastT as number;
          this.directory.nextUid = r.nextUid as number;
          this.funding.seq = r.seq as number;
          this.market.seeded = r.seeded as boolean;
          this.status = r.status as S.ServiceStatus;
          this.loop.pruneBucket = typeof r.pruneBucket === 'number' ? r.pruneBucket : Math.floor(this.clock.lastT / PRUNE_EVERY_MS);
          break;
        case 'users':
          this.directory.restore(r.list as UserRecord[]);
          break;
        case 'withdrawals':
          for (const w of r.list as WithdrawalRecord[]) this.withdrawals.set(w.withdrawalId, w);
          break;
        case 'deposits':
          this.deposits.push(...(r.list as DepositRecord[]));
          break;
        case 'addresses':
          this.depositAddresses.push(...(r.list as DepositAddressRecord[]));
          break;
        case 'windows':
          for (const [uid, w] of r.list as [string, InnerWithdrawalWindow][]) this.innerWithdrawalWindows.set(uid, w);
          break;
        case 'transfers':
          for (const [k, v] of r.list as [string, TransferRecord][]) this.transfers.set(k, v);
          break;
        default:
          throw new Error(`snapshot: unknown record ${String(r.k)} of section state`);
      }
    }
  }

  // ---- the exec loop (exec.ts) ----

  /** The sandbox clock in ms: manual value, or the wall clock (never going backwards past the last command). */
  now(): number {
    return this.clock.now();
  }

  /** Attach the durable journal; subsequent successful `exec` calls append to it. */
  attachJournal(journal: JournalLike): void {
    this.loop.attachJournal(journal);
  }

  /** Subscribe to successful commands (called after journaling). Returns an unsubscribe function. */
  onCommand(fn: (cmd: Command, result: unknown) => void): () => void {
    return this.loop.onCommand(fn);
  }

  /** True once `world.seed` has run (first start of a state dir). */
  get isSeeded(): boolean {
    return this.market.seeded;
  }

  /**
   * Replay journaled commands (no re-append). Commands that fail are skipped and reported
   * (they failed identically when first run only if the journal holds failed commands — it doesn't).
   * @returns warnings for commands that threw during replay.
   */
  replay(commands: Iterable<Command>): string[] {
    const warnings: string[] = [];
    let i = 0;
    for (const cmd of commands) this.loop.replayCommand(cmd, i++, warnings);
    return warnings;
  }

  /**
   * Apply one journaled command without appending it again (a start streams a journal through this); a
   * command that fails is skipped and reported in `warnings` as command #`index`.
   */
  replayCommand(cmd: Command, index: number, warnings: string[]): void {
    this.loop.replayCommand(cmd, index, warnings);
  }

  /** Shorthand: build `{op, t: now(), args}` and exec it; returns the op's typed result. */
  run<O extends CommandOp>(op: O, args: CommandArgs<O>): CommandResult<O> {
    return this.loop.run(op, args);
  }

  /**
   * Apply one command. Throws ExchangeError / SandboxError (nothing changed) or returns the op's
   * result. On success, appends it to the journal (unless replaying) and notifies listeners.
   */
  exec(cmd: Command): unknown {
    return this.loop.exec(cmd);
  }

  /**
   * Drop the server's history older than the 3 × 24 h window at clock `t` (module doc, "Retention"): deposit
   * records, withdrawals that finished (SUCCESS / FAILURE) before `t − HISTORY_WINDOW_MS`, ledger entries
   * (LedgerBook.prune), and the market tape's trades and candle rows (MarketTape.prune). Withdrawals in
   * flight stay whatever their age. @returns how many records were dropped.
   */
  pruneHistory(t: number): number {
    const cutoff = t - HISTORY_WINDOW_MS;
    return this.ledger.prune(cutoff) + this.tape.prune(cutoff) + this.funding.prune(cutoff);
  }

  /**
   * Start (ms) of the readable history window now: what is older (ledger entries, tape trades, candle
   * rows that ended before it) is not shown even before the next prune drops it.
   */
  historyStart(): number {
    return Math.max(this.now(), this.clock.lastT) - HISTORY_WINDOW_MS;
  }

  /** Bring time-driven engine state (GTT expiry) up to now before a read. Deterministic, so not journaled. */
  syncClock(): void {
    this.loop.syncClock();
  }

  /** Route a command to the handler of its aggregate. */
  private apply(cmd: Command, t: number, replaying: boolean): CommandResults[CommandOp] {
    if (isOrderCommand(cmd)) return applyOrderOp(this.exchange, this.directory, cmd);
    if (isMirrorCommand(cmd)) {
      try {
        return applyMirror(this, cmd, LIQUIDITY_UID);
      } catch (e) {
        if (e instanceof MirrorCommandError) throw new SandboxError('400100', e.message, 400);
        throw e;
      }
    }
    switch (cmd.op) {
      case 'world.seed':
        return this.market.seed(cmd.args.seed, t);
      case 'market.batch':
        return this.market.batch(cmd.args);
      case 'market.history':
        // the history runs the engine's clock through the past it builds
        return this.market.history(cmd.args, (ms) => (this.clock.execT = ms));
      case 'user.create':
        return this.directory.create(cmd.args, t);
      case 'fees.set':
        return this.directory.setFees(cmd.args);
      case 'funds.grant':
        return this.directory.fundsGrant(cmd.args);
      case 'whitelist.set':
        return this.directory.setWhitelist(cmd.args);
      case 'deposit':
        return this.funding.deposit(cmd.args, t);
      case 'transfer':
        return this.funding.transfer(cmd.args);
      case 'withdrawal.create':
        return this.funding.createWithdrawal(cmd.args, t);
      case 'withdrawal.settle':
        return this.funding.endWithdrawal(cmd.args.withdrawalId, 'SUCCESS', '', t);
      case 'withdrawal.release':
        return this.funding.endWithdrawal(cmd.args.withdrawalId, 'FAILURE', cmd.args.reason, t);
      case 'withdrawal.cancel':
        return this.funding.cancelWithdrawal(cmd.args, t);
      case 'depositAddress.create':
        return this.funding.createDepositAddress(cmd.args, t);
      case 'status.set':
        return this.admin.setStatus(cmd.args);
      case 'clock.set':
        return this.admin.setClock(cmd.args, replaying);
      default: {
        const never: never = cmd;
        throw new SandboxError('400100', `unknown command op ${(never as { op: string }).op}`, 400);
      }
    }
  }

  // ---- reads ----

  /** The user or throws 400100. */
  requireUser(uid: string): UserRecord {
    return this.directory.require(uid);
  }

  /** The user with this API key, or undefined. */
  userByKey(apiKey: string): UserRecord | undefined {
    return this.usersByKey.get(apiKey);
  }

  /** The default user (credentials.json), if created. */
  defaultUser(): UserRecord | undefined {
    return this.directory.defaultUser();
  }

  /**
   * Deposit addresses of `uid` for `currency` (exact code), on `chainId` only when given, in
   * creation order (V1 and V3 creates alike). Read-only.
   */
  depositAddressesOf(uid: string, currency: string, chainId?: string): DepositAddressRecord[] {
    return this.funding.depositAddressesOf(uid, currency, chainId);
  }

  /** The deposit-address listings of `uid` (Funding.listDepositAddresses). @throws SandboxError 400100 unknown currency or chain. */
  listDepositAddresses(uid: string, currency: string, chain: string | undefined): { rec: DepositAddressRecord; contractAddress: string }[] {
    return this.funding.listDepositAddresses(uid, currency, chain);
  }

  /**
   * Resolve a currency + chain parameter (chainId, chain name or the spec's aliases, case-insensitive)
   * to the world's records. Throws 400100 for an unknown currency or chain.
   */
  chainOf(currency: string, chainParam: string | undefined): { currency: CurrencyInfo; chain: ChainInfo } {
    return this.funding.chainOf(currency, chainParam);
  }

  /** Withdrawals that are due to settle at `now` (the server's timer executes `withdrawal.settle` for them). */
  dueWithdrawals(now: number): WithdrawalRecord[] {
    return this.funding.dueWithdrawals(now);
  }

  /**
   * Run due withdrawal settlements through exec (journaled). A withdrawal whose `remark` starts with
   * `FAIL` (case-insensitive) simulates a chain failure: it is released instead. Returns how many settled.
   */
  settleDue(): number {
    let n = 0;
    for (const w of this.dueWithdrawals(this.now())) {
      if (/^fail/i.test(w.remark)) {
        this.run('withdrawal.release', { withdrawalId: w.withdrawalId, reason: 'simulated chain failure (remark starts with FAIL)' });
        continue;
      }
      try {
        this.run('withdrawal.settle', { withdrawalId: w.withdrawalId });
        n++;
      } catch (e) {
        if (!(e instanceof ExchangeError || e instanceof SandboxError)) throw e;
        this.run('withdrawal.release', { withdrawalId: w.withdrawalId, reason: (e as Error).message });
      }
    }
    return n;
  }
}
