/**
 * What "SpotDesk: Use the Sandbox from a Bot…" offers a trading-bot developer (issue 23): `.env` lines
 * with the embedded sandbox's base URL and key, and client snippets for ccxt (JavaScript, Python) and
 * KuCoin's kucoin-universal-sdk that read those variables. The snippets never contain a secret: they
 * read `KUCOIN_*` from the environment, so the only text that carries the secret and passphrase is the
 * `.env` block, which the extension writes only where the user picks, after a modal.
 *
 * The ccxt snippets point ONLY ccxt's URLs at the sandbox (every entry of `exchange.urls['api']`), the
 * same override the ccxt conformance tests use ({@link ccxtApiUrls}), so what we hand out is what we test.
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

/** ccxt (JavaScript, CommonJS) snippet: `exchange` is a ccxt pro `kucoin` against the sandbox. No secrets. */
export function ccxtJsSnippet(): string {
  return `// npm install ccxt   (KUCOIN_* from your .env, e.g. node --env-file=.env bot.js)
const ccxt = require('ccxt');

const exchange = new ccxt.pro.kucoin({
  apiKey: process.env.${BOT_ENV.apiKey},
  secret: process.env.${BOT_ENV.apiSecret},
  password: process.env.${BOT_ENV.apiPassphrase},
});
// point only ccxt's URLs at the SpotDesk sandbox
for (const k of Object.keys(exchange.urls.api)) exchange.urls.api[k] = process.env.${BOT_ENV.baseUrl};
// before the first watch* call (the sandbox streams on plain ws://, which ccxt loads an agent for):
//   await exchange.loadHttpProxyAgent();
`;
}

/** ccxt (Python) snippet. No secrets. */
export function ccxtPythonSnippet(): string {
  return `# pip install ccxt   (KUCOIN_* from your environment or .env)
import os
import ccxt

exchange = ccxt.kucoin({
    'apiKey': os.environ['${BOT_ENV.apiKey}'],
    'secret': os.environ['${BOT_ENV.apiSecret}'],
    'password': os.environ['${BOT_ENV.apiPassphrase}'],
})
# point only ccxt's URLs at the SpotDesk sandbox
exchange.urls['api'] = {k: os.environ['${BOT_ENV.baseUrl}'] for k in exchange.urls['api']}
`;
}

/** kucoin-universal-sdk (TypeScript) snippet: `spot` is the SDK's spot REST service against the sandbox. No secrets. */
export function universalSdkSnippet(): string {
  return `// npm install kucoin-universal-sdk   (KUCOIN_* from your .env)
import { ClientOptionBuilder, DefaultClient, TransportOptionBuilder } from 'kucoin-universal-sdk';

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
export const spot = client.restService().getSpotService();
`;
}
