// The scratch workspace `npm start` opens: an empty folder with one example order
// document, instead of SpotDesk's own source folder. It lives in .vscode-test/scratch (git-ignored)
// and is kept between runs: what the person edits there stays; the example is written only when
// the folder has no order document.
const fs = require('fs');
const path = require('path');

/** File name of the example order document. */
const EXAMPLE_NAME = 'example.spotorder.json';

/**
 * The example: one limit buy on BTC-USDT far below the market (it rests; nothing fills), with a
 * clientOid, so that the lenses "Test order", "Show signature" and "Place order…" can be tried on
 * the sandbox at once.
 */
const EXAMPLE = `${JSON.stringify(
  [{ clientOid: 'example-order-1', symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '30000', size: '0.001', postOnly: true, remark: 'SpotDesk example' }],
  null,
  2,
)}\n`;

/**
 * Make sure `dir` exists and holds an order document; writes {@link EXAMPLE} as `example.spotorder.json`
 * when it holds none. Returns the directory.
 */
function ensureScratchWorkspace(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const hasOrder = fs.readdirSync(dir).some((f) => f.toLowerCase().endsWith('.spotorder.json'));
  if (!hasOrder) fs.writeFileSync(path.join(dir, EXAMPLE_NAME), EXAMPLE);
  return dir;
}

module.exports = { EXAMPLE, EXAMPLE_NAME, ensureScratchWorkspace };
