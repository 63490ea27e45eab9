/**
 * Market and reference data beyond the spec: one symbol (GET /api/v2/symbols/{symbol}), one
 * currency in V2 (GET /api/v2/currencies/{currency}), announcements (GET /api/v3/announcements),
 * the caller's IP (GET /api/v1/my-ip) and the call auction (GET
 * /api/v1/market/orderbook/callauction/level2_{20,100}, GET /api/v1/market/callauctionData).
 * Read-only: nothing is journaled. Behaviour and codes: docs/sandbox.md "Reference data".
 */
import { SandboxError, type SandboxState } from '../state';
import { resolveChain } from '../world';
import { requireSymbol, type RefHandler } from './context';
import { ANNOUNCEMENTS } from './announcements';

/** The currency of GET /api/v2|v3/currencies/{currency} (code exact or upper-cased), narrowed to `chain` when given; 400100 otherwise. */
export function currencyPayload(state: SandboxState, code: string, chainParam: string | undefined) {
  const cur = state.world.currencyMap.get(code) ?? state.world.currencyMap.get(code.toUpperCase());
  if (!cur) throw new SandboxError('400100', `currency: ${code} is not supported`);
  if (chainParam === undefined || chainParam === '') return cur;
  const chain = resolveChain(cur, chainParam);
  if (!chain) throw new SandboxError('400100', `chain: ${chainParam} is not supported for ${cur.currency}`);
  return { ...cur, chains: [chain] };
}

/**
 * The call-auction book of a pair. Every sandbox pair trades continuously (`callauctionIsEnabled`
 * false in GET /api/v2/symbols): there is no call-auction order, so both sides are empty; the
 * sequence is the pair's book sequence and `time` the sandbox clock.
 */
function callAuctionBook(state: SandboxState, symbol: string) {
  requireSymbol(state, symbol);
  return { sequence: String(state.exchange.sequence(symbol)), time: state.now(), bids: [], asks: [] };
}

/** GET /api/v3/announcements: the {@link ANNOUNCEMENTS} of the type (default latest-announcements) and language (default en_US) within [startTime, endTime], newest first, one page. */
const announcements: RefHandler<'announcements'> = ({ params: p }) => {
  const type = p.annType ?? 'latest-announcements';
  const lang = p.lang ?? 'en_US';
  const list = ANNOUNCEMENTS.filter((a) => a.annType.includes(type) && a.language === lang && (p.startTime === undefined || a.cTime >= p.startTime) && (p.endTime === undefined || a.cTime <= p.endTime)).sort(
    (a, b) => b.cTime - a.cTime,
  );
  const currentPage = p.currentPage ?? 1;
  const pageSize = p.pageSize ?? 50;
  const start = (currentPage - 1) * pageSize;
  return { totalNum: list.length, totalPage: Math.ceil(list.length / pageSize), currentPage, pageSize, items: list.slice(start, start + pageSize).map((a) => ({ ...a, annType: [...a.annType] })) };
};

/** Handlers of the market and reference rows. */
export const MARKET_HANDLERS: { [N in 'symbol' | 'currencyV2' | 'announcements' | 'myIp' | 'callAuctionLevel2_20' | 'callAuctionLevel2_100' | 'callAuctionInfo']: RefHandler<N> } = {
  symbol: ({ state, params }) => {
    const s = state.world.symbolMap.get(params.symbol);
    if (!s) throw new SandboxError('900001', 'symbol not exists!');
    return s;
  },
  currencyV2: ({ state, params }) => currencyPayload(state, params.currency, params.chain),
  announcements,
  // IPv4 callers on a dual-stack socket show as ::ffff:a.b.c.d; KuCoin answers the plain address
  myIp: ({ clientIp }) => (clientIp ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''),
  callAuctionLevel2_20: ({ state, params }) => callAuctionBook(state, params.symbol),
  callAuctionLevel2_100: ({ state, params }) => callAuctionBook(state, params.symbol),
  callAuctionInfo: ({ state, params }) => {
    requireSymbol(state, params.symbol);
    // no call auction on a continuously traded pair: no estimate, no price range
    return {
      symbol: params.symbol,
      estimatedPrice: null,
      estimatedSize: null,
      sellOrderRangeLowPrice: null,
      sellOrderRangeHighPrice: null,
      buyOrderRangeLowPrice: null,
      buyOrderRangeHighPrice: null,
      time: state.now(),
    };
  },
};
