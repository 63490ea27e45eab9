// Build script: one esbuild bundle per target.
//   node esbuild.js                 build every target whose entry file exists
//   node esbuild.js --only a,b      build only the named targets
//   node esbuild.js --watch         rebuild on change
//   node esbuild.js --production    minify, no source maps
//   node esbuild.js --ship          production build of the targets that go into the .vsix (vscode:prepublish)
// Targets: the extension (CJS for Node, `vscode` external), the sandbox CLI (Node), the order-document
// language server (Node; stdio for other editors, node IPC for the extension's client),
// webview bundles (browser IIFE), and the extension-host test suite (CJS, `vscode` external).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const ship = args.includes('--ship');
const production = ship || args.includes('--production');
const watch = args.includes('--watch');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? new Set(args[onlyIdx + 1].split(',')) : null;

const node = { platform: 'node', target: 'node20', format: 'cjs', external: ['vscode'] };
const browser = { platform: 'browser', target: 'es2022', format: 'iife' };

/** @type {Array<{name: string, entry: string, outfile: string} & object>} */
const targets = [
  { name: 'extension', entry: 'src/extension/extension.ts', outfile: 'dist/extension.js', ...node, ship: true },
  { name: 'sandbox', entry: 'src/exchange/cli.ts', outfile: 'dist/sandbox-cli.js', ...node, banner: { js: '#!/usr/bin/env node' }, ship: true },
  { name: 'language-server', entry: 'src/language/main.ts', outfile: 'dist/spotorder-language-server.js', ...node, banner: { js: '#!/usr/bin/env node' }, ship: true },
  // The extension's LSP client (vscode-languageclient), loaded by src/extension/language/index.ts only when an order document opens.
  { name: 'language-client', entry: 'src/extension/language/client.ts', outfile: 'dist/language-client.js', ...node, ship: true },
  { name: 'webview-orderbook', entry: 'src/webview/orderbook/main.ts', outfile: 'dist/webview/orderbook.js', ...browser, ship: true },
  { name: 'webview-request-builder', entry: 'src/webview/requestBuilder/main.ts', outfile: 'dist/webview/request-builder.js', ...browser, ship: true },
  { name: 'webview-funding', entry: 'src/webview/funding/main.ts', outfile: 'dist/webview/funding.js', ...browser, ship: true },
  { name: 'host-tests', entry: 'test/host/index.ts', outfile: 'dist/test/host/index.js', ...node, external: ['vscode', 'mocha'] },
];

/** A byte count in KB with one decimal. */
function kb(n) {
  return `${(n / 1024).toFixed(1)} KB`;
}

async function main() {
  const selected = targets.filter((t) => (!only || only.has(t.name)) && (!ship || t.ship) && fs.existsSync(path.join(__dirname, t.entry)));
  const contexts = [];
  for (const { name, entry, ship: _ship, ...opts } of selected) {
    const ctx = await esbuild.context({
      entryPoints: [entry],
      bundle: true,
      minify: production,
      sourcemap: !production,
      sourcesContent: false,
      logLevel: 'warning',
      ...opts,
    });
    contexts.push(ctx);
    if (watch) await ctx.watch();
    else {
      await ctx.rebuild();
      await ctx.dispose();
    }
    if (!watch) console.log(`built ${name} -> ${opts.outfile} (${kb(fs.statSync(opts.outfile).size)}${production ? ', minified' : ''})`);
  }
  for (const f of ['dist/sandbox-cli.js', 'dist/spotorder-language-server.js']) if (fs.existsSync(f)) fs.chmodSync(f, 0o755);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
