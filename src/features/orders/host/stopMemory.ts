/**
 * The stop orders SpotDesk has seen waiting, remembered per profile so that Order History can show them once they
 * fired or were cancelled: KuCoin lists only WAITING stop orders (GET /api/v1/stop-order) and keeps a done one
 * readable by id for 3 × 24 h (GET /api/v1/stop-order/{orderId}), so the ids must be kept to read them later.
 * Active Orders notes every waiting stop it loads or is told about by the stream; ids older than
 * {@link STOP_MEMORY_MS} or beyond {@link MAX_REMEMBERED_STOPS} are forgotten, and Order History forgets the ids the
 * exchange no longer knows. Stored in the extension's global state (no secrets: order ids only).
 */
import type * as vscode from 'vscode';

/** At most this many stop order ids are kept per profile (the newest). */
export const MAX_REMEMBERED_STOPS = 50;
/** How long an id is kept, ms: KuCoin's 3 × 24 h window for done orders. */
export const STOP_MEMORY_MS = 3 * 24 * 3600_000;

const KEY = 'spotdesk.seenStopOrders';

/** One remembered stop order: its id (`vs…`), pair, and when SpotDesk first saw it (ms). */
export interface SeenStop {
  id: string;
  symbol: string;
  at: number;
}

/** The remembered stop orders of the active profile (see the module docs). */
export class StopMemory {
  constructor(
    private readonly store: Pick<vscode.Memento, 'get' | 'update'>,
    private readonly profileId: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  private all(): Record<string, SeenStop[]> {
    return this.store.get<Record<string, SeenStop[]>>(KEY) ?? {};
  }

  /** The remembered stops of the active profile still within the window, newest first. */
  list(): SeenStop[] {
    const cut = this.now() - STOP_MEMORY_MS;
    return (this.all()[this.profileId()] ?? []).filter((s) => s.at >= cut).sort((a, b) => b.at - a.at);
  }

  /** Remember `stops` (those already known keep their first time). */
  note(stops: ReadonlyArray<{ id: string; symbol: string }>): void {
    const known = this.list();
    const fresh = stops.filter((s) => !known.some((k) => k.id === s.id));
    if (!fresh.length) return;
    const at = this.now();
    this.save([...fresh.map((s) => ({ id: s.id, symbol: s.symbol, at })), ...known]);
  }

  /** Forget `ids` (the exchange no longer knows them). */
  forget(ids: readonly string[]): void {
    if (!ids.length) return;
    this.save(this.list().filter((s) => !ids.includes(s.id)));
  }

  private save(list: SeenStop[]): void {
    const all = this.all();
    all[this.profileId()] = list.slice(0, MAX_REMEMBERED_STOPS);
    void this.store.update(KEY, all);
  }
}
