/**
 * How SpotDesk names what a profile's money is, in every confirmation (order, cancel-all,
 * withdrawal) and label: the embedded sandbox trades play money; a user profile whose base URL is a
 * loopback address is a local server (SpotDesk cannot know whether it is a real exchange); any other
 * profile trades REAL funds. Pure.
 */

/** What a profile trades with, as far as SpotDesk knows. */
export type FundsKind = 'sandbox' | 'local' | 'real';

/** The profile fields the wording needs. */
export interface FundsProfile {
  name: string;
  /** True for the built-in profiles of the embedded sandbox (Sandbox, Paper, Replay): play money. */
  sandbox: boolean;
  /** Paper trading on a borrowed market, or a replay (src/api/borrowedMarket.ts): still play money. */
  mode?: { kind: 'paper' | 'replay' };
  /** The REST base URL of a user profile. */
  baseUrl?: string;
}

/** True when `url` is an http(s) URL on a loopback host (localhost, 127.0.0.0/8, [::1]). */
export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The {@link FundsKind} of a profile. */
export function fundsKind(p: FundsProfile): FundsKind {
  if (p.sandbox) return 'sandbox';
  return isLoopbackUrl(p.baseUrl) ? 'local' : 'real';
}

/**
 * The profile and its money in one phrase, for a confirmation's detail: `the sandbox profile "X"
 * (play money, not real)`, `the profile "X" on a local server (URL): real funds only if that server
 * is connected to a real exchange`, or `REAL funds on the profile "X"`.
 */
export function fundsPhrase(p: FundsProfile): string {
  switch (fundsKind(p)) {
    case 'sandbox':
      if (p.mode?.kind === 'paper') return `the paper-trading profile "${p.name}" (play money on a live market's prices, not real; nothing reaches that exchange)`;
      if (p.mode?.kind === 'replay') return `the replay profile "${p.name}" (play money on a recorded market, not real)`;
      return `the sandbox profile "${p.name}" (play money, not real)`;
    case 'local':
      return `the profile "${p.name}" on a local server (${p.baseUrl}): real funds only if that server is connected to a real exchange`;
    case 'real':
      return `REAL funds on the profile "${p.name}"`;
  }
}

/** A short label for headers and rows: "Sandbox · play money", "Paper · play money", "Replay · play money", "Local server", "REAL funds". */
export function fundsLabel(p: FundsProfile): string {
  switch (fundsKind(p)) {
    case 'sandbox':
      return p.mode?.kind === 'paper' ? 'Paper · play money' : p.mode?.kind === 'replay' ? 'Replay · play money' : 'Sandbox · play money';
    case 'local':
      return 'Local server';
    case 'real':
      return 'REAL funds';
  }
}
