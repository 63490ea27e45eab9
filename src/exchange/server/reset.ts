/**
 * Sandbox reset (admin `POST /sandbox/v1/reset`): the sandbox goes back to the freshly seeded world of its
 * seed — the seeded books, the default user with its starting balances and nothing else — WITHOUT a
 * restart: same process, same port, same admin token, and the default user keeps its API key (so clients a
 * test suite built once keep working). Every other user, order, fill, deposit, withdrawal, status change and
 * the market tape are gone; WebSocket connections are closed (clients reconnect and take a fresh book); the
 * rate-limit budgets start over. A manual clock does not go backwards: it continues from where it was.
 *
 * ## How (and why this way)
 * A fresh world is a new {@link SandboxState} on which `world.seed` and the default user's `user.create` ran
 * — the same two commands as a first start, so it IS a fresh seeded world, not an approximation. The
 * server swaps it in for the old state and rebinds what served the old one (index.ts: request handler,
 * WebSocket feed, simulation). Seeding costs ≈ 25–40 ms on the 2-core dev box (mostly the engine allocating
 * each book side's price index), so a sandbox started with `fastReset` keeps one fresh world built ahead of
 * time ({@link FreshWorlds.prepareSoon}: right after the start and after every reset, on the next turn of the
 * event loop), and a reset only swaps it in (a few ms). Without `fastReset` the first reset builds one on
 * the spot and later ones find a prepared one; nothing is kept until the first reset (a sandbox that is
 * never reset pays nothing).
 *
 * ## Durability ({@link commitReset})
 * With a state dir, the fresh world's commands open a NEW journal generation whose header says `base: null,
 * start: 0` (the empty state, like generation 0), written and its directory synced before the reset is
 * answered; then every file of the generations before it is deleted. A start treats the newest such
 * generation as the beginning of the state dir's history (stateStore.ts, "Recovery"), so a restart after a
 * reset — clean or SIGKILL, also one killed between the new journal and the deletions — rebuilds the reset
 * world plus what happened after it. In memory, the fresh world keeps its own in-memory journal.
 */
import { ALL_PERMISSIONS, MemoryJournal, SandboxState, type BalanceGrant, type Command, type CommandArgs, type UserRecord } from './state';
import type { StateStore } from './stateStore';

/** `user.create` args of the default user of every fresh world (the running default user's key). */
export type DefaultUserArgs = CommandArgs<'user.create'>;

/**
 * The `user.create` args that recreate `user` (the sandbox's default user) with `balances`: same API key,
 * secret, passphrase, key version and permissions.
 */
export function defaultUserArgs(user: UserRecord, balances: BalanceGrant[]): DefaultUserArgs {
  return {
    apiKey: user.apiKey,
    apiSecret: user.apiSecret,
    apiPassphrase: user.apiPassphrase,
    keyVersion: user.keyVersion,
    permissions: user.permissions.length > 0 ? [...user.permissions] : [...ALL_PERMISSIONS],
    balances: balances.map((b) => ({ ...b })),
    isDefault: true,
    label: user.label || 'default',
  };
}

/** A fresh seeded world: its state and the commands that built it (in its in-memory journal). */
export interface FreshWorld {
  state: SandboxState;
  journal: MemoryJournal;
}

/** Options of {@link FreshWorlds}. */
export interface FreshWorldOptions {
  /** Seed of the books (`world.seed`). */
  seed: number;
  /** Manual clock (as the running sandbox). */
  manualClock: boolean;
  /** The default user to recreate. */
  defaultUser: DefaultUserArgs;
  /**
   * The running sandbox's clock (ms): a manual clock's fresh world starts at it, so a reset neither moves time
   * back nor jumps it to the wall clock (a manual clock may have been started in the past). Default: the wall clock.
   */
  clock?: () => number;
  /** Keep one fresh world ready at all times (see the module doc). Default false. */
  fastReset?: boolean;
  /** Notes (a failed preparation). */
  log?: (line: string) => void;
}

/**
 * Builds fresh seeded worlds for resets, and keeps one ready ({@link prepareSoon}) once asked to. Never
 * builds on a timer of its own beyond the one turn of the event loop after a start or reset.
 */
export class FreshWorlds {
  private spare: FreshWorld | undefined;
  private pending: NodeJS.Immediate | undefined;
  private disposed = false;

  constructor(private readonly opts: FreshWorldOptions) {}

  /** Build a fresh world now (≈ 25–40 ms): `world.seed`, then the default user, at the clock's current time. */
  build(): FreshWorld {
    const journal = new MemoryJournal();
    const state = new SandboxState({ manualClock: this.opts.manualClock, ...(this.opts.manualClock && this.opts.clock ? { startTime: this.opts.clock() } : {}) });
    state.attachJournal(journal);
    state.run('world.seed', { seed: this.opts.seed });
    state.run('user.create', this.opts.defaultUser);
    return { state, journal };
  }

  /**
   * A fresh world for a reset happening at sandbox clock `now` (the prepared one when there is one): a
   * manual clock is moved forward to `now` (a journaled `clock.set`), so time never goes backwards.
   */
  take(now: number): FreshWorld {
    const fresh = this.spare ?? this.build();
    this.spare = undefined;
    if (fresh.state.manualClock && fresh.state.now() < now) fresh.state.exec({ op: 'clock.set', t: now, args: { now } });
    return fresh;
  }

  /** True when a prepared world is waiting. */
  get ready(): boolean {
    return this.spare !== undefined;
  }

  /**
   * Prepare the next fresh world on the next turn of the event loop (after the answer that is being sent
   * has gone out), when `fastReset` is on or `always`. Idempotent.
   */
  prepareSoon(always = false): void {
    if (this.disposed || this.spare || this.pending || !(this.opts.fastReset || always)) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      if (this.disposed || this.spare) return;
      try {
        this.spare = this.build();
      } catch (e) {
        // a reset will build one on the spot (and throw there, where it is reported)
        this.opts.log?.(`sandbox: preparing a fresh world for the next reset failed: ${(e as Error).message}`);
      }
    });
    this.pending.unref?.();
  }

  /** Drop the prepared world and stop preparing (the sandbox closes). */
  dispose(): void {
    this.disposed = true;
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
    this.spare = undefined;
  }
}

/**
 * Make a reset durable (see the module doc): with a state dir, the fresh world's commands become a new journal
 * generation on the empty state and the older generations are deleted; the store then journals the fresh
 * state. In memory, the fresh world keeps its own journal.
 * @returns the journal the fresh state appends to from now on.
 * @throws Error when the new journal cannot be written (the old state is still the current one then)
 */
export function commitReset(store: StateStore | undefined, fresh: FreshWorld): { journal: StateStore | MemoryJournal; generation: number | null } {
  if (!store) return { journal: fresh.journal, generation: null };
  store.startOver(fresh.state, fresh.journal.commands as readonly Command[]);
  return { journal: store, generation: store.generation };
}

/** What `POST /sandbox/v1/reset` answers. */
export interface ResetResult {
  /** Seed of the fresh world's books. */
  seed: number;
  /** uid of the default user (unchanged key). */
  uid: string;
  /** Sandbox clock after the reset, ms. */
  now: number;
  /** ms the sandbox spent on the reset (swap, journal, rebinding). */
  tookMs: number;
  /** Whether a world prepared ahead of time was used (`fastReset`). */
  prepared: boolean;
}
