/**
 * The ONE test door of SpotDesk. Outside Production mode (`context.extensionMode !==
 * vscode.ExtensionMode.Production`: Development and Test, i.e. the extension-host tests and
 * `npm start`), activate() registers the command `spotdesk.testHooks` (not contributed in
 * package.json), which resolves to {@link SpotDeskTestHooks}: the services, connection, trees,
 * status bar, the shared prompts object (tests answer prompts by replacing its methods), a client
 * override, and each feature's own hooks (request builder, order-document language client).
 *
 * In Production neither {@link TestSeams} nor the command exist: commands take only what menus
 * pass (./commandArgs.ts), prompts are frozen, activate() exports only `activationMs`.
 */
import type * as vscode from 'vscode';
import type { SpotClient } from '../api/client';
import type { Connection } from './connection';
import type { OrderLanguageClient } from '../features/language/host/client';
import type { SymbolsStatus } from '../language/protocol';
import type { RequestBuilderController } from '../features/requestBuilder/controller';
import type { RequestBuilderPanel } from '../features/requestBuilder/host/panel';
import type { Prompts } from './prompts';
import type { Services } from './services';
import type { StatusBar } from './statusBar';
import type { AccountsTree } from '../features/accounts/host/accounts';
import type { MarketsTree } from '../features/markets/host/markets';
import type { OrdersTree } from '../features/orders/host/orders';
import { INTERNAL_COMMANDS } from './commandIds';
import type { Live } from '../features/live/host/index';
import type { LiveStatusItem } from '../features/live/host/statusItem';
import type { HoldingsPnl } from '../features/live/host/holdings';
import type { PriceAlerts } from '../features/alerts/host/index';
import type { OrderHistoryTree } from '../features/history/host/orderHistory';
import type { FillsTree } from '../features/history/host/fills';
import type { FundingHistoryTree } from '../features/history/host/fundingHistory';
import type { WithdrawalWatcher } from '../features/funding/host/watcher';
import type { OrderBookPanelHandle } from '../features/market/host/panel';

/** Command id of the test door (registered only outside Production; not in package.json). */
export const TEST_HOOKS_COMMAND = INTERNAL_COMMANDS.testHooks;

/** The order-document language client's part of the test door (`(await spotdesk.testHooks).language()`). */
export interface LanguageTestHooks {
  /** Whether the client (and so the server process) has been started. */
  started(): boolean;
  /** Start it if needed and wait until the server is running. */
  client(): Promise<OrderLanguageClient>;
  /** The server's symbol-metadata state (spotdesk/status). */
  status(): Promise<SymbolsStatus>;
}

/** The request builder's part of the test door (`(await spotdesk.testHooks).requestBuilder()`). */
export interface RequestBuilderTestHooks {
  controller: RequestBuilderController;
  /** The open panel, if any. */
  panel(): RequestBuilderPanel | undefined;
}

/**
 * Test-only state the features consult. Created by activate() only outside Production; features
 * receive it as `undefined` in Production.
 */
export class TestSeams {
  private override: SpotClient | undefined;
  private readonly listeners = new Set<() => void>();
  /** Feature hooks, filled in by the features' `register()`. */
  readonly features: {
    requestBuilder?: () => Promise<RequestBuilderTestHooks>;
    language?: LanguageTestHooks;
    withdrawals?: WithdrawalWatcher;
    /** The open market panel of a symbol (commands hand back no panel: tests read it here). */
    marketPanel?: (symbol: string) => OrderBookPanelHandle | undefined;
  } = {};

  /** The client that replaces the active profile's, if a test set one. */
  get client(): SpotClient | undefined {
    return this.override;
  }

  /** Replace the active profile's client for every feature (undefined restores it). */
  setClient(client: SpotClient | undefined): void {
    this.override = client;
    for (const l of this.listeners) l();
  }

  /** Run `listener` whenever the client override changes (caches keyed by client reset). */
  onDidChangeClient(listener: () => void): vscode.Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

/** What `spotdesk.testHooks` resolves to (extension-host tests only). */
export interface SpotDeskTestHooks {
  readonly services: Services;
  readonly connection: Connection;
  readonly trees: { accounts: AccountsTree; orders: OrdersTree; markets: MarketsTree; orderHistory: OrderHistoryTree; fills: FillsTree; fundingHistory: FundingHistoryTree };
  readonly statusBar: StatusBar;
  /** The prompts every command uses; replace its methods to answer, {@link resetPrompts} to restore. */
  readonly prompts: Prompts;
  /** Restore the interactive prompt methods. */
  resetPrompts(): void;
  /** Symbols remembered through `services.noteSymbol` for the active profile. */
  notedSymbols(): string[];
  /** Use `client` instead of the active profile's client in every feature (undefined restores). */
  setClient(client: SpotClient | undefined): void;
  /** The request builder's hooks (loads its implementation and opens nothing). */
  requestBuilder(): Promise<RequestBuilderTestHooks>;
  /** The order-document language client's hooks (starts nothing by itself). */
  language(): LanguageTestHooks;
  /** The withdrawal watcher (what it watches, the notifications it showed). */
  withdrawals(): WithdrawalWatcher;
  /** The open market panel of `symbol` (case-insensitive), undefined when none is open. */
  marketPanel(symbol: string): OrderBookPanelHandle | undefined;
  /** The live part: the feed (streams and their status), fill notifications shown, account figures. */
  readonly live: Live;
  /** The live status bar item (stream state, portfolio value). */
  readonly liveItem: LiveStatusItem;
  /** Unrealized P&L per holding (the Accounts view's figures). */
  readonly holdings: HoldingsPnl;
  /** The price alerts (store, watcher, alerts fired). */
  alerts(): PriceAlerts;
}
