/**
 * The order book webview's page: the shared strict policy of src/webviewBridge/html.ts
 * (`default-src 'none'`, script by nonce, styles/fonts from `cspSource` only, `connect-src 'none'`)
 * plus `data:` images for the depth chart export. The extension's webview host and the Chromium
 * e2e harness render this same spec, so both carry the same policy. The page embeds no data: the
 * symbol and every API string arrive by message and are rendered with textContent.
 */
import { contentSecurityPolicy, type WebviewPageSpec } from '../../webviewBridge/html';

/** Extra `img-src` sources of the order book page. */
export const ORDER_BOOK_IMG_SRC: readonly string[] = ['data:'];

/** The order book page: dist/webview/orderbook.js, media/orderbook.css, `data:` images. */
export const ORDER_BOOK_PAGE: WebviewPageSpec = { title: 'Order Book', script: 'orderbook.js', styles: ['orderbook.css'], imgSrc: ORDER_BOOK_IMG_SRC };

/** The order book's policy for `cspSource` (`webview.cspSource`) and `nonce` (base64). */
export function orderBookCsp(cspSource: string, nonce: string): string {
  return contentSecurityPolicy({ cspSource, nonce, imgSrc: ORDER_BOOK_IMG_SRC });
}
