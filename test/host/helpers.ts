/**
 * Shared helpers of the extension-host suites: activate SpotDesk and open its one test door
 * (`spotdesk.testHooks`, registered only outside Production: services, connection, tree providers,
 * the shared prompts object, a client override, the request builder's hooks).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { SpotClient } from '../../src/api/client';
import type { KeyVersion } from '../../src/api/schemas';
import type { SpotDeskApi } from '../../src/host/extension';
import type { PickOptions, Step, StepInput, TextOptions } from '../../src/host/multiStep';
import type { SpotDeskTestHooks } from '../../src/host/testHooks';
import type { OrderBookPanelHandle } from '../../src/features/market/host/panel';

/** The extension id (`publisher.name` from package.json). */
export const EXTENSION_ID = 'spotdesk.spotdesk';
/** The test door's command id. */
export const TEST_HOOKS_COMMAND = 'spotdesk.testHooks';

/** Activate SpotDesk (if needed) and return what activate() exported (harmless data only). */
export async function activated(): Promise<SpotDeskApi> {
  const ext = vscode.extensions.getExtension<SpotDeskApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext.isActive ? ext.exports : await ext.activate();
}

/** Activate SpotDesk (if needed) and return its test hooks (the one test door). */
export async function spotdesk(): Promise<SpotDeskTestHooks> {
  await activated();
  const hooks = await vscode.commands.executeCommand<SpotDeskTestHooks | undefined>(TEST_HOOKS_COMMAND);
  if (!hooks) throw new Error(`${TEST_HOOKS_COMMAND} returned nothing`);
  return hooks;
}

/**
 * Run `command` (default `spotdesk.openOrderBook`) with `arg` as a menu or another extension would:
 * it hands back nothing (no command returns an object), so the panel it opened or revealed is read
 * through the test door. @throws when the command returned something or no panel of the symbol is open.
 */
export async function openMarketPanel(arg: unknown, command = 'spotdesk.openOrderBook'): Promise<OrderBookPanelHandle> {
  const returned = await vscode.commands.executeCommand<unknown>(command, arg);
  if (returned !== undefined) throw new Error(`${command} returned ${typeof returned}, not undefined`);
  const symbol = typeof arg === 'string' ? arg : (arg as { symbol?: unknown } | undefined)?.symbol;
  const panel = typeof symbol === 'string' ? (await spotdesk()).marketPanel(symbol) : undefined;
  if (!panel) throw new Error(`${command} opened no market panel for ${JSON.stringify(arg)}`);
  return panel;
}

/** Poll `check` every 100 ms until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** Children of a tree provider node (root when `node` is undefined). */
export async function children<T>(provider: vscode.TreeDataProvider<T>, node?: T): Promise<T[]> {
  return ((await provider.getChildren(node)) ?? []) as T[];
}

/** The TreeItem a provider renders for `node`. */
export async function item<T>(provider: vscode.TreeDataProvider<T>, node: T): Promise<vscode.TreeItem> {
  return provider.getTreeItem(node);
}

