/**
 * Driving SpotDesk in the code-server workbench for screenshots and checks (shared by the
 * end-to-end scripts that walk a trader through every view): start code-server with a theme, open the SpotDesk container,
 * widen the side bar, find panes and rows, hover for tooltips, reach a webview's document, and
 * take a screenshot once the frame is painted. Every wait is for a state, never for time.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type Browser, type Frame, type FrameLocator, type Locator, type Page } from 'playwright-core';
import * as cs from '../../scripts/lib/codeServer';
import { painted, SHOTS } from './failure';
import { openQuickInput, pick, runCommand } from './quickInput';
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
  const picker = { placeholder: /Color Theme/ }; // atStep matches by source (case-sensitive)
  await openQuickInput(page, ['Control+K', 'Control+T'], picker);
  await pick(page, picker, THEME_LABEL[theme]);
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

/** A hover text to look for: a substring, or a pattern (both matched against the hover's innerText). */
type HoverText = string | RegExp;

/**
 * Hover `target` until VS Code shows a hover (`.monaco-hover`) containing `text`; returns the hover's
 * text as it was shown.
 *
 * VS Code prepares a hover on the `mouseover` of its target and shows it after
 * `workbench.hover.delay`. A tree re-renders a row whenever its data changes (a live balance, a poll, a
 * theme change): the row's label then gets a new hover (its `custom-hover` attribute is set again), the
 * pending or shown hover is dropped, and with the mouse standing still no new `mouseover` comes. So the
 * state waited for is "the hover is up", and the state that sends the mouse back is "the hover target
 * was re-rendered (or replaced), or moved by a layout shift (e.g. a code lens inserted above an editor line,
 * which puts the line above under the still mouse), since the mouse entered it while no hover is up": the mouse leaves
 * and enters the target again (a fresh `mouseover`). Each entry first waits for the target to be
 * visible and stable (Playwright's hover), never for time.
 */
export async function hoverFor(page: Page, target: Locator, text: HoverText, opts: { force?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const left = () => Math.max(1, deadline - Date.now());
  const want = typeof text === 'string' ? { s: text.replace(/\s+/g, ' ') } : { re: text.source, flags: text.flags };
  let entries = 0;
  for (;;) {
    // Off the target (the title bar's corner shows no hover): entering it again is a fresh mouseover.
    await page.mouse.move(0, 0);
    const el = await target.elementHandle({ timeout: left() });
    // Watch the hover target (the element with VS Code's `custom-hover`, or the target's subtree) for a re-render.
    await el.evaluate((e) => {
      const watched = e.closest('[custom-hover]') ?? e;
      // where the target is now: a layout shift (a code lens inserted above it…) moves it from under the mouse
      const r = e.getBoundingClientRect();
      const w = { el: e, watched, rerendered: false, x: r.left, y: r.top };
      new MutationObserver(() => (w.rerendered = true)).observe(watched, { attributes: true, attributeFilter: ['custom-hover'], subtree: true });
      (window as unknown as { __spotdeskHoverWatch: unknown }).__spotdeskHoverWatch = w;
    });
    await target.hover({ timeout: left(), force: opts.force });
    entries++;
    let result;
    try {
      result = await page.waitForFunction(
        (want) => {
          const w = (window as unknown as { __spotdeskHoverWatch: { el: Element; watched: Element; rerendered: boolean; x: number; y: number } }).__spotdeskHoverWatch;
          for (const h of document.querySelectorAll<HTMLElement>('.monaco-hover')) {
            if (h.classList.contains('hidden') || h.getClientRects().length === 0 || getComputedStyle(h).visibility === 'hidden') continue;
            const t = h.innerText.replace(/\s+/g, ' ');
            if (want.re !== undefined ? new RegExp(want.re, want.flags).test(h.innerText) : t.includes(want.s ?? '')) {
              (window as unknown as { __spotdeskHoverShown: Element }).__spotdeskHoverShown = h;
              return { shown: h.innerText };
            }
          }
          const now = w.el.getBoundingClientRect();
          const moved = Math.abs(now.left - w.x) > 1 || Math.abs(now.top - w.y) > 1;
          return w.rerendered || moved || !w.el.isConnected || !w.watched.isConnected ? { rerendered: true } : false;
        },
        want,
        { timeout: left() },
      );
    } catch (err) {
      throw new Error(`no hover with ${String(text)} over ${String(target)} (entered it ${entries} time(s); hovers up: ${JSON.stringify(await page.locator('.monaco-hover').allInnerTexts().catch(() => []))}): ${String(err)}`);
    }
    const r = (await result.jsonValue()) as { shown?: string; rerendered?: boolean };
    if (r.shown !== undefined) return r.shown;
    console.log(`    (the hover target was re-rendered or moved before its hover showed: the mouse enters it again)`);
  }
}

/**
 * Screenshot the page (see {@link shot}) with the hover of `target` containing `text` up, and return
 * the hover's text. The hover can be dropped by a re-render at any time (see {@link hoverFor}): the
 * screenshot shows it when the hover element that was up before the capture is still up after it (a
 * dropped hover's element never comes back); otherwise the mouse enters the target again.
 */
export async function shotWithHover(page: Page, target: Locator, text: HoverText, name: string, opts: { force?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const tip = await hoverFor(page, target, text, { ...opts, timeoutMs: Math.max(1, deadline - Date.now()) });
    const file = await shot(page, name, false);
    const stillUp = await page.evaluate(() => {
      const h = (window as unknown as { __spotdeskHoverShown?: HTMLElement }).__spotdeskHoverShown;
      return !!h && h.isConnected && !h.classList.contains('hidden') && h.getClientRects().length > 0;
    });
    if (stillUp) {
      console.log(`    screenshot ${path.relative(cs.ROOT, file)}`);
      return tip;
    }
    console.log(`    (the hover was dropped during the screenshot of ${name}: the mouse enters the target again)`);
  }
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
export async function shot(page: Page, name: string, say = true): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await painted(page);
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (say) console.log(`    screenshot ${path.relative(cs.ROOT, file)}`);
  return file;
}

/**
 * Close every editor, wait until no editor tab is left, and leave the keyboard focus in the empty
 * editor group. (Closing a webview editor that has the focus leaves the page without any: the next
 * keystroke, e.g. F1, would have nowhere to go. A click on the empty editor area focuses the group, as
 * it does for a person.)
 */
export async function closeEditors(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
  await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 0, undefined, { timeout: 15_000 });
  await page.locator('.part.editor .editor-group-container.empty').first().click();
  await page.waitForFunction(() => document.hasFocus() && (document.activeElement?.matches('.editor-group-container.empty') ?? false), undefined, { timeout: 15_000 });
}
