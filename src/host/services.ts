import type * as vscode from 'vscode';
import type { SpotClient } from '../api/client';
import type { SymbolInfo } from '../api/schemas';
import type { Prompts } from './prompts';
import type { LiveFeed } from '../features/live/feed';
import type { AccountInfo } from '../features/market/protocol';
import type { MoneyGate } from './moneyGate';
import type { BorrowedMode, SourceWords } from '../api/borrowedMarket';

/**
 * What every SpotDesk feature (tree views, order book, funding, request builder) gets from the
 * extension core. Implemented in `src/host/extension.ts`; features receive it in their
 * `register(context, services)` function and never build clients or read secrets themselves.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  /** The "SpotDesk" log channel (requests are logged with KC-API-* values redacted). */
  readonly log: vscode.LogOutputChannel;
  /**
   * Everything a command asks the person (modals, inputs, picks, multi-step flows) goes through
   * this one object: frozen in Production, answerable by tests through `spotdesk.testHooks`.
   */
  readonly prompts: Prompts;
  /**
   * The confirmation of placements, cancel-alls and withdrawals: `gate.confirm(...)` shows the
   * modal, `gate.run(confirmation, send)` sends within it. A real profile's client refuses those
   * requests without it (./moneyGate.ts).
   */
  readonly gate: MoneyGate;
  /**
   * Client for the active profile. For the Sandbox profile it starts the embedded sandbox on
   * first use. @throws Error with a user-facing message when credentials are missing.
   */
  client(): Promise<SpotClient>;
  /**
   * Client for PUBLIC endpoints only (markets, symbols, tickers, level 2, service status): works
   * for a user profile without credentials (a credential-less client on its base URL); otherwise
   * the same client as {@link client}, sharing its rate-limit budget. Private endpoints called on
   * a credential-less client throw. @throws UserFacingError when the sandbox cannot start.
   */
  publicClient(): Promise<SpotClient>;
  /**
   * The active profile's symbols (GET /api/v2/symbols, public: no credentials needed), shared by
   * every feature (src/api/cachedFetch.ts): one request in flight, the answer reused for 5
   * minutes, and a failure handed to every caller during its back-off (5 s, doubling up to 5 min)
   * so that an unreachable exchange is not asked again by each view; `force` (a Retry) asks now.
   */
  symbols(force?: boolean): Promise<readonly SymbolInfo[]>;
  /**
   * The active profile: `sandbox` true for the built-in profiles of the embedded sandbox (Sandbox, Paper, Replay);
   * `mode` says which borrowed market Paper and Replay run (src/api/borrowedMarket.ts).
   */
  profile(): { id: string; name: string; baseUrl?: string; sandbox: boolean; mode?: BorrowedMode };
  /**
   * The borrowed market's words (Paper, Replay: e.g. `paper · live`, `replay ×10 · finished`) as the status bar
   * shows them, or undefined on other profiles; `onDidChangeSource` fires when they change.
   */
  source(): SourceWords | undefined;
  /** Fires when {@link source} changes. */
  readonly onDidChangeSource: vscode.Event<void>;
  /** Re-poll tree views after an action (e.g. a withdrawal changed holds). */
  refresh(what?: 'accounts' | 'orders' | 'markets' | 'all'): void;
  /**
   * The embedded sandbox's base URL, admin token and default user's uid while the Sandbox profile
   * is active (Simulate a Deposit…, tests). Holds the admin token: never log or display it.
   */
  sandbox(): Promise<{ baseUrl: string; adminToken: string; uid: string } | undefined>;
  /** Remember a symbol traded from SpotDesk so that Active Orders polls it. */
  noteSymbol(symbol: string): void;
  /**
   * Whether the active profile can sign requests (always true for the sandbox; for a user profile,
   * whether SecretStorage holds its credentials). No network I/O.
   */
  credentialsPresent(): Promise<boolean>;
  /** Fires when the active profile or its credentials change. */
  readonly onDidChangeProfile: vscode.Event<void>;
  /**
   * The live part: the profile's WebSocket feed (public and private channels, loaded on first
   * need) and the live account figures (implemented by ./live/index.ts).
   */
  readonly live: LiveServices;
}

/** What the features use of the live part (./live/index.ts `Live` implements it). */
export interface LiveServices {
  /** The active profile's stream feed (loads the stream client on first use). */
  feed(): Promise<LiveFeed>;
  /** Whether the private stream is connected and synced (views need no polling). */
  readonly privateLive: boolean;
  /** The order ticket's figures of the account on `symbol`: balances, fee rates, resting orders. */
  accountInfo(symbol: string, base: string, quote: string): Promise<AccountInfo>;
  /** Fires when balances or the user's orders change. */
  readonly onDidChangeAccount: vscode.Event<void>;
}
