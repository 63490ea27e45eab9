/**
 * Sandbox admin API (not part of the exchange API). Loopback clients only (else HTTP 403),
 * `Authorization: Bearer <admin-token>` (STATE_DIR/admin-token; else HTTP 401, code 400003).
 * JSON bodies, responses in the `{code, data}` / `{code, msg}` envelope.
 *
 * | route | body | result |
 * |---|---|---|
 * | POST /sandbox/v1/users | {permissions?: ('General'|'Spot'|'Transfer')[] (default all), balances?: [{currency, type: main|trade, amount}], takerFeeRate?, makerFeeRate?, keyVersion?: '1'|'2'|'3' (default '2')} | {uid, apiKey, apiSecret, apiPassphrase, keyVersion} |
 * | POST /sandbox/v1/deposits | {uid, currency, chain?, amount} | {depositId, uid, currency, chainId, amount, createdAt} (credits main) |
 * | PUT /sandbox/v1/status | {status: open|close|cancelonly, msg?} | {status, msg} |
 * | PUT /sandbox/v1/users/{uid}/withdrawal-whitelist | {enabled, favorites: [{address, chain}]} | {enabled, favorites} |
 * | PUT /sandbox/v1/users/{uid}/fees | {takerFeeRate, makerFeeRate} | {takerFeeRate, makerFeeRate} |
 * | POST /sandbox/v1/clock | {advanceMs} (manual clock only, else 400100) | {now} (also settles due withdrawals) |
 * | GET /sandbox/v1/clock | | {now, manual} |
 * | GET /sandbox/v1/withdrawals?uid= | | WithdrawalRecord[] |
 * | POST /sandbox/v1/withdrawals/{withdrawalId}/fail | {reason?} | WithdrawalRecord (hold released) |
 * | GET /sandbox/v1/invariants | | {ok: true} or HTTP 500 {code: "500001", msg: first violation} |
 * | POST /sandbox/v1/reset | {} | {seed, uid, now, tookMs, prepared}: back to the freshly seeded world, the default user's key kept (reset.ts) |
 * | GET /sandbox/v1/identity?nonce= (no Authorization) | | {sandbox: "spotdesk", pid, proof} (see {@link identityAnswer}) |
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { safeEqual } from '../../api/signing';
import { AccountType, DecimalString as Decimal, describeZodError, KeyPermission, KeyVersion, ServiceStatusValue } from '../../api/schemas';
import { ExchangeError } from '../core';
import { ALL_PERMISSIONS, newKeyMaterial, randomHex, SandboxError, SandboxState, SIMULATION_LABEL_PREFIX, UserRecord } from './state';
import { parseBody } from './body';
import { identityProof } from './stateLock';
import type { ResetResult } from './reset';

/** Context of an admin request. */
export interface AdminContext {
  state: SandboxState;
  adminToken: string;
  log: (line: string) => void;
  onClockMoved?: () => void;
  /** Called before a manual clock moves to `t` (ms): a replay delivers the recorded events up to `t` (mirror mode). */
  beforeClockMove?: (t: number) => void;
  /** Reset the sandbox to its freshly seeded world (reset.ts); absent where the server cannot (HTTP 404 then). */
  onReset?: () => ResetResult;
}


/** POST /sandbox/v1/users body. */
export const AdminCreateUser = z.object({
  permissions: z.array(KeyPermission).optional(),
  balances: z.array(z.object({ currency: z.string().min(1), type: AccountType, amount: Decimal })).max(100).optional(),
  takerFeeRate: Decimal.optional(),
  makerFeeRate: Decimal.optional(),
  keyVersion: KeyVersion.optional(),
  label: z.string().max(40).refine((l) => !l.startsWith(SIMULATION_LABEL_PREFIX), `must not start with "${SIMULATION_LABEL_PREFIX}" (reserved for the simulation's bots, which keep no ledger)`).optional(),
});
/** POST /sandbox/v1/deposits body. */
export const AdminDeposit = z.object({ uid: z.string().min(1), currency: z.string().min(1), chain: z.string().optional(), amount: Decimal });
/** PUT /sandbox/v1/status body. */
export const AdminStatus = z.object({ status: ServiceStatusValue, msg: z.string().max(200).optional() });
/** PUT /sandbox/v1/users/{uid}/withdrawal-whitelist body. */
export const AdminWhitelist = z.object({
  enabled: z.boolean(),
  favorites: z.array(z.object({ address: z.string().min(1), chain: z.string().min(1) })).max(1000).default([]),
});
/** PUT /sandbox/v1/users/{uid}/fees body. */
export const AdminFees = z.object({ takerFeeRate: Decimal, makerFeeRate: Decimal });
/** POST /sandbox/v1/clock body. */
export const AdminClock = z.object({ advanceMs: z.number().int().min(0).max(10 * 365 * 24 * 3600 * 1000) });

