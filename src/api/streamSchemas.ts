/**
 * Zod schemas of every message of KuCoin's spot WebSocket feed (classic, non-UTA), as the sandbox sends them
 * and as KuCoin publishes them (fixtures test/fixtures/kucoin/WS_*.json; docs:
 * https://www.kucoin.com/docs-new/websocket-api/base-info/introduction and the topic pages linked from each
 * schema). They are the single source of truth for the stream client (src/api/stream.ts) and the sandbox's
 * feed (src/exchange/server/feed), whose tests parse what it sends with them.
 *
 * Exactness (the rules of ./schemas): decimal quantities come out as plain decimal **strings** (also those sent
 * as JSON numbers, {@link JsonDecimal}), sequences as **bigint** ({@link Sequence}), nanosecond times as digit
 * **strings** ({@link NanoTime}), millisecond times as numbers ({@link WsMillis}).
 *
 * Message kinds: control messages (welcome, ping, pong, ack, error, subscribe/unsubscribe) and data messages
 * `{topic, type: "message", subject, data, …}` whose `data` schema is chosen by `subject` ({@link SUBJECT_SCHEMAS}).
 * Use {@link decodeStreamMessage} to parse one text frame into a typed {@link StreamMessage}. Details:
 * docs/ARCHITECTURE.md "Stream schemas (`src/api/streamSchemas.ts`)".
 */
import { z } from 'zod';
import { isDecimal } from './decimal';
import { parseJson } from './json';

// ---------------------------------------------------------------------------------------------
// Exact primitives
// ---------------------------------------------------------------------------------------------

/**
 * The plain decimal spelled by a finite JSON number's shortest form: `5.3e-8` → `"0.000000053"`,
 * `1e21` → `"1000000000000000000000"`. Exact with respect to the literal whenever `parseJson`
 * decoded it as a number (it keeps every literal whose digits a double cannot reproduce as a string).
 * @throws RangeError for NaN or ±Infinity.
 */
export function numberToDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const neg = s.startsWith('-');
  const mant = s.slice(neg ? 1 : 0, e);
  const exp = Number(s.slice(e + 1));
  const dot = mant.indexOf('.');
  const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  const point = (dot < 0 ? mant.length : dot) + exp; // position of the decimal point in `digits`
  let out: string;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = digits.slice(0, point) + '.' + digits.slice(point);
  out = out.includes('.') ? out.replace(/0+$/, '').replace(/\.$/, '') : out;
  return neg ? '-' + out : out;
}

/** A decimal sent as a decimal string or a JSON number (`trade.snapshot`); outputs the decimal string. */
export const JsonDecimal = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? numberToDecimal(v) : 'NaN') : v;
  if (!isDecimal(s)) {
    ctx.addIssue({ code: 'custom', message: 'must be a plain decimal (string or number)' });
    return z.NEVER;
  }
  return s;
});

/** A decimal string ('' not allowed). */
const Dec = z.string().refine(isDecimal, { message: 'must be a plain decimal string' });

const DIGITS_RE = /^\d{1,40}$/;

/**
 * An exact non-negative integer sent as a JSON number or a digit string (or a bigint after
 * decoding); outputs a **bigint**. A JSON number above 2^53 that already lost digits is rejected:
 * decode with `parseJson` (it keeps such literals as strings).
 */
export const Sequence = z.union([z.number(), z.string(), z.bigint()]).transform((v, ctx) => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) {
      ctx.addIssue({ code: 'custom', message: 'must be an exact non-negative integer (decode with parseJson)' });
      return z.NEVER;
    }
    return BigInt(v);
  }
  if (!DIGITS_RE.test(v)) {
    ctx.addIssue({ code: 'custom', message: 'must be a non-negative integer' });
    return z.NEVER;
  }
  return BigInt(v);
});

/**
 * A time in nanoseconds (`ts` of order changes, `time` of matches and candles), sent as a JSON number
 * or a digit string; outputs the exact digit string (e.g. `"1729843222921000000"`). A number is
 * accepted when its shortest form spells an integer (digits are then exactly the literal's).
 */
