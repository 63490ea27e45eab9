/**
 * Market panel feature: command `spotdesk.openMarket` ("SpotDesk: Open Market"; the Markets tree's
 * symbols open it, and `spotdesk.openOrderBook` stays as an alias for existing keybindings), one panel per
 * symbol, restored after a window reload by a WebviewPanelSerializer, and the panel's keyboard commands
 * (focus the ticket, buy, sell) for the keybindings contributed in package.json.
 *
 * package.json declares the activation event `onWebviewPanel:spotdesk.orderBook`: webview panels have no
 * contribution point, so VS Code generates no such event, and without it a restored panel would stay blank
 * after a reload until something else activated the extension. Why, and how test/e2e/orderbook.workbench.e2e.ts
 * verifies it: docs/market.md, "Activation and the panel serializer".
 */
import * as vscode from 'vscode';
import { registerCommand } from '../../../host/guardedCommand';
import type { Services } from '../../../host/services';
import { defaultSettings, isPanelLayout, isPanelState, isSymbol, type BookDepth, type PanelSettings, type SymbolMeta } from '../protocol';
import { MIN_POLL_MS, publicBudget } from '../model/pollPolicy';
import { PanelSet, WebviewHost } from '../../../host/webviewHost';
import { failureText } from '../../../api/failure';
import { ORDER_BOOK_KIND, OrderBookPanel, panelTitle, VIEW_TYPE, type BookSource, type CandleSource, type OrderBookPanelHandle, type PanelDeps } from './panel';
import { COMMANDS } from '../../../host/commandIds';
import type { TestSeams } from '../../../host/testHooks';
import type { StreamChannel } from '../../live/feed';
import type { SymbolInfo } from '../../../api/schemas';
import { symbolRules } from '../../../api/orderRules';

export { VIEW_TYPE } from './panel';
export type { OrderBookPanelHandle } from './panel';

/** Command id (contributed in package.json; the Markets tree calls it with a symbol string). */
export const OPEN_COMMAND = COMMANDS.openMarket;

/** Global-state key of the layout the person last chose in a market panel (new panels start with it). */
export const LAYOUT_KEY = 'spotdesk.market.layout';

/** `spotdesk.orderBook.depth` (20 | 100, default 20). */
function configuredDepth(): BookDepth {
  return vscode.workspace.getConfiguration('spotdesk.orderBook').get<number>('depth') === 100 ? 100 : 20;
}

/** `spotdesk.orderBook.refreshIntervalMs` (default 1000, at least 250): the polling fallback's interval. */
function configuredInterval(): number {
  const v = vscode.workspace.getConfiguration('spotdesk.orderBook').get<number>('refreshIntervalMs', 1000);
  return Math.max(MIN_POLL_MS, Number.isFinite(v) ? v : 1000);
}

/** The symbol's metadata and order rules for the webview: its {@link symbolRules}, trading enabled unless the exchange says no. */
export function toMeta(s: SymbolInfo): SymbolMeta {
  return { ...symbolRules(s), baseCurrency: s.baseCurrency, quoteCurrency: s.quoteCurrency, enableTrading: s.enableTrading !== false };
}

