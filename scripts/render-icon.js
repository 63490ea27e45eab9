#!/usr/bin/env node
// Render media/icon.svg to media/icon.png (128×128, transparent corners) with headless Chromium.
// The PNG is committed (the Marketplace needs a PNG); run this after editing the SVG.
const fs = require('fs');
const path = require('path');
const cs = require('./lib/codeServer');

async function main() {
  const svg = fs.readFileSync(path.join(cs.ROOT, 'media', 'icon.svg'), 'utf8');
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: cs.chromiumPath(), args: cs.CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: path.join(cs.ROOT, 'media', 'icon.png'), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
  } finally {
    await browser.close();
  }
  cs.say('wrote media/icon.png');
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
