/**
 * Price alerts, the pure part: what an alert is, when it fires, how a typed price is
 * checked against the symbol's tick, and how stored alerts are read back (VS Code's global state
 * holds plain JSON, possibly written by an older SpotDesk).
 *
 * An alert `{symbol, direction, price}` fires ONCE, the first time the symbol's last traded price is
 * at or beyond its price: `above` fires when last ≥ price, `below` when last ≤ price. Firing records
 * when and at what price (`firedAt`, `firedPrice`); a fired alert stays listed until deleted or
 * edited (editing re-arms it). Because the condition is a level, not a crossing seen live, an alert
 * whose price was crossed while VS Code was closed fires on the next start, at the first price seen.
 * An alert that would fire at once is refused when it is created (the price must be on the far side
 * of the current price). Prices are decimal strings compared exactly (src/api/decimal.ts).
 *
 * Pure: no `vscode`, no Node API (unit-tested in test/unit/shared/alerts.test.ts).
 */
import * as D from '../../../api/decimal';

/** One price alert as stored. */
export interface PriceAlert {
  /** Random id. */
  readonly id: string;
  /** The profile whose exchange the price comes from (`sandbox`, `user:<name>`). */
  readonly profileId: string;
  /** Trading pair, e.g. BTC-USDT. */
  readonly symbol: string;
  readonly direction: 'above' | 'below';
  /** Decimal string on the symbol's tick. */
  readonly price: string;
  /** ms since the epoch. */
  readonly createdAt: number;
  /** When it fired (ms), absent while armed. */
  readonly firedAt?: number;
  /** The last price that fired it. */
  readonly firedPrice?: string;
}

/** True when `last` satisfies the alert (`above`: last ≥ price; `below`: last ≤ price). */
export function isTriggered(a: Pick<PriceAlert, 'direction' | 'price'>, last: string): boolean {
  if (!D.isDecimal(last)) return false;
  const c = D.cmp(last, a.price);
  return a.direction === 'above' ? c >= 0 : c <= 0;
}

/** Whether the alert is still waiting to fire. */
export function isArmed(a: PriceAlert): boolean {
  return a.firedAt === undefined;
}

/** The alert fired at `last`, at time `now` (ms). */
export function fire(a: PriceAlert, last: string, now: number): PriceAlert {
  return { ...a, firedAt: now, firedPrice: last };
}

/**
 * Check the stored alerts against one last price of `symbol` on profile `profileId`: every ARMED
 * alert of that profile and symbol that `last` satisfies ({@link isTriggered}) is fired at `now`.
 * Fired alerts stay fired, so feeding the same or further prices never fires an alert twice; an
 * alert stored armed whose price was crossed while nothing watched fires on the first price seen.
 * @returns the alerts with the fired ones replaced (same order; the same array when none fired) and
 *   the alerts that fired now.
 */
export function checkAlerts(alerts: readonly PriceAlert[], profileId: string, symbol: string, last: string, now: number): { next: readonly PriceAlert[]; fired: PriceAlert[] } {
  const fired: PriceAlert[] = [];
  const next = alerts.map((a) => {
    if (a.profileId !== profileId || a.symbol !== symbol || !isArmed(a) || !isTriggered(a, last)) return a;
    const f = fire(a, last, now);
    fired.push(f);
    return f;
  });
  return { next: fired.length ? next : alerts, fired };
}

/**
 * Check a typed alert price: a positive plain decimal on the symbol's tick (`priceIncrement`), and —
 * when the current price `last` is known — on the far side of it (else the alert would fire at once).
 * @returns the message for the input box, or undefined when valid.
 */
export function validateAlertPrice(input: string, priceIncrement: string, direction: 'above' | 'below', last: string | null): string | undefined {
  const v = input.trim();
  if (!D.isDecimal(v)) return 'Enter a plain decimal price such as 70000.5 (no exponent, no thousands separators).';
  if (D.isNegative(v) || D.isZero(v)) return 'The price must be greater than zero.';
  if (!D.isMultipleOf(v, priceIncrement)) {
    return `${v} is not on the tick ${priceIncrement}: use ${D.normalize(D.roundDown(v, priceIncrement))} or ${D.normalize(D.roundUp(v, priceIncrement))}.`;
  }
  if (last !== null && D.isDecimal(last) && isTriggered({ direction, price: v }, last)) {
    return `The last price ${last} is already ${direction === 'above' ? 'at or above' : 'at or below'} ${v}: the alert would fire at once. Choose a price ${direction === 'above' ? 'above' : 'below'} ${last}.`;
  }
  return undefined;
}

/** "BTC-USDT above 70000". */
export function describeAlert(a: Pick<PriceAlert, 'symbol' | 'direction' | 'price'>): string {
  return `${a.symbol} ${a.direction} ${a.price}`;
}

const SYMBOL_RE = /^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/;

/** Read stored alerts: anything malformed is dropped (never throws). */
export function parseAlerts(raw: unknown): PriceAlert[] {
  if (!Array.isArray(raw)) return [];
  const out: PriceAlert[] = [];
  for (const x of raw) {
    if (!x || typeof x !== 'object') continue;
    const a = x as Record<string, unknown>;
    if (typeof a.id !== 'string' || typeof a.profileId !== 'string' || typeof a.symbol !== 'string' || !SYMBOL_RE.test(a.symbol)) continue;
    if (a.direction !== 'above' && a.direction !== 'below') continue;
    if (typeof a.price !== 'string' || !D.isDecimal(a.price) || D.isNegative(a.price) || D.isZero(a.price)) continue;
    if (typeof a.createdAt !== 'number' || !Number.isFinite(a.createdAt)) continue;
    const fired = typeof a.firedAt === 'number' && Number.isFinite(a.firedAt) && typeof a.firedPrice === 'string' && D.isDecimal(a.firedPrice);
    out.push({
      id: a.id,
      profileId: a.profileId,
      symbol: a.symbol.toUpperCase(),
      direction: a.direction,
      price: a.price,
      createdAt: a.createdAt,
      ...(fired ? { firedAt: a.firedAt as number, firedPrice: a.firedPrice as string } : {}),
    });
  }
  return out;
}
