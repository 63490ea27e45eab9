/**
 * Messages between the funding webview (src/webview/funding/main.ts) and the extension
 * (src/extension/funding/panel.ts). Secrets never travel here: only the deposit address view,
 * which holds public data.
 */
import type { DepositAddressView } from './summary';

/** Extension → webview. */
export type HostToFunding =
  | { type: 'deposit'; view: DepositAddressView }
  | { type: 'copied'; field: 'address' | 'memo' };

/** Webview → extension. */
export type FundingToHost = { type: 'ready' } | { type: 'copy'; field: 'address' | 'memo' };

/** Runtime check of a webview message (the webview is untrusted input). */
export function isFundingToHost(m: unknown): m is FundingToHost {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return o.type === 'ready' || (o.type === 'copy' && (o.field === 'address' || o.field === 'memo'));
}
