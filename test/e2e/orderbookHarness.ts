/**
 * Chromium harness reproducing the market panel's webview environment, shared by
 * test/e2e/orderbook.e2e.ts and bench/orderbook.bench.ts:
 *
 * - a loopback HTTP server serving the built bundle (dist/webview/orderbook.js), media/orderbook.css
 *   and a harness page whose origin plays the role of `webview.cspSource`;
 * - the page carries the panel's exact CSP (src/features/market/page.ts) with a fresh nonce, a fake
 *   `acquireVsCodeApi` (records posted messages and state) in a nonce'd inline script, and the CSS
 *   variables of VS Code's Dark+, Light+ or High Contrast theme set on <html> through the CSSOM — as
 *   VS Code's webview host does — with the matching body class;
 * - headless Chromium via playwright-core (Debian chromium at /usr/bin/chromium).
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { orderBookCsp } from '../../src/features/market/page';

/** Repository root. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Launch flags required for Chromium in this environment (one list, in scripts/lib/codeServer). */
export const CHROMIUM_ARGS = cs.CHROMIUM_ARGS;

/** VS Code theme name → body class and the `--vscode-*` variables the panel uses. */
export type ThemeName = 'dark' | 'light' | 'hc';

const COMMON: Record<string, string> = {
  '--vscode-font-family': '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", "Liberation Sans", sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-font-weight': 'normal',
  '--vscode-editor-font-family': '"Droid Sans Mono", "Liberation Mono", monospace',
  '--vscode-editor-font-size': '12px',
};

/** Colours of VS Code's Dark+ / Light+ / High Contrast themes (values of the built-in themes) plus SpotDesk's contributed defaults. */
export const THEMES: Record<ThemeName, { bodyClass: string; vars: Record<string, string> }> = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      ...COMMON,
      '--vscode-foreground': '#cccccc',
      '--vscode-editor-background': '#1e1e1e',
      '--vscode-editor-foreground': '#d4d4d4',
      '--vscode-descriptionForeground': 'rgba(204, 204, 204, 0.7)',
      '--vscode-panel-border': 'rgba(128, 128, 128, 0.35)',
      '--vscode-widget-border': '#303031',
      '--vscode-focusBorder': '#007fd4',
      '--vscode-button-background': '#0e639c',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#1177bb',
      '--vscode-dropdown-background': '#3c3c3c',
      '--vscode-dropdown-foreground': '#f0f0f0',
      '--vscode-dropdown-border': '#3c3c3c',
      '--vscode-inputValidation-warningBackground': '#352a05',
      '--vscode-inputValidation-warningBorder': '#b89500',
      '--vscode-inputValidation-errorBackground': '#5a1d1d',
      '--vscode-inputValidation-errorBorder': '#be1100',
      '--vscode-editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)',
      '--vscode-errorForeground': '#f48771',
      '--vscode-testing-iconPassed': '#73c991',
      '--vscode-spotdesk-buyForeground': '#2EBD85',
      '--vscode-spotdesk-sellForeground': '#F6465D',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      ...COMMON,
      '--vscode-foreground': '#616161',
      '--vscode-editor-background': '#ffffff',
      '--vscode-editor-foreground': '#000000',
      '--vscode-descriptionForeground': '#717171',
      '--vscode-panel-border': 'rgba(128, 128, 128, 0.35)',
      '--vscode-widget-border': '#d4d4d4',
      '--vscode-focusBorder': '#0090f1',
      '--vscode-button-background': '#007acc',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-hoverBackground': '#0062a3',
      '--vscode-dropdown-background': '#ffffff',
      '--vscode-dropdown-foreground': '#616161',
      '--vscode-dropdown-border': '#cecece',
      '--vscode-inputValidation-warningBackground': '#f6f5d2',
      '--vscode-inputValidation-warningBorder': '#b89500',
      '--vscode-inputValidation-errorBackground': '#f2dede',
      '--vscode-inputValidation-errorBorder': '#be1100',
      '--vscode-editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)',
      '--vscode-errorForeground': '#a1260d',
      '--vscode-testing-iconPassed': '#388a34',
      '--vscode-spotdesk-buyForeground': '#0E8A5F',
      '--vscode-spotdesk-sellForeground': '#CF2A41',
    },
  },
  hc: {
    bodyClass: 'vscode-high-contrast',
    vars: {
      ...COMMON,
      '--vscode-foreground': '#ffffff',
      '--vscode-editor-background': '#000000',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-descriptionForeground': 'rgba(255, 255, 255, 0.7)',
      '--vscode-panel-border': '#6fc3df',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-focusBorder': '#f38518',
      '--vscode-button-background': '#000000',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-border': '#6fc3df',
      '--vscode-dropdown-background': '#000000',
      '--vscode-dropdown-foreground': '#ffffff',
      '--vscode-dropdown-border': '#6fc3df',
      '--vscode-inputValidation-warningBackground': '#000000',
      '--vscode-inputValidation-warningBorder': '#6fc3df',
      '--vscode-inputValidation-errorBackground': '#000000',
      '--vscode-inputValidation-errorBorder': '#6fc3df',
      '--vscode-errorForeground': '#f48771',
      '--vscode-spotdesk-buyForeground': '#3FD69A',
      '--vscode-spotdesk-sellForeground': '#FF6B7D',
    },
  },
};

