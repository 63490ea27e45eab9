#!/usr/bin/env node
// Run every Chromium end-to-end test (test/e2e/*.e2e.ts, each a standalone script that exits
// non-zero on failure) one after another with tsx; workbench.e2e.ts first. Screenshots land in
// screenshots/ (git-ignored).   node scripts/run-e2e.js [name-filter]
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const dir = path.join(ROOT, 'test', 'e2e');
const filter = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.ts') && (!filter || f.includes(filter)))
  .sort((a, b) => (a.startsWith('workbench') ? -1 : b.startsWith('workbench') ? 1 : a.localeCompare(b)));
const tsx = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
const results = [];
for (const f of files) {
  console.log(`\n[spotdesk] e2e: ${f}`);
  const t0 = Date.now();
  const r = spawnSync(tsx, [path.join('test', 'e2e', f)], { cwd: ROOT, stdio: 'inherit' });
  results.push({ f, ok: r.status === 0, s: ((Date.now() - t0) / 1000).toFixed(1) });
}
console.log('\n[spotdesk] e2e summary:');
for (const r of results) console.log(`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.f}  (${r.s} s)`);
process.exit(results.every((r) => r.ok) && results.length > 0 ? 0 : 1);
