/**
 * Command registration for SpotDesk. A command is an API: any installed extension can call it with
 * any arguments and read what it resolves to. So every SpotDesk command is registered here, and
 * - resolves only to plain data ({@link plainResult}: a deep copy of JSON-like values, never a
 *   function, a class instance or a live object such as a panel or a client);
 * - with {@link guardedRegistrar}, never lets a failure escape to the caller (a menu, a key binding
 *   or another extension's `executeCommand`): the error is logged and shown to the person instead.
 * The one exception is the test door (./testHooks.ts), which exists only outside Production.
 */
import * as vscode from 'vscode';
import { describeError } from './pollingTree';

/** Registers one command; see {@link guardedRegistrar}. */
export type GuardedRegister = (id: string, fn: (...args: never[]) => unknown) => vscode.Disposable;

/** Deepest nesting {@link plainResult} copies. */
const MAX_DEPTH = 32;

/** A plain object: made by an object literal or JSON.parse (no class, no special prototype). */
function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function copyPlain(v: unknown, depth: number): { ok: true; value: unknown } | { ok: false } {
  if (v === undefined || v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return { ok: true, value: v };
  if (typeof v === 'number') return Number.isFinite(v) ? { ok: true, value: v } : { ok: false };
  if (typeof v !== 'object' || depth >= MAX_DEPTH) return { ok: false };
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return { ok: false };
    const out: unknown[] = [];
    for (const item of v) {
      const r = copyPlain(item, depth + 1);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  if (!isPlainObject(v)) return { ok: false };
  const out: Record<string, unknown> = {};
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(v))) {
    if (!d.enumerable) continue;
    if (!('value' in d)) return { ok: false }; // a getter runs code: not data
    const r = copyPlain(d.value, depth + 1);
    if (!r.ok) return r;
    out[key] = r.value;
  }
  return { ok: true, value: out };
}

/**
 * What a command may resolve to: `value` itself when it is a primitive, else a deep copy when it is
 * plain data (arrays and plain objects of strings, finite numbers, booleans, bigints, null, at most
 * 32 levels deep, no getters); anything else — a function, a class instance (a panel, a client, a
 * Map, a Uri, an Error), at any depth — gives undefined. Never throws.
 */
export function plainResult(value: unknown): unknown {
  const r = copyPlain(value, 0);
  return r.ok ? r.value : undefined;
}

/**
 * Register command `id`: `fn`'s result (awaited) is handed to the caller through
 * {@link plainResult}, so no object of SpotDesk's leaves through a command.
 */
export function registerCommand(id: string, fn: (...args: never[]) => unknown): vscode.Disposable {
  // eslint-disable-next-line no-restricted-syntax -- the one place that registers SpotDesk's commands
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => plainResult(await (fn as (...a: unknown[]) => unknown)(...args)));
}

/**
 * A {@link registerCommand} whose handler `fn` (sync or async) is guarded: when it throws or
 * rejects, the message ({@link describeError}) is logged as `"<id>: <message>"` on `log`, shown as
 * the error notification `"SpotDesk: <message>"`, and the command resolves to undefined.
 * Otherwise the command resolves to {@link plainResult} of what `fn` returned.
 */
export function guardedRegistrar(log: Pick<vscode.LogOutputChannel, 'error'>): GuardedRegister {
  return (id, fn) =>
    registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => unknown)(...args);
      } catch (err) {
        const msg = describeError(err);
        log.error(`${id}: ${msg}`);
        void vscode.window.showErrorMessage(`SpotDesk: ${msg}`);
        return undefined;
      }
    });
}
