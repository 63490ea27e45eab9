/**
 * Driving the workbench's quick input (command palette, Quick Open, quick picks, input boxes) by
 * waiting for states, never for time.
 *
 * - A step is answered only once the quick input is visible, shows the expected step (title,
 *   placeholder, message and/or value) and its input box has the keyboard focus (a key pressed while
 *   the focus is elsewhere lands elsewhere).
 * - A quick input a script opens itself (the command palette, Quick Open, the color theme picker:
 *   {@link openQuickInput}) is opened only after the previous one has hidden (the keys would otherwise
 *   answer the closing one, or `atStep` would take it for the new one), while the page has the
 *   keyboard focus (else the keys go nowhere) and not from a webview (see {@link focusOutOfWebview});
 *   then the quick input THIS call opened is recognised by what it shows (the palette's `>` prefix,
 *   the picker's placeholder).
 * - A pick is accepted only once the filtered list has the expected row focused.
 *
 * So a keystroke can never land on a previous step or outside the quick input, however loaded the
 * machine is.
 */
import type { Page } from 'playwright-core';

/** What identifies a step of the quick input; every given field must match. */
export interface StepExpectation {
  title?: RegExp;
  placeholder?: RegExp;
  /** The message line under the input (the InputBox prompt or validation message). */
  message?: RegExp;
  /** The input's value (e.g. the command palette's `>` prefix). */
  value?: RegExp;
}

const WIDGET = '.quick-input-widget';

/** The quick input's visible state (title, placeholder, message, input value, focused row label, where the keyboard focus is). */
export async function quickInputState(page: Page): Promise<{ visible: boolean; inputFocused: boolean; title: string; placeholder: string; message: string; value: string; focused: string; activeElement: string }> {
  return page.evaluate((sel) => {
    const w = document.querySelector<HTMLElement>(sel);
    const input = w?.querySelector<HTMLInputElement>('input.input');
    const a = document.activeElement;
    return {
      visible: !!w && w.style.display !== 'none' && w.offsetParent !== null,
      inputFocused: !!input && a === input,
      title: w?.querySelector('.quick-input-title')?.textContent ?? '',
      placeholder: input?.getAttribute('placeholder') ?? '',
      message: w?.querySelector('.quick-input-message')?.textContent ?? '',
      value: input?.value ?? '',
      focused: w?.querySelector('.quick-input-list .monaco-list-row.focused .label-name')?.textContent ?? '',
      activeElement: a ? `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}${typeof a.className === 'string' && a.className ? `.${a.className.trim().split(/\s+/).join('.')}` : ''}` : 'none',
    };
  }, WIDGET);
}

/**
 * Wait until the quick input is visible and shows the step `expect` describes, and give its input box
 * the keyboard focus if it lacks it ({@link inputFocused}).
 */