export const NanoTime = z.union([z.number(), z.string(), z.bigint()]).transform((v, ctx) => {
  const s = typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? (Number.isInteger(v) && v >= 0 ? numberToDecimal(v) : '') : v;
  if (!DIGITS_RE.test(s)) {
    ctx.addIssue({ code: 'custom', message: 'must be a non-negative integer time in nanoseconds' });
    return z.NEVER;
  }
  return s;
});

/** Milliseconds since the epoch, sent as a JSON number or a digit string (`account.balance` `time`); outputs a number. */
export const WsMillis = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,15}$/, 'must be integer milliseconds')]).transform(Number);

/** A message id: KuCoin echoes ids as strings; clients send strings or numbers. Outputs the string. */
export const WsId = z.union([z.string().max(128), z.number().int()]).transform((v) => (typeof v === 'number' ? numberToDecimal(v) : v));

/** Order side. */
const WsSide = z.enum(['buy', 'sell']);

// ---------------------------------------------------------------------------------------------
// Control messages (docs: "Create connection", "Ping", "Subscribe", "Unsubscribe")
// ---------------------------------------------------------------------------------------------

/** `{id: connectId, type: "welcome"}`: the first message of a connection. */
export const WsWelcome = z.object({ id: WsId, type: z.literal('welcome') });
/** `{id, type: "ping"}` sent by the client every `pingInterval` ms. */
export const WsPing = z.object({ id: WsId, type: z.literal('ping') });
/** `{id, type: "pong"}`: the answer to a ping, same id. */
export const WsPong = z.object({ id: WsId, type: z.literal('pong'), timestamp: z.number().optional() });
/** `{id, type: "ack"}`: a subscribe/unsubscribe with `response: true` succeeded. */
export const WsAck = z.object({ id: WsId, type: z.literal('ack') });
/**
 * `{id, type: "error", code, data}`: `code` is KuCoin's (401 token is expired, 404 topic not found,
 * 509 limits, 400 bad request; see docs/sandbox.md "Feed"), `data` the text.
 */
export const WsError = z.object({ id: WsId.optional(), type: z.literal('error'), code: z.number().int(), data: z.string() });
/**
 * `{id, type: "subscribe" | "unsubscribe", topic, privateChannel?, response?}` sent by the client.
 * A topic is `prefix:sym1,sym2,…` (up to 100 symbols) or a bare private topic.
 */
export const WsSubscribe = z.object({
  id: WsId,
  type: z.enum(['subscribe', 'unsubscribe']),
  topic: z.string().min(1).max(4096),
  privateChannel: z.boolean().optional(),
  response: z.boolean().optional(),
});
/** Type of {@link WsSubscribe} (input side: ids may be numbers). */
export type WsSubscribe = z.infer<typeof WsSubscribe>;

// ---------------------------------------------------------------------------------------------
// Data payloads, by subject
// ---------------------------------------------------------------------------------------------

/** One change of a level-2 increment: `[price, size, sequence]` (size "0" removes the level). */
export const L2Change = z.tuple([Dec, Dec, Sequence]);

/**
 * `/market/level2:{symbols}`, subject `trade.l2update` (https://www.kucoin.com/docs-new/3470068w0).
 * `sequenceStart`…`sequenceEnd` are the book sequences this message consumes; each change carries
 * its own. Continues the `sequence` of GET level2_20/level2_100.
 */
export const WsL2Update = z.object({
  changes: z.object({ asks: z.array(L2Change), bids: z.array(L2Change) }),
  sequenceEnd: Sequence,
  sequenceStart: Sequence,
  symbol: z.string(),
  time: WsMillis,
});
/** Type of {@link WsL2Update}. */
export type WsL2Update = z.infer<typeof WsL2Update>;

/** `/spotMarket/level2Depth5|50:{symbols}`, subject `level2`: top-N snapshot `[price, size]`, `timestamp` ms. */
export const WsLevel2Depth = z.object({
  asks: z.array(z.tuple([Dec, Dec])),
  bids: z.array(z.tuple([Dec, Dec])),
  timestamp: WsMillis,
});
/** Type of {@link WsLevel2Depth}. */
export type WsLevel2Depth = z.infer<typeof WsLevel2Depth>;

/**
 * `/spotMarket/level1:{symbols}`, subject `level1` (pushed on change, at most every 10 ms): best
 * `[price, size]` per side; `[]` for an empty side (the sandbox's form of a book side without orders).
 */
