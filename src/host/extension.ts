/**
 * SpotDesk extension entry point.
 *
 * `activate()` does no network I/O: it creates the log channel, the profile/credential
 * `Connection`, the status bar item and the tree views (Accounts, Active Orders, Markets, Order
 * History, Fills, Funding History), registers the core and history commands and
 * calls the feature modules' `register(context, services)`. The API client and the embedded
 * sandbox are loaded lazily on first need (see ./connection.ts). The time activate() took is
 * logged and returned (`activationMs`, the only thing activate() exports: any extension can read
 * the exports, so no service, client or prompt is handed out there).
 *
 * Outside Production mode only, the one test door `spotdesk.testHooks` (./testHooks.ts) is
 * registered; it is how extension-host tests reach services, trees, prompts and the client.
 */
import * as vscode from 'vscode';
import { registerCommand } from './guardedCommand';
import { Connection } from './connection';
import type { Services } from './services';
import { StatusBar } from './statusBar';
import { AccountsTree } from '../features/accounts/host/accounts';
import { OrdersTree } from '../features/orders/host/orders';
import { MarketsTree } from '../features/markets/host/markets';
import { OrderHistoryTree } from '../features/history/host/orderHistory';
import { StopMemory } from '../features/orders/host/stopMemory';
import { FillsTree } from '../features/history/host/fills';
import { FundingHistoryTree } from '../features/history/host/fundingHistory';
import { registerHistoryCommands } from '../features/history/host/historyCommands';
import { registerCommands } from './commands';
import { windowPrompts } from './prompts';
import { TEST_HOOKS_COMMAND, TestSeams, type SpotDeskTestHooks } from './testHooks';
import { register as registerOrderbook } from '../features/market/host';
import { register as registerFunding } from '../features/funding/host';
import { register as registerRequestBuilder } from '../features/requestBuilder/host';
import { register as registerLanguage } from '../features/language/host';
import { useSandboxFromBot } from '../features/botSetup/host/index';
import { describeError } from './pollingTree';
import { CachedFetch } from '../api/cachedFetch';
import type { SymbolInfo } from '../api/schemas';
import { COMMANDS } from './commandIds';
import { Live } from '../features/live/host/index';
import { LiveStatusItem } from '../features/live/host/statusItem';
import { HoldingsPnl } from '../features/live/host/holdings';
import { pnlText } from '../api/pnl';
import { register as registerAlerts, type PriceAlerts } from '../features/alerts/host/index';
import { MoneyGate } from './moneyGate';

/**
 * What `activate()` returns (`vscode.extensions.getExtension('spotdesk.spotdesk').exports`, which
 * every extension can read): harmless data only.
 */
export interface SpotDeskApi {
  /** Wall-clock time activate() took, ms (performance.now() difference). */
  readonly activationMs: number;
}

const NOTED_KEY = 'spotdesk.notedSymbols';
const idleStatus = { state: 'idle', reason: null, attempt: 0, nextAttemptAt: null, since: 0 } as const;
const MAX_NOTED = 50;

