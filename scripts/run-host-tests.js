#!/usr/bin/env node
/* global setTimeout */
// Run the extension-host test suite (dist/test/host/index.js) inside a REAL VS Code extension host,
// offline: code-server 4.100.3 (VS Code 1.100.3, installed into .vscode-test/ on first use) serves
// the workbench; headless Chromium (playwright-core + Debian's /usr/bin/chromium) opens it with the
// extension in development mode and `extensionTestsPath` set. The workbench reports test output
// through `codeAutomationLog` and the exit code through `codeAutomationExit` (as @vscode/test-web).
//
//   node scripts/run-host-tests.js            build, then run every suite
//   node scripts/run-host-tests.js --grep X   only tests whose title matches X
//   node scripts/run-host-tests.js --no-build skip the esbuild step
// When a test fails, the browser's console errors and warnings (workbench and webview frames) are
// printed and kept in <tmp>/browser.log; SPOTDESK_BROWSER_LOG_ALL=1 keeps every console line and
// prints them on success too.
// Exit code: 0 all passed, 1 failures, 2 harness problem (could not start, timeout).
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const cs = require('./lib/codeServer');

const args = process.argv.slice(2);
const grepIdx = args.indexOf('--grep');
const grep = grepIdx >= 0 ? args[grepIdx + 1] : undefined;
const TIMEOUT_MS = Number(process.env.SPOTDESK_HOST_TEST_TIMEOUT_MS || 10 * 60_000);

async function main() {
  if (!args.includes('--no-build')) cs.build();
  const testsPath = path.join(cs.ROOT, 'dist', 'test', 'host', 'index.js');
  if (!fs.existsSync(testsPath)) throw new Error(`${testsPath} is missing: the host-tests build target did not run`);
  const workspace = path.join(cs.ROOT, 'test', 'host', 'workspace');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-host-tests-'));
  const report = path.join(tmp, 'report.json');
  const port = await cs.freePort();
  cs.say(`starting code-server ${cs.CODE_SERVER_VERSION} on 127.0.0.1:${port} (user data in ${tmp})`);
  const server = await cs.startCodeServer({
    port,
    workspace,
    userDataDir: path.join(tmp, 'user-data'),
    quiet: true,
    env: { SPOTDESK_HOST_TEST_REPORT: report, ...(grep ? { SPOTDESK_HOST_TEST_GREP: grep } : {}) },
  });
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  let exitCode;
  const browserLog = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // What the workbench and its webviews (iframes) say in the browser: printed when a test fails,
    // since a webview that never says `ready` leaves its reason only here.
    page.on('console', (m) => {
      if (/can escape its sandboxing/.test(m.text())) return; // every webview iframe warns this (VS Code's own sandbox flags)
      if (process.env.SPOTDESK_BROWSER_LOG_ALL || m.type() === 'error' || m.type() === 'warning') browserLog.push(`${new Date().toISOString()} console.${m.type()} ${m.location()?.url ?? ''}: ${m.text()}`);
    });
    page.on('pageerror', (e) => browserLog.push(`${new Date().toISOString()} pageerror: ${e && e.stack ? e.stack : e}`));
    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
      // The extension host forwards console calls as their argument list: apply printf-style formats.
      const text = Array.isArray(logArgs) ? util.format(...logArgs) : String(logArgs);
      if (type === 'error') process.stderr.write(text + '\n');
      else process.stdout.write(text + '\n');
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    const url = cs.workbenchUrl({ port, folder: workspace, testsPath });
    cs.say(`opening ${url}`);
    await page.goto(url);
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT_MS).unref());
    exitCode = await Promise.race([exited, timeout]);
    if (exitCode === 'timeout') {
      console.error(`[spotdesk] host tests did not finish within ${TIMEOUT_MS / 1000} s`);
      await page.screenshot({ path: path.join(tmp, 'timeout.png') }).catch(() => undefined);
      console.error(`[spotdesk] screenshot: ${path.join(tmp, 'timeout.png')}; code-server log tail:\n${server.logLines.slice(-40).join('\n')}`);
      exitCode = 2;
    }
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    cs.say(`extension-host tests: ${r.passes} passing, ${r.failures} failing, ${r.pending} pending`);
    for (const t of r.tests.filter((x) => x.state === 'failed')) console.error(`  FAILED ${t.title}\n${t.error}`);
    if (exitCode === 0 && r.failures > 0) exitCode = 1;
    if (r.failures > 0 || process.env.SPOTDESK_BROWSER_LOG_ALL) {
      const file = path.join(tmp, 'browser.log');
      fs.writeFileSync(file, browserLog.join('\n') + '\n');
      console.error(`[spotdesk] browser console (errors and warnings, ${browserLog.length} lines; all in ${file}), last 60:\n${browserLog.slice(-60).join('\n')}`);
    }
  } else if (exitCode === 0) {
    console.error('[spotdesk] the test run reported success but wrote no report: treating as a harness failure');
    exitCode = 2;
  }
  return exitCode;
}

main().then(
  (code) => process.exit(typeof code === 'number' ? code : 1),
  (err) => {
    console.error(`[spotdesk] ${err && err.stack ? err.stack : err}`);
    process.exit(2);
  },
);
