/**
 * kucoin-universal-sdk clients for the conformance suites: the SDK unmodified, pointed at a sandbox.
 */
import { ClientOptionBuilder, DefaultClient, TransportOptionBuilder, WebSocketClientOptionBuilder } from 'kucoin-universal-sdk';

/** The key a sandbox user was created with (createUser). */
export interface SdkCredentials {
  apiKey: string;
  apiSecret: string;
  apiPassphrase: string;
}

// Non-200 answers make the SDK throw axios' "Request failed with status code N": this interceptor (the SDK's own
// hook) appends the sandbox's envelope to the message, so a failure names KuCoin's code.
const explain = {
  before: { onFulfilled: <T>(c: T) => c },
  after: {
    onFulfilled: <T>(r: T) => r,
    onRejected: (e: { message: string; response?: { status: number; data: unknown } }) => {
      if (e.response) e.message = `HTTP ${e.response.status} ${JSON.stringify(e.response.data)}`;
      return Promise.reject(e);
    },
  },
};

/**
 * An SDK client of `baseUrl` (its spot endpoint, and its futures endpoint with `futures`) signing with `c`:
 * keep-alive, 10 s timeout, `retries` retries 10 ms apart (default 0), the envelope in failure messages unless
 * `explain` is false.
 */
export function sdkClient(baseUrl: string, c: SdkCredentials, opts: { retries?: number; explain?: boolean; futures?: boolean } = {}): DefaultClient {
  const transport = new TransportOptionBuilder()
    .setKeepAlive(true)
    .setTimeout(10_000)
    .setMaxRetries(opts.retries ?? 0)
    .setRetryDelay(10);
  if (opts.explain !== false) transport.addInterceptor(explain as never);
  const option = new ClientOptionBuilder()
    .setKey(c.apiKey)
    .setSecret(c.apiSecret)
    .setPassphrase(c.apiPassphrase)
    .setSpotEndpoint(baseUrl)
    .setTransportOption(transport.build())
    .setWebSocketClientOption(new WebSocketClientOptionBuilder().build());
  if (opts.futures) option.setFuturesEndpoint(baseUrl);
  return new DefaultClient(option.build());
}
