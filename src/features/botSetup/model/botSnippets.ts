/**
 * What "SpotDesk: Use the Sandbox from a Bot…" offers a trading-bot developer: `.env` lines
 * with the embedded sandbox's base URL and key, and client snippets for ccxt (JavaScript, Python) and
 * KuCoin's kucoin-universal-sdk that read those variables. The snippets never contain a secret: they
 * read `KUCOIN_*` from the environment, so the only text that carries the secret and passphrase is the
 * `.env` block, which the extension writes only where the user picks, after a modal.
 *
 * The ccxt snippets point ONLY ccxt's URLs at the sandbox (every entry of `exchange.urls['api']`), the
 * same override the ccxt conformance tests use ({@link ccxtApiUrls}), so what we hand out is what we test.
 *
 * Every snippet is a complete program that runs as given (test/unit/shared/botSnippets.test.ts writes
 * each to a file and runs it against a sandbox): it reads the key, prints real data (balances, the
 * book) and exits. Each comes in two variants ({@link SnippetVariant}): for the embedded sandbox
 * (plain HTTP and ws://) and for a sandbox started with `--tls` (HTTPS and wss://, its CA trusted
 * through the environment; docs/sandbox.md "TLS").
 */

/** The sandbox's connection data. `apiSecret`/`apiPassphrase` are secrets. */
export interface BotCredentials {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
  keyVersion: string;
}

/** Names of the environment variables the snippets read, in `.env` order. */
export const BOT_ENV = {
  baseUrl: 'KUCOIN_BASE_URL',
  apiKey: 'KUCOIN_API_KEY',
  apiSecret: 'KUCOIN_API_SECRET',
  apiPassphrase: 'KUCOIN_API_PASSPHRASE',
  keyVersion: 'KUCOIN_API_KEY_VERSION',
} as const;

/**
 * `.env` lines (with a comment header) for `c`. Contains the secret and the passphrase.
 * @param now ms since epoch, stamped in the header comment
 */
export function envLines(c: BotCredentials, now: number): string {
  const stamp = new Date(now).toISOString().slice(0, 19).replace('T', ' ');
  return [
    `# SpotDesk sandbox (local exchange on this machine, not real money), ${stamp} UTC`,
    `${BOT_ENV.baseUrl}=${c.baseUrl}`,
    `${BOT_ENV.apiKey}=${c.apiKey}`,
    `${BOT_ENV.apiSecret}=${c.apiSecret}`,
    `${BOT_ENV.apiPassphrase}=${c.apiPassphrase}`,
    `${BOT_ENV.keyVersion}=${c.keyVersion}`,
    '',
  ].join('\n');
}

/**
 * Merge `lines` (from {@link envLines}) into an existing `.env` text: every KUCOIN_* variable it sets
 * is replaced in place (its old line and a SpotDesk comment above it dropped), other lines are kept,
 * and the block is appended at the end.
 */
export function mergeEnv(existing: string, lines: string): string {
  const names = new Set<string>(Object.values(BOT_ENV));
  const kept = existing
    .split('\n')
    .filter((l) => !names.has(l.split('=')[0].trim()) && !l.startsWith('# SpotDesk sandbox ('));
  while (kept.length && kept[kept.length - 1].trim() === '') kept.pop();
  return (kept.length ? kept.join('\n') + '\n\n' : '') + lines;
}

/**
 * The URL override ccxt needs to use the sandbox: every API URL of ccxt's `kucoin` class set to the
 * sandbox's base URL (ccxt keeps one URL per API family: public, private, futures, broker, …).
 */
export function ccxtApiUrls(apiUrls: Record<string, unknown>, baseUrl: string): Record<string, string> {
  return Object.fromEntries(Object.keys(apiUrls).map((k) => [k, baseUrl]));
}

/**
 * Which sandbox a snippet is for: `plain` — the embedded one (and `npm run sandbox` without --tls),
 * http:// and ws://; `tls` — one started with `npm run sandbox -- --tls`, https:// and wss:// with a
 * certificate of the sandbox's own CA, STATE_DIR/ca.pem, that the client must trust.
 */
export type SnippetVariant = 'plain' | 'tls';

