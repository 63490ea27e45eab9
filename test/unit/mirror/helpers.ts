/**
 * Helpers of the mirror-mode tests: an upstream sandbox (the seeded world, no simulation) and a mirror sandbox
 * reading it through `UpstreamSource`, and a wait for a state (polled, bounded; never a fixed sleep).
 */
import { startSandbox, type RunningSandbox } from '../../../src/exchange/server';
import { fetchUpstreamWorld, UpstreamSource } from '../../../src/exchange/server/mirror/upstream';
import { newKeyMaterial, type UserRecord } from '../../../src/exchange/server/state';

/** Resolve once `cond()` is true (polled every 5 ms); reject with `what` after `timeoutMs`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The upstream: a sandbox with its seeded books, real clock, no simulation (tests drive it with orders). */
export function startUpstream(extra: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  return startSandbox({ sim: false, seed: 1, rateLimits: false, ...extra });
}

/** A mirror sandbox of `symbols` on `upstream` (in memory unless `stateDir`), with a fast reconnect. */
export async function startMirror(upstreamUrl: string, symbols: string[], extra: Parameters<typeof startSandbox>[0] = {}): Promise<{ sb: RunningSandbox; source: UpstreamSource }> {
  const world = await fetchUpstreamWorld(upstreamUrl, symbols);
  const source = new UpstreamSource({ baseUrl: upstreamUrl, symbols, minReconnectDelayMs: 20, maxReconnectDelayMs: 200, startTimeoutMs: 10_000 });
  const sb = await startSandbox({ sim: false, rateLimits: false, mirror: { source, label: 'mirror', world }, ...extra });
  return { sb, source };
}

/** A funded user on a sandbox (journaled `user.create`), returning its uid. */
export function fundedUser(sb: RunningSandbox, balances: { currency: string; amount: string }[]): string {
  const u = sb.state.run('user.create', {
    ...newKeyMaterial(),
    keyVersion: '2',
    permissions: ['General', 'Spot'],
    balances: balances.map((b) => ({ currency: b.currency, type: 'trade' as const, amount: b.amount })),
  }) as UserRecord;
  return u.uid;
}

/** A level-2 book `[price, size]` per side (prices and sizes normalised), for comparing books. */
export function bookOf(sb: RunningSandbox, symbol: string, depth = 1_000): { bids: string[][]; asks: string[][] } {
  const b = sb.state.exchange.level2(symbol, depth);
  return { bids: b.bids.map(([p, s]) => [norm(p), norm(s)]), asks: b.asks.map(([p, s]) => [norm(p), norm(s)]) };
}

function norm(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}