/** Registers the market commands, the panel serializer and the settings listener. */
export function register(context: vscode.ExtensionContext, services: Services, seams?: TestSeams): void {
  const panels = new PanelSet<string, OrderBookPanel>();
  if (seams) seams.features.marketPanel = (symbol) => panels.get(symbol.toUpperCase());
  const env = { extensionUri: context.extensionUri, log: services.log };
  let lastClient: unknown;
  let channel: StreamChannel | undefined;
  const symbols = (): Promise<readonly SymbolInfo[]> => services.symbols();
  const live = services.live;

  const deps: PanelDeps = {
    log: services.log,
    // The level-2 book, candles, trades and the service status are public: no credentials needed.
    source: async () => {
      const c = await services.publicClient();
      lastClient = c;
      return c as unknown as BookSource & CandleSource;
    },
    channel: () => channel,
    meta: async (symbol): Promise<SymbolMeta | null> => {
      const s = (await symbols()).find((x) => x.symbol === symbol);
      return s ? toMeta(s) : null;
    },
    budget: () => publicBudget(lastClient, Date.now()),
    intervalMs: configuredInterval,
    now: () => Date.now(),
    borrowed: () => services.source(),
    layout: {
      get: () => {
        const l = context.globalState.get<unknown>(LAYOUT_KEY);
        return isPanelLayout(l) ? l : undefined;
      },
      set: (l) => void context.globalState.update(LAYOUT_KEY, l),
    },
    trade: {
      profile: () => services.profile(),
      accountInfo: (symbol, base, quote) => live.accountInfo(symbol, base, quote),
      freshAvailable: async (base, quote) => {
        const accounts = await (await services.client()).getAccounts({ type: 'trade' });
        const avail = (c: string) => accounts.find((a) => a.currency === c && a.type === 'trade')?.available ?? '0';
        return { base: avail(base), quote: avail(quote) };
      },
      confirm: (message, detail, action) => services.gate.confirm('place', message, detail, action),
      place: (order, confirmation, kind) =>
        services.gate.run(confirmation, async () => {
          const c = await services.client();
          return (await (kind === 'oco' ? c.placeOcoOrder(order as never) : kind === 'stop' ? c.placeStopOrder(order as never) : c.placeOrder(order as never))).orderId;
        }),
      afterPlace: (symbol) => {
        services.noteSymbol(symbol);
        if (!live.privateLive) services.refresh('orders');
      },
      onDidChangeAccount: live.onDidChangeAccount,
    },
  };

  /** The public channel of the active profile (loads the stream client); undefined when it cannot load. */
  const ensureChannel = async (): Promise<void> => {
    try {
      channel = (await live.feed()).public;
    } catch (err) {
      services.log.warn(`market: the stream client could not load (${failureText(err)}); panels poll`);
      channel = undefined;
    }
  };

  /** Context key `spotdesk.marketOpen`: the ticket commands are offered in the palette while a market is open. */
  const updateContext = () => void vscode.commands.executeCommand('setContext', 'spotdesk.marketOpen', panels.size > 0);
  const adopt = async (host: WebviewHost<typeof ORDER_BOOK_KIND.protocol>, symbol: string, settings: PanelSettings): Promise<OrderBookPanel> => {
    await ensureChannel();
    const p = panels.add(symbol, new OrderBookPanel(host, symbol, { interval: '1min', ...settings }, deps));
    p.onDidDispose(() => setTimeout(updateContext, 0));
    updateContext();
    return p;
  };

  const open = async (arg?: unknown): Promise<OrderBookPanelHandle | undefined> => {
    let symbol = typeof arg === 'string' ? arg : (arg as { symbol?: unknown } | undefined)?.symbol;
    if (symbol === undefined) symbol = await pickSymbol(symbols);
    if (symbol === undefined) return undefined;
    if (!isSymbol(symbol)) {
      void vscode.window.showErrorMessage('SpotDesk: not a trading pair symbol.');
      return undefined;
    }
    const s = symbol.toUpperCase();
    const existing = panels.get(s);
    if (existing) {
      existing.reveal();
      return existing;
    }
    // No retainContextWhenHidden: the webview is rebuilt when shown again and gets the state at once.
    return adopt(WebviewHost.open(env, ORDER_BOOK_KIND, panelTitle(s)), s, defaultSettings(configuredDepth()));
  };

  /** The market panel the person is looking at (the active one, else the only visible one). */
  const activePanel = (): OrderBookPanel | undefined => {
    const all = panels.values();
    return all.find((p) => p.host.panel.active) ?? all.find((p) => p.host.visible) ?? (all.length === 1 ? all[0] : undefined);
  };
  const withPanel = (side: 'buy' | 'sell' | null) => () => {
    const p = activePanel();
    if (!p) {
      void vscode.window.showInformationMessage('SpotDesk: open a market first ("SpotDesk: Open Market").');
      return undefined;
    }
    p.focusTicket(side);
    return p;
  };

  context.subscriptions.push(
    registerCommand(OPEN_COMMAND, open),
    registerCommand(COMMANDS.openOrderBook, open),
    registerCommand(COMMANDS.marketFocusTicket, withPanel(null)),
    registerCommand(COMMANDS.marketBuy, withPanel('buy')),
    registerCommand(COMMANDS.marketSell, withPanel('sell')),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
        if (!isPanelState(state)) {
          services.log.warn('market: could not restore a panel (no or invalid saved state); closing it');
          panel.dispose();
          return;
        }
        const s = state.symbol.toUpperCase();
        const existing = panels.get(s);
        if (existing) {
          panel.dispose();
          existing.reveal();
          return;
        }
        await adopt(WebviewHost.adopt(env, ORDER_BOOK_KIND, panel), s, state.settings);
      },
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('spotdesk.orderBook.refreshIntervalMs')) for (const p of panels.values()) p.configChanged();
    }),
    services.onDidChangeSource(() => {
      for (const p of panels.values()) p.sourceChanged();
    }),
    services.onDidChangeProfile(() => {
      lastClient = undefined;
      // The live feed resets its channels on a profile change: take the new profile's channel.
      void ensureChannel().then(() => {
        for (const p of panels.values()) p.profileChanged();
      });
    }),
    panels,
  );
}

async function pickSymbol(symbols: () => Promise<readonly SymbolInfo[]>): Promise<string | undefined> {
  const items = symbols().then((list) =>
    list
      .filter((s) => s.enableTrading !== false)
      .map((s) => ({ label: s.symbol, description: `${s.baseCurrency}/${s.quoteCurrency}`, detail: `tick ${s.priceIncrement}` }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  );
  try {
    // ignoreFocusOut, as every SpotDesk prompt (prompts.ts): opened from a walkthrough or a view button, the picker
    // must not vanish when that button takes the focus back a moment later (seen on a loaded machine)
    const pick = await vscode.window.showQuickPick(items, { title: 'SpotDesk: Open Market', placeHolder: 'Symbol, e.g. BTC-USDT', matchOnDescription: true, ignoreFocusOut: true });
    return pick?.label;
  } catch (err) {
    void vscode.window.showErrorMessage(`SpotDesk: cannot list symbols: ${failureText(err)}`);
    return undefined;
  }
}
