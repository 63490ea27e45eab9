/**
 * Extension-host test entry: `run()` is called by VS Code inside a real extension host, both by
 * scripts/run-host-tests.js (code-server + headless Chromium, offline) and by
 * scripts/run-host-tests-electron.js (@vscode/test-electron, where VS Code can be downloaded).
 *
 * Bundled by esbuild (target `host-tests` → dist/test/host/index.js, `vscode` and `mocha` external).
 * ADD YOUR SUITE: one `require('./<name>.test');` line in `loadSuites()` below (the require runs
 * after mocha has installed its globals, which is why these are not top-level imports).
 *
 * Env: SPOTDESK_HOST_TEST_GREP filters tests by title; SPOTDESK_HOST_TEST_REPORT names a JSON file
 * that receives `{passes, failures, pending, tests: [{title, state, durationMs, error?}]}`.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import Mocha from 'mocha';
import * as fs from 'fs';

function loadSuites(): void {
  require('./core.test');
  require('./views.test');
  require('./credentials.test');
  require('./orderbook.test');
  require('./funding.test');
  require('./requestBuilder.test');
  require('./history.test');
  require('./language.test');
  require('./live.test');
  require('./advancedOrders.test');
  require('./paper.test');
  // last: a reset wipes the sandbox users the suites above made
  require('./sandboxReset.test');
}

/** Run every suite; rejects when a test failed. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.SPOTDESK_HOST_TEST_GREP;
  if (grep) mocha.grep(grep);
  mocha.suite.emit('pre-require', globalThis, 'spotdesk-host-tests', mocha);
  loadSuites();
  return new Promise((resolve, reject) => {
    const results: Array<{ title: string; state: string; durationMs?: number; error?: string }> = [];
    const runner = mocha.run((failures) => {
      const report = process.env.SPOTDESK_HOST_TEST_REPORT;
      if (report) {
        const summary = {
          passes: results.filter((r) => r.state === 'passed').length,
          failures,
          pending: results.filter((r) => r.state === 'pending').length,
          tests: results,
        };
        try {
          fs.writeFileSync(report, JSON.stringify(summary, null, 2));
        } catch (err) {
          console.error(`could not write ${report}: ${String(err)}`);
        }
      }
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed.`));
      else resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err: Error) => results.push({ title: t.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
}