/** Default state dir of `npm run sandbox` (src/exchange/cli.ts), where a --tls sandbox keeps `ca.pem`. */
export const DEFAULT_STATE_DIR = '.spotdesk-sandbox';

/** The lines (without comment markers) that say where a --tls sandbox's URL, key and CA come from. */
function tlsPreamble(): string[] {
  return [
    'For a sandbox started with --tls (npm run sandbox -- --tls [--state-dir DIR]): HTTPS and wss://, with a',
    `certificate of the sandbox's own CA, DIR/ca.pem (default DIR: ${DEFAULT_STATE_DIR}).`,
    `${BOT_ENV.baseUrl} is the https:// URL it prints; the key, secret and passphrase are in DIR/credentials.json.`,
  ];
}

/**
 * ccxt (JavaScript, CommonJS) program: a ccxt pro `kucoin` against the sandbox prints the USDT balance
 * (REST, signed) and the best BTC/USDT bid and ask from `watchOrderBook(…, 5)` (WebSocket; the depth-5
 * topic answers at once, where the full book waits for 5 increments of a quiet market), then closes.
 * `plain`: calls `loadHttpProxyAgent()` first, because ccxt in Node refuses ws:// URLs until its HTTP
 * agent is loaded (ccxt's message: "to use proxy with non-ssl ws:// urls, at first run `await
 * exchange.loadHttpProxyAgent()`"). `tls`: no such call (wss://); Node trusts the CA through
 * NODE_EXTRA_CA_CERTS, which must be set when node starts (a --env-file is read too late for it).
 * No secrets.
 */
export function ccxtJsSnippet(variant: SnippetVariant = 'plain'): string {
  const head =
    variant === 'plain'
      ? [
          '// ccxt against the SpotDesk sandbox (a local exchange on this machine, not real money).',
          '// npm install ccxt; save this as bot.js next to the .env of "SpotDesk: Use the Sandbox from a Bot…"; run',
          '//   node --env-file=.env bot.js',
        ]
      : [
          '// ccxt against the SpotDesk sandbox (a local exchange on this machine, not real money).',
          ...tlsPreamble().map((l) => `// ${l}`),
          `// npm install ccxt; save this as bot.js next to a .env with the KUCOIN_* lines; run`,
          `//   NODE_EXTRA_CA_CERTS=${DEFAULT_STATE_DIR}/ca.pem node --env-file=.env bot.js`,
        ];
  const agent =
    variant === 'plain'
      ? ['  // the sandbox streams on plain ws://, which ccxt in Node opens only once its HTTP agent is loaded', '  await exchange.loadHttpProxyAgent();']
      : [];
  return `${head.join('\n')}
const ccxt = require('ccxt');

async function main() {
  const exchange = new ccxt.pro.kucoin({
    apiKey: process.env.${BOT_ENV.apiKey},
    secret: process.env.${BOT_ENV.apiSecret},
    password: process.env.${BOT_ENV.apiPassphrase},
  });
  // point only ccxt's URLs at the SpotDesk sandbox
  for (const k of Object.keys(exchange.urls.api)) exchange.urls.api[k] = process.env.${BOT_ENV.baseUrl};
${agent.map((l) => l + '\n').join('')}  try {
    const balance = await exchange.fetchBalance();
    console.log('USDT', balance.USDT);
    // the top 5 levels of each side as the exchange pushes them (/spotMarket/level2Depth5); without a
    // limit ccxt keeps the whole book from /market/level2 increments once 5 of them arrived
    const book = await exchange.watchOrderBook('BTC/USDT', 5);
    console.log('BTC/USDT best bid', book.bids[0], 'best ask', book.asks[0]);
  } finally {
    await exchange.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;
}

/**
 * ccxt (Python, synchronous REST) program: prints the USDT balance and the best BTC/USDT bid and ask.
 * `tls`: Python's ccxt uses `requests`, which trusts the CA through REQUESTS_CA_BUNDLE. No secrets.
 */
export function ccxtPythonSnippet(variant: SnippetVariant = 'plain'): string {
  const head =
    variant === 'plain'
      ? [
          '# ccxt against the SpotDesk sandbox (a local exchange on this machine, not real money).',
          '# pip install ccxt; save this as bot.py next to the .env of "SpotDesk: Use the Sandbox from a Bot…"; run',
          '#   set -a; . ./.env; set +a; python3 bot.py',
        ]
      : [
          '# ccxt against the SpotDesk sandbox (a local exchange on this machine, not real money).',
          ...tlsPreamble().map((l) => `# ${l}`),
          '# pip install ccxt; save this as bot.py next to a .env with the KUCOIN_* lines; run',
          `#   set -a; . ./.env; set +a; REQUESTS_CA_BUNDLE=${DEFAULT_STATE_DIR}/ca.pem python3 bot.py`,
        ];
  return `${head.join('\n')}
import os

import ccxt

exchange = ccxt.kucoin({
    'apiKey': os.environ['${BOT_ENV.apiKey}'],
    'secret': os.environ['${BOT_ENV.apiSecret}'],
    'password': os.environ['${BOT_ENV.apiPassphrase}'],
})
# point only ccxt's URLs at the SpotDesk sandbox
exchange.urls['api'] = {k: os.environ['${BOT_ENV.baseUrl}'] for k in exchange.urls['api']}

balance = exchange.fetch_balance()
print('USDT', balance['USDT'])
book = exchange.fetch_order_book('BTC/USDT')
print('BTC/USDT best bid', book['bids'][0], 'best ask', book['asks'][0])
`;
}

