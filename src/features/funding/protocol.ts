/**
 * Messages between the funding webview (src/features/funding/webview/main.ts) and the extension
 * (src/features/funding/host/panel.ts), declared once for both sides with the shared protocol style
 * (src/webviewBridge/protocol.ts). Secrets never travel here: only the deposit address view,
 * which holds public data.
 */
import * as v from '../../webviewBridge/validate';
import { defineProtocol, type MessageOf } from '../../webviewBridge/protocol';
import type { DepositAddressView } from './model/summary';

const text = (max = 1000) => v.string({ max });
const field = v.oneOf(['address', 'memo'] as const);

const DepositAddressViewSchema: v.Schema<DepositAddressView> = v.object({
  currency: text(40),
  address: text(500),
  memo: text(500),
  chain: text(100),
  chainId: v.optional(text(100)),
  depositMinSize: v.nullable(text(80)),
  confirms: v.nullable(v.number({ int: true, min: 0 })),
  memoWarning: v.optional(text()),
  existing: v.optional(v.boolean()),
  note: v.optional(text()),
  simulated: v.optional(v.boolean()),
});

/** The funding webview's protocol. */
export const FUNDING_PROTOCOL = defineProtocol({
  toWebview: {
    /** Show a deposit address. */
    deposit: v.object({ view: DepositAddressViewSchema }),
    /** The address or memo was put on the clipboard. */
    copied: v.object({ field }),
  },
  toHost: {
    /** The webview script loaded. */
    ready: v.object({}),
    /** Copy the shown address or memo (the extension reads it from its own view, not from the message). */
    copy: v.object({ field }),
    /** Run "SpotDesk: Simulate a Deposit…" for the shown address's currency and chain (sandbox only). */
    simulateDeposit: v.object({}),
  },
});

/** Extension → webview. */
export type ToWebview = MessageOf<typeof FUNDING_PROTOCOL.toWebview>;

/** Webview → extension. */
export type ToHost = MessageOf<typeof FUNDING_PROTOCOL.toHost>;

/** Runtime check of a webview message (the webview is untrusted input). */
export function isFundingToHost(m: unknown): m is ToHost {
  return FUNDING_PROTOCOL.parseToHost(m) !== undefined;
}