/** POST /sandbox/v1/reset body: nothing (an empty object or no body). */
export const AdminReset = z.object({}).strict();

/** Loopback addresses accepted by the admin API. */
export function isLoopback(addr: string | undefined): boolean {
  return addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1' || (addr ?? '').startsWith('127.');
}

/** The public view of a created user (includes the secrets once, for the admin caller). */
export function userCredentials(u: UserRecord): { uid: string; apiKey: string; apiSecret: string; apiPassphrase: string; keyVersion: string } {
  return { uid: u.uid, apiKey: u.apiKey, apiSecret: u.apiSecret, apiPassphrase: u.apiPassphrase, keyVersion: u.keyVersion };
}

/** `GET /sandbox/v1/identity` nonces: 32 to 128 hex digits. */
const NONCE = /^[0-9a-f]{32,128}$/;

/**
 * `GET /sandbox/v1/identity?nonce=N` (loopback only, no Authorization): `{sandbox: "spotdesk", pid,
 * proof: identityProof(adminToken, N)}` — how a sandbox refused a state dir checks that the URL the
 * lock holder gave is the sandbox of that state dir (stateLock.ts `confirmHolderUrl`) without sending
 * the admin token anywhere. HTTP 400 400100 for a nonce that is not 32–128 lowercase hex digits.
 */
function identityAnswer(adminToken: string, rawQuery: string): { status: number; body: unknown } {
  const nonce = new URLSearchParams(rawQuery).get('nonce') ?? '';
  if (!NONCE.test(nonce)) return { status: 400, body: { code: '400100', msg: 'nonce: must be 32 to 128 lowercase hex digits' } };
  return ok({ sandbox: 'spotdesk', pid: process.pid, proof: identityProof(adminToken, nonce) });
}

function ok(data: unknown): { status: number; body: unknown } {
  return { status: 200, body: { code: '200000', data } };
}

function parse<T extends z.ZodType>(schema: T, body: string): z.output<T> {
  const r = schema.safeParse(parseBody(body === '' ? '{}' : body));
  if (!r.success) throw new SandboxError('400100', describeZodError(r.error), 400);
  return r.data;
}

/**
 * Handle one admin request. Never throws: errors become envelopes.
 * @returns HTTP status and JSON body.
 */
