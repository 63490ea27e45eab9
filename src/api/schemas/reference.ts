/**
 * Wire schemas of KuCoin's market and reference data beyond the spec: one symbol
 * (GET /api/v2/symbols/{symbol}), announcements (GET /api/v3/announcements), the caller's IP
 * (GET /api/v1/my-ip) and the call auction (GET /api/v1/market/orderbook/callauction/level2_{20,100},
 * GET /api/v1/market/callauctionData). Shapes from KuCoin's docs-new examples as
 * kucoin-universal-sdk 1.3.0 publishes them (test/fixtures/kucoin/beyond-spec/, SOURCES.md).
 * Conventions: ../schemas.ts (decimal strings, ms times).
 */
import { z } from 'zod';
import { Millis, NullableDecimal, QueryInt, QueryNonNeg, SymbolString, pageOf } from './primitives';

/** Path of GET /api/v2/symbols/{symbol} (and the query of the call-auction endpoints): a trading pair. */
export const SymbolPath = z.object({ symbol: SymbolString });

/**
 * Announcement types of GET /api/v3/announcements (KuCoin "Get Announcements"; default
 * `latest-announcements`, which every announcement carries).
 */
export const AnnouncementType = z.enum(['latest-announcements', 'activities', 'new-listings', 'product-updates', 'vip', 'maintenance-updates', 'delistings', 'others', 'api-campaigns']);
/** Type of {@link AnnouncementType}. */
export type AnnouncementType = z.infer<typeof AnnouncementType>;

/**
 * Query of GET /api/v3/announcements: `currentPage` (≥ 1, default 1), `pageSize` (1..100, default
 * 50), `annType` (default latest-announcements), `lang` (a KuCoin language code such as `en_US`,
 * the default), `startTime`/`endTime` (ms, bounds on `cTime`).
 */
export const AnnouncementsQuery = z.object({
  currentPage: QueryInt.pipe(z.number().int().min(1, 'must be >= 1')).optional(),
  pageSize: QueryInt.pipe(z.number().int().min(1, 'must be 1..100').max(100, 'must be 1..100')).optional(),
  annType: AnnouncementType.optional(),
  lang: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'must be a language code like en_US').optional(),
  startTime: QueryNonNeg.optional(),
  endTime: QueryNonNeg.optional(),
});
/** Input type of {@link AnnouncementsQuery}. */
export type AnnouncementsQuery = z.input<typeof AnnouncementsQuery>;

/** One announcement: id, title, types, description, time (ms), language and URL. */
export const Announcement = z.object({
  annId: z.number().int(),
  annTitle: z.string(),
  annType: z.array(z.string()),
  annDesc: z.string(),
  cTime: Millis,
  language: z.string(),
  annUrl: z.string(),
});
/** Type of {@link Announcement}. */
export type Announcement = z.infer<typeof Announcement>;

/** GET /api/v3/announcements `data`: a page of {@link Announcement}, newest first. */
export const AnnouncementPage = pageOf(Announcement);
/** Type of {@link AnnouncementPage}. */
export type AnnouncementPage = z.infer<typeof AnnouncementPage>;

/** GET /api/v1/my-ip `data`: the caller's IP address as the exchange sees it (a string). */
export const ClientIp = z.string();

/**
 * GET /api/v1/market/callauctionData `data`: the estimated price and size and the accepted price
 * ranges of the call auction of a pair (decimal strings). Outside a call auction (every sandbox
 * pair: `callauctionIsEnabled` false) the estimates and ranges are null.
 */
export const CallAuctionInfo = z.object({
  symbol: z.string(),
  estimatedPrice: NullableDecimal,
  estimatedSize: NullableDecimal,
  sellOrderRangeLowPrice: NullableDecimal,
  sellOrderRangeHighPrice: NullableDecimal,
  buyOrderRangeLowPrice: NullableDecimal,
  buyOrderRangeHighPrice: NullableDecimal,
  time: Millis,
});
/** Type of {@link CallAuctionInfo}. */
export type CallAuctionInfo = z.infer<typeof CallAuctionInfo>;
