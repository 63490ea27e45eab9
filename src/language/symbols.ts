/**
 * The language server's symbol metadata (GET /api/v2/symbols of the active profile's base URL):
 * the trading rules every order is checked against, with a refresh policy and an offline copy.
 *
 * Refresh policy:
 * - fetched metadata is FRESH for `maxAgeMs` (default 5 minutes); after that it is STALE: still
 *   used, and the next use starts one background refresh (never blocking a diagnostic);
 * - a failed fetch keeps the last known metadata (in memory, else the copy on disk) and marks the
 *   state OFFLINE (`error` says why); the next attempt waits 15 s, doubling up to 5 minutes;
 * - every successful fetch is written to `cacheDir` (one file per base URL, written atomically),
 *   so a server started without network checks against the last known rules and says so;
 * - a new base URL (profile change) drops the in-memory copy and loads that URL's disk copy.
 *
 * `onChange` fires when the metadata in use or the state changes (the server re-publishes
 * diagnostics then). Public data only: the server never has credentials.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SymbolRules } from '../api/orderRules';
import type { SymbolsStatus } from './protocol';

/** The metadata of one symbol the server uses: its rules plus the names shown in completion/hover. */
export interface SymbolMeta extends SymbolRules {
  baseCurrency: string;
  quoteCurrency: string;
  enableTrading: boolean;
  /** Market name (e.g. "USDS"), when known. */
  market?: string;
}

/** Options of {@link SymbolStore}. */
export interface SymbolStoreOptions {
  /** GET /api/v2/symbols of `baseUrl`. @throws on any failure (transport, HTTP, envelope, schema). */
  fetchSymbols(baseUrl: string): Promise<SymbolMeta[]>;
  /** Directory of the offline copies (created on first write); undefined: no disk copy. */
  cacheDir: string | undefined;
  /** Freshness of fetched metadata, ms (default 300 000). */
  maxAgeMs?: number;
  /** Clock, epoch ms (default Date.now). */
  now?: () => number;
  /** Called when the metadata in use or the state changed. */
  onChange(): void;
  /** Log line (no secrets: the server has none). */
  log(line: string): void;
}

/** First wait after a failed fetch, ms; doubled per failure up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 300_000;

/** Shape of a disk copy. */
interface DiskCopy {
  baseUrl: string;
  fetchedAt: number;
  symbols: SymbolMeta[];
}

/** The default directory of offline copies: `$XDG_CACHE_HOME/spotdesk`, `~/.cache/spotdesk`, or `%LOCALAPPDATA%\spotdesk`. */
export function defaultCacheDir(): string {
  if (process.platform === 'win32' && process.env.LOCALAPPDATA) return path.join(process.env.LOCALAPPDATA, 'spotdesk');
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'spotdesk');
}

function isMeta(x: unknown): x is SymbolMeta {
  const s = x as Record<string, unknown>;
  return (
    !!s &&
    typeof s === 'object' &&
    ['symbol', 'baseCurrency', 'quoteCurrency', 'baseIncrement', 'priceIncrement', 'quoteIncrement', 'baseMinSize', 'quoteMinSize', 'baseMaxSize', 'quoteMaxSize'].every((k) => typeof s[k] === 'string') &&
    typeof s.enableTrading === 'boolean'
  );
}

