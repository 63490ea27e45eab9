/**
 * The one wrapper around VS Code's `acquireVsCodeApi()` shared by every SpotDesk webview: a typed
 * `post` for the webview's protocol (src/webviewBridge/protocol.ts), the persisted state, and a
 * `message` listener that validates each message from the extension before handing it on.
 *
 * `acquireVsCodeApi` may be called only once per webview document, so the API object is acquired
 * on first use and shared. Outside VS Code (a page without `acquireVsCodeApi`) posting does nothing
 * and the state lives in memory.
 */
import type { AnyProtocol, ToHost, ToWebview } from './protocol';

/** What VS Code's `acquireVsCodeApi()` returns. */
interface RawVsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): RawVsCodeApi;

/** A webview's side of its protocol `P`, with persisted state `S`. */
export interface WebviewApi<P extends AnyProtocol, S = unknown> {
  /** Post a message to the extension. */
  post(msg: ToHost<P>): void;
  /** The state saved with {@link setState} (restored after the webview is re-created), unchecked. */
  getState(): unknown;
  /** Persist `state` (JSON-serialisable) with the webview. */
  setState(state: S): void;
}

let raw: RawVsCodeApi | undefined;

function acquire(): RawVsCodeApi {
  if (!raw) {
    if (typeof acquireVsCodeApi === 'function') raw = acquireVsCodeApi();
    else {
      let state: unknown;
      raw = { postMessage: () => undefined, getState: () => state, setState: (s) => (state = s) };
    }
  }
  return raw;
}

/** The webview API typed for `protocol` (the protocol object is only used for its type). */
export function webviewApi<P extends AnyProtocol, S = unknown>(protocol: P): WebviewApi<P, S> {
  void protocol;
  const api = acquire();
  return {
    post: (msg) => api.postMessage(msg),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
  };
}

/**
 * Listen for messages from the extension: each is validated with `protocol.parseToWebview`; valid
 * ones go to `handle`, invalid ones to `invalid` (if given). Returns a function that stops listening.
 */
export function onHostMessage<P extends AnyProtocol>(protocol: P, handle: (msg: ToWebview<P>) => void, invalid?: (raw: unknown) => void): () => void {
  const listener = (ev: MessageEvent) => {
    const msg = protocol.parseToWebview(ev.data) as ToWebview<P> | undefined;
    if (msg) handle(msg);
    else invalid?.(ev.data);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
