#!/usr/bin/env node
// Run every Chromium end-to-end test (test/e2e/*.e2e.ts, each a standalone script that exits
// non-zero on failure) one after another with tsx; workbench.e2e.ts first. Screenshots land in
// screenshots/ (git-ignored).   node scripts/run-e2e.js [name-filter]
//
// Each script runs exactly once: the scripts wait for states (a quick input at the expected step, a
// focused row, a rendered frame), never for time, so a failure is a real failure. A failing script
// saves a screenshot of its pages and their console (test/e2e/failure.ts) as
// screenshots/<name>-failure-<n>.png and screenshots/<name>-console.log; the summary lists them.
//
// Busy mode: SPOTDESK_E2E_BUSY=<n> (e.g. 1) keeps n CPU cores busy with node busy-loop children for
// the whole run, to see the suite on a loaded machine (a state a script does not wait for shows up
// there first). The children exit with this process, however it ends.
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const dir = path.join(ROOT, 'test', 'e2e');
const shots = path.join(ROOT, 'screenshots');
const filter = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.ts') && (!filter || f.includes(filter)))
  .sort((a, b) => (a.startsWith('workbench') ? -1 : b.startsWith('workbench') ? 1 : a.localeCompare(b)));
const tsx = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');

/** Failure records (screenshots, console logs) written into screenshots/ since `sinceMs`. */
function failureRecords(sinceMs) {
  if (!fs.existsSync(shots)) return [];
  return fs
    .readdirSync(shots)
    .filter((f) => /-failure(-\d+)?\.png$|-console\.log$/.test(f))
    .map((f) => path.join(shots, f))
    .filter((f) => fs.statSync(f).mtimeMs >= sinceMs)
    .map((f) => path.relative(ROOT, f));
}

/** Start `n` busy-loop children (busy mode); returns a function that stops them. */
function startBusy(n) {
  // Each child spins in 100 ms slices and leaves when its IPC channel to this process closes.
  const spin = `process.on('disconnect', () => process.exit(0)); (function spin() { const end = Date.now() + 100; while (Date.now() < end); setImmediate(spin); })();`;
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['-e', spin], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }));
  console.log(`[spotdesk] e2e busy mode: ${n} busy-loop process(es) (pid ${children.map((c) => c.pid).join(', ')}) for the whole run; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const stop = () => children.forEach((c) => c.kill());
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
  return stop;
}

const busy = Number(process.env.SPOTDESK_E2E_BUSY || 0);
if (!Number.isInteger(busy) || busy < 0) {
  console.error(`[spotdesk] SPOTDESK_E2E_BUSY must be a whole number of cores, not "${process.env.SPOTDESK_E2E_BUSY}"`);
  process.exit(2);
}
const stopBusy = busy > 0 ? startBusy(busy) : () => undefined;

const results = [];
for (const f of files) {
  console.log(`\n[spotdesk] e2e: ${f}`);
  const t0 = Date.now();
  const r = spawnSync(tsx, [path.join('test', 'e2e', f)], { cwd: ROOT, stdio: 'inherit' });
  const ok = r.status === 0;
  results.push({ f, ok, s: ((Date.now() - t0) / 1000).toFixed(1), records: ok ? [] : failureRecords(t0 - 1000), signal: r.signal });
}
stopBusy();
console.log('\n[spotdesk] e2e summary:');
for (const r of results) {
  console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.f}  (${r.s} s)${r.signal ? ` killed by ${r.signal}` : ''}`);
  for (const rec of r.records) console.log(`        ${rec}`);
}
const failed = results.filter((r) => !r.ok).length;
if (busy > 0) console.log(`  (busy mode: ${busy} core(s) kept busy; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
console.log(`[spotdesk] e2e: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
