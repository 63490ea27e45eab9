/**
 * Driving the workbench's quick input (command palette, quick picks, input boxes) by waiting for
 * states, never for time: each answer first waits until the quick input shows the expected step
 * (title, placeholder and/or message), and a pick is accepted only once the filtered list has the
 * expected row focused. So a keystroke can never land on a previous step, however loaded the
 * machine is.
 */
import type { Page } from 'playwright-core';

/** What identifies a step of the quick input; every given field must match. */
export interface StepExpectation {
  title?: RegExp;
  placeholder?: RegExp;
  /** The message line under the input (the InputBox prompt or validation message). */
  message?: RegExp;
}

const WIDGET = '.quick-input-widget';

/** The quick input's visible state (title, placeholder, message, input value, focused row label). */
export async function quickInputState(page: Page): Promise<{ visible: boolean; title: string; placeholder: string; message: string; value: string; focused: string }> {
  return page.evaluate((sel) => {
    const w = document.querySelector<HTMLElement>(sel);
    const input = w?.querySelector<HTMLInputElement>('input.input');
    return {
      visible: !!w && w.style.display !== 'none' && w.offsetParent !== null,
      title: w?.querySelector('.quick-input-title')?.textContent ?? '',
      placeholder: input?.getAttribute('placeholder') ?? '',
      message: w?.querySelector('.quick-input-message')?.textContent ?? '',
      value: input?.value ?? '',
      focused: w?.querySelector('.quick-input-list .monaco-list-row.focused .label-name')?.textContent ?? '',
    };
  }, WIDGET);
}

/** Wait until the quick input is visible and shows the step `expect` describes. */
export async function atStep(page: Page, expect: StepExpectation, timeoutMs = 60_000): Promise<void> {
  const src = { title: expect.title?.source, placeholder: expect.placeholder?.source, message: expect.message?.source };
  try {
    await page.waitForFunction(
      ({ sel, src }) => {
        const w = document.querySelector<HTMLElement>(sel);
        if (!w || w.style.display === 'none' || w.offsetParent === null) return false;
        const input = w.querySelector<HTMLInputElement>('input.input');
        const checks: Array<[string | undefined, string]> = [
          [src.title, w.querySelector('.quick-input-title')?.textContent ?? ''],
          [src.placeholder, input?.getAttribute('placeholder') ?? ''],
          [src.message, w.querySelector('.quick-input-message')?.textContent ?? ''],
        ];
        return checks.every(([re, text]) => re === undefined || new RegExp(re).test(text));
      },
      { sel: WIDGET, src },
      { timeout: timeoutMs },
    );
  } catch (err) {
    throw new Error(`quick input never showed ${JSON.stringify(src)}; it shows ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
}

/**
 * Answer a pick step: wait for the step, type `filter`, wait until the focused row's label matches
 * `row` (default: exactly `filter`), press Enter.
 */
export async function pick(page: Page, expect: StepExpectation, filter: string, row: RegExp = new RegExp(`^${filter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)): Promise<void> {
  await atStep(page, expect);
  await page.locator(`${WIDGET} input.input`).fill(filter);
  try {
    await page.waitForFunction(
      ({ sel, re }) => new RegExp(re).test(document.querySelector(`${sel} .quick-input-list .monaco-list-row.focused .label-name`)?.textContent ?? ''),
      { sel: WIDGET, re: row.source },
      { timeout: 15_000 },
    );
  } catch (err) {
    throw new Error(`no row ${row} focused after typing "${filter}"; quick input: ${JSON.stringify(await quickInputState(page))}: ${String(err)}`);
  }
  await page.keyboard.press('Enter');
}

/**
 * Answer a text step: wait for the step, fill `text`, wait until the input holds it, press Enter.
 * (A refused value keeps the step open: the caller's next {@link atStep} then fails with the
 * quick input's state, validation message included.)
 */
export async function type(page: Page, expect: StepExpectation, text: string): Promise<void> {
  await atStep(page, expect);
  await page.locator(`${WIDGET} input.input`).fill(text);
  await page.waitForFunction(({ sel, text }) => document.querySelector<HTMLInputElement>(`${sel} input.input`)?.value === text, { sel: WIDGET, text }, { timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/**
 * Run a palette command by its title: wait until SpotDesk's contributions are in the workbench (its
 * activity-bar entry), open the palette, filter, wait for the command's row to be focused, Enter.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.locator('.activitybar [aria-label*="SpotDesk"]').first().waitFor({ timeout: 90_000 });
  await page.keyboard.press('F1');
  await atStep(page, {}, 30_000);
  await page.locator(`${WIDGET} input.input`).fill(`>${title}`);
  await page.locator(`${WIDGET} .quick-input-list .monaco-list-row.focused`, { hasText: title }).waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}
