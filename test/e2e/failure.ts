/**
 * What an end-to-end script leaves behind when it fails: a screenshot of every page it watched and
 * the pages' console (every frame, webviews included: console messages, page errors, failed
 * requests), written to screenshots/ (git-ignored) with their paths printed. Scripts call
 * {@link FailureRecord.watch} on each page they open and {@link FailureRecord.save} in their error
 * path; scripts/run-e2e.js lists the files again in its summary. A failure is never retried.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { ROOT } from '../../scripts/lib/codeServer';

/** Where screenshots and failure records go. */
export const SHOTS = path.join(ROOT, 'screenshots');

/** Console and screenshots of one script's pages, saved when it fails. */
export class FailureRecord {
  private readonly pages: Array<{ page: Page; label: string }> = [];
  private readonly lines: string[] = [];

  /** `name` prefixes the files: screenshots/<name>-failure-<n>.png and screenshots/<name>-console.log. */
  constructor(private readonly name: string) {}

  /** Record `page`'s console, page errors and failed requests; screenshot it on failure. */
  watch(page: Page, label = `page ${this.pages.length + 1}`): Page {
    this.pages.push({ page, label });
    const t0 = Date.now();
    const at = () => `+${((Date.now() - t0) / 1000).toFixed(3)}s`;
    // SPOTDESK_E2E_TRAIL=1 also prints the focus trail (see TRAIL) as it happens.
    if (process.env.SPOTDESK_E2E_TRAIL) page.on('console', (m) => m.text().startsWith('[trail]') && console.log(`      ${at()} ${m.text()}`));
    page.on('console', (m) => this.lines.push(`${at()} [${label}] console.${m.type()}: ${m.text()}${m.location().url ? `  (${m.location().url}:${m.location().lineNumber})` : ''}`));
    page.on('pageerror', (e) => this.lines.push(`${at()} [${label}] pageerror: ${e.stack ?? String(e)}`));
    page.on('requestfailed', (r) => this.lines.push(`${at()} [${label}] requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('crash', () => this.lines.push(`${at()} [${label}] page crashed`));
    // The keyboard-focus trail (what took the focus, when a quick input or a hover showed or hid),
    // in this document and in the ones loaded later (a reload, webview frames).
    void page.addInitScript(TRAIL).catch(() => undefined);
    void page.evaluate(TRAIL).catch(() => undefined);
    return page;
  }

  /** Lines recorded so far (console, errors, failed requests). */
  consoleLines(): readonly string[] {
    return this.lines;
  }

  /**
   * Save a screenshot of every watched page that is still open and the recorded console, with
   * `error` and `extra` lines (e.g. a server log tail) at the end. Prints the paths. Never throws.
   * @returns the files written.
   */
  async save(error: unknown, extra: readonly string[] = []): Promise<string[]> {
    const written: string[] = [];
    try {
      fs.mkdirSync(SHOTS, { recursive: true });
      let n = 0;
      for (const { page, label } of this.pages) {
        if (page.isClosed()) continue;
        const file = path.join(SHOTS, `${this.name}-failure-${++n}.png`);
        try {
          await page.screenshot({ path: file, timeout: 10_000 });
          written.push(file);
          this.lines.push(`screenshot of [${label}]: ${path.relative(ROOT, file)}`);
        } catch (err) {
          this.lines.push(`screenshot of [${label}] failed: ${String(err)}`);
        }
      }
      const log = path.join(SHOTS, `${this.name}-console.log`);
      const text = [
        `${this.name}: FAILED at ${new Date().toISOString()}`,
        String((error as Error)?.stack ?? error),
        '',
        '--- page console (all frames) ---',
        ...this.lines,
        ...(extra.length ? ['', '--- more ---', ...extra] : []),
      ].join('\n');
      fs.writeFileSync(log, `${text}\n`);
      written.push(log);
      for (const f of written) console.error(`[spotdesk] e2e failure record: ${path.relative(ROOT, f)}`);
    } catch (err) {
      console.error(`[spotdesk] could not save the failure record: ${String(err)}`);
    }
    return written;
  }
}

/**
 * The keyboard-focus trail of a page, logged to its console (`[trail] …`, so into the failure record):
 * in the workbench document each focus move, the window losing the focus (to a webview, or to
 * nothing) and each show/hide of the quick input and of hovers; in a frame (a webview's outer or
 * inner document) its window's focus and blur. What took the focus from a quick input, and when,
 * reads off it. No layout is read (the observer costs the page next to nothing).
 */
const TRAIL = `(() => {
  if (window.__spotdeskTrail) return;
  window.__spotdeskTrail = true;
  const log = (m) => console.debug('[trail] ' + m);
  if (window.top !== window) {
    const tag = location.pathname.split('/').pop();
    window.addEventListener('focus', () => log(tag + ' window focus'));
    window.addEventListener('blur', () => log(tag + ' window blur'));
    return;
  }
  const d = (e) => !e ? 'none' : e.tagName + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).slice(0, 3).join('.') : '') + (e.getAttribute && e.getAttribute('aria-label') ? '[' + e.getAttribute('aria-label').slice(0, 40) + ']' : '');
  document.addEventListener('focusin', (e) => log('focus ' + d(e.target)), true);
  window.addEventListener('blur', () => log('window blur; active ' + d(document.activeElement) + '; page focused ' + document.hasFocus()));
  let shown;
  let hovers = '';
  new MutationObserver(() => {
    const w = document.querySelector('.quick-input-widget');
    const v = !!w && w.style.display !== 'none';
    if (v !== shown) { shown = v; log('quick input ' + (v ? 'shown' : 'hidden') + '; active ' + d(document.activeElement)); }
    const h = [...document.querySelectorAll('.monaco-hover:not(.hidden)')].map((e) => (e.textContent || '').slice(0, 30)).join(' | ');
    if (h !== hovers) { hovers = h; log('hovers: ' + (h || 'none')); }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['style', 'class'], childList: true });
})()`;

/** Resolve after the page has rendered two more animation frames (layout and paint settled). */
export async function painted(target: Page | Frame): Promise<void> {
  await target.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}
