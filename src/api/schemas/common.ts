/**
 * Wire schemas shared by every family: API key versions and permissions (spec "Authentication"), the
 * response envelope and error body, the empty parameter and payload schemas, and {@link describeZodError}
 * (how a validation failure reads in a `400100` msg).
 * Conventions as in src/api/schemas.ts (the index that re-exports this file).
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// API keys (spec "Authentication")
// ---------------------------------------------------------------------------------------------

/**
 * KC-API-KEY-VERSION: `'1'` sends the passphrase in clear, `'2'` and `'3'` send it HMAC-signed
 * (see signing.ts). The sandbox's admin API accepts the same values for a new key.
 */
export const KeyVersion = z.enum(['1', '2', '3']);
/** Type of {@link KeyVersion}. */
export type KeyVersion = z.infer<typeof KeyVersion>;

/**
 * The permissions an API key can hold (spec "Authentication"): `General`, `Spot` (Spot Trading),
 * `Transfer`. The endpoint table adds `'public'` (no key needed) on top of this one list:
 * `EndpointPermission` in endpoints.ts.
 */
export const KeyPermission = z.enum(['General', 'Spot', 'Transfer']);
/** Type of {@link KeyPermission}. */
export type KeyPermission = z.infer<typeof KeyPermission>;

// ---------------------------------------------------------------------------------------------
// Envelope and errors
// ---------------------------------------------------------------------------------------------

/** The standard envelope `{code: "200000", data}` (spec "General rules" 1); `data` unchecked here. */
export const Envelope = z.object({ code: z.string(), data: z.unknown().optional(), msg: z.string().optional() });
/** Type of {@link Envelope}. */
export type Envelope = z.infer<typeof Envelope>;

/** An error body `{code, msg}` (spec "Errors"): any code other than "200000". */
export const ErrorBody = z.object({ code: z.string(), msg: z.string().optional().default('') });
/** Type of {@link ErrorBody}. */
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Endpoints without parameters. */
export const NoParams = z.object({});

/** DELETE /api/v1/withdrawals/{withdrawalId} `data`: `null` (KuCoin "Cancel Withdrawal"). */
export const NullPayload = z.null();

// ---------------------------------------------------------------------------------------------
// Error reporting
// ---------------------------------------------------------------------------------------------

/**
 * Describe a zod validation failure as "which field, why", e.g.
 * `price: is required for a limit order; size: must be a plain decimal string (...)`.
 * The sandbox returns this as the `msg` of a `400100` error. Non-zod errors give their message.
 */
export function describeZodError(err: unknown): string {
  if (err instanceof z.ZodError) {
    return err.issues
      .map((i) => {
        const field = i.path.length ? i.path.map(String).join('.') : '(body)';
        let why = i.message;
        if (i.code === 'invalid_type' && /received undefined/.test(why)) why = 'is required';
        else why = why.replace(/^Invalid input: (?=expected)/, '');
        return `${field}: ${why}`;
      })
      .join('; ');
  }
  return err instanceof Error ? err.message : String(err);
}
