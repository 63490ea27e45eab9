/**
 * Driving SpotDesk in the code-server workbench for screenshots and checks (shared by the
 * end-to-end scripts of issue 25): start code-server with a theme, open the SpotDesk container,
 * widen the side bar, find panes and rows, hover for tooltips, reach a webview's document, and
 * take a screenshot once the frame is painted. Every wait is for a state, never for time.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type Browser, type Frame, type FrameLocator, type Locator, type Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { painted, SHOTS } from './failure';
import { pick, runCommand } from './quickInput';
import { ensureScratchWorkspace } from '../../scripts/lib/scratch';

/** The three themes every view is looked at in (`workbench.colorTheme` values). */
export const THEMES = {
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  hc: 'Default High Contrast',
} as const;
export type ThemeKey = keyof typeof THEMES;

/** A running workbench: code-server, Chromium and the page. */
export interface Workbench {
  page: Page;
  browser: Browser;
  userDataDir: string;
  workspace: string;
  logLines: string[];
  stop(): Promise<void>;
}

/**
 * Start code-server (fresh user data; `settings` merged into the user settings, the theme
 * included) with SpotDesk in development mode on an empty workspace, open it in Chromium and wait
 * for the workbench.
 */
export async function startWorkbench(theme: ThemeKey, settings: Record<string, unknown> = {}, viewport = { width: 1500, height: 950 }): Promise<Workbench> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-shots-'));
  const userDataDir = path.join(tmp, 'user-data');
  // The same scratch workspace as `npm start` (one example order document).
  const workspace = ensureScratchWorkspace(path.join(tmp, 'scratch'));
  const port = await cs.freePort();
  const server = await cs.startCodeServer({
    port,
    workspace,
    userDataDir,
    quiet: true,
    settings: { 'workbench.colorTheme': THEMES[theme], 'window.dialogStyle': 'custom', 'workbench.tips.enabled': false, ...settings },
  });
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport });
  await page.goto(cs.workbenchUrl({ port, folder: workspace }));
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.activitybar [aria-label*="SpotDesk"]').first().waitFor({ timeout: 90_000 });
  return {
    page,
    browser,
    userDataDir,
    workspace,
    logLines: server.logLines,
    stop: async () => {
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
}

/** The workbench class of each theme's kind (`.monaco-workbench.vs-dark` etc.). */
const THEME_CLASS: Record<ThemeKey, string> = { dark: 'vs-dark', light: 'vs', hc: 'hc-black' };

/** The label of each theme in the Color Theme picker (the setting value minus "Default "). */
const THEME_LABEL: Record<ThemeKey, string> = { dark: 'Dark Modern', light: 'Light Modern', hc: 'Dark High Contrast' };

/**
 * Switch the running workbench to `theme` as a person does (Ctrl+K Ctrl+T, pick it) and
 * wait until the workbench wears it. (Writing settings.json instead races with VS Code's own writes,
 * e.g. of the active profile.)
 */
export async function setTheme(wb: Workbench, theme: ThemeKey): Promise<void> {
  const page = wb.page;
  if (await page.evaluate((cls) => document.querySelector('.monaco-workbench')?.classList.contains(cls) === true, THEME_CLASS[theme])) return;
  // Preferences: Color Theme (its keybinding; the palette's row for it varies with recent commands).
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  await pick(page, { placeholder: /Color Theme/ }, THEME_LABEL[theme]); // atStep matches by source (case-sensitive)
  await page.waitForFunction((cls) => document.querySelector('.monaco-workbench')?.classList.contains(cls) === true, THEME_CLASS[theme], { timeout: 30_000 });
}

/** The pane (view) of the SpotDesk container whose header reads `title`. */
export function pane(page: Page, title: string): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });
}

/** Open the SpotDesk container and widen the side bar by `extra` px (descriptions readable). */
export async function openSpotDesk(page: Page, extra = 0): Promise<void> {
  // Clicking the entry of the container already shown would close the side bar.
  if (!(await page.locator('.pane-header', { hasText: 'Accounts' }).first().isVisible())) await page.locator('.activitybar [aria-label*="SpotDesk"]').first().click();
  for (const title of ['Accounts', 'Active Orders', 'Markets']) await page.locator('.pane-header', { hasText: title }).first().waitFor({ timeout: 30_000 });
  if (!extra) return;
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar) throw new Error('side bar not visible');
  const edge = sidebar.x + sidebar.width;
  for (const sash of await page.locator('.monaco-sash.vertical').all()) {
    const box = await sash.boundingBox();
    if (!box || box.height < sidebar.height / 2 || Math.abs(box.x + box.width / 2 - edge) > 6) continue;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge + extra, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    return;
  }
}

/** The sandbox's default user credentials, written by the sandbox into the extension's global storage. */
export async function sandboxCredentials(userDataDir: string, timeoutMs = 60_000): Promise<{ baseUrl: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: '2' }> {
  const file = path.join(userDataDir, 'User', 'globalStorage', 'spotdesk.spotdesk', 'sandbox', 'credentials.json');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${file} did not appear within ${timeoutMs} ms`);
}

/** Hover `target` and wait for a hover widget containing `text`; returns the hover. */
export async function hoverFor(page: Page, target: Locator, text: string | RegExp): Promise<Locator> {
  await target.hover();
  const hover = page.locator('.monaco-hover').filter({ hasText: text }).first();
  await hover.waitFor({ state: 'visible', timeout: 15_000 });
  return hover;
}

/** The document of the active (visible) webview editor, once `ready` matches in it. */
export function activeWebview(page: Page): FrameLocator {
  return page.locator('iframe.webview').filter({ visible: true }).first().contentFrame().frameLocator('iframe#active-frame');
}

/** The Frame of the visible webview (for evaluate), after `selector` is attached in it. */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  await activeWebview(page).locator(selector).first().waitFor({ state: 'attached', timeout: timeoutMs });
  const outer = await page.locator('iframe.webview').filter({ visible: true }).first().elementHandle();
  const inner = await (await outer?.contentFrame())?.locator('iframe#active-frame').elementHandle();
  const frame = await inner?.contentFrame();
  if (!frame) throw new Error('webview frame not found');
  return frame;
}

/** Screenshot the whole page (after two painted frames) to screenshots/<name>.png; returns the path. */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await painted(page);
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`    screenshot ${path.relative(cs.ROOT, file)}`);
  return file;
}

/** Close every editor and wait until no editor tab is left. */
export async function closeEditors(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
  await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 0, undefined, { timeout: 15_000 });
}