export async function atStep(page: Page, expect: StepExpectation, timeoutMs = 60_000): Promise<void> {
  const src = { title: expect.title?.source, placeholder: expect.placeholder?.source, message: expect.message?.source, value: expect.value?.source };
  let closed = false;
  try {
    const h = await page.waitForFunction(
      ({ sel, src }) => {
        const w = document.querySelector<HTMLElement>(sel);
        // a quick input that showed since openQuickInput pressed its keys and is hidden again closed on focus loss
        const watch = (window as unknown as { __spotdeskQuickInputWatch?: { shown: boolean } }).__spotdeskQuickInputWatch;
        if (!w || w.style.display === 'none' || w.offsetParent === null) return watch?.shown ? 'closed' : false;
        const input = w.querySelector<HTMLInputElement>('input.input');
        if (!input) return false;
        const checks: Array<[string | undefined, string]> = [
          [src.title, w.querySelector('.quick-input-title')?.textContent ?? ''],
          [src.placeholder, input.getAttribute('placeholder') ?? ''],
          [src.message, w.querySelector('.quick-input-message')?.textContent ?? ''],
          [src.value, input.value],
        ];
        return checks.every(([re, text]) => re === undefined || new RegExp(re).test(text)) ? 'shown' : false;
      },
      { sel: WIDGET, src },
      { timeout: timeoutMs },
    );
    closed = (await h.jsonValue()) === 'closed';
  } catch (err) {
    throw new Error(`quick input never showed ${JSON.stringify(src)}; it shows ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  } finally {
    await stopQuickInputWatch(page);
  }
  if (closed) throw new QuickInputClosed(`the quick input ${JSON.stringify(src)} showed and closed before it could be answered; it shows ${JSON.stringify(await quickInputState(page))}`);
  if (!(await inputFocused(page))) throw new QuickInputClosed(`the quick input ${JSON.stringify(src)} closed before its box got the keyboard focus; it shows ${JSON.stringify(await quickInputState(page))}`);
}

/**
 * Watch, from now until {@link stopQuickInputWatch}, whether the quick input shows at any moment (a
 * MutationObserver on style changes: a quick input that closes on focus loss can show and hide between two
 * polls of {@link atStep}, which would otherwise wait for it to the end of its timeout).
 */
async function startQuickInputWatch(page: Page): Promise<void> {
  await page.evaluate((sel) => {
    const g = window as unknown as { __spotdeskQuickInputWatch?: { shown: boolean; observer: MutationObserver } };
    g.__spotdeskQuickInputWatch?.observer.disconnect();
    // (no named function in here: the test runner's transform would wrap it in a helper the page lacks)
    const watch = { shown: false, observer: new MutationObserver(() => undefined) };
    watch.observer = new MutationObserver(() => {
      const w = document.querySelector<HTMLElement>(sel);
      if (w && w.style.display !== 'none' && w.offsetParent !== null) watch.shown = true;
    });
    watch.observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class'] });
    g.__spotdeskQuickInputWatch = watch;
  }, WIDGET);
}

/** End the watch of {@link startQuickInputWatch} (none running: nothing happens). */
async function stopQuickInputWatch(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const g = window as unknown as { __spotdeskQuickInputWatch?: { observer: MutationObserver } };
      g.__spotdeskQuickInputWatch?.observer.disconnect();
      delete g.__spotdeskQuickInputWatch;
    })
    .catch(() => undefined);
}

/** Thrown by {@link atStep} when the quick input it waited for closed (it lost the focus) before its box had the focus. */
class QuickInputClosed extends Error {}

/**
 * Make sure the quick input's box has the keyboard focus: when it has not (the quick input showed,
 * then a webview took the focus, which VS Code hands to a webview asynchronously; quick inputs that
 * ignore focus loss stay open), click into the box, as a person would, and wait for the focus.
 */
async function inputFocused(page: Page): Promise<boolean> {
  const box = page.locator(`${WIDGET} input.input`);
  if (await box.evaluate((e) => document.activeElement === e)) return true;
  const st = await quickInputState(page);
  // A quick input that closes on focus loss (the command palette) is gone once something else took the focus.
  if (!st.visible) return false;
  console.log(`    (the quick input showed without the keyboard focus, ${JSON.stringify(st.activeElement)} has it: clicking into its box)`);
  try {
    await box.click({ timeout: 10_000 });
  } catch (err) {
    if (!(await quickInputState(page)).visible) return false;
    throw err;
  }
  try {
    await page.waitForFunction((sel) => document.activeElement === document.querySelector(`${sel} input.input`), WIDGET, { timeout: 10_000 });
  } catch (err) {
    if (!(await quickInputState(page)).visible) return false;
    throw new Error(`the quick input's box does not take the focus; quick input: ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
  return true;
}

/** Wait until no quick input shows (a previous step's may still be closing). */
export async function quickInputHidden(page: Page, timeoutMs = 30_000): Promise<void> {
  try {
    await page.waitForFunction((sel) => {
      const w = document.querySelector<HTMLElement>(sel);
      return !w || w.style.display === 'none' || w.offsetParent === null;
    }, WIDGET, { timeout: timeoutMs });
  } catch (err) {
    throw new Error(`a quick input is still showing: ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
}

/**
 * Wait until the workbench page has the keyboard focus (`document.hasFocus()`: the focused frame is
 * the workbench's document or one of its webviews). Without it a key goes nowhere, e.g. after a
 * webview that had the focus was closed (see `closeEditors` in shots.ts).
 */
export async function workbenchFocused(page: Page, timeoutMs = 30_000): Promise<void> {
  try {
    await page.waitForFunction(() => document.hasFocus(), undefined, { timeout: timeoutMs });
  } catch (err) {
    throw new Error(`the workbench page has no keyboard focus (did a webview that had it close?): ${String(err)}`);
  }
}

/**
 * When the keyboard focus is in a webview, move it to the workbench's side bar (its first visible
 * list, else the SpotDesk activity-bar entry; moving the focus there is all it does) and wait until it
 * is there. A quick input gives the focus back to where it was when it closes, and VS Code focuses a
 * webview in two asynchronous hops (WebviewElement._doFocus: the webview's outer frame, then after a
 * 50 ms debounce a message that focuses its document): when a palette command opens a quick input of
 * its own (a command that asks something), the second hop can land after that quick input has opened
 * and take the focus from it.
 */
export async function focusOutOfWebview(page: Page, timeoutMs = 30_000): Promise<void> {
  if (!(await page.evaluate(() => document.activeElement?.tagName === 'IFRAME'))) return;
  const list = page.locator('.part.sidebar .monaco-list').filter({ visible: true }).first();
  const target = (await list.count()) ? list : page.locator('.activitybar [aria-label*="SpotDesk"]').first();
  await target.focus({ timeout: timeoutMs });
  try {
    await page.waitForFunction((e) => document.activeElement === e || e.contains(document.activeElement), await target.elementHandle(), { timeout: timeoutMs });
  } catch (err) {
    throw new Error(`the focus did not leave the webview for ${String(target)}: ${String(err)}`);
  }
}

/**
 * Open one of the workbench's own quick inputs with `keys` (e.g. `F1`, `Control+P`, the chord
 * `Control+K` `Control+T`) and wait until it shows `expect` with the focus in its input. Before the
 * first key: no quick input shows (a previous one may still be closing), the page has the keyboard
 * focus ({@link workbenchFocused}) and a webview has not ({@link focusOutOfWebview}).
 */
export async function openQuickInput(page: Page, keys: readonly string[], expect: StepExpectation, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  for (;;) {
    await quickInputHidden(page, left());
    await workbenchFocused(page, left());
    await focusOutOfWebview(page, left());
    await startQuickInputWatch(page);
    for (const k of keys) await page.keyboard.press(k);
    try {
      await atStep(page, expect, left());
      return;
    } catch (err) {
      // The state this step needs is "the quick input IT opened, with the focus in its box". When the
      // workbench handed the focus back to an earlier element (a list, a webview) after the quick input
      // showed, a quick input that closes on focus loss is gone: that is the state "nothing open yet".
      if (!(err instanceof QuickInputClosed) || Date.now() >= deadline) throw err;
      console.log(`    (the quick input opened by ${keys.join(' ')} closed when the focus moved to ${JSON.stringify((await quickInputState(page)).activeElement)}: opening it again)`);
    }
  }
}

/** Fill the step's input with `text` and wait until it holds it (the step must be showing: see {@link atStep}). */
async function fillInput(page: Page, text: string): Promise<void> {
  await page.locator(`${WIDGET} input.input`).fill(text);
  try {
    await page.waitForFunction(({ sel, text }) => document.querySelector<HTMLInputElement>(`${sel} input.input`)?.value === text, { sel: WIDGET, text }, { timeout: 10_000 });
  } catch (err) {
    throw new Error(`the quick input does not hold "${text}"; it shows ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
}

/** Wait until the focused row of the quick input's list matches `row`. */
async function rowFocused(page: Page, row: RegExp, typed: string, timeoutMs = 15_000): Promise<void> {
  try {
    await page.waitForFunction(
      ({ sel, re }) => {
        const w = document.querySelector<HTMLElement>(sel);
        return new RegExp(re).test(w?.querySelector('.quick-input-list .monaco-list-row.focused .label-name')?.textContent ?? '');
      },
      { sel: WIDGET, re: row.source },
      { timeout: timeoutMs },
    );
  } catch (err) {
    throw new Error(`no row ${row} focused after typing "${typed}"; quick input: ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
}

/** Press Enter in the quick input's box (given the focus first if it lost it: {@link inputFocused}). */
export async function enter(page: Page): Promise<void> {
  if (!(await inputFocused(page))) throw new Error(`the quick input closed before Enter could be pressed in it: ${JSON.stringify(await quickInputState(page))}`);
  await page.keyboard.press('Enter');
}

/**
 * Answer a pick step: wait for the step, type `filter`, wait until the focused row's label matches
 * `row` (default: exactly `filter`), press Enter.
 */
export async function pick(page: Page, expect: StepExpectation, filter: string, row: RegExp = new RegExp(`^${escapeRegExp(filter)}$`)): Promise<void> {
  await atStep(page, expect);
  await fillInput(page, filter);
  await rowFocused(page, row, filter);
  await enter(page);
}

/**
 * Answer a text step: wait for the step, fill `text`, wait until the input holds it, press Enter.
 * (A refused value keeps the step open: the caller's next {@link atStep} then fails with the
 * quick input's state, validation message included.)
 */
export async function type(page: Page, expect: StepExpectation, text: string): Promise<void> {
  await atStep(page, expect);
  await fillInput(page, text);
  await enter(page);
}

/**
 * Open the command palette ({@link openQuickInput}: F1, recognised by its `>` prefix), filter it to
 * the command `title` and wait until that command's row is focused: {@link enter} then runs it (the
 * caller presses it, e.g. together with waiting for the page load "Developer: Reload Window" causes).
 */
export async function paletteAt(page: Page, title: string): Promise<void> {
  await openQuickInput(page, ['F1'], { value: /^>/ });
  await fillInput(page, `>${title}`);
  await rowFocused(page, new RegExp(escapeRegExp(title)), `>${title}`);
}

/**
 * Run a palette command by its title: wait until SpotDesk's contributions are in the workbench (its
 * activity-bar entry), {@link paletteAt}, Enter.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.locator('.activitybar [aria-label*="SpotDesk"]').first().waitFor({ timeout: 90_000 });
  await paletteAt(page, title);
  await enter(page);
}

/**
 * Open a file of the workspace with Quick Open (Ctrl+P, recognised by its placeholder): type `name`,
 * wait until the focused row is that file (the file search may still be indexing), Enter.
 */
export async function quickOpen(page: Page, name: string): Promise<void> {
  await openQuickInput(page, ['Control+P'], { placeholder: /^Search files by name/ });
  await fillInput(page, name);
  await rowFocused(page, new RegExp(`^${escapeRegExp(name)}$`), name, 30_000);
  await enter(page);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
