/**
 * `TypedEmitter<Events>`: the one event primitive of code that does not import `vscode` (the
 * client in `src/api`, the features' stream feeds). Host glue uses `vscode.EventEmitter` instead
 * (docs/ARCHITECTURE.md, "Events").
 *
 * `Events` maps each event name to the tuple of its arguments, e.g.
 * `{ message: [StreamData]; reconnected: [] }`. The semantics follow Node's `EventEmitter`, so that
 * bots written against it keep working: listeners run synchronously in the order they were added,
 * `off` also removes a `once` listener by its original function, and an `error` event without a
 * listener throws its argument. Node's aliases and helpers a bot may call are here too
 * (`addListener`, `removeListener`, `listeners`, `eventNames`, `setMaxListeners`/`getMaxListeners`).
 * Unlike Node, there is no listener limit (`setMaxListeners` only records the number) and no
 * `newListener`/`removeListener` meta-events. Pure (no Node APIs): it also runs in webviews.
 */

/** An event map: event name → the tuple of the listener's arguments. */
export type EventMap = { [event: string]: unknown[] };

/** The constraint of an event map declared as a `type` or an `interface` (no index signature needed). */
type Events<E> = { [K in keyof E]: unknown[] };

/** A listener of event `K` of map `E`. */
export type Listener<E extends Events<E>, K extends keyof E> = (...args: E[K]) => void;

/** Options of a {@link TypedEmitter}. */
export interface TypedEmitterOptions {
  /**
   * Called with an error a listener threw; the remaining listeners still run. Without it, the
   * error propagates to the caller of `emit` (Node's behaviour).
   */
  readonly onListenerError?: (error: unknown) => void;
}

interface Entry {
  readonly fn: unknown;
  readonly once: boolean;
  /** A `once` entry already called (by an emit nested in an earlier listener): not called again. */
  fired?: boolean;
}

/** A small typed event emitter (see the module docstring). */
export class TypedEmitter<E extends Events<E>> {
  private readonly listenersByEvent = new Map<keyof E, Entry[]>();
  private readonly onListenerError: ((error: unknown) => void) | undefined;
  private maxListeners = 10;

  constructor(opts: TypedEmitterOptions = {}) {
    this.onListenerError = opts.onListenerError;
  }

  /** Add `fn` for `event` (added twice, it runs twice). @returns this. */
  on<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    return this.add(event, fn, false);
  }

  /** Add `fn` for the next `event` only. @returns this. */
  once<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    return this.add(event, fn, true);
  }

  /** Node's alias of {@link on}. @returns this. */
  addListener<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    return this.on(event, fn);
  }

  /** Remove the most recently added registration of `fn` for `event` (also a `once` one), as Node does. @returns this. */
  off<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    const list = this.listenersByEvent.get(event);
    if (!list) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].fn === fn) {
        this.removeEntry(event, list[i]);
        break;
      }
    }
    return this;
  }

  /** Node's alias of {@link off}. @returns this. */
  removeListener<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    return this.off(event, fn);
  }

  /** Remove every listener of `event`, or of every event when called without one. @returns this. */
  removeAllListeners(event?: keyof E): this {
    if (event === undefined) this.listenersByEvent.clear();
    else this.listenersByEvent.delete(event);
    return this;
  }

  /** Number of listeners of `event`. */
  listenerCount(event: keyof E): number {
    return this.listenersByEvent.get(event)?.length ?? 0;
  }

  /** A copy of the listeners of `event`, in call order (a `once` listener as its original function). */
  listeners<K extends keyof E>(event: K): Listener<E, K>[] {
    return (this.listenersByEvent.get(event) ?? []).map((e) => e.fn as Listener<E, K>);
  }

  /** The events that have listeners. */
  eventNames(): (keyof E)[] {
    return [...this.listenersByEvent.keys()];
  }

  /**
   * Node's listener-limit setter, kept so that bots calling it keep working: the number is only
   * recorded ({@link getMaxListeners}); no warning is ever printed. @returns this.
   * @throws RangeError when `n` is negative or not a number (Node's check).
   */
  setMaxListeners(n: number): this {
    if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) throw new RangeError(`The value of "n" is out of range. It must be a non-negative number. Received ${String(n)}`);
    this.maxListeners = n;
    return this;
  }

  /** The number last given to {@link setMaxListeners} (10, Node's default, before). */
  getMaxListeners(): number {
    return this.maxListeners;
  }

  /**
   * Call the listeners of `event` with `args`, in order; listeners added or removed meanwhile take
   * effect at the next emit.
   * @returns whether `event` had listeners.
   * @throws `args[0]` for an `error` event without listeners; a listener's error unless
   *   `onListenerError` is set.
   */
  emit<K extends keyof E>(event: K, ...args: E[K]): boolean {
    const list = this.listenersByEvent.get(event);
    if (!list || list.length === 0) {
      if (event === 'error') throw args[0] instanceof Error ? args[0] : new Error(`unhandled error event: ${String(args[0])}`);
      return false;
    }
    // The array is replaced, never mutated, on add/remove: iterating it is iterating a snapshot.
    for (const entry of list) {
      // This registration, not the latest one of the same function (which may be a plain `on`).
      if (entry.once) {
        if (entry.fired) continue;
        entry.fired = true;
        this.removeEntry(event, entry);
      }
      const fn = entry.fn as Listener<E, K>;
      if (this.onListenerError) {
        try {
          fn(...args);
        } catch (e) {
          this.onListenerError(e);
        }
      } else {
        fn(...args);
      }
    }
    return true;
  }

  private removeEntry(event: keyof E, entry: Entry): void {
    const list = this.listenersByEvent.get(event);
    if (!list) return;
    const i = list.indexOf(entry);
    if (i < 0) return;
    const next = list.slice(0, i).concat(list.slice(i + 1));
    if (next.length === 0) this.listenersByEvent.delete(event);
    else this.listenersByEvent.set(event, next);
  }

  private add<K extends keyof E>(event: K, fn: Listener<E, K>, once: boolean): this {
    const list = this.listenersByEvent.get(event) ?? [];
    this.listenersByEvent.set(event, [...list, { fn, once }]);
    return this;
  }
}

/** A minimal event: `event(listener)` returns a disposer (the shape of `vscode.Event`, without `vscode`). */
export type Listen<T> = (listener: (value: T) => void) => { dispose(): void };

/**
 * The {@link Listen} view of one event of `emitter` whose listeners take one argument (or none):
 * for classes that expose `onX` properties in the style of `vscode.Event`.
 */
export function listen<E extends Events<E>, K extends keyof E>(emitter: TypedEmitter<E>, event: K): Listen<E[K] extends [] ? void : E[K][0]> {
  return (listener) => {
    const fn = listener as unknown as Listener<E, K>;
    emitter.on(event, fn);
    return { dispose: () => void emitter.off(event, fn) };
  };
}