export function handleAdmin(ctx: AdminContext, req: IncomingMessage, method: string, pathname: string, rawQuery: string, body: string): { status: number; body: unknown } {
  if (!isLoopback(req.socket.remoteAddress)) return { status: 403, body: { code: '403000', msg: 'the sandbox admin API is loopback only' } };
  if (method === 'GET' && pathname.replace(/\/+$/, '') === '/sandbox/v1/identity') return identityAnswer(ctx.adminToken, rawQuery);
  const auth = String(req.headers.authorization ?? '');
  const m = /^Bearer (.+)$/.exec(auth);
  if (!m || !safeEqual(m[1], ctx.adminToken)) return { status: 401, body: { code: '400003', msg: 'admin API: missing or wrong Authorization: Bearer <admin-token>' } };
  const { state } = ctx;
  try {
    const route = `${method} ${pathname.replace(/\/+$/, '')}`;
    let mm: RegExpExecArray | null;
    if (route === 'POST /sandbox/v1/users') {
      const p = parse(AdminCreateUser, body);
      const u = state.run('user.create', {
        ...newKeyMaterial(),
        keyVersion: p.keyVersion ?? '2',
        permissions: p.permissions ?? [...ALL_PERMISSIONS],
        ...(p.balances ? { balances: p.balances } : {}),
        ...(p.takerFeeRate !== undefined ? { takerFeeRate: p.takerFeeRate } : {}),
        ...(p.makerFeeRate !== undefined ? { makerFeeRate: p.makerFeeRate } : {}),
        ...(p.label ? { label: p.label } : {}),
      }) as UserRecord;
      ctx.log(`sandbox: admin created user ${u.uid}`);
      return ok(userCredentials(u));
    }
    if (route === 'POST /sandbox/v1/deposits') {
      const p = parse(AdminDeposit, body);
      const { chain } = state.chainOf(p.currency, p.chain);
      return ok(state.run('deposit', { uid: p.uid, currency: p.currency, chainId: chain.chainId, amount: p.amount, depositId: randomHex(12) }));
    }
    if (route === 'PUT /sandbox/v1/status') {
      const p = parse(AdminStatus, body);
      return ok(state.run('status.set', { status: p.status, msg: p.msg ?? '' }));
    }
    if ((mm = /^PUT \/sandbox\/v1\/users\/([^/]+)\/withdrawal-whitelist$/.exec(route))) {
      const p = parse(AdminWhitelist, body);
      return ok(state.run('whitelist.set', { uid: decodeURIComponent(mm[1]), enabled: p.enabled, favorites: p.favorites }));
    }
    if ((mm = /^PUT \/sandbox\/v1\/users\/([^/]+)\/fees$/.exec(route))) {
      const p = parse(AdminFees, body);
      state.run('fees.set', { uid: decodeURIComponent(mm[1]), takerFeeRate: p.takerFeeRate, makerFeeRate: p.makerFeeRate });
      return ok(p);
    }
    if (route === 'POST /sandbox/v1/clock') {
      const p = parse(AdminClock, body);
      if (!state.manualClock) throw new SandboxError('400100', 'the clock can only be moved when the sandbox runs with --manual-clock', 400);
      const now = state.now() + p.advanceMs;
      ctx.beforeClockMove?.(now);
      state.exec({ op: 'clock.set', t: now, args: { now } });
      ctx.onClockMoved?.();
      return ok({ now: state.now() });
    }
    if (route === 'GET /sandbox/v1/clock') return ok({ now: state.now(), manual: state.manualClock });
    if (route === 'GET /sandbox/v1/withdrawals') {
      const uid = new URLSearchParams(rawQuery).get('uid');
      return ok([...state.withdrawals.values()].filter((w) => !uid || w.uid === uid));
    }
    if ((mm = /^POST \/sandbox\/v1\/withdrawals\/([^/]+)\/fail$/.exec(route))) {
      const p = parse(z.object({ reason: z.string().max(200).optional() }), body);
      return ok(state.run('withdrawal.release', { withdrawalId: decodeURIComponent(mm[1]), reason: p.reason ?? 'failed by admin' }));
    }
    if (route === 'POST /sandbox/v1/reset' && ctx.onReset) {
      parse(AdminReset, body);
      const r = ctx.onReset();
      ctx.log(`sandbox: admin reset to the seeded world (seed ${r.seed}) in ${r.tookMs.toFixed(1)} ms`);
      return ok(r);
    }
    if (route === 'GET /sandbox/v1/invariants') {
      try {
        state.exchange.checkInvariants();
      } catch (e) {
        return { status: 500, body: { code: '500001', msg: `invariant violated: ${(e as Error).message}` } };
      }
      return ok({ ok: true });
    }
    return { status: 404, body: { code: '404000', msg: `${method} ${pathname} not found` } };
  } catch (e) {
    if (e instanceof SandboxError) return { status: e.httpStatus === 200 ? 400 : e.httpStatus, body: { code: e.code, msg: e.msg } };
    if (e instanceof ExchangeError) return { status: 400, body: { code: e.code, msg: e.msg } };
    if (e instanceof URIError) return { status: 400, body: { code: '400100', msg: 'malformed path' } };
    ctx.log(`sandbox: admin internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { status: 500, body: { code: '500000', msg: 'Internal error of the sandbox admin API (logged)' } };
  }
}
