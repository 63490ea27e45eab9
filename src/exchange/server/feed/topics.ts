/**
 * Topics of the sandbox's WebSocket feed: their prefixes, which are private, and the parsing of a
 * subscribe request's `topic` into single-key subscriptions (one per symbol, or the user for
 * private topics). Errors carry KuCoin's codes and texts where known (docs/sandbox.md "Feed").
 */

/** A channel of the feed. */
export type Channel = 'l2' | 'depth5' | 'depth50' | 'ticker' | 'snapshot' | 'match' | 'orderV2' | 'orderV1' | 'balance' | 'advanced';

/** Facts of one channel. */
export interface ChannelDef {
  prefix: string;
  /** Private channels need a private token; their key is the token's user. */
  private: boolean;
  /** Accepts `prefix:all` (every symbol). */
  all?: boolean;
}

/** Every channel of the feed, by name. */
export const CHANNELS: Readonly<Record<Channel, ChannelDef>> = {
  l2: { prefix: '/market/level2', private: false },
  depth5: { prefix: '/spotMarket/level2Depth5', private: false },
  depth50: { prefix: '/spotMarket/level2Depth50', private: false },
  ticker: { prefix: '/market/ticker', private: false, all: true },
  snapshot: { prefix: '/market/snapshot', private: false },
  match: { prefix: '/market/match', private: false },
  orderV2: { prefix: '/spotMarket/tradeOrdersV2', private: true },
  orderV1: { prefix: '/spotMarket/tradeOrders', private: true },
  balance: { prefix: '/account/balance', private: true },
  /** stop and OCO orders (subject `stopOrder`) */
  advanced: { prefix: '/spotMarket/advancedOrders', private: true },
};

const BY_PREFIX = new Map<string, Channel>(Object.entries(CHANNELS).map(([c, d]) => [d.prefix, c as Channel]));

/** Symbols one subscribe request may name (KuCoin: 100 per request). */
export const MAX_SYMBOLS_PER_REQUEST = 100;

/** One single-key subscription: a channel and a symbol, `all`, or a uid. */
export interface TopicKey {
  channel: Channel;
  /** Symbol, 'all', or the uid of a private channel. */
  key: string;
}

/** The id of a {@link TopicKey} within a connection ("l2 BTC-USDT"). */
export function topicKeyId(k: TopicKey): string {
  return `${k.channel} ${k.key}`;
}

/** A refused topic: KuCoin's code and text. */
export interface TopicError {
  code: number;
  data: string;
}

const SYMBOL_RE = /^[A-Za-z0-9]{1,20}-[A-Za-z0-9]{1,20}$/;
const TOPIC_CHARS_RE = /^\/[A-Za-z0-9/]+(?::[A-Za-z0-9,-]+)?$/;

/**
 * Parse a subscribe/unsubscribe `topic`.
 * @param isSymbol whether a symbol exists in the sandbox
 * @param uid the connection's user (private token), undefined for a public token
 * @returns the keys, or the error to answer: 400 "topic … is invalid" (syntax), 404 "topic … is not
 *   found" (unknown prefix or symbol), 509 "exceed max subscription count limitation of 100 per time"
 *   (more than 100 symbols), 401 (private topic on a public token).
 */
export function parseTopic(topic: string, isSymbol: (s: string) => boolean, uid: string | undefined): { keys: TopicKey[] } | TopicError {
  if (topic.length > 4096 || !TOPIC_CHARS_RE.test(topic)) return { code: 400, data: `topic ${topic.slice(0, 200)} is invalid` };
  const colon = topic.indexOf(':');
  const prefix = colon < 0 ? topic : topic.slice(0, colon);
  const channel = BY_PREFIX.get(prefix);
  if (channel === undefined) return { code: 404, data: `topic ${topic.slice(0, 200)} is not found` };
  const def = CHANNELS[channel];
  if (def.private) {
    if (colon >= 0) return { code: 400, data: `topic ${topic.slice(0, 200)} is invalid` };
    if (uid === undefined) return { code: 401, data: `topic ${topic} is private: connect with a token from POST /api/v1/bullet-private` };
    return { keys: [{ channel, key: uid }] };
  }
  if (colon < 0) return { code: 400, data: `topic ${topic} is invalid` };
  const args = topic.slice(colon + 1).split(',');
  if (args.length > MAX_SYMBOLS_PER_REQUEST) return { code: 509, data: `exceed max subscription count limitation of ${MAX_SYMBOLS_PER_REQUEST} per time` };
  const keys: TopicKey[] = [];
  const seen = new Set<string>();
  for (const a of args) {
    if (a === 'all' && def.all) {
      if (args.length > 1) return { code: 400, data: `topic ${topic.slice(0, 200)} is invalid` };
      keys.push({ channel, key: 'all' });
      continue;
    }
    if (!SYMBOL_RE.test(a)) return { code: 400, data: `topic ${topic.slice(0, 200)} is invalid` };
    if (!isSymbol(a)) return { code: 404, data: `topic ${prefix}:${a} is not found` };
    if (seen.has(a)) continue;
    seen.add(a);
    keys.push({ channel, key: a });
  }
  return { keys };
}
