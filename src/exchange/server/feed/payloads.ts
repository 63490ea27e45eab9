/**
 * The feed's messages as raw JSON text, written field by field in KuCoin's shapes (fixtures
 * test/fixtures/kucoin/WS_*.json; schemas src/api/streamSchemas.ts). Building the text by
 * hand keeps every number exact: decimal strings are copied as they are, nanosecond times are digit
 * strings built from the millisecond clock (see {@link NanoClock}), and no value that may exceed
 * 2^53 ever passes through a JS number. Free-form strings (clientOid) go through JSON.stringify;
 * everything else is from a known alphabet (decimal strings, symbols, hex ids, uids, currency codes).
 */
import type { AdvancedOrderEvent, BalanceEvent, OrderEvent, TradeEvent } from './events';

/**
 * Nanosecond timestamps as digit strings, strictly increasing: `ms` followed by a 6-digit counter
 * that restarts at each new millisecond (KuCoin's `ts` of order changes and `time` of matches are ns).
 */
export class NanoClock {
  private ms = -1;
  private n = 0;
  /** The next ns timestamp within millisecond `ms` (a counter beyond 999,999 spills into the next ms). */
  next(ms: number): string {
    if (ms > this.ms) {
      this.ms = ms;
      this.n = 0;
    } else if (++this.n > 999_999) {
      this.ms++;
      this.n = 0;
    }
    return `${this.ms}${String(this.n).padStart(6, '0')}`;
  }
}

/** `["price","size","seq"]` of a level-2 change. */
export function l2Change(price: string, size: string, sequence: number): string {
  return `["${price}","${size}","${sequence}"]`;
}

/** A `trade.l2update` message of `symbol`: changes (each from {@link l2Change}) and their sequence span. */
export function l2UpdateMessage(symbol: string, asks: string[], bids: string[], start: number, end: number, time: number): string {
  return (
    `{"topic":"/market/level2:${symbol}","type":"message","subject":"trade.l2update","data":{"changes":{"asks":[${asks.join(',')}],"bids":[${bids.join(',')}]},` +
    `"sequenceEnd":${end},"sequenceStart":${start},"symbol":"${symbol}","time":${time}}}`
  );
}

/** A `trade.l3match` message (`time` in ns as a digit string, `sequence`/`tradeId` as digit strings). */
export function matchMessage(e: TradeEvent, timeNs: string): string {
  return (
    `{"topic":"/market/match:${e.symbol}","type":"message","subject":"trade.l3match","data":{"makerOrderId":"${e.makerOrderId}","price":"${e.price}",` +
    `"sequence":"${e.sequence}","side":"${e.side}","size":"${e.size}","symbol":"${e.symbol}","takerOrderId":"${e.takerOrderId}","time":"${timeNs}",` +
    `"tradeId":"${e.tradeId}","type":"match"}}`
  );
}

/** `status` of an order change: `received` → new, `filled`/`canceled` → done, a taker's match → match, else open (done when nothing remains). */
export function orderStatus(e: OrderEvent): 'new' | 'open' | 'match' | 'done' {
  switch (e.type) {
    case 'received':
      return 'new';
    case 'filled':
    case 'canceled':
      return 'done';
    case 'match':
      return e.match?.liquidity === 'taker' ? 'match' : 'open';
    default:
      return /^0*(\.0*)?$/.test(e.remainSize) ? 'done' : 'open';
  }
}

/**
 * An `orderChange` message of `/spotMarket/tradeOrdersV2` or `/spotMarket/tradeOrders` (KuCoin's
 * fields; `ts` ns as a raw number literal, `orderTime` ms; match fields on `match`, `oldSize` on
 * `update`). `originSize` = `size` (the order's size as placed, as the HF order view shows it);
 * `price`, `size` and `originSize` are left out when empty (a market order by funds),
 * `funds`/`remainFunds` are given for orders by funds.
 */
