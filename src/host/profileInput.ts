/**
 * Checks of what a person types when connecting an exchange profile ("SpotDesk: Connect a KuCoin
 * Account…"): the profile's name and its REST base URL. Pure; the messages are shown under the
 * input box as typed (VS Code `validateInput`: a string is the error, undefined means valid).
 */

/** KuCoin's spot REST base URL (https://www.kucoin.com/docs-new: "Base URL"). */
export const KUCOIN_BASE_URL = 'https://api.kucoin.com';

/**
 * A profile name: 1–60 characters after trimming, not a name already taken (case-insensitive,
 * `taken` includes the built-in sandbox profile).
 * @returns the error message, or undefined when `name` is valid.
 */
export function profileNameError(name: string, taken: readonly string[]): string | undefined {
  const n = name.trim();
  if (!n) return 'Give the profile a name, e.g. "KuCoin".';
  if (n.length > 60) return 'Keep the name to 60 characters or fewer.';
  const clash = taken.find((t) => t.toLowerCase() === n.toLowerCase());
  if (clash !== undefined) return `A profile named "${clash}" exists already: choose another name.`;
  return undefined;
}

/**
 * A REST base URL: absolute http(s) with a host, no query or fragment; a path is allowed (a
 * proxy). Plain http is accepted only for a loopback host, because the key's signatures and the
 * account's data would otherwise cross the network unencrypted.
 * @returns the error message, or undefined when valid.
 */
export function baseUrlError(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return `Enter an absolute URL such as ${KUCOIN_BASE_URL}.`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `Use an https:// URL such as ${KUCOIN_BASE_URL}.`;
  if (!u.hostname) return 'The URL needs a host name.';
  if (u.search || u.hash) return 'Leave out the query (?…) and fragment (#…): SpotDesk adds the API paths itself.';
  if (u.username || u.password) return 'Leave user names and passwords out of the URL; the API key goes into secret storage in the next step.';
  const loopback = u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
  if (u.protocol === 'http:' && !loopback) return 'Use https:// for a remote exchange: plain http would send your signed requests unencrypted.';
  return undefined;
}

/** The URL as stored in the profile: trimmed, without trailing slashes. Call only when {@link baseUrlError} is undefined. */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** A name not in `taken` (case-insensitive): `base`, else `base 2`, `base 3`, … */
export function freeProfileName(base: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((t) => t.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) if (!lower.has(`${base} ${i}`.toLowerCase())) return `${base} ${i}`;
}
