/**
 * The order-document language client (loaded on first need by ./index.ts): starts
 * dist/spotorder-language-server.js over node IPC with `vscode-languageclient`, for documents of
 * the `spotorder` language (`*.spotorder.json`, any scheme), and
 * - passes the active profile's base URL (PUBLIC metadata only: GET /api/v2/symbols) in
 *   `initializationOptions`, and again with `spotdesk/profile` whenever the profile changes — never
 *   credentials;
 * - answers the server's `spotdesk/market` requests (the hover's live best bid/ask and last price)
 *   from what the extension has: today GET /api/v1/market/allTickers through
 *   `services.publicClient()`, shared by all hovers for 2 s;
 * - names the request builder's lens commands, so the server offers the code lenses.
 * The LanguageClient restarts a crashed server itself (its default error handler).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  bookMarket,
  MARKET_REQUEST,
  ORDER_LANGUAGE_ID,
  PROFILE_NOTIFICATION,
  STATUS_REQUEST,
  type InitOptions,
  type MarketParams,
  type MarketResult,
  type ProfileParams,
  type SymbolsStatus,
} from '../../../language/protocol';
import { PLACE_ORDER_COMMAND, SHOW_SIGNATURE_COMMAND, TEST_ORDER_COMMAND } from '../../requestBuilder/host/ids';
import type { Services } from '../../../host/services';

/** How long one allTickers answer serves the server's market requests, ms. */
const MARKET_TTL_MS = 2_000;

/** The running client (see module docs). */
export class OrderLanguageClient {
  private clientValue: LanguageClient | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private tickers: { at: number; p: Promise<Map<string, MarketResult>> } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: Services,
  ) {}

  /** The LanguageClient (after {@link start}). */
  get client(): LanguageClient {
    if (!this.clientValue) throw new Error('the order-document language client is not started');
    return this.clientValue;
  }

  /** The active profile's base URL for public endpoints (starts the sandbox for the Sandbox profile); null when unavailable. */
  private async profileParams(): Promise<ProfileParams> {
    const profileName = this.services.profile().name;
    try {
      return { baseUrl: (await this.services.publicClient()).baseUrl, profileName };
    } catch (err) {
      this.services.log.warn(`order documents: no base URL for symbol rules (${err instanceof Error ? err.message : String(err)})`);
      return { baseUrl: this.services.profile().baseUrl ?? null, profileName };
    }
  }

  /** The live market of `symbol` from GET /api/v1/market/allTickers (one answer per 2 s for all symbols). */
  private async market(symbol: string): Promise<MarketResult> {
    const now = Date.now();
    if (!this.tickers || now - this.tickers.at > MARKET_TTL_MS) {
      const p = this.services.publicClient().then(async (c) => {
        const r = await c.getAllTickers();
        return new Map<string, MarketResult>(r.ticker.map((t) => [t.symbol, { bestBid: t.buy, bestAsk: t.sell, last: t.last, time: r.time, source: 'GET /api/v1/market/allTickers' }]));
      });
      this.tickers = { at: now, p };
      p.catch(() => {
        if (this.tickers?.p === p) this.tickers = undefined;
      });
    }
    return (await this.tickers.p).get(symbol) ?? null;
  }

  /** Start the server (initialized with the active profile's base URL) and wire the custom requests. Resolves when it runs. */
  async start(): Promise<void> {
    const module = this.context.asAbsolutePath(path.join('dist', 'spotorder-language-server.js'));
    const run = { module, transport: TransportKind.ipc };
    const serverOptions: ServerOptions = { run, debug: run };
    const storage = this.context.globalStorageUri;
    const initializationOptions: InitOptions = {
      ...(await this.profileParams()),
      ...(storage.scheme === 'file' ? { cacheDir: path.join(storage.fsPath, 'language') } : {}),
      market: 'client',
      commands: { testOrder: TEST_ORDER_COMMAND, showSignature: SHOW_SIGNATURE_COMMAND, placeOrder: PLACE_ORDER_COMMAND },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: ORDER_LANGUAGE_ID }],
      diagnosticCollectionName: 'spotdesk-orders',
      initializationOptions,
    };
    const client = new LanguageClient('spotdesk.orderLanguage', 'SpotDesk Order Documents', serverOptions, clientOptions);
    this.clientValue = client;
    this.disposables.push(
      client.onRequest(MARKET_REQUEST, async (p: MarketParams) => (p.depth ? bookMarket(await (await this.services.publicClient()).getLevel2(p.symbol, 20)) : this.market(p.symbol))),
      this.services.onDidChangeProfile(() => {
        this.tickers = undefined;
        void this.profileParams().then((p) => client.sendNotification(PROFILE_NOTIFICATION, p));
      }),
    );
    await client.start();
  }

  /** The server's symbol-metadata state. */
  status(): Promise<SymbolsStatus> {
    return this.client.sendRequest<SymbolsStatus>(STATUS_REQUEST);
  }

  /** Stop the server and the client. */
  async dispose(): Promise<void> {
    for (const d of this.disposables.splice(0)) d.dispose();
    await this.clientValue?.dispose();
  }
}