export const WsLevel1 = z.object({ asks: z.union([z.tuple([Dec, Dec]), z.tuple([])]), bids: z.union([z.tuple([Dec, Dec]), z.tuple([])]), timestamp: WsMillis });

/**
 * `/market/ticker:{symbols}` (subject `trade.ticker`) and `/market/ticker:all` (subject = symbol):
 * last trade `price`/`size`, best bid/ask with sizes, `sequence`, `time` ms. The published
 * per-symbol example spells the time `Time`; both spellings are accepted and come out as `time`.
 */
export const WsTicker = z
  .object({
    sequence: Sequence,
    price: Dec.nullable(),
    size: Dec.nullable(),
    bestAsk: Dec.nullable(),
    bestAskSize: Dec.nullable(),
    bestBid: Dec.nullable(),
    bestBidSize: Dec.nullable(),
    time: WsMillis.optional(),
    Time: WsMillis.optional(),
  })
  .transform(({ Time, ...t }, ctx) => {
    const time = t.time ?? Time;
    if (time === undefined) {
      ctx.addIssue({ code: 'custom', message: 'time: required' });
      return z.NEVER;
    }
    return { ...t, time };
  });
/** Type of {@link WsTicker}. */
export type WsTicker = z.infer<typeof WsTicker>;

/** 24 h / 4 h / 1 h statistics of a snapshot (numbers on the wire, decimal strings here). */
const SnapshotChange = z.object({
  changePrice: JsonDecimal,
  changeRate: JsonDecimal,
  high: JsonDecimal,
  low: JsonDecimal,
  open: JsonDecimal,
  vol: JsonDecimal,
  volValue: JsonDecimal,
});

/**
 * `/market/snapshot:{symbol|market}`, subject `trade.snapshot` (https://www.kucoin.com/docs-new/3470081w0):
 * `{sequence, data: {...}}`. KuCoin sends the decimals as JSON numbers; they come out as decimal strings.
 * Fields SpotDesk does not read are passed through unchecked.
 */
export const WsSnapshot = z.object({
  sequence: Sequence,
  data: z.looseObject({
    symbol: z.string(),
    symbolCode: z.string().optional(),
    baseCurrency: z.string(),
    quoteCurrency: z.string(),
    market: z.string(),
    trading: z.boolean(),
    datetime: WsMillis,
    buy: JsonDecimal.nullable(),
    sell: JsonDecimal.nullable(),
    bidSize: JsonDecimal.nullable().optional(),
    askSize: JsonDecimal.nullable().optional(),
    lastTradedPrice: JsonDecimal.nullable(),
    close: JsonDecimal.nullable().optional(),
    open: JsonDecimal.nullable().optional(),
    high: JsonDecimal.nullable(),
    low: JsonDecimal.nullable(),
    vol: JsonDecimal,
    volValue: JsonDecimal,
    changePrice: JsonDecimal.nullable(),
    changeRate: JsonDecimal.nullable(),
    averagePrice: JsonDecimal.nullable().optional(),
    makerFeeRate: JsonDecimal.optional(),
    takerFeeRate: JsonDecimal.optional(),
    makerCoefficient: JsonDecimal.optional(),
    takerCoefficient: JsonDecimal.optional(),
    marketChange1h: SnapshotChange.optional(),
    marketChange4h: SnapshotChange.optional(),
    marketChange24h: SnapshotChange.optional(),
    markets: z.array(z.string()).optional(),
  }),
});
/** Type of {@link WsSnapshot}. */
export type WsSnapshot = z.infer<typeof WsSnapshot>;

/**
 * `/market/match:{symbols}`, subject `trade.l3match` (https://www.kucoin.com/docs-new/3470084w0):
 * one trade; `side` is the taker's; `sequence` and `tradeId` exact (bigint / digit string), `time` ns.
 */
export const WsMatch = z.object({
  makerOrderId: z.string(),
  takerOrderId: z.string(),
  price: Dec,
  size: Dec,
  side: WsSide,
  sequence: Sequence,
  symbol: z.string(),
  time: NanoTime,
  tradeId: z.union([z.string().regex(DIGITS_RE), z.number().int().nonnegative()]).transform((v) => (typeof v === 'number' ? numberToDecimal(v) : v)),
  type: z.literal('match'),
});
/** Type of {@link WsMatch}. */
export type WsMatch = z.infer<typeof WsMatch>;