/** Label of a TreeItem as a plain string. */
export function labelOf(it: vscode.TreeItem): string {
  const l = it.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Make the built-in sandbox the active profile (user-level setting). */
export async function useSandboxProfile(): Promise<void> {
  await vscode.workspace.getConfiguration('spotdesk').update('activeProfile', undefined, vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('spotdesk').update('profiles', undefined, vscode.ConfigurationTarget.Global);
}

/**
 * Whether a tree node is the error item. (Test bundles have their own copy of the extension's
 * classes, so `instanceof ErrorNode` cannot work across the two bundles: compare `kind`.)
 */
export function isError(node: unknown): node is { kind: 'error'; message: string; viewId: string } {
  return !!node && typeof node === 'object' && (node as { kind?: unknown }).kind === 'error';
}

/** One question a scripted multi-step flow was asked, in order. */
export type AskedStep = { kind: 'pick'; options: PickOptions<unknown> } | { kind: 'text'; options: TextOptions; answer: string; refused?: string };

/** How a scripted flow answers: return the value (pick: an item's `value`), or undefined to cancel. */
export interface StepAnswers {
  pick(o: PickOptions<unknown>): unknown;
  text(o: TextOptions): string | undefined;
}

/**
 * A `Prompts.steps` implementation that answers each step with `answers` and records what was asked
 * in `asked`. A text answer that the step's own validation refuses cancels the flow (the real input
 * box would not accept it), with the refusal recorded; more than 60 questions cancel too.
 */
export function scriptedSteps(answers: StepAnswers, asked: AskedStep[] = []): (start: Step) => Promise<boolean> {
  const cancel = new Error('scripted flow cancelled');
  const input: StepInput = {
    async pick<T>(o: PickOptions<T>): Promise<T> {
      asked.push({ kind: 'pick', options: o as PickOptions<unknown> });
      if (asked.length > 60) throw cancel;
      const v = answers.pick(o as PickOptions<unknown>);
      const found = o.items.find((i) => i.value === v);
      if (!found) throw cancel;
      return found.value;
    },
    async text(o: TextOptions): Promise<string> {
      const answer = answers.text(o);
      const refused = answer === undefined ? undefined : o.validate?.(answer);
      asked.push({ kind: 'text', options: o, answer: answer ?? '', ...(refused ? { refused } : {}) });
      if (answer === undefined || refused || asked.length > 60) throw cancel;
      return answer;
    },
  };
  return async (start) => {
    let step: Step | void = start;
    try {
      while (step) step = await step(input);
      return true;
    } catch (err) {
      if (err === cancel) return false;
      throw err;
    }
  };
}

/** A sandbox user made with the admin API (POST /sandbox/v1/users). */
export interface SandboxUser {
  uid: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: KeyVersion;
}

/** What {@link sandboxSuite} gives a suite (filled in by its `before`). */
export interface SandboxSuite {
  /** The test door. */
  hooks: SpotDeskTestHooks;
  /** The embedded sandbox's base URL and admin token. */
  sandbox: { baseUrl: string; adminToken: string };
  /** Call the sandbox's admin API; resolves with `data`. @throws Error when the code is not 200000. */
  admin<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** A fresh sandbox user (`body` as POST /sandbox/v1/users takes it: balances, permissions, keyVersion…). */
  newUser(body?: Record<string, unknown>): Promise<SandboxUser>;
  /** A client signed with `user`'s key (after `mutate`, e.g. a wrong secret); closed after the suite. */
  clientOf(user: SandboxUser, mutate?: (u: SandboxUser) => SandboxUser): SpotClient;
  /** A fresh user with `balances` (and `permissions`) and its client. */
  freshUser(balances: Array<{ currency: string; type: 'main' | 'trade'; amount: string }>, permissions?: string[]): Promise<{ user: SandboxUser; client: SpotClient }>;
}

/**
 * The shared set-up of the suites that drive SpotDesk against the embedded sandbox. Call it inside
 * `describe()`: it registers `before` (Sandbox profile active, test door open, sandbox started),
 * `afterEach` (the client override and the prompts restored) and `after` (clients it made closed),
 * and returns the suite's {@link SandboxSuite}, usable from the suite's own hooks and tests.
 */
export function sandboxSuite(): SandboxSuite {
  const clients: SpotClient[] = [];
  const suite = {
    async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${suite.sandbox.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${suite.sandbox.adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const env = (await res.json()) as { code: string; data?: T; msg?: string };
      if (env.code !== '200000') throw new Error(`admin ${method} ${path}: ${env.code} ${env.msg ?? ''}`);
      return env.data as T;
    },
    newUser: (body: Record<string, unknown> = {}) => suite.admin<SandboxUser>('POST', '/sandbox/v1/users', body),
    clientOf(user: SandboxUser, mutate: (u: SandboxUser) => SandboxUser = (u) => u): SpotClient {
      const u = mutate(user);
      const client = new SpotClient({ baseUrl: suite.sandbox.baseUrl, credentials: { apiKey: u.apiKey, apiSecret: u.apiSecret, apiPassphrase: u.apiPassphrase, keyVersion: u.keyVersion } });
      clients.push(client);
      return client;
    },
    async freshUser(balances: Array<{ currency: string; type: 'main' | 'trade'; amount: string }>, permissions?: string[]) {
      const user = await suite.newUser({ balances, ...(permissions ? { permissions } : {}) });
      return { user, client: suite.clientOf(user) };
    },
  } as SandboxSuite;

  before(async () => {
    await useSandboxProfile();
    suite.hooks = await spotdesk();
    const s = await suite.hooks.services.sandbox();
    assert.ok(s, 'sandbox running');
    suite.sandbox = s;
  });

  afterEach(() => {
    suite.hooks.setClient(undefined);
    suite.hooks.resetPrompts();
  });

  after(() => {
    for (const c of clients.splice(0)) c.close();
  });

  return suite;
}
