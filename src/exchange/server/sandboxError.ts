/** The sandbox layer's error: a KuCoin code and message, answered in KuCoin's `{code, msg}` envelope (http.ts). */

/** Error raised by the sandbox layer with a KuCoin code (business errors → HTTP 200 + code). */
export class SandboxError extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
    /** HTTP status to answer with (200 for business errors, gateway errors carry 4xx). */
    readonly httpStatus = 200,
  ) {
    super(`${code} ${msg}`);
    this.name = 'SandboxError';
  }
}
