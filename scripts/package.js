#!/usr/bin/env node
// `npm run package`: build a production .vsix with @vscode/vsce. `vsce package` runs the manifest's
// vscode:prepublish (node esbuild.js --ship: minified bundles, no source maps), then packs what
// .vscodeignore lets through. Prints the package's files, the .vsix size and the minified extension.js
// size against the target (.vsix ≤ 1.5 MB).
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const out = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const vsce = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const TARGET = 1.5 * 1024 * 1024;

const r = spawnSync(vsce, ['package', '--no-dependencies', '--out', out], { cwd: ROOT, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
const ls = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
const files = ls.stdout.split('\n').filter(Boolean);
console.log(`\n[spotdesk] package contents (${files.length} files):`);
for (const f of files) console.log(`  ${f}  ${(fs.statSync(path.join(ROOT, f)).size / 1024).toFixed(1)} KB`);
const bad = files.filter((f) => /\.map$|^src\/|^test\/|^bench\/|\.ts$/.test(f));
const vsix = fs.statSync(out).size;
const ext = fs.statSync(path.join(ROOT, 'dist', 'extension.js')).size;
console.log(`[spotdesk] ${path.basename(out)}: ${(vsix / 1024 / 1024).toFixed(2)} MB (target ≤ 1.5 MB: ${vsix <= TARGET ? 'met' : 'MISSED'})`);
console.log(`[spotdesk] dist/extension.js (minified): ${(ext / 1024).toFixed(1)} KB`);
if (bad.length) {
  console.error(`[spotdesk] the package must not carry sources, tests or maps: ${bad.join(', ')}`);
  process.exit(1);
}
