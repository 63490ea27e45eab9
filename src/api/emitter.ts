/**
 * `TypedEmitter<Events>`: the one event primitive of code that does not import `vscode` (the
 * client in `src/api`, the features' stream feeds). Host glue uses `vscode.EventEmitter` instead
 * (docs/ARCHITECTURE.md, "Events").
 *
 * `Events` maps each event name to the tuple of its arguments, e.g.
 * `{ message: [StreamData]; reconnected: [] }`. The semantics follow Node's `EventEmitter`, so that
 * bots written against it keep working: listeners run synchronously in the order they were added,
 * `off` also removes a `once` listener by its original function, and an `error` event without a
 * listener throws its argument. Unlike Node, there is no listener limit and no `newListener` event.
 * Pure (no Node APIs): it also runs in webviews.
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
}

/** A small typed event emitter (see the module docstring). */
export class TypedEmitter<E extends Events<E>> {
  private readonly listenersByEvent = new Map<keyof E, Entry[]>();
  private readonly onListenerError: ((error: unknown) => void) | undefined;

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

  /** Remove the most recently added registration of `fn` for `event` (also a `once` one). @returns this. */
  off<K extends keyof E>(event: K, fn: Listener<E, K>): this {
    const list = this.listenersByEvent.get(event);
    if (!list) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].fn === fn) {
        const next = list.slice(0, i).concat(list.slice(i + 1));
        if (next.length === 0) this.listenersByEvent.delete(event);
        else this.listenersByEvent.set(event, next);
        break;
      }
    }
    return this;
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
      if (entry.once) this.off(event, entry.fn as Listener<E, K>);
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
