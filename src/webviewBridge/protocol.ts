/**
 * One protocol style for every SpotDesk webview (after vscode-eslint, where each message type is
 * declared once for both sides). A protocol is two maps of message type → payload schema
 * (src/webviewBridge/validate.ts): `toWebview` (extension → webview) and `toHost` (webview →
 * extension). From that single declaration come the TypeScript unions of both directions
 * ({@link ToWebview}, {@link ToHost}) and the validators each side runs on receipt
 * ({@link Protocol.parseToWebview} in the webview, {@link Protocol.parseToHost} in the extension's
 * webview host, src/host/webviewHost.ts).
 *
 * Every `toHost` map declares `ready`: the webview posts it once its script has loaded (again
 * after every re-creation); the host answers by flushing what it queued meanwhile.
 *
 * A message is `{type, ...payload}`. Parsing returns a new object holding only the declared fields
 * (see `object` in validate.ts) or `undefined`; it never throws. Pure: no `vscode`, no DOM.
 */
import { isRecord, type Infer, type Schema } from './validate';

/** Message type → payload schema (the payload is everything but `type`). */
export type MessageMap = Record<string, Schema<object>>;

/** The union of `{type: K} & payload` over a {@link MessageMap}. */
export type MessageOf<M extends MessageMap> = { [K in keyof M & string]: { readonly type: K } & Infer<M[K]> }[keyof M & string];

/** The declaration of one webview's protocol, see the module docs. */
export interface ProtocolDef<W extends MessageMap, H extends MessageMap & { ready: Schema<object> }> {
  /** Extension → webview messages. */
  readonly toWebview: W;
  /** Webview → extension messages (always including `ready`). */
  readonly toHost: H;
}

/** A protocol with its validators. */
export interface Protocol<W extends MessageMap, H extends MessageMap & { ready: Schema<object> }> extends ProtocolDef<W, H> {
  /** Validate a message received by the webview: the typed message, or undefined. */
  parseToWebview(x: unknown): MessageOf<W> | undefined;
  /** Validate a message received by the extension: the typed message, or undefined. */
  parseToHost(x: unknown): MessageOf<H> | undefined;
  /** Why `x` is not a valid webview → extension message ('' when it is one), for the log. */
  explainToHost(x: unknown): string;
}

/** Any protocol (for generic code such as the webview host). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProtocol = Protocol<any, any>;

/** Extension → webview messages of a protocol. */
export type ToWebview<P extends AnyProtocol> = MessageOf<P['toWebview']>;
/** Webview → extension messages of a protocol. */
export type ToHost<P extends AnyProtocol> = MessageOf<P['toHost']>;

function parseWith<M extends MessageMap>(map: M, x: unknown): { message?: MessageOf<M>; error?: string } {
  if (!isRecord(x)) return { error: 'not an object' };
  const type = x.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(map, type)) {
    return { error: `unknown message type ${JSON.stringify(type)?.slice(0, 40) ?? 'undefined'}` };
  }
  const r = map[type].parse(x, type);
  if (!r.ok) return { error: r.error };
  return { message: { ...(r.value as object), type } as MessageOf<M> };
}

/** Build a {@link Protocol} from its declaration. */
export function defineProtocol<W extends MessageMap, H extends MessageMap & { ready: Schema<object> }>(def: ProtocolDef<W, H>): Protocol<W, H> {
  return {
    ...def,
    parseToWebview: (x) => parseWith(def.toWebview, x).message,
    parseToHost: (x) => parseWith(def.toHost, x).message,
    explainToHost: (x) => parseWith(def.toHost, x).error ?? '',
  };
}
