/**
 * Plain-words explanations of funding errors (deposit address creation and withdrawals), with the
 * API code kept visible. Works on any thrown value: an `ApiError`-like object `{code, msg}`
 * (src/api/errors.ts), a transport error with `kind` ('timeout' | 'network' | 'non-json' |
 * 'ambiguous'), or anything else. Pure: no vscode, no Node APIs.
 */
import { formatWait, waitFromMessage } from './rateLimit';

/** What the funding UI shows for a failure. */
export interface FundingErrorExplanation {
  /** One-line headline, e.g. "Withdrawal refused: address is not on the whitelist (260325)". */
  title: string;
  /** Longer explanation: cause and what to do. */
  detail: string;
  /** API code when the server answered with one. */
  code?: string;
  /**
   * True when the request may have been executed (timeout / ambiguous transport outcome): the UI
   * must say "status unknown — check withdrawal history" and never resend.
   */
  unknownOutcome: boolean;
}

/** Where the error happened: deposit-address creation or a withdrawal (V1 or V4). */
export type FundingOperation = 'deposit-address' | 'withdraw-v1' | 'withdraw-v4';

/** Extra facts the explanation may use. */
export interface ExplainContext {
  /** For V4 rate-limit errors: ms to wait computed from locally recorded send times. */
  waitMs?: number;
  /** Currency / chain involved, for wording. */
  currency?: string;
  chain?: string;
}

function field(err: unknown, name: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[name] : undefined;
}

/** Code of an API error (`code` string other than 200000), else undefined. */
export function errorCode(err: unknown): string | undefined {
  const c = field(err, 'code');
  return typeof c === 'string' && c !== '200000' ? c : typeof c === 'number' ? String(c) : undefined;
}

/** Transport-failure kind ('timeout' | 'network' | 'non-json' | 'ambiguous'), else undefined. */
export function transportKind(err: unknown): string | undefined {
  const k = field(err, 'kind');
  return typeof k === 'string' ? k : undefined;
}

/**
 * True when a withdrawal's outcome is unknown: the request left but no usable answer came back
 * (transport kind 'timeout' or 'ambiguous', or a response-side validation error: the server
 * answered 200000 with a body the client could not read). Such a request must never be resent.
 */
export function isUnknownOutcome(err: unknown): boolean {
  const k = transportKind(err);
  if (k === 'timeout' || k === 'ambiguous') return true;
  return field(err, 'name') === 'ValidationError' && field(err, 'side') === 'response';
}

/**
 * True for a rate-limit refusal: 429000 (request-weight pools), 260310 (the sandbox's V4
 * UID/MAIL/PHONE withdrawal limit), or an API error whose message talks about a frequency limit.
 */
export function isRateLimited(err: unknown): boolean {
  const code = errorCode(err);
  if (code === '429000' || code === '260310') return true;
  const msg = String(field(err, 'msg') ?? '');
  return code !== undefined && code !== '260325' && /too many|rate limit|frequen|limited to \d+ per/i.test(msg);
}

/**
 * True when a deposit-address create was refused because the address already exists: KuCoin's
 * `260000` "Deposit address already exists." (HTTP 200), or any API error whose message says
 * "already exist(s)"/"exists". Transport failures and non-API errors are never this.
 */
export function isDepositAddressExists(err: unknown): boolean {
  const code = errorCode(err);
  if (code === undefined) return false;
  return code === '260000' || /already\s*exist|exists/i.test(String(field(err, 'msg') ?? ''));
}

const WHITELIST_HELP =
  'The account owner has enabled the withdrawal whitelist, so only favorite addresses may receive withdrawals — ' +
  'the address must match a favorite exactly, including its chain, and the comparison is case-sensitive. ' +
  'Favorites are managed on the KuCoin web site: Account Security → Withdrawal Address Management (favorite addresses). ' +
  'Add this address with this chain there (or pick an existing favorite), then withdraw again.';

/**
 * Explain `err` for operation `op` in words, keeping the API code.
 * Covered: 260325 whitelist, 260200/260220 deposits/withdrawals suspended on the chain, 400007 missing permission (Transfer for withdrawals, General for
 * deposit addresses), V4 rate limit (429000 or a frequency message) with the time to wait,
 * deposit address already exists, chain/currency disabled, 200004 insufficient balance,
 * 400100 bad parameter, other auth errors (400001–400006), unknown-outcome transport errors
 * and other transport failures.
 */
