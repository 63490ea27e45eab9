/**
 * The server's only way to the exchange: PUBLIC endpoints of one base URL through the API client
 * (`SpotClient` without credentials — zod-validated, exact decimals, the public rate budget):
 * GET /api/v2/symbols for the rules and GET /api/v1/market/allTickers for the hover's live prices
 * when the client does not supply them. The server never has credentials and signs nothing.
 */
import { SpotClient } from '../api/client';
import { symbolRules } from '../api/orderRules';
import { bookMarket, type MarketResult } from './protocol';
import type { SymbolMeta } from './symbols';

/** How long one allTickers answer serves hovers, ms (the endpoint weighs 15 of the public pool). */
const TICKERS_TTL_MS = 2_000;

/** Public endpoints of the current base URL (a new client per base URL). */
export class PublicApi {
  private client: SpotClient | undefined;
  private tickers: { at: number; url: string; p: Promise<Map<string, MarketResult>> } | undefined;

  private clientFor(baseUrl: string): SpotClient {
    if (this.client?.baseUrl !== baseUrl.replace(/\/+$/, '')) {
      this.client?.close();
      this.client = new SpotClient({ baseUrl, timeoutMs: 8_000, maxRetries: 1 });
      this.tickers = undefined;
    }
    return this.client;
  }

  /**
   * GET /api/v2/symbols of `baseUrl`, as the metadata the server keeps.
   * @throws the client's errors (TransportError, ApiError, ValidationError).
   */
  async symbols(baseUrl: string): Promise<SymbolMeta[]> {
    const list = await this.clientFor(baseUrl).getSymbols();
    return list.map((s) => ({ ...symbolRules(s), baseCurrency: s.baseCurrency, quoteCurrency: s.quoteCurrency, enableTrading: s.enableTrading, market: s.market }));
  }

  /**
   * Best bid/ask and last price of `symbol` from GET /api/v1/market/allTickers (one answer serves
   * every symbol for 2 s); with `depth`, GET /api/v1/market/orderbook/level2_20 instead (its visible
   * levels too: a market order's hover walks them). @returns null for a symbol the exchange does not list.
   * @throws the client's errors.
   */
  async market(baseUrl: string, symbol: string, depth?: boolean): Promise<MarketResult> {
    const client = this.clientFor(baseUrl);
    if (depth) return bookMarket(await client.getLevel2(symbol, 20));
    const now = Date.now();
    if (!this.tickers || this.tickers.url !== client.baseUrl || now - this.tickers.at > TICKERS_TTL_MS) {
      const p = client.getAllTickers().then((r) => {
        const m = new Map<string, MarketResult>();
        for (const t of r.ticker) m.set(t.symbol, { bestBid: t.buy, bestAsk: t.sell, last: t.last, time: r.time, source: 'GET /api/v1/market/allTickers' });
        return m;
      });
      this.tickers = { at: now, url: client.baseUrl, p };
      p.catch(() => {
        if (this.tickers?.p === p) this.tickers = undefined;
      });
    }
    return (await this.tickers.p).get(symbol) ?? null;
  }

  /** Close the client's sockets. */
  dispose(): void {
    this.client?.close();
    this.client = undefined;
  }
}