/**
 * kucoin-universal-sdk (TypeScript, run with tsx) program: prints the BTC-USDT ticker and the USDT
 * trade account (REST). `tls`: the SDK's HTTP client is Node's, so NODE_EXTRA_CA_CERTS. No secrets.
 */
export function universalSdkSnippet(variant: SnippetVariant = 'plain'): string {
  const head =
    variant === 'plain'
      ? [
          "// KuCoin's kucoin-universal-sdk against the SpotDesk sandbox (a local exchange on this machine, not real money).",
          '// npm install kucoin-universal-sdk tsx; save this as bot.ts next to the .env of "SpotDesk: Use the Sandbox from a Bot…"; run',
          '//   npx tsx --env-file=.env bot.ts',
        ]
      : [
          "// KuCoin's kucoin-universal-sdk against the SpotDesk sandbox (a local exchange on this machine, not real money).",
          ...tlsPreamble().map((l) => `// ${l}`),
          '// npm install kucoin-universal-sdk tsx; save this as bot.ts next to a .env with the KUCOIN_* lines; run',
          `//   NODE_EXTRA_CA_CERTS=${DEFAULT_STATE_DIR}/ca.pem npx tsx --env-file=.env bot.ts`,
        ];
  return `${head.join('\n')}
import { Account, ClientOptionBuilder, DefaultClient, Spot, TransportOptionBuilder } from 'kucoin-universal-sdk';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(\`\${name} is not set (see your .env)\`);
  return v;
};
const client = new DefaultClient(
  new ClientOptionBuilder()
    .setKey(env('${BOT_ENV.apiKey}'))
    .setSecret(env('${BOT_ENV.apiSecret}'))
    .setPassphrase(env('${BOT_ENV.apiPassphrase}'))
    .setSpotEndpoint(env('${BOT_ENV.baseUrl}')) // the SpotDesk sandbox
    .setTransportOption(new TransportOptionBuilder().build())
    .build(),
);
const rest = client.restService();

async function main(): Promise<void> {
  const ticker = await rest.getSpotService().getMarketApi().getTicker(Spot.Market.GetTickerReq.create({ symbol: 'BTC-USDT' }));
  console.log(\`BTC-USDT last \${ticker.price}, best bid \${ticker.bestBid}, best ask \${ticker.bestAsk}\`);
  const accounts = await rest
    .getAccountService()
    .getAccountApi()
    .getSpotAccountList(Account.Account.GetSpotAccountListReq.create({ currency: 'USDT', type: Account.Account.GetSpotAccountListReq.TypeEnum.TRADE }));
  for (const a of accounts.data) console.log(\`\${a.currency} \${a.type} account: available \${a.available}, on hold \${a.holds}\`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
`;
}