export function explainFundingError(err: unknown, op: FundingOperation, ctx: ExplainContext = {}): FundingErrorExplanation {
  const code = errorCode(err);
  const msg = String(field(err, 'msg') ?? (err instanceof Error ? err.message : String(err)));
  const withdraw = op !== 'deposit-address';
  const what = withdraw ? 'Withdrawal' : 'Deposit address';

  if (isUnknownOutcome(err)) {
    return {
      title: `${what} status unknown — check withdrawal history`,
      detail: withdraw
        ? 'The request was sent but no usable answer arrived (' + (transportKind(err) ?? 'unreadable response') + '). It may have been executed. ' +
          'SpotDesk does not resend it: check the withdrawal history (and the Accounts view: a pending withdrawal holds funds in main) before trying again.'
        : 'The request was sent but no answer arrived; the address may have been created. Run the command again to see it.',
      unknownOutcome: true,
    };
  }
  if (code === undefined) {
    const kind = transportKind(err);
    return {
      title: `${what} failed${kind ? ` (${kind})` : ''}`,
      detail: kind === 'network'
        ? `The server could not be reached, so nothing was sent: ${msg}`
        : msg,
      unknownOutcome: false,
    };
  }
  const base = { code, unknownOutcome: false };
  const lower = msg.toLowerCase();
  if (code === '260325') {
    return { ...base, title: `Withdrawal refused: address is not a favorite on the whitelist (${code})`, detail: `${WHITELIST_HELP}\nServer message: ${msg}` };
  }
  if (code === '400007') {
    const perm = withdraw ? 'Transfer' : 'General';
    return {
      ...base,
      title: `Missing API key permission: ${perm} (${code})`,
      detail: `This API key lacks the "${perm}" permission, which ${withdraw ? 'POST /api/v1/withdrawals and POST /api/v4/withdrawals require' : 'POST /api/v1/deposit-addresses requires'}. ` +
        `Edit the key in KuCoin (API Management) to grant "${perm}", or use a key that has it. Server message: ${msg}`,
    };
  }
  if (isRateLimited(err)) {
    const waitMs = ctx.waitMs !== undefined && ctx.waitMs > 0 ? ctx.waitMs : waitFromMessage(msg);
    const wait = waitMs !== undefined && waitMs > 0 ? ` Wait ${formatWait(waitMs)} before the next one.` : '';
    return {
      ...base,
      title: `Withdrawal rate limit reached (${code})`,
      detail: (op === 'withdraw-v4'
        ? 'Withdrawals by UID, e-mail or phone (V4) are limited to 3 per 10 seconds and 50 per 24 hours, rolling from the first request.'
        : 'Too many requests in the current window.') + wait + ` Server message: ${msg}`,
    };
  }
  if (!withdraw && isDepositAddressExists(err)) {
    return {
      ...base,
      title: `A deposit address already exists for ${ctx.currency ?? 'this currency'}${ctx.chain ? ` on ${ctx.chain}` : ''} (${code})`,
      detail: `The exchange keeps one deposit address per currency and chain and refused to create another. Use the existing address (shown on the exchange's deposit page), or pick another chain. Server message: ${msg}`,
    };
  }
  if (code === '260220' || code === '260200' || /disabled|not support|suspend|not enabled|unavailable/.test(lower)) {
    return {
      ...base,
      title: `${withdraw ? 'Withdrawals' : 'Deposits'} are disabled on this chain (${code})`,
      detail: `The exchange has ${withdraw ? 'withdrawals' : 'deposits'} for ${ctx.currency ?? 'this currency'}${ctx.chain ? ` on ${ctx.chain}` : ''} turned off (see isWithdrawEnabled/isDepositEnabled in the currency list). Pick another chain or try later. Server message: ${msg}`,
    };
  }
  if (code === '200004') {
    return { ...base, title: `Insufficient balance (${code})`, detail: `The main account does not hold enough available funds for the amount plus any fee it pays. Transfer from trade to main first, or lower the amount. Server message: ${msg}` };
  }
  if (code === '400100') {
    return { ...base, title: `Parameter refused (${code})`, detail: `The server rejected a field of the request: ${msg}` };
  }
  if (/^40000[1-6]$/.test(code)) {
    return { ...base, title: `Authentication failed (${code})`, detail: `The request was not authenticated: ${msg}. Check the profile's API key, secret, passphrase and key version, and the clock.` };
  }
  return { ...base, title: `${what} failed (${code})`, detail: msg };
}
