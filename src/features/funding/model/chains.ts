/**
 * Currency/chain selection rules for deposits and withdrawals (spec "Currency", "Chain",
 * "POST /api/v1/deposit-addresses"). Pure: no vscode, no Node APIs.
 */
import type { FundingChain, FundingCurrency } from './types';

/**
 * Default chains the spec names for POST /api/v1/deposit-addresses: USDT defaults to ERC20,
 * BTC to Native. Matched case-insensitively against `chainName` or `chainId`
 * (real KuCoin ids: `eth` for ERC20, `btc` for the native BTC chain).
 */
const DEFAULT_CHAINS: Record<string, readonly string[]> = {
  USDT: ['erc20', 'eth'],
  BTC: ['native', 'btc'],
};

/** Chains of `c` on which deposits are enabled, in the server's order. */
export function depositChains(c: FundingCurrency): FundingChain[] {
  return (c.chains ?? []).filter((ch) => ch.isDepositEnabled);
}

/** Chains of `c` on which withdrawals are enabled, in the server's order. */
export function withdrawChains(c: FundingCurrency): FundingChain[] {
  return (c.chains ?? []).filter((ch) => ch.isWithdrawEnabled);
}

/** Currencies with at least one deposit-enabled chain, sorted by code. */
export function depositCurrencies(list: readonly FundingCurrency[]): FundingCurrency[] {
  return list.filter((c) => depositChains(c).length > 0).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Currencies with at least one withdraw-enabled chain, sorted by code. */
export function withdrawCurrencies(list: readonly FundingCurrency[]): FundingCurrency[] {
  return list.filter((c) => withdrawChains(c).length > 0).sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * The default chain among `chains` for `currency`: the spec's named default (USDT → ERC20,
 * BTC → Native) when present, otherwise the first chain. Undefined for an empty list.
 */
export function defaultChain(currency: string, chains: readonly FundingChain[]): FundingChain | undefined {
  const wanted = DEFAULT_CHAINS[currency.toUpperCase()];
  if (wanted) {
    for (const w of wanted) {
      const hit = chains.find((ch) => ch.chainName.toLowerCase() === w || ch.chainId.toLowerCase() === w);
      if (hit) return hit;
    }
  }
  return chains[0];
}

/**
 * True when the chain is the Lightning Network (spec fee rule 4: V4 Lightning withdrawals can
 * only deduct the fee internally). Recognised by chainId `btcln` or a chain name containing "lightning".
 */
export function isLightning(chain: Pick<FundingChain, 'chainId' | 'chainName'>): boolean {
  return chain.chainId.toLowerCase() === 'btcln' || /lightning/i.test(chain.chainName);
}

/**
 * Digits after the point allowed for a withdrawal amount on `chain`: the chain's
 * `withdrawPrecision` when given, else the currency `precision` (spec: amount "a multiple of the
 * amount precision"; the sandbox applies the same rule).
 */
export function amountPrecision(currency: Pick<FundingCurrency, 'precision'>, chain?: Pick<FundingChain, 'withdrawPrecision'>): number {
  const p = chain?.withdrawPrecision;
  return typeof p === 'number' && p >= 0 ? p : currency.precision;
}

/** True when withdrawals/deposits on this chain need a memo (real KuCoin `needTag`). */
export function needsMemo(chain: Pick<FundingChain, 'needTag'>): boolean {
  return chain.needTag === true;
}
