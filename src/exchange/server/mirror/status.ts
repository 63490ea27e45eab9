/**
 * The service status a market source sets (mirror/market.ts) and how order placement answers it. While the
 * upstream of a mirror (or a replay) is not live, `GET /api/v1/status` is `cancelonly` with a `msg` that starts
 * with the source's label (`mirror: …`, `replay: …`), and placements are refused with KuCoin's own answer when a
 * market does not take orders: `400200` "Forbidden to place an order" (what KuCoin returns, e.g., before a
 * symbol opens; ccxt's kucoin error map: InvalidOrder). An operator's `cancelonly` (admin PUT /sandbox/v1/status)
 * keeps the sandbox's `400350` (docs/sandbox.md "Service status").
 */
import type * as S from '../../../api/schemas';

/** KuCoin's code for a placement the market does not take now. */
export const E_FORBIDDEN_TO_PLACE = '400200';

/** Labels of the market sources (the option `mirror.label` of startSandbox). */
export type MarketSourceLabel = 'mirror' | 'replay';

/** The `msg` prefix of a status a market source set. */
export function sourceStatusPrefix(label: MarketSourceLabel): string {
  return `${label}: `;
}

/** True when `status` is a cancel-only a market source set (its `msg` starts with a source label). */
export function isSourceCancelOnly(status: S.ServiceStatus): boolean {
  return status.status === 'cancelonly' && (status.msg.startsWith(sourceStatusPrefix('mirror')) || status.msg.startsWith(sourceStatusPrefix('replay')));
}

/** The refusal's message: KuCoin's text, then why and since when. */
export function forbiddenToPlaceMsg(status: S.ServiceStatus): string {
  return `Forbidden to place an order (${status.msg})`;
}