/** `/market/candles:{symbol}_{type}`, subject `trade.candles.update`: `[start s, open, close, high, low, volume, turnover]`, `time` ns. */
export const WsCandles = z.object({
  symbol: z.string(),
  candles: z.tuple([z.string().regex(/^\d+$/), Dec, Dec, Dec, Dec, Dec, Dec]),
  time: NanoTime,
});

/**
 * `/spotMarket/tradeOrdersV2` and `/spotMarket/tradeOrders`, subject `orderChange`
 * (https://www.kucoin.com/docs-new/3470073w0, …74w0). `type` received (V2 only) | open | match | update |
 * filled | canceled; `status` new (V2 only) | open | match | done; match fields on `type: "match"`,
 * `oldSize` on `type: "update"`; `ts` in ns (exact digit string), `orderTime` ms.
 */
export const WsOrderChange = z.object({
  orderId: z.string(),
  clientOid: z.string(),
  symbol: z.string(),
  side: WsSide,
  orderType: z.enum(['limit', 'market']),
  type: z.enum(['received', 'open', 'match', 'update', 'filled', 'canceled']),
  status: z.enum(['new', 'open', 'match', 'done']),
  orderTime: WsMillis,
  ts: NanoTime,
  originSize: Dec.optional(),
  size: Dec.optional(),
  price: Dec.optional(),
  filledSize: Dec.optional(),
  remainSize: Dec.optional(),
  canceledSize: Dec.optional(),
  remainFunds: Dec.optional(),
  originFunds: Dec.optional(),
  funds: Dec.optional(),
  oldSize: Dec.optional(),
  matchPrice: Dec.optional(),
  matchSize: Dec.optional(),
  tradeId: z.string().optional(),
  liquidity: z.enum(['maker', 'taker']).optional(),
  feeType: z.enum(['makerFee', 'takerFee']).optional(),
});
/** Type of {@link WsOrderChange}. */
export type WsOrderChange = z.infer<typeof WsOrderChange>;

/**
 * `/account/balance`, subject `account.balance` (https://www.kucoin.com/docs-new/3470075w0): one
 * ledger change of an account; `time` ms (KuCoin sends a digit string).
 */
export const WsBalance = z.object({
  accountId: z.string(),
  currency: z.string(),
  total: Dec,
  available: Dec,
  hold: Dec,
  availableChange: Dec,
  holdChange: Dec,
  relationEvent: z.string(),
  relationEventId: z.string(),
  relationContext: z.object({ symbol: z.string().optional(), orderId: z.string().optional(), tradeId: z.string().optional() }).optional(),
  time: WsMillis,
});
/** Type of {@link WsBalance}. */
export type WsBalance = z.infer<typeof WsBalance>;

/**
 * `/spotMarket/advancedOrders`, subject `stopOrder` (KuCoin docs-new "Stop Order" push; fixture
 * WS_spotMarket_advancedOrders.json): a stop order or OCO leg `open`ed, `triggered` (`triggerSuccess`, and
 * `error` when its order was refused — the sandbox's fields beyond the published example) or `cancel`led;
 * `stop` loss | entry or an OCO leg's kind (l_l_o, l_s_o, e_l_o, e_s_o); `createdAt` ms, `ts` ns.
 */
export const WsStopOrder = z.object({
  orderId: z.string(),
  symbol: z.string(),
  side: WsSide,
  orderType: z.string(),
  type: z.string(),
  size: Dec.optional(),
  funds: Dec.optional(),
  orderPrice: Dec.optional(),
  stop: z.string().optional(),
  stopPrice: Dec.optional(),
  tradeType: z.string().optional(),
  triggerSuccess: z.boolean().optional(),
  error: z.string().optional(),
  createdAt: WsMillis,
  ts: NanoTime,
});
/** Type of {@link WsStopOrder}. */
export type WsStopOrder = z.infer<typeof WsStopOrder>;

