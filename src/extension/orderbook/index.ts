/**
 * Order book feature (issue 6): command `spotdesk.openOrderBook`, one live panel per symbol,
 * restored after a window reload by a WebviewPanelSerializer.
 *
 * Activation and the serializer — what VS Code 1.100 needs:
 * VS Code restores a serialized webview panel by firing the activation event
 * `onWebviewPanel:<viewType>` (MainThreadWebviewPanels registers a resolver whose only job is
 * `extensionService.activateByEvent('onWebviewPanel:' + viewType)`), then waits for the extension to
 * register its serializer. Since VS Code 1.74 activation events are generated implicitly only from
 * contribution points (commands → onCommand, views → onView, customEditors → onCustomEditor, …);
 * webview PANELS have no contribution point, so nothing generates `onWebviewPanel:spotdesk.orderBook`.
 * With an empty `activationEvents`, a restored order book would stay blank after a reload until
 * something else (opening the SpotDesk view, running a command) happened to activate the extension.
 * So package.json declares exactly one activation event, `onWebviewPanel:spotdesk.orderBook` — the
 * one the "views and commands activate it" rule cannot cover. It only fires when an order
 * book panel is being restored, so it does not make activation eager.
 * Verified in VS Code 1.100.3 (code-server) by test/e2e/orderbook.workbench.e2e.ts: with the event a
 * reloaded window restores the panel (symbol and grouping); with `activationEvents: []` (control run)
 * the restored tab stays empty.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { defaultSettings, isPanelState, isSymbol, type BookDepth, type PanelSettings, type SymbolMeta } from '../../shared/orderbook/protocol';
import { MIN_POLL_MS, publicBudget } from '../../shared/orderbook/pollPolicy';
import { PanelSet, WebviewHost } from '../webviewHost';
import { failureText } from '../../shared/failure';
import { ORDER_BOOK_KIND, OrderBookPanel, VIEW_TYPE, type BookSource, type OrderBookPanelHandle, type PanelDeps } from './panel';
import { COMMANDS } from '../commandIds';

export { VIEW_TYPE } from './panel';
export type { OrderBookPanelHandle } from './panel';

/** Command id (contributed in package.json; the Markets tree calls it with a symbol string). */
export const OPEN_COMMAND = COMMANDS.openOrderBook;

interface SymbolLike {
  symbol: string;
  baseCurrency: string;
  quoteCurrency: string;
  priceIncrement: string;
  baseIncrement: string;
  enableTrading?: boolean;
}

/** `spotdesk.orderBook.depth` (20 | 100, default 20). */
function configuredDepth(): BookDepth {
  return vscode.workspace.getConfiguration('spotdesk.orderBook').get<number>('depth') === 100 ? 100 : 20;
}

/** `spotdesk.orderBook.refreshIntervalMs` (default 1000, at least 250). */
function configuredInterval(): number {
  const v = vscode.workspace.getConfiguration('spotdesk.orderBook').get<number>('refreshIntervalMs', 1000);
  return Math.max(MIN_POLL_MS, Number.isFinite(v) ? v : 1000);
}

/** Registers the order book command, the panel serializer and the settings listener. */
export function register(context: vscode.ExtensionContext, services: Services): void {
  const panels = new PanelSet<string, OrderBookPanel>();
  const env = { extensionUri: context.extensionUri, log: services.log };
  let lastClient: unknown;
  const symbols = (): Promise<readonly SymbolLike[]> => services.symbols();

  const deps: PanelDeps = {
    log: services.log,
    // The level-2 book and the service status are public: no credentials needed.
    source: async () => {
      const c = await services.publicClient();
      lastClient = c;
      return c satisfies BookSource;
    },
    meta: async (symbol): Promise<SymbolMeta | null> => {
      const s = (await symbols()).find((x) => x.symbol === symbol);
      return s
        ? { symbol: s.symbol, baseCurrency: s.baseCurrency, quoteCurrency: s.quoteCurrency, priceIncrement: s.priceIncrement, baseIncrement: s.baseIncrement }
        : null;
    },
    budget: () => publicBudget(lastClient, Date.now()),
    intervalMs: configuredInterval,
    now: () => Date.now(),
  };

  const adopt = (host: WebviewHost<typeof ORDER_BOOK_KIND.protocol>, symbol: string, settings: PanelSettings): OrderBookPanel =>
    panels.add(symbol, new OrderBookPanel(host, symbol, settings, deps));

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
    // No retainContextWhenHidden: the webview is rebuilt when shown again and gets a fresh snapshot.
    return adopt(WebviewHost.open(env, ORDER_BOOK_KIND, `Order Book: ${s}`), s, defaultSettings(configuredDepth()));
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(OPEN_COMMAND, open),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
        if (!isPanelState(state)) {
          services.log.warn('order book: could not restore a panel (no or invalid saved state); closing it');
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
        adopt(WebviewHost.adopt(env, ORDER_BOOK_KIND, panel), s, state.settings);
      },
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('spotdesk.orderBook.refreshIntervalMs')) for (const p of panels.values()) p.configChanged();
    }),
    services.onDidChangeProfile(() => {
      lastClient = undefined;
      for (const p of panels.values()) p.profileChanged();
    }),
    panels,
  );
}

async function pickSymbol(symbols: () => Promise<readonly SymbolLike[]>): Promise<string | undefined> {
  const items = symbols().then((list) =>
    list
      .filter((s) => s.enableTrading !== false)
      .map((s) => ({ label: s.symbol, description: `${s.baseCurrency}/${s.quoteCurrency}`, detail: `tick ${s.priceIncrement}` }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  );
  try {
    const pick = await vscode.window.showQuickPick(items, { title: 'SpotDesk: Open Order Book', placeHolder: 'Symbol, e.g. BTC-USDT', matchOnDescription: true });
    return pick?.label;
  } catch (err) {
    void vscode.window.showErrorMessage(`SpotDesk: cannot list symbols: ${failureText(err)}`);
    return undefined;
  }
}
