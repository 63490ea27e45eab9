/**
 * Webview bundles stay small: every browser target of esbuild.js, minified, is within
 * the build's target (WEBVIEW_TARGET_KB, 60 KB; the market panel's charts bundle, which carries
 * lightweight-charts, CHART_TARGET_KB, 200 KB; the market panel's book, tape and ticket with
 * stop and OCO orders and the streamed book it holds, MARKET_TARGET_KB, 72 KB) and bundles no zod (the protocols validate
 * with src/webviewBridge/validate.ts). Sizes are built in memory from the same target list the build uses.
 */
import { strict as assert } from 'assert';
import { createRequire } from 'module';
import * as path from 'path';
import { build } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..', '..');
interface Target {
  name: string;
  entry: string;
  outfile: string;
  platform: string;
  [k: string]: unknown;
}
const esb = createRequire(__filename)(path.join(ROOT, 'esbuild.js')) as { targets: Target[]; WEBVIEW_TARGET_KB: number; CHART_TARGET_KB: number; MARKET_TARGET_KB: number; budgetOf(t: Target): number; minifiedBytes(t: Target): Promise<number> };
const webviews = esb.targets.filter((t) => t.platform === 'browser');

describe('webview bundles (esbuild browser targets)', function () {
  this.timeout(60_000);

  it('are the three panels and the market panel\'s charts', () => {
    assert.deepEqual(webviews.map((t) => t.name), ['webview-orderbook', 'webview-market-chart', 'webview-request-builder', 'webview-funding']);
  });

  it('only the charts bundle (lightweight-charts) and the market panel (its ticket with stop and OCO orders) have higher, documented budgets', () => {
    assert.equal(esb.MARKET_TARGET_KB, 72);
    assert.deepEqual(
      webviews.map((t) => [t.name, esb.budgetOf(t)]),
      [
        ['webview-orderbook', esb.MARKET_TARGET_KB],
        ['webview-market-chart', esb.CHART_TARGET_KB],
        ['webview-request-builder', esb.WEBVIEW_TARGET_KB],
        ['webview-funding', esb.WEBVIEW_TARGET_KB],
      ],
    );
  });

  for (const t of webviews) {
    it(`${t.name}: at most ${esb.budgetOf(t)} KB minified, without zod`, async () => {
      const bytes = await esb.minifiedBytes(t);
      assert.ok(bytes <= esb.budgetOf(t) * 1024, `${t.name} is ${(bytes / 1024).toFixed(1)} KB minified`);
      const r = await build({ absWorkingDir: ROOT, entryPoints: [t.entry], bundle: true, write: false, metafile: true, outfile: 'x.js', platform: 'browser', format: 'iife', logLevel: 'silent' });
      const zod = Object.keys(r.metafile.inputs).filter((f) => f.includes('node_modules/zod/'));
      assert.deepEqual(zod, []);
    });
  }
});