/** The data schema of each subject (`/market/ticker:all` messages are dispatched by topic instead). */
export const SUBJECT_SCHEMAS = {
  'trade.l2update': WsL2Update,
  level2: WsLevel2Depth,
  level1: WsLevel1,
  'trade.ticker': WsTicker,
  'trade.snapshot': WsSnapshot,
  'trade.l3match': WsMatch,
  'trade.candles.update': WsCandles,
  orderChange: WsOrderChange,
  'account.balance': WsBalance,
  stopOrder: WsStopOrder,
} as const;

/** A subject of {@link SUBJECT_SCHEMAS}. */
export type StreamSubject = keyof typeof SUBJECT_SCHEMAS;

/** The envelope of a data message; `data` is checked per subject by {@link decodeStreamMessage}. */
export const WsDataEnvelope = z.object({
  topic: z.string(),
  type: z.literal('message'),
  subject: z.string(),
  data: z.unknown(),
  id: z.string().optional(),
  userId: z.string().optional(),
  channelType: z.enum(['public', 'private', 'session']).optional(),
});

/** A decoded data message: `subject` picks the payload type; ticker:all messages have subject `trade.ticker` here and `symbol` from their subject. */
export type StreamData = {
  [S in StreamSubject]: { kind: 'message'; topic: string; subject: S; symbol: string | undefined; userId?: string; data: z.output<(typeof SUBJECT_SCHEMAS)[S]> };
}[StreamSubject];

/** Any decoded frame of the feed. */
export type StreamMessage =
  | StreamData
  | { kind: 'welcome'; id: string }
  | { kind: 'pong'; id: string }
  | { kind: 'ack'; id: string }
  | { kind: 'error'; id: string | undefined; code: number; data: string };

/** Thrown by {@link decodeStreamMessage} for a frame that is not valid JSON or fails its schema. */
export class StreamDecodeError extends Error {
  constructor(
    message: string,
    /** The frame's text (truncated to 200 characters). */
    readonly frame: string,
  ) {
    super(message);
    this.name = 'StreamDecodeError';
  }
}

function issueText(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

/**
 * Decode one text frame of the feed: lossless JSON (./json), then the control or data schema.
 * Unknown subjects are an error (the caller decides whether to skip them).
 * @throws StreamDecodeError for malformed JSON, an unknown message type/subject, or a schema failure.
 */
export function decodeStreamMessage(text: string): StreamMessage {
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (e) {
    throw new StreamDecodeError(`malformed JSON: ${(e as Error).message}`, text.slice(0, 200));
  }
  const type = raw !== null && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  const fail = (msg: string): never => {
    throw new StreamDecodeError(msg, text.slice(0, 200));
  };
  switch (type) {
    case 'message': {
      const env = WsDataEnvelope.safeParse(raw);
      if (!env.success) return fail(`message: ${issueText(env.error)}`);
      const { topic, subject, data, userId } = env.data;
      const colon = topic.indexOf(':');
      const arg = colon < 0 ? undefined : topic.slice(colon + 1);
      const allTickers = arg === 'all' && topic.startsWith('/market/ticker:');
      const key = (allTickers ? 'trade.ticker' : subject) as StreamSubject;
      const schema = Object.prototype.hasOwnProperty.call(SUBJECT_SCHEMAS, key) ? SUBJECT_SCHEMAS[key] : undefined;
      if (schema === undefined) return fail(`unknown subject ${JSON.stringify(subject)} on ${topic}`);
      const parsed = (schema as z.ZodType).safeParse(data);
      if (!parsed.success) return fail(`${topic} ${subject}: ${issueText(parsed.error)}`);
      const symbol = allTickers ? subject : arg !== undefined && !arg.includes(',') ? arg : undefined;
      return { kind: 'message', topic, subject: key, symbol, ...(userId !== undefined ? { userId } : {}), data: parsed.data } as StreamData;
    }
    case 'welcome':
    case 'pong':
    case 'ack': {
      const s = (type === 'welcome' ? WsWelcome : type === 'pong' ? WsPong : WsAck).safeParse(raw);
      if (!s.success) return fail(`${type}: ${issueText(s.error)}`);
      return { kind: type, id: s.data.id };
    }
    case 'error': {
      const s = WsError.safeParse(raw);
      if (!s.success) return fail(`error: ${issueText(s.error)}`);
      return { kind: 'error', id: s.data.id, code: s.data.code, data: s.data.data };
    }
    default:
      return fail(`unknown message type ${JSON.stringify(type)}`);
  }
}