export function orderMessage(topic: string, e: OrderEvent, tsNs: string): string {
  let opt = '';
  if (e.price !== '') opt += `,"price":"${e.price}"`;
  if (e.size !== '') opt += `,"originSize":"${e.size}","size":"${e.size}"`;
  if (e.funds !== '' && e.funds !== '0') opt += `,"funds":"${e.funds}","remainFunds":"${e.remainFunds}"`;
  if (e.match) {
    const m = e.match;
    opt += `,"feeType":"${m.liquidity === 'maker' ? 'makerFee' : 'takerFee'}","liquidity":"${m.liquidity}","matchPrice":"${m.price}","matchSize":"${m.size}","tradeId":"${m.tradeId}"`;
  }
  if (e.oldSize !== undefined) opt += `,"oldSize":"${e.oldSize}"`;
  return (
    `{"topic":"${topic}","type":"message","subject":"orderChange","userId":"${e.uid}","channelType":"private","data":{"canceledSize":"${e.canceledSize}",` +
    `"clientOid":${JSON.stringify(e.clientOid)},"filledSize":"${e.filledSize}","orderId":"${e.orderId}","orderTime":${e.orderTime},"orderType":"${e.orderType}",` +
    `"remainSize":"${e.remainSize}","side":"${e.side}","status":"${orderStatus(e)}","symbol":"${e.symbol}","ts":${tsNs},"type":"${e.type}"${opt}}}`
  );
}

/** An `account.balance` message (`time` ms as a digit string, as KuCoin sends it). */
export function balanceMessage(e: BalanceEvent): string {
  const c = e.relationContext;
  let ctx = '';
  if (c) {
    const parts: string[] = [];
    if (c.symbol !== undefined) parts.push(`"symbol":"${c.symbol}"`);
    if (c.orderId !== undefined) parts.push(`"orderId":"${c.orderId}"`);
    if (c.tradeId !== undefined) parts.push(`"tradeId":"${c.tradeId}"`);
    ctx = `"relationContext":{${parts.join(',')}},`;
  }
  return (
    `{"topic":"/account/balance","type":"message","subject":"account.balance","id":${JSON.stringify(e.relationEventId)},"userId":"${e.uid}","channelType":"private",` +
    `"data":{"accountId":"${e.accountId}","available":"${e.available}","availableChange":"${e.availableChange}","currency":"${e.currency}","hold":"${e.hold}",` +
    `"holdChange":"${e.holdChange}",${ctx}"relationEvent":"${e.relationEvent}","relationEventId":${JSON.stringify(e.relationEventId)},"time":"${e.time}","total":"${e.total}"}}`
  );
}

/** A JSON string literal, or `null`. */
function str(v: string | null): string {
  return v === null ? 'null' : `"${v}"`;
}

/** Best bid/ask and last trade of a symbol, as the ticker topics show them. */
export interface TickerState {
  sequence: number;
  price: string | null;
  size: string | null;
  bestAsk: string | null;
  bestAskSize: string | null;
  bestBid: string | null;
  bestBidSize: string | null;
  time: number;
}

/** A `trade.ticker` message of `/market/ticker:{symbol}`, or of `/market/ticker:all` (subject = symbol) when `all`. */
export function tickerMessage(symbol: string, t: TickerState, all: boolean): string {
  const head = all ? `{"topic":"/market/ticker:all","type":"message","subject":"${symbol}"` : `{"topic":"/market/ticker:${symbol}","type":"message","subject":"trade.ticker"`;
  return (
    `${head},"data":{"bestAsk":${str(t.bestAsk)},"bestAskSize":${str(t.bestAskSize)},"bestBid":${str(t.bestBid)},"bestBidSize":${str(t.bestBidSize)},` +
    `"price":${str(t.price)},"sequence":"${t.sequence}","size":${str(t.size)},"time":${t.time}}}`
  );
}

/** A `level2` message of `/spotMarket/level2Depth{5,50}:{symbol}`: top-N `[price, size]` per side. */
export function depthMessage(prefix: string, symbol: string, asks: [string, string][], bids: [string, string][], timestamp: number): string {
  const side = (l: [string, string][]): string => l.map(([p, s]) => `["${p}","${s}"]`).join(',');
  return `{"topic":"${prefix}:${symbol}","type":"message","subject":"level2","data":{"asks":[${side(asks)}],"bids":[${side(bids)}],"timestamp":${timestamp}}}`;
}

/** A JSON number literal spelling a decimal string exactly (`null` for null). */
function num(v: string | null): string {
  return v === null ? 'null' : v;
}

/** Statistics over a time window (decimal strings; null without trades). */
export interface WindowStats {
  open: string | null;
  high: string | null;
  low: string | null;
  last: string | null;
  vol: string;
  volValue: string;
  changePrice: string | null;
  changeRate: string | null;
  averagePrice: string | null;
}

/** Symbol facts a snapshot shows. */
export interface SnapshotFacts {
  symbol: string;
  baseCurrency: string;
  quoteCurrency: string;
  market: string;
  trading: boolean;
  makerFeeCoefficient: string;
  takerFeeCoefficient: string;
}

