/**
 * The sandbox's announcements (GET /api/v3/announcements): a small fixed list about the sandbox
 * world itself, in KuCoin's item shape (`annId`, `annTitle`, `annType` with `latest-announcements`
 * on every item as KuCoin tags them, `annDesc`, `cTime` ms, `language`, `annUrl`). English only.
 */
import type { Announcement } from '../../../api/schemas';

/** Every announcement the sandbox serves (newest first). Frozen: handlers copy what they answer. */
export const ANNOUNCEMENTS: readonly Readonly<Announcement>[] = Object.freeze([
  {
    annId: 1005,
    annTitle: 'SpotDesk Sandbox Adds USDT on BEP20, Solana and NEAR',
    annType: ['latest-announcements', 'product-updates'],
    annDesc: 'Deposits and withdrawals of USDT are open on BEP20 (bsc), Solana (sol) and NEAR (near). Sandbox addresses are not on any blockchain.',
    cTime: 1735689600000,
    language: 'en_US',
    annUrl: 'https://spotdesk.invalid/announcement/usdt-new-chains',
  },
  {
    annId: 1004,
    annTitle: 'BTCP-BTC Trading Suspended',
    annType: ['latest-announcements', 'delistings'],
    annDesc: 'Trading of the BTCP-BTC pair is disabled in the sandbox (enableTrading false); its market data is not pushed.',
    cTime: 1733011200000,
    language: 'en_US',
    annUrl: 'https://spotdesk.invalid/announcement/btcp-btc-suspended',
  },
  {
    annId: 1003,
    annTitle: 'Scheduled Sandbox Maintenance: Cancel-Only Mode Drills',
    annType: ['latest-announcements', 'maintenance-updates'],
    annDesc: 'The sandbox admin API can put the exchange in cancel-only or closed mode (GET /api/v1/status) so that bots can rehearse maintenance windows.',
    cTime: 1730419200000,
    language: 'en_US',
    annUrl: 'https://spotdesk.invalid/announcement/maintenance-drills',
  },
  {
    annId: 1002,
    annTitle: 'TON (TON) Gets Listed on the SpotDesk Sandbox',
    annType: ['latest-announcements', 'new-listings'],
    annDesc: 'Trading: TON-USDT. Deposits and withdrawals on the TON chain need a memo.',
    cTime: 1727740800000,
    language: 'en_US',
    annUrl: 'https://spotdesk.invalid/announcement/ton-listing',
  },
  {
    annId: 1001,
    annTitle: 'API Campaign: Run Your Bot Against the SpotDesk Sandbox',
    annType: ['latest-announcements', 'api-campaigns', 'activities'],
    annDesc: 'Unmodified ccxt and kucoin-universal-sdk bots run against the sandbox with only their URLs and keys changed.',
    cTime: 1725148800000,
    language: 'en_US',
    annUrl: 'https://spotdesk.invalid/announcement/api-campaign',
  },
]);
