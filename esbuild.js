// Build script: one esbuild bundle per target.
//   node esbuild.js                 build every target whose entry file exists
//   node esbuild.js --only a,b      build only the named targets
//   node esbuild.js --watch         rebuild on change
//   node esbuild.js --production    minify, no source maps
//   node esbuild.js --ship          production build of the targets that go into the .vsix (vscode:prepublish)
// Targets: the extension (CJS for Node, `vscode` external), the sandbox CLI (Node), the order-document
// language server (Node; stdio for other editors, node IPC for the extension's client),
// webview bundles (browser IIFE), and the extension-host test suite (CJS, `vscode` external).
// Every build prints each bundle's size; for webview bundles also the MINIFIED size against the
// target of WEBVIEW_TARGET_KB (measured in memory when the build itself is not minified), and the
// build fails when a webview bundle is over it (zod or another heavy library slipped in).
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
  { name: 'extension', entry: 'src/host/extension.ts', outfile: 'dist/extension.js', ...node, ship: true },
  { name: 'sandbox', entry: 'src/exchange/cli.ts', outfile: 'dist/sandbox-cli.js', ...node, banner: { js: '#!/usr/bin/env node' }, ship: true },
  // The sandbox's snapshot worker thread (src/exchange/server/snapshotWorker.ts): loaded from beside dist/sandbox-cli.js.
  { name: 'sandbox-snapshot-worker', entry: 'src/exchange/server/snapshotWorkerEntry.ts', outfile: 'dist/sandbox-snapshot-worker.js', ...node, ship: true },
  { name: 'language-server', entry: 'src/language/main.ts', outfile: 'dist/spotorder-language-server.js', ...node, banner: { js: '#!/usr/bin/env node' }, ship: true },
  // The extension's LSP client (vscode-languageclient), loaded by src/features/language/host/index.ts only when an order document opens.
  { name: 'language-client', entry: 'src/features/language/host/client.ts', outfile: 'dist/language-client.js', ...node, ship: true },
  { name: 'webview-orderbook', entry: 'src/features/market/webview/main.ts', outfile: 'dist/webview/orderbook.js', ...browser, ship: true, budgetKB: 'market' },
  // The market panel's charts (candles with TradingView's lightweight-charts, ~160 KB minified by
  // itself, and the depth chart), loaded by the panel when a chart section is shown: a budget of its
  // own, CHART_TARGET_KB, so that the book, tape and ticket (webview-orderbook) keep the 60 KB target.
  { name: 'webview-market-chart', entry: 'src/features/market/webview/charts.ts', outfile: 'dist/webview/market-chart.js', ...browser, ship: true, budgetKB: 'chart' },
  { name: 'webview-request-builder', entry: 'src/features/requestBuilder/webview/main.ts', outfile: 'dist/webview/request-builder.js', ...browser, ship: true },
  { name: 'webview-funding', entry: 'src/features/funding/webview/main.ts', outfile: 'dist/webview/funding.js', ...browser, ship: true },
  { name: 'host-tests', entry: 'test/host/index.ts', outfile: 'dist/test/host/index.js', ...node, external: ['vscode', 'mocha'] },
];

/** Most a webview bundle may weigh once minified, KB ("each webview bundle ≤ 60 KB minified"). */
const WEBVIEW_TARGET_KB = 60;
/**
 * Budget of the market panel's charts bundle, KB minified: lightweight-charts 5.2 weighs
 * about 160 KB minified on its own; 200 KB leaves room for the candle and depth chart code and a minor
 * library update, and still fails the build if something else heavy slips in.
 */
const CHART_TARGET_KB = 200;
/**
 * Budget of the market panel's book, tape and ticket bundle (webview-orderbook), KB minified: the webview
 * target plus 6 KB for the ticket's stop-limit, stop-market and OCO orders and their rules
 * (src/api/advancedOrderRules.ts, ~3.5 KB of it: the same checks as order documents), 64.3 KB when they came,
 * and 2 KB for a market order's estimate by walking the visible book (src/api/bookWalk.ts, shared with the
 * request builder and order documents): 66.2 KB with both; and 4 KB for the streamed book the panel holds
 * and keeps from `book-delta`s (src/features/market/model/liveBook.ts, ~2.9 KB, and the protocol's checks of
 * the book messages): 70.1 KB.
 */
const MARKET_TARGET_KB = 72;

/** The minified budget of a webview target, KB. */
function budgetOf(target) {
  return target.budgetKB === 'chart' ? CHART_TARGET_KB : target.budgetKB === 'market' ? MARKET_TARGET_KB : WEBVIEW_TARGET_KB;
}

/**
 * Minified size in bytes of `target`'s bundle, built in memory (nothing is written).
 * @returns {Promise<number>}
 */
async function minifiedBytes(target) {
  const { name: _n, entry, ship: _s, budgetKB: _b, outfile, ...opts } = target;
  const r = await esbuild.build({ absWorkingDir: __dirname, entryPoints: [entry], bundle: true, minify: true, write: false, logLevel: 'silent', outfile, ...opts });
  return r.outputFiles.filter((f) => f.path.endsWith('.js')).reduce((n, f) => n + f.contents.length, 0);
}

/** A byte count in KB with one decimal. */
function kb(n) {
  return `${(n / 1024).toFixed(1)} KB`;
}

async function main() {
  let overTarget = 0;
  const selected = targets.filter((t) => (!only || only.has(t.name)) && (!ship || t.ship) && fs.existsSync(path.join(__dirname, t.entry)));
  const contexts = [];
  for (const { name, entry, ship: _ship, budgetKB, ...opts } of selected) {
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
    if (watch) continue;
    let line = `built ${name} -> ${opts.outfile} (${kb(fs.statSync(opts.outfile).size)}${production ? ', minified' : ''})`;
    if (opts.platform === 'browser') {
      const min = production ? fs.statSync(opts.outfile).size : await minifiedBytes({ name, entry, ...opts });
      const budget = budgetOf({ budgetKB });
      const ok = min <= budget * 1024;
      if (!ok) overTarget++;
      line += ` — webview target ≤ ${budget} KB minified${budgetKB === 'chart' ? ' (charts bundle)' : budgetKB === 'market' ? ' (market panel with the ticket)' : ''}: ${kb(min)} ${ok ? 'ok' : 'OVER TARGET'}`;
    }
    console.log(line);
  }
  if (overTarget) throw new Error(`${overTarget} webview bundle(s) over their minified target (see above)`);
  for (const f of ['dist/sandbox-cli.js', 'dist/spotorder-language-server.js']) if (fs.existsSync(f)) fs.chmodSync(f, 0o755);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { targets, WEBVIEW_TARGET_KB, CHART_TARGET_KB, MARKET_TARGET_KB, budgetOf, minifiedBytes };
