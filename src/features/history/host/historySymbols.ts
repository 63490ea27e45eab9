/**
 * The symbols the history views (Order History, Fills) look at: the `spotdesk.watchlist` setting,
 * the symbols traded from SpotDesk (remembered per profile), and the symbols that hold active HF
 * orders now (GET /api/v1/hf/orders/active/symbols), upper-cased, deduplicated, at most
 * {@link MAX_HISTORY_SYMBOLS} (each costs requests in the Spot pool).
 */
import * as vscode from 'vscode';
import type { SpotClient } from '../../../api/client';
import type { Services } from '../../../host/services';
import { describeError } from '../../../host/pollingTree';

/** At most this many symbols per history load. */
export const MAX_HISTORY_SYMBOLS = 20;

/** Watched, traded and active-order symbols (see module docstring). */
export async function historySymbols(client: SpotClient, services: Services, noted: () => string[]): Promise<string[]> {
  const out = new Set<string>();
  const watch = vscode.workspace.getConfiguration('spotdesk').get<string[]>('watchlist') ?? [];
  for (const s of [...watch, ...noted()]) if (typeof s === 'string' && s) out.add(s.toUpperCase());
  try {
    for (const s of await client.getActiveOrderSymbols()) out.add(s.toUpperCase());
  } catch (err) {
    services.log.debug(`history views: active-order symbols unavailable: ${describeError(err)}`);
  }
  return [...out].slice(0, MAX_HISTORY_SYMBOLS);
}