/** Extension entry point (see module docs). */
export function activate(context: vscode.ExtensionContext): SpotDeskApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('SpotDesk', { log: true });
  // Test seams exist only outside Production (see ./testHooks.ts).
  const seams = context.extensionMode !== vscode.ExtensionMode.Production ? new TestSeams() : undefined;
  const prompts = seams ? windowPrompts() : Object.freeze(windowPrompts());
  // eslint-disable-next-line prefer-const -- the gate reads the profile of the connection that uses it
  let connection: Connection;
  // Placements, cancel-alls and withdrawals on a real profile need the person's confirmation, checked in its client.
  const gate = new MoneyGate(prompts, () => connection.profile().id);
  connection = new Connection(context, log, (profileId) => gate.guardFor(profileId));
  context.subscriptions.push(connection.onDidChange(() => gate.revokeAll()));

  const notedSymbols = (): string[] => {
    const all = context.globalState.get<Record<string, string[]>>(NOTED_KEY) ?? {};
    return all[connection.profile().id] ?? [];
  };

  // One symbol list for every feature, per profile (and per test client override).
  let clientGeneration = 0;
  if (seams) context.subscriptions.push(seams.onDidChangeClient(() => clientGeneration++));
  const symbolList = new CachedFetch<readonly SymbolInfo[]>(async () => (await services.publicClient()).getSymbols(), {
    key: () => `${connection.profile().id} ${connection.profile().baseUrl ?? ''} ${clientGeneration}`,
  });

  // eslint-disable-next-line prefer-const -- assigned after the trees that need `services` exist
  let trees: SpotDeskTestHooks['trees'];
  // eslint-disable-next-line prefer-const -- assigned once the trees exist
  let live: Live;
  const services: Services = {
    context,
    log,
    prompts,
    gate,
    client: seams ? () => (seams.client ? Promise.resolve(seams.client) : connection.client()) : () => connection.client(),
    publicClient: seams ? () => (seams.client ? Promise.resolve(seams.client) : connection.publicClient()) : () => connection.publicClient(),
    symbols: (force) => symbolList.get(force),
    profile: () => connection.profile(),
    credentialsPresent: () => connection.credentialsPresent(),
    refresh: (what = 'all') => {
      if (what === 'accounts' || what === 'all') void trees.accounts.refresh();
      if (what === 'orders' || what === 'all') void trees.orders.refresh();
      if (what === 'markets' || what === 'all') void trees.markets.refresh();
    },
    sandbox: () => connection.sandbox(),
    noteSymbol: (symbol: string) => {
      const s = symbol.toUpperCase();
      const all = context.globalState.get<Record<string, string[]>>(NOTED_KEY) ?? {};
      const id = connection.profile().id;
      const list = all[id] ?? [];
      if (list.includes(s)) return;
      all[id] = [...list, s].slice(-MAX_NOTED);
      void context.globalState.update(NOTED_KEY, all);
      void trees.orders.refresh();
    },
    onDidChangeProfile: connection.onDidChange,
    source: () => statusBar.source(),
    get onDidChangeSource() {
      return statusBar.onDidChangeSource;
    },
    get live() {
      return live;
    },
  };

  // The stop orders seen waiting, for Order History once they fired or were cancelled.
  const stopMemory = new StopMemory(context.globalState, () => connection.profile().id);
  trees = {
    accounts: new AccountsTree(services),
    orders: new OrdersTree(services, notedSymbols, stopMemory),
    markets: new MarketsTree(services),
    orderHistory: new OrderHistoryTree(services, notedSymbols, stopMemory),
    fills: new FillsTree(services, notedSymbols),
    fundingHistory: new FundingHistoryTree(services),
  };
  const statusBar = new StatusBar(connection);
  // Before the features: its profile listener closes the old profile's streams first.
  live = new Live(services, trees);
  const holdings = new HoldingsPnl(services, trees.accounts, notedSymbols);
  // One live price source: the row's value, its tooltip, the Portfolio total, the status bar and the P&L.
  trees.accounts.market = (symbol) => holdings.lastPrice(symbol);
  trees.accounts.pnl = (currency, total) => {
    const p = holdings.of(currency);
    return p ? pnlText(p, total) : undefined;
  };
  live.onFill((symbol) => {
    services.noteSymbol(symbol);
    holdings.invalidate(symbol);
  });
  const liveItem = new LiveStatusItem(() => {
    const data = trees.accounts.state.data;
    return {
      status: live.current?.status ?? { public: idleStatus, private: idleStatus },
      accounts: data?.accounts,
      prices: trees.accounts.valuationPrices(),
      fiat: data?.fiat ?? (vscode.workspace.getConfiguration('spotdesk').get<string>('fiatCurrency') || 'USD'),
      pricesAt: trees.accounts.state.updatedAt,
      now: Date.now(),
    };
  });

  context.subscriptions.push(
    log,
    connection,
    statusBar,
    live,
    liveItem,
    holdings,
    holdings.onDidChange(() => {
      trees.accounts.rerender();
      liveItem.update();
    }),
    live.onDidChangeStatus(() => liveItem.update()),
    live.onDidChangeAccount(() => liveItem.update()),
    trees.accounts,
    trees.orders,
    trees.markets,
    trees.orderHistory,
    trees.fills,
    trees.fundingHistory,
    trees.accounts.attach(),
    trees.orders.attach(),
    trees.markets.attach(),
    trees.orderHistory.attach(),
    trees.fills.attach(),
    trees.fundingHistory.attach(),
    connection.onDidChange(() => {
      symbolList.reset();
      statusBar.reset();
    }),
    ...Object.values(trees).map((t) => t.onDidLoad(() => statusBar.updateIfStale())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('spotdesk.accounts.hideZeroBalances') || e.affectsConfiguration('spotdesk.fiatCurrency')) {
        if (e.affectsConfiguration('spotdesk.fiatCurrency')) void trees.accounts.refresh();
        else trees.accounts.rerender();
      }
      // The Markets view's grouping and its Favourites (the watchlist) are read at render time.
      if (e.affectsConfiguration('spotdesk.markets.groupByCategory') || e.affectsConfiguration('spotdesk.watchlist')) trees.markets.rerender();
      if (e.affectsConfiguration('spotdesk.watchlist')) {
        void trees.orders.refresh();
        if (trees.orderHistory.view?.visible) void trees.orderHistory.refresh();
        if (trees.fills.view?.visible) void trees.fills.refresh();
      }
    }),
    ...registerHistoryCommands(services, trees, notedSymbols),
    ...registerCommands({
      connection,
      services,
      trees,
      refreshAll: async () => {
        // the history views poll only while visible: refresh those the person can see
        const history = [trees.orderHistory, trees.fills, trees.fundingHistory].filter((t) => t.view?.visible).map((t) => t.refresh());
        await Promise.all([trees.accounts.refresh(), trees.orders.refresh(), trees.markets.refresh(), statusBar.update(), ...history]);
      },
    }),
  );

  context.subscriptions.push(
    registerCommand(COMMANDS.useSandboxFromBot, async () => {
      try {
        await useSandboxFromBot({ sandbox: () => connection.embeddedSandbox(), prompts, log });
      } catch (err) {
        void vscode.window.showErrorMessage(`SpotDesk: ${describeError(err)}`);
      }
    }),
  );

  const features: Array<[string, (c: vscode.ExtensionContext, s: Services, seams?: TestSeams) => void]> = [
    ['orderbook', registerOrderbook],
    ['funding', registerFunding],
    ['requestBuilder', registerRequestBuilder],
    ['language', registerLanguage],
  ];
  for (const [name, register] of features) {
    try {
      register(context, services, seams);
    } catch (err) {
      log.error(`feature "${name}" failed to register: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    }
  }
  let alerts: PriceAlerts | undefined;
  try {
    alerts = registerAlerts(context, services);
  } catch (err) {
    log.error(`feature "alerts" failed to register: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  }

  if (seams) {
    const interactive = windowPrompts();
    const hooks: SpotDeskTestHooks = {
      services,
      connection,
      trees,
      statusBar,
      prompts,
      resetPrompts: () => Object.assign(prompts, interactive),
      notedSymbols,
      setClient: (client) => seams.setClient(client),
      requestBuilder: () => {
        const rb = seams.features.requestBuilder;
        if (!rb) return Promise.reject(new Error('the request builder feature did not register'));
        return rb();
      },
      language: () => {
        const l = seams.features.language;
        if (!l) throw new Error('the order-document language feature did not register');
        return l;
      },
      withdrawals: () => {
        const w = seams.features.withdrawals;
        if (!w) throw new Error('the funding feature did not register');
        return w;
      },
      marketPanel: (symbol) => seams.features.marketPanel?.(symbol),
      live,
      liveItem,
      holdings,
      alerts: () => {
        if (!alerts) throw new Error('the alerts feature did not register');
        return alerts;
      },
    };
    // eslint-disable-next-line no-restricted-syntax -- the test door (outside Production only) hands tests live objects on purpose
    context.subscriptions.push(vscode.commands.registerCommand(TEST_HOOKS_COMMAND, () => hooks));
  }

  const activationMs = performance.now() - t0;
  log.info(`SpotDesk activated in ${activationMs.toFixed(1)} ms (profile "${connection.profile().name}")`);
  return { activationMs };
}

/** Nothing to do: everything is disposed through `context.subscriptions` (the sandbox closes there). */
export function deactivate(): void {}