/** A running harness: server + browser. */
export interface Harness {
  readonly origin: string;
  readonly browser: Browser;
  /** Open a fresh page of the panel in `theme`; resolves once the webview posted `ready`. */
  open(theme: ThemeName, opts?: { state?: unknown; viewport?: { width: number; height: number } }): Promise<Page>;
  close(): Promise<void>;
}

function harnessHtml(origin: string, theme: ThemeName, state: unknown): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const t = THEMES[theme];
  // Everything the inline script needs is JSON-encoded and `<` escaped so it cannot end the script.
  const cfg = JSON.stringify({ vars: t.vars, bodyClass: t.bodyClass, state: state ?? null }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${orderBookCsp(origin, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${origin}/media/orderbook.css">
<title>Order Book harness</title>
</head>
<body>
<script nonce="${nonce}">
(() => {
  const cfg = ${cfg};
  for (const [k, v] of Object.entries(cfg.vars)) document.documentElement.style.setProperty(k, v);
  document.body.classList.add(cfg.bodyClass);
  window.__posted = [];
  window.__cspViolations = [];
  window.__errors = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
  let state = cfg.state;
  window.__SPOTDESK_TEST_HOOKS__ = true;
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => state,
    setState: (s) => { state = JSON.parse(JSON.stringify(s)); window.__state = state; },
  });
})();
</script>
<script nonce="${nonce}" src="${origin}/dist/webview/orderbook.js"></script>
</body>
</html>`;
}

/**
 * Start the server and Chromium. Requires dist/webview/orderbook.js (run
 * `node esbuild.js --only webview-orderbook` first; {@link buildBundle} does it).
 */
export async function startHarness(): Promise<Harness> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname.startsWith('/page/')) {
      const html = pages.get(url.pathname.slice('/page/'.length));
      return html ? send(200, 'text/html; charset=utf-8', html) : send(404, 'text/plain', 'no page');
    }
    const files: Record<string, [string, string]> = {
      '/dist/webview/orderbook.js': [path.join(ROOT, 'dist/webview/orderbook.js'), 'text/javascript'],
      '/dist/webview/market-chart.js': [path.join(ROOT, 'dist/webview/market-chart.js'), 'text/javascript'],
      '/media/orderbook.css': [path.join(ROOT, 'media/orderbook.css'), 'text/css'],
    };
    const f = files[url.pathname];
    if (!f) return send(404, 'text/plain', 'not found');
    send(200, f[1], fs.readFileSync(f[0]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: CHROMIUM_ARGS, headless: true });
  let n = 0;
  return {
    origin,
    browser,
    async open(theme, opts = {}) {
      const id = `p${++n}`;
      pages.set(id, harnessHtml(origin, theme, opts.state));
      const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1000, height: 820 } });
      // tsx/esbuild's keepNames wraps functions passed to page.evaluate in `__name(...)`; give the page a no-op.
      await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      await page.goto(`${origin}/page/${id}`);
      await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
      return page;
    },
    async close() {
      await browser.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Build the webview bundles (esbuild targets `webview-orderbook` and `webview-market-chart`). */
export function buildBundle(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--only', 'webview-orderbook,webview-market-chart'], { cwd: ROOT, stdio: 'inherit' });
}

/** Post a message to the webview as the extension would (`window.postMessage` → `message` event). */
export async function post(page: Page, msg: unknown): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, '*'), msg as object);
}
