/**
 * Content-Security-Policy of the order book webview (issue 6): the shared webview policy
 * (src/shared/webviewHtml.ts: `default-src 'none'`, script by nonce, styles/fonts from
 * `cspSource` only, `connect-src 'none'`) plus `data:` images for the depth chart export.
 * Used by the extension (panel HTML) and the Chromium e2e harness, so both carry the same policy.
 */
import { contentSecurityPolicy } from '../webviewHtml';

/** Extra `img-src` sources of the order book page. */
export const ORDER_BOOK_IMG_SRC: readonly string[] = ['data:'];

/** The order book's policy for `cspSource` (`webview.cspSource`) and `nonce` (base64). */
export function orderBookCsp(cspSource: string, nonce: string): string {
  return contentSecurityPolicy({ cspSource, nonce, imgSrc: ORDER_BOOK_IMG_SRC });
}
