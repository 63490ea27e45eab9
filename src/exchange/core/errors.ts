/**
 * Errors of the sandbox exchange core. Every rejection carries a KuCoin error code and message
 * so the sandbox server can put it straight into the API envelope `{code, msg}`.
 *
 * Codes used by the core:
 * - `900001` symbol unknown ("symbol not exists!")
 * - `400100` invalid parameter / trading-rule violation (message names the field and rule),
 *   also unknown order id, order not active, unknown account/withdrawal hold
 * - `200004` "Balance insufficient!" (available funds do not cover the hold / transfer / withdrawal)
 * - `400600` trading disabled on the symbol (`enableTrading` false)
 */
export class ExchangeError extends Error {
  /**
   * @param code KuCoin error code (string, e.g. "400100"); @param msg human-readable reason.
   * Rejections are expected control flow (the server maps them to `{code, msg}`), so no stack trace is
   * captured: capturing one costs more than a whole order placement (`stack` holds only name and message).
   */
  constructor(
    readonly code: string,
    readonly msg: string,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code} ${msg}`);
    Error.stackTraceLimit = limit;
    this.name = 'ExchangeError';
  }
}

/** Code for an unknown symbol. */
export const E_SYMBOL = '900001';
/** Code for invalid parameters / rule violations / unknown ids. */
export const E_PARAM = '400100';
/** Code for insufficient available balance. */
export const E_BALANCE = '200004';
/** Code for a symbol whose trading is disabled. */
export const E_DISABLED = '400600';
