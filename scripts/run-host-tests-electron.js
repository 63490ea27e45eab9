#!/usr/bin/env node
// Run the extension-host test suite with @vscode/test-electron: downloads a desktop VS Code build
// (needs access to update.code.visualstudio.com; it cannot run on the offline build machines, use
// scripts/run-host-tests.js there) and runs dist/test/host/index.js in its extension host.
//
//   node scripts/run-host-tests-electron.js [--version 1.100.3] [--grep X] [--no-build]
// On Linux without a display, run it under xvfb-run.
const fs = require('fs');
const os = require('os');
const path = require('path');
const cs = require('./lib/codeServer');

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : dflt);

async function main() {
  if (!args.includes('--no-build')) cs.build();
  const { runTests } = require('@vscode/test-electron');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spotdesk-electron-tests-'));
  const report = path.join(tmp, 'report.json');
  // the tests' sandbox: the slow, deterministic market they were written for
  fs.mkdirSync(path.join(tmp, 'user-data', 'User'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'user-data', 'User', 'settings.json'), JSON.stringify({ 'spotdesk.sandbox.market': 'quiet' }, null, 2));
  await runTests({
    version: opt('--version', '1.100.3'),
    extensionDevelopmentPath: cs.ROOT,
    extensionTestsPath: path.join(cs.ROOT, 'dist', 'test', 'host', 'index.js'),
    launchArgs: [
      path.join(cs.ROOT, 'test', 'host', 'workspace'),
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      `--user-data-dir=${path.join(tmp, 'user-data')}`,
    ],
    extensionTestsEnv: { SPOTDESK_HOST_TEST_REPORT: report, ...(opt('--grep') ? { SPOTDESK_HOST_TEST_GREP: opt('--grep') } : {}) },
  });
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    cs.say(`extension-host tests (desktop VS Code): ${r.passes} passing, ${r.failures} failing, ${r.pending} pending`);
  }
}

main().catch((err) => {
  console.error(`[spotdesk] host tests failed: ${err && err.message ? err.message : err}`);
  process.exit(1);
});
