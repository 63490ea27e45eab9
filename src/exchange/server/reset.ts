/**
 * Sandbox reset (admin `POST /sandbox/v1/reset`): the sandbox goes back to the freshly seeded world of its
 * seed — the seeded books, the default user with its starting balances and nothing else — WITHOUT a
 * restart: same process, same port, same admin token, and the default user keeps its API key (so clients a
 * test suite built once keep working). Every other user, order, fill, deposit, withdrawal, status change and
 * the market tape are gone; WebSocket connections are closed (clients reconnect and take a fresh book); the
 * rate-limit budgets start over. A manual clock does not go backwards: it continues from where it was.
 *
 * A fresh world is a new SandboxState seeded by the same two commands as a first start, swapped in for
 * the old one ({@link FreshWorlds}; `fastReset` keeps one built ahead), and with a state dir a new journal
 * generation on the empty state ({@link commitReset}). Why this way and how it survives a SIGKILL:
 * docs/sandbox.md, "Reset internals".
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
  /**
   * Builds the market's past on the fresh, not yet seeded state (the realistic and volatile markets: a reset
   * gives history from the first minute, as a first start does). Such a world is never prepared ahead: its
   * past would end when it was prepared, not at the reset. Default: none (the quiet market).
   */
  history?: (state: SandboxState) => void;
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

  /**
   * Build a fresh world now: the market's past when {@link FreshWorldOptions.history} is set (≈ 2 s), then
   * `world.seed` (unless the history seeded it) and the default user, at the clock's current time (≈ 25–40 ms).
   */
  build(): FreshWorld {
    const journal = new MemoryJournal();
    const state = new SandboxState({ manualClock: this.opts.manualClock, ...(this.opts.manualClock && this.opts.clock ? { startTime: this.opts.clock() } : {}) });
    state.attachJournal(journal);
    this.opts.history?.(state);
    if (!state.isSeeded) state.run('world.seed', { seed: this.opts.seed });
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
   * has gone out), when `fastReset` is on or `always`, and the world has no market history to build. Idempotent.
   */
  prepareSoon(always = false): void {
    if (this.disposed || this.spare || this.pending || this.opts.history || !(this.opts.fastReset || always)) return;
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
