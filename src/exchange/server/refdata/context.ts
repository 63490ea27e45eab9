/**
 * What the handlers of this folder receive and share: the request context (a structural subset of
 * routes.ts `RouteContext`, so that routes.ts can list these handlers without an import cycle) and
 * the checks every handler repeats (signed caller, known symbol).
 */
import type { EndpointName, ParsedParamsOf, WireResponseOf } from '../../../api/endpoints';
import { SandboxError, type SandboxState, type UserRecord } from '../state';

/** Context of one request to endpoint `N` (what routes.ts passes; see its `RouteContext`). */
export interface RefContext<N extends EndpointName> {
  state: SandboxState;
  /** Authenticated user (private endpoints only). */
  user?: UserRecord;
  /** Params validated by the row's `params` schema. */
  params: ParsedParamsOf<N>;
  /** The caller's address as the socket has it. */
  clientIp?: string;
}

/** The handler of endpoint `N`: its parsed params in, its wire payload (`data`) out; throws SandboxError. */
export type RefHandler<N extends EndpointName> = (ctx: RefContext<N>) => WireResponseOf<N>;

/** The signed caller, or 400001 (HTTP 401) when the pipeline let an unsigned request through (never for a private row). */
export function callerOf(ctx: { user?: UserRecord }): UserRecord {
  if (!ctx.user) throw new SandboxError('400001', 'Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE', 401);
  return ctx.user;
}

/** Throws 900001 "symbol not exists!" (KuCoin's answer) for a pair the sandbox does not list. */
export function requireSymbol(state: SandboxState, symbol: string): void {
  if (!state.world.symbolMap.has(symbol)) throw new SandboxError('900001', 'symbol not exists!');
}
