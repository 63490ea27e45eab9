/** Test data for the funding unit tests: chains shaped like GET /api/v3/currencies. */
import type { FundingAccount, FundingChain, FundingCurrency, WithdrawalDraft } from '../../../src/features/funding/model/types';

/** A chain with a rate, a minimum fee and a cap: fee = max(1, amount × 0.001) capped at 5. */
export const ERC20: FundingChain = {
  chainId: 'eth',
  chainName: 'ERC20',
  isDepositEnabled: true,
  isWithdrawEnabled: true,
  withdrawalMinSize: '10',
  withdrawalMinFee: '1',
  withdrawFeeRate: '0.001',
  withdrawMaxFee: '5',
  withdrawPrecision: 6,
  needTag: false,
  depositMinSize: '1',
  confirms: 64,
};
export const TRC20: FundingChain = { ...ERC20, chainId: 'trx', chainName: 'TRC20', withdrawalMinSize: '1.5', withdrawalMinFee: '1.5', withdrawFeeRate: '0', withdrawMaxFee: '', confirms: 1 };
export const OMNI: FundingChain = { ...ERC20, chainId: 'omni', chainName: 'OMNI', isDepositEnabled: false, isWithdrawEnabled: false };
export const USDT: FundingCurrency = { currency: 'USDT', name: 'USDT', fullName: 'Tether', precision: 8, chains: [OMNI, TRC20, ERC20] };

/** Lightning, from GET_api_v3_currencies.json (BTC, chainId btcln). */
export const BTCLN: FundingChain = {
  chainId: 'btcln',
  chainName: 'Lightning Network',
  isDepositEnabled: true,
  isWithdrawEnabled: true,
  withdrawalMinSize: '0.00001',
  withdrawalMinFee: '0.000015',
  withdrawFeeRate: '0',
  withdrawMaxFee: null,
  withdrawPrecision: 8,
  needTag: false,
  depositMinSize: '0.00001',
  confirms: 1,
};
export const BTC_NATIVE: FundingChain = { ...BTCLN, chainId: 'btc', chainName: 'BTC', withdrawalMinSize: '0.001', withdrawalMinFee: '0.0005', depositMinSize: '0.0002', confirms: 3 };
export const BTC_SEGWIT: FundingChain = { ...BTC_NATIVE, chainId: 'bech32', chainName: 'BTC-Segwit', isWithdrawEnabled: false, confirms: 2 };
export const BTC: FundingCurrency = { currency: 'BTC', name: 'BTC', fullName: 'Bitcoin', precision: 8, chains: [BTCLN, BTC_SEGWIT, BTC_NATIVE] };

/** A memo chain (XRP-like). */
export const XRP_CHAIN: FundingChain = { ...TRC20, chainId: 'xrp', chainName: 'XRP', needTag: true, withdrawPrecision: 6, withdrawalMinSize: '20', withdrawalMinFee: '0.5', depositMinSize: null };
export const XRP: FundingCurrency = { currency: 'XRP', name: 'XRP', fullName: 'Ripple', precision: 6, chains: [XRP_CHAIN] };

/** main/trade accounts of USDT with the given available amounts. */
export function usdtAccounts(main: string, trade: string): FundingAccount[] {
  return [
    { currency: 'USDT', type: 'main', balance: main, available: main, holds: '0' },
    { currency: 'USDT', type: 'trade', balance: trade, available: trade, holds: '0' },
  ];
}

/** A valid V1 draft of 100 USDT on ERC20, fee deducted internally. */
export function v1Draft(over: Partial<WithdrawalDraft> = {}): WithdrawalDraft {
  return {
    currency: 'USDT',
    chain: 'eth',
    withdrawType: 'ADDRESS',
    destination: '0x62d35481cb74fa959aec61d33a5d4507a1234567',
    amount: '100',
    feeDeduction: 'INTERNAL',
    apiVersion: 'V1',
    ...over,
  };
}

/** BOLT 11's example invoice ("Please make a donation of any amount", mainnet, no amount). */
export const LN_INVOICE =
  'lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq8rkx3yf5tcsyz3d73gafnh3cax9rn449d9p5uxz9ezhhypd0elx87sjle52x86fux2ypatgddc6k63n7erqz25le42c4u4ecky03ylcqca784w';
