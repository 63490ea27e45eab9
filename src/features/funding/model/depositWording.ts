/**
 * The deposit panel's words ("funding in words a person uses"): a title that names the
 * network, "1 confirmation" / "12 confirmations", and "Send only X to this address, on the Y
 * network." — never "Send only XRP on XRP". Pure: used by the funding webview, unit-tested.
 */
import type { DepositAddressView } from './summary';

/** What the deposit panel writes for `v`. */
export interface DepositWording {
  /** e.g. "Deposit USDT on TRC20". */
  title: string;
  /** e.g. "TRC20 (chain id trx)". */
  network: string;
  /** e.g. "10 USDT", or "not published". */
  minimum: string;
  /** e.g. "1 confirmation", "12 confirmations", or "not published". */
  confirmations: string;
  /** The sentence under the address. */
  hint: string;
  /** On the sandbox: the banner above everything, e.g. "Sandbox address: not on any blockchain. Do not send real funds." */
  banner?: string;
}

/** The sandbox banner of the deposit panel. */
export const SANDBOX_DEPOSIT_BANNER = 'Sandbox address: not on any blockchain. Do not send real funds.';

/** The words of the deposit panel for `v`. */
export function depositWording(v: DepositAddressView): DepositWording {
  const network = v.chainId && v.chainId.toLowerCase() !== v.chain.toLowerCase() ? `${v.chain} (chain id ${v.chainId})` : v.chain;
  const n = v.confirms;
  if (v.simulated) {
    return {
      title: `Deposit ${v.currency} on ${v.chain} (sandbox)`,
      network,
      minimum: v.depositMinSize !== null ? `${v.depositMinSize} ${v.currency}` : 'not published',
      confirmations: n === null ? 'not published' : `${n} confirmation${n === 1 ? '' : 's'}`,
      banner: SANDBOX_DEPOSIT_BANNER,
      hint: `This address exists only in SpotDesk's sandbox exchange; nothing sent to it on a real network arrives anywhere. To credit it with play money, use "Simulate a Deposit…" (a bot's tests can copy the address).`,
    };
  }
  return {
    title: `Deposit ${v.currency} on ${v.chain}`,
    network,
    minimum: v.depositMinSize !== null ? `${v.depositMinSize} ${v.currency}` : 'not published',
    confirmations: n === null ? 'not published' : `${n} confirmation${n === 1 ? '' : 's'}`,
    hint:
      `Send only ${v.currency} to this address, on the ${v.chain} network${v.memo ? ', with the memo' : ''}.` +
      (v.depositMinSize !== null ? ` Deposits below ${v.depositMinSize} ${v.currency} may not be credited.` : ''),
  };
}