function changeObject(w: WindowStats): string {
  return (
    `{"changePrice":${num(w.changePrice ?? '0')},"changeRate":${num(w.changeRate ?? '0')},"high":${num(w.high ?? '0')},"low":${num(w.low ?? '0')},` +
    `"open":${num(w.open ?? '0')},"vol":${num(w.vol)},"volValue":${num(w.volValue)}}`
  );
}

/**
 * A `trade.snapshot` message of `/market/snapshot:{symbol}`: KuCoin's fields with its JSON-number
 * decimals written as exact literals; 24 h statistics plus the 1 h and 4 h windows.
 */
export function snapshotMessage(
  f: SnapshotFacts,
  t: TickerState,
  day: WindowStats,
  h4: WindowStats,
  h1: WindowStats,
): string {
  return (
    `{"topic":"/market/snapshot:${f.symbol}","type":"message","subject":"trade.snapshot","data":{"sequence":"${t.sequence}","data":{` +
    `"askSize":${num(t.bestAskSize)},"averagePrice":${num(day.averagePrice)},"baseCurrency":"${f.baseCurrency}","bidSize":${num(t.bestBidSize)},"board":0,` +
    `"buy":${num(t.bestBid)},"changePrice":${num(day.changePrice)},"changeRate":${num(day.changeRate)},"close":${num(day.last ?? t.price)},"datetime":${t.time},` +
    `"high":${num(day.high)},"lastTradedPrice":${num(day.last ?? t.price)},"low":${num(day.low)},"makerCoefficient":${f.makerFeeCoefficient},"makerFeeRate":0.001,` +
    `"marginTrade":false,"mark":0,"market":"${f.market}","marketChange1h":${changeObject(h1)},"marketChange24h":${changeObject(day)},"marketChange4h":${changeObject(h4)},` +
    `"markets":["${f.market}"],"open":${num(day.open)},"quoteCurrency":"${f.quoteCurrency}","sell":${num(t.bestAsk)},"siteTypes":["global"],"sort":100,` +
    `"symbol":"${f.symbol}","symbolCode":"${f.symbol}","takerCoefficient":${f.takerFeeCoefficient},"takerFeeRate":0.001,"trading":${f.trading},` +
    `"vol":${num(day.vol)},"volValue":${num(day.volValue)}}}}`
  );
}

/** A control message `{"id": id, "type": type}` (welcome, pong, ack). */
export function controlMessage(id: string, type: 'welcome' | 'pong' | 'ack'): string {
  return `{"id":${JSON.stringify(id)},"type":"${type}"}`;
}

/** An error message `{"id", "type": "error", "code", "data"}`. */
export function errorMessage(id: string | undefined, code: number, data: string): string {
  return id === undefined ? `{"type":"error","code":${code},"data":${JSON.stringify(data)}}` : `{"id":${JSON.stringify(id)},"type":"error","code":${code},"data":${JSON.stringify(data)}}`;
}

/**
 * A `stopOrder` message of `/spotMarket/advancedOrders` (KuCoin docs-new, fixture WS_spotMarket_advancedOrders.json):
 * `type` open | triggered | cancel, `orderType` "stop", `stop` loss | entry or an OCO leg's kind, `createdAt` ms,
 * `ts` ns as a raw number literal; `orderPrice` for limit orders, `size` / `funds` as placed; on `triggered`
 * `triggerSuccess` (and `error` when the order was refused).
 */
export function advancedOrderMessage(e: AdvancedOrderEvent, tsNs: string): string {
  let opt = '';
  if (e.orderPrice !== undefined) opt += `,"orderPrice":"${e.orderPrice}"`;
  if (e.size !== undefined) opt += `,"size":"${e.size}"`;
  if (e.funds !== undefined) opt += `,"funds":"${e.funds}"`;
  if (e.triggerSuccess !== undefined) opt += `,"triggerSuccess":${e.triggerSuccess}`;
  if (e.error !== undefined) opt += `,"error":${JSON.stringify(e.error)}`;
  return (
    `{"topic":"/spotMarket/advancedOrders","type":"message","subject":"stopOrder","userId":"${e.uid}","channelType":"private","data":{` +
    `"createdAt":${e.createdAt},"orderId":"${e.orderId}","orderType":"stop","side":"${e.side}","stop":"${e.stop}","stopPrice":"${e.stopPrice}",` +
    `"symbol":"${e.symbol}","tradeType":"TRADE","ts":${tsNs},"type":"${e.type}"${opt}}}`
  );
}