/** Symbol metadata with its refresh policy (see module docs). */
export class SymbolStore {
  private baseUrl: string | null = null;
  private symbols: Map<string, SymbolMeta> | undefined;
  private fetchedAt: number | null = null;
  private error: string | undefined;
  private failures = 0;
  private retryAt = 0;
  private inFlight: Promise<void> | undefined;
  private versionValue = 0;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: SymbolStoreOptions) {
    this.maxAgeMs = opts.maxAgeMs ?? 300_000;
    this.now = opts.now ?? Date.now;
  }

  /** Changes whenever the metadata in use changes (cache key of per-order results). */
  get version(): number {
    return this.versionValue;
  }

  /** The symbols in use, keyed by symbol; undefined when none are known. */
  get map(): ReadonlyMap<string, SymbolMeta> | undefined {
    return this.symbols;
  }

  /** The current state (see {@link SymbolsStatus}). */
  status(): SymbolsStatus {
    const state: SymbolsStatus['state'] = !this.symbols ? 'none' : this.error !== undefined ? 'offline' : this.fetchedAt !== null && this.now() - this.fetchedAt <= this.maxAgeMs ? 'fresh' : 'stale';
    return { baseUrl: this.baseUrl, state, count: this.symbols?.size ?? 0, fetchedAt: this.fetchedAt, ...(this.error !== undefined ? { error: this.error } : {}) };
  }

  /**
   * Switch to another base URL (or none): drops the metadata in use, loads that URL's disk copy
   * (used until a fetch succeeds) and starts a fetch.
   */
  setBaseUrl(baseUrl: string | null): void {
    const url = baseUrl ? baseUrl.replace(/\/+$/, '') : null;
    if (url === this.baseUrl && this.symbols) return;
    this.baseUrl = url;
    this.symbols = undefined;
    this.fetchedAt = null;
    this.error = undefined;
    this.failures = 0;
    this.retryAt = 0;
    const disk = url ? this.readDisk(url) : undefined;
    if (disk) {
      this.symbols = new Map(disk.symbols.map((s) => [s.symbol, s]));
      this.fetchedAt = disk.fetchedAt;
      this.opts.log(`symbols: ${disk.symbols.length} from the offline copy of ${url} (fetched ${new Date(disk.fetchedAt).toISOString()})`);
    }
    this.versionValue++;
    this.opts.onChange();
    if (url) void this.refresh();
  }

  /** Start a background refresh when one is due (stale metadata, or a failed fetch's retry time passed). Never waits. */
  ensureFresh(): void {
    if (!this.baseUrl || this.inFlight) return;
    const t = this.now();
    const due = this.error !== undefined || !this.symbols ? t >= this.retryAt : this.fetchedAt === null || t - this.fetchedAt > this.maxAgeMs;
    if (due) void this.refresh();
  }

  /** Fetch now (joins a fetch in flight). Resolves when it finished, whatever the outcome. */
  refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const url = this.baseUrl;
    if (!url) return Promise.resolve();
    this.inFlight = (async () => {
      try {
        const list = await this.opts.fetchSymbols(url);
        if (url !== this.baseUrl) return;
        this.symbols = new Map(list.map((s) => [s.symbol, s]));
        this.fetchedAt = this.now();
        this.error = undefined;
        this.failures = 0;
        this.retryAt = 0;
        this.writeDisk({ baseUrl: url, fetchedAt: this.fetchedAt, symbols: list });
        this.opts.log(`symbols: ${list.length} from GET ${url}/api/v2/symbols`);
      } catch (err) {
        if (url !== this.baseUrl) return;
        this.error = err instanceof Error ? err.message : String(err);
        this.failures++;
        this.retryAt = this.now() + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failures - 1));
        this.opts.log(`symbols: GET ${url}/api/v2/symbols failed (${this.error}); ${this.symbols ? 'using the last known metadata' : 'no metadata known'}`);
      } finally {
        this.inFlight = undefined;
      }
      this.versionValue++;
      this.opts.onChange();
    })();
    return this.inFlight;
  }

  private file(url: string): string | undefined {
    if (!this.opts.cacheDir) return undefined;
    return path.join(this.opts.cacheDir, `symbols-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);
  }

  private readDisk(url: string): DiskCopy | undefined {
    const f = this.file(url);
    if (!f) return undefined;
    try {
      const d = JSON.parse(fs.readFileSync(f, 'utf8')) as DiskCopy;
      if (d.baseUrl !== url || typeof d.fetchedAt !== 'number' || !Array.isArray(d.symbols) || !d.symbols.every(isMeta)) return undefined;
      return d;
    } catch {
      return undefined;
    }
  }

  private writeDisk(copy: DiskCopy): void {
    const f = this.file(copy.baseUrl);
    if (!f) return;
    try {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      const tmp = `${f}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(copy));
      fs.renameSync(tmp, f);
    } catch (err) {
      this.opts.log(`symbols: could not write the offline copy ${f}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
