import { SpotClient } from '../../src/api/client';
import * as dec from '../../src/api/decimal';
import { pick, runCommand } from './quickInput';
import { activeWebview, closeEditors, hoverFor, openSpotDesk, pane, sandboxCredentials, shot, startWorkbench } from './shots';

async function main() {
  const wb = await startWorkbench('dark', { 'spotdesk.profiles': [{ name: 'Offline', baseUrl: 'http://127.0.0.1:9' }], 'spotdesk.pollIntervalSeconds': 3 });
  const { page } = wb;
  try {
    await openSpotDesk(page, 0);
    const accounts = pane(page, 'Accounts');
    await accounts.locator('.monaco-list-row', { hasText: 'BTC' }).first().waitFor({ timeout: 90_000 });
    const creds = await sandboxCredentials(wb.userDataDir);
    const client = new SpotClient({ baseUrl: creds.baseUrl, credentials: creds });
    const info = (await client.getSymbols()).find((s) => s.symbol === 'BTC-USDT')!;
    const book = await client.getLevel2('BTC-USDT');
    const price = dec.roundDown(dec.mul(book.bids[0][0], '0.5'), info.priceIncrement);
    await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'limit', price, size: '0.0015', clientOid: `b-${Date.now()}` });
    // a market buy to move USDT trade balance (fill)
    await client.placeOrder({ symbol: 'BTC-USDT', side: 'buy', type: 'market', funds: '11', clientOid: `m-${Date.now()}` });
    await page.mouse.move(1000, 500);
    await shot(page, 'before-accounts-dark');
    await page.keyboard.press('Escape');
    const orderRow = pane(page, 'Active Orders').locator('.monaco-list-row', { hasText: 'BUY limit' }).first();
    await orderRow.waitFor({ timeout: 30_000 });
    await hoverFor(page, orderRow, 'BTC-USDT');
    await shot(page, 'before-order-tooltip-dark');
    // cancel dialog
    await page.mouse.move(1000, 500);
    await orderRow.hover();
    await orderRow.locator('.action-label[aria-label="Cancel Order"]').click();
    await page.locator('.monaco-dialog-box').waitFor({ timeout: 30_000 });
    await shot(page, 'before-cancel-dialog-dark');
    await page.keyboard.press('Escape');
    // order book
    await runCommand(page, 'SpotDesk: Open Order Book');
    await pick(page, { placeholder: /^Symbol/ }, 'BTC-USDT');
    await activeWebview(page).locator('.row.bid .price').first().waitFor({ timeout: 30_000 });
    await activeWebview(page).locator('.ob-chart').waitFor();
    await shot(page, 'before-orderbook-dark');
    await closeEditors(page);
    // request builder
    await runCommand(page, 'SpotDesk: Open Request Builder');
    await activeWebview(page).locator('#f-symbol option[value="BTC-USDT"]').waitFor({ state: 'attached', timeout: 30_000 });
    await shot(page, 'before-request-builder-dark');
    await closeEditors(page);
    // deposit
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, { placeholder: /^Currency to deposit/ }, 'USDT');
    await pick(page, { placeholder: /^Chain/ }, 'TRC20');
    await activeWebview(page).locator('h1', { hasText: 'Deposit USDT' }).waitFor({ timeout: 30_000 });
    await shot(page, 'before-deposit-usdt-dark');
    await runCommand(page, 'SpotDesk: Create Deposit Address');
    await pick(page, { placeholder: /^Currency to deposit/ }, 'XRP');
    await activeWebview(page).locator('h1', { hasText: 'Deposit XRP' }).waitFor({ timeout: 30_000 });
    await shot(page, 'before-deposit-xrp-dark');
    await closeEditors(page);
    // withdraw first steps
    await runCommand(page, 'SpotDesk: Withdraw');
    await pick(page, { placeholder: /^Currency to withdraw/ }, 'USDT');
    await pick(page, { placeholder: /^Chain for USDT/ }, 'TRC20');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor();
    await shot(page, 'before-withdraw-type-dark');
    await page.keyboard.press('Escape');
    // dead profile
    await runCommand(page, 'SpotDesk: Select Profile');
    await pick(page, { title: /Select Profile/ }, 'Offline');
    await runCommand(page, 'SpotDesk: Open Order Book');
    await pick(page, { placeholder: /^Symbol/ }, 'BTC-USDT').catch(() => undefined);
    await page.waitForTimeout(5000);
    await shot(page, 'before-offline-dark');
    client.close();
  } finally {
    await wb.stop();
  }
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
