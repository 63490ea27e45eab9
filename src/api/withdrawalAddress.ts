/**
 * The withdrawal-destination rule shared by SpotDesk (before anything is sent) and the sandbox
 * exchange (which refuses the same destinations with `400100` "Incorrect withdrawal address", as
 * KuCoin does, and changes nothing).
 *
 * - `ADDRESS`: checked against the chain's address format, checksum included, for every chain the
 *   sandbox world seeds and the common EVM chains (see {@link ADDRESS_FORMATS}). Bitcoin, Litecoin,
 *   Neo N3, EVM (EIP-55), XRP and TRON come from `multicoin-address-validator` (only the validator
 *   modules needed are imported); Lightning invoices (BOLT 11: bech32 without BIP-173's 90-character
 *   limit, checksum verified with the library's bech32), TON addresses (no library), Solana (base58
 *   with the library's decoder, exactly 32 bytes: Solana addresses carry no checksum) and NEAR
 *   account ids (implicit 64 hex digits, EVM-implicit, or named accounts per NEAR's account-id rules)
 *   are checked here. A chain with no known format gets the generic syntax check and `verified: false`, which
 *   the withdrawal summary states plainly.
 * - `UID`: 4 to 20 digits. `MAIL`: an address `local@domain.tld` (RFC 5321 lengths, letters,
 *   digits and `._%+-` in the local part, dot-separated hostname labels). `PHONE`: E.164, an
 *   optional `+` then 6 to 15 digits, the first not 0, no spaces.
 *
 * No `vscode`, no Node-only API: usable by the extension host, feature models, webviews and the sandbox.
 */
import btc from 'multicoin-address-validator/src/bitcoin_validator';
import segwit from 'multicoin-address-validator/src/crypto/segwit_addr';
import bech32 from 'multicoin-address-validator/src/crypto/bech32';
import evm from 'multicoin-address-validator/src/ethereum_validator';
import xrp from 'multicoin-address-validator/src/ripple_validator';
import tron from 'multicoin-address-validator/src/tron_validator';
import base58 from 'multicoin-address-validator/src/crypto/base58';

/** Kind of destination (V4 `withdrawType`; V1 withdrawals are `ADDRESS`). */
export type DestinationKind = 'ADDRESS' | 'UID' | 'MAIL' | 'PHONE';

/** The sandbox's (and KuCoin's) answer to a destination this rule refuses: code 400100 with this msg. */
export const INCORRECT_WITHDRAWAL_ADDRESS = 'Incorrect withdrawal address';

/** Outcome of {@link checkWithdrawalDestination}. */
export interface DestinationCheck {
  /** Whether the destination may be sent. */
  ok: boolean;
  /**
   * True when the destination was checked against a known format (ADDRESS: the chain's format and
   * checksum; UID, MAIL, PHONE: their formats). False for an address on a chain with no known
   * format: only the generic syntax was checked.
   */
  verified: boolean;
  /** What it was checked against, e.g. "TRON address (T…, base58check)". */
  format: string;
  /** Why it is refused: one sentence for the person (only when `ok` is false). */
  reason?: string;
}

/** One chain's address format: a description for people and the check. */
export interface AddressFormat {
  /** E.g. "TRON address (T…, base58check)". */
  name: string;
  /** True when `address` has this format and a valid checksum. */
  test(address: string): boolean;
}

const NO_NETWORK: string[] = [];
const prod = { networkType: 'prod' as const };

/**
 * The mainnet check of a Bitcoin-family chain (the library's Bitcoin validator): base58check with
 * one of the version bytes `versions` (hex) and, when `hrp` is given, SegWit bech32/bech32m with
 * that human-readable part. Testnet forms never pass.
 */
function bitcoinFamily(versions: string[], hrp?: string): (address: string) => boolean {
  const currency = { addressTypes: { prod: versions, testnet: NO_NETWORK }, ...(hrp !== undefined ? { bech32Hrp: { prod: [hrp], testnet: NO_NETWORK } } : {}) };
  return (a) => btc.isValidAddress(a, currency, prod);
}

/** Bitcoin mainnet: legacy P2PKH 1…, P2SH 3…, SegWit v0 bc1q…, Taproot bc1p…. */
const BITCOIN: AddressFormat = {
  name: 'Bitcoin address (1…, 3…, bc1q… or bc1p…, with checksum)',
  test: bitcoinFamily(['00', '05'], 'bc'),
};

/** Bitcoin SegWit (bech32/bech32m) only: the BTC-Segwit chain. */
const BITCOIN_SEGWIT: AddressFormat = {
  name: 'Bitcoin SegWit address (bc1q… or bc1p…, bech32 checksum)',
  test: (a) => segwit.isValidAddress(a, { bech32Hrp: { prod: ['bc'], testnet: NO_NETWORK } }, prod),
};

/** Omni Layer (USDT on Bitcoin): legacy Bitcoin addresses only. */
const OMNI: AddressFormat = {
  name: 'Bitcoin legacy address for Omni (1… or 3…, base58check)',
  test: bitcoinFamily(['00', '05']),
};

/** Litecoin mainnet: L…, M… (base58check) and ltc1… (bech32). */
const LITECOIN: AddressFormat = {
  name: 'Litecoin address (L…, M… or ltc1…, with checksum)',
  test: bitcoinFamily(['30', '32'], 'ltc'),
};

/** Neo N3: base58check, version byte 0x35 (addresses start with N). */
const NEO3: AddressFormat = {
  name: 'Neo N3 address (N…, base58check)',
  test: bitcoinFamily(['35']),
};

/** EVM chains: 0x + 40 hex digits; mixed case must match the EIP-55 checksum. */
const EVM: AddressFormat = {
  name: 'EVM address (0x + 40 hex digits; mixed case must match the EIP-55 checksum)',
  test: (a) => evm.isValidAddress(a),
};

const TRON: AddressFormat = { name: 'TRON address (T…, 34 characters, base58check)', test: (a) => tron.isValidAddress(a) };

const RIPPLE: AddressFormat = { name: 'XRP Ledger address (r…, with checksum; the tag goes in the memo)', test: (a) => xrp.isValidAddress(a) };

const LIGHTNING: AddressFormat = { name: 'Lightning invoice (BOLT 11, lnbc…, bech32 checksum)', test: (a) => isLightningInvoice(a) };

const TON: AddressFormat = { name: 'TON address (48 characters of base64 with CRC16, e.g. EQ…/UQ…, or raw 0:<64 hex>)', test: (a) => isTonAddress(a) };

const SOLANA: AddressFormat = { name: 'Solana address (base58 of a 32-byte public key, 32 to 44 characters; no checksum)', test: (a) => isSolanaAddress(a) };

const NEAR: AddressFormat = { name: 'NEAR account (64 hex digits, or a named account such as alice.near)', test: (a) => isNearAccount(a) };

/**
 * Address format per chainId (lower case): every chain of the sandbox world (seed/currencies.json:
 * btc, bech32, btcln, omni, eth, kcc, arbitrum, bsc, trx, ltc, xrp, ton, neo3, sol, near; btcp has no
 * known format) and KuCoin's common EVM chains.
 */
export const ADDRESS_FORMATS: Readonly<Record<string, AddressFormat>> = {
  btc: BITCOIN,
  bech32: BITCOIN_SEGWIT,
  btcln: LIGHTNING,
  omni: OMNI,
  eth: EVM,
  kcc: EVM,
  arbitrum: EVM,
  bsc: EVM,
  optimism: EVM,
  matic: EVM,
  base: EVM,
  avaxc: EVM,
  trx: TRON,
  ltc: LITECOIN,
  xrp: RIPPLE,
  ton: TON,
  neo3: NEO3,
  sol: SOLANA,
  near: NEAR,
};

/** The format of `chainId` (case-insensitive), or undefined when SpotDesk knows none. */
export function addressFormatOf(chainId: string | undefined): AddressFormat | undefined {
  if (!chainId) return undefined;
  const f = ADDRESS_FORMATS[chainId.toLowerCase()];
  return Object.prototype.hasOwnProperty.call(ADDRESS_FORMATS, chainId.toLowerCase()) ? f : undefined;
}

/** The generic syntax for an address on a chain with no known format (the sandbox's former rule). */
const GENERIC_ADDRESS = /^[A-Za-z0-9:._-]{1,128}$/;
const UID_RE = /^[0-9]{4,20}$/;
const PHONE_RE = /^\+?[1-9][0-9]{5,14}$/;
const MAIL_LOCAL_RE = /^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*$/;
const MAIL_LABEL_RE = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** `local@domain.tld`: local part ≤ 64, whole ≤ 254, hostname labels ≤ 63, a letters-only TLD. */
function isMail(s: string): boolean {
  if (s.length > 254) return false;
  const at = s.lastIndexOf('@');
  if (at < 1 || at !== s.indexOf('@')) return false;
  const local = s.slice(0, at);
  const labels = s.slice(at + 1).split('.');
  if (local.length > 64 || !MAIL_LOCAL_RE.test(local) || labels.length < 2) return false;
  return labels.every((l) => MAIL_LABEL_RE.test(l)) && /^[A-Za-z]{2,24}$/.test(labels[labels.length - 1]);
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** BOLT 11 mainnet prefix: `lnbc` + optional amount (digits + optional multiplier m/u/n/p). */
const BOLT11_HRP = /^lnbc(?:[0-9]+[munp]?)?$/;
/** Timestamp (7 groups) + signature (104 groups) + checksum (6 groups). */
const BOLT11_MIN_DATA = 7 + 104 + 6;

/**
 * A Lightning invoice for Bitcoin mainnet (BOLT 11): one case throughout, `lnbc[amount]1<data>`,
 * data in the bech32 alphabet, long enough for a timestamp and a signature, valid bech32 checksum.
 */
export function isLightningInvoice(s: string): boolean {
  if (s.length > 4096 || (s !== s.toLowerCase() && s !== s.toUpperCase())) return false;
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 4) return false;
  const hrp = lower.slice(0, sep);
  if (!BOLT11_HRP.test(hrp)) return false;
  const data: number[] = [];
  for (const c of lower.slice(sep + 1)) {
    const v = BECH32_CHARSET.indexOf(c);
    if (v < 0) return false;
    data.push(v);
  }
  return data.length >= BOLT11_MIN_DATA && bech32.verifyChecksum(hrp, data, bech32.encodings.BECH32);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decode 48 base64 characters (standard or URL-safe alphabet, already checked) into 36 bytes. */
function base64Bytes(s: string): number[] {
  const std = s.replace(/-/g, '+').replace(/_/g, '/');
  const out: number[] = [];
  for (let i = 0; i < std.length; i += 4) {
    const n = (B64.indexOf(std[i]) << 18) | (B64.indexOf(std[i + 1]) << 12) | (B64.indexOf(std[i + 2]) << 6) | B64.indexOf(std[i + 3]);
    out.push((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  return out;
}

/** CRC-16/XMODEM (poly 0x1021, init 0), as TON's user-friendly addresses use. */
export function crc16xmodem(bytes: readonly number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/**
 * A TON mainnet address: raw `0:<64 hex>` / `-1:<64 hex>`, or user-friendly: 48 characters of
 * base64 (one alphabet, standard or URL-safe) = flag byte (0x11 bounceable, 0x51 non-bounceable;
 * the testnet bit 0x80 is refused), workchain (0 or -1), 32-byte account id, CRC-16/XMODEM of the
 * first 34 bytes (big-endian).
 */
export function isTonAddress(s: string): boolean {
  if (/^(0|-1):[0-9a-fA-F]{64}$/.test(s)) return true;
  if (!/^[A-Za-z0-9_-]{48}$/.test(s) && !/^[A-Za-z0-9+/]{48}$/.test(s)) return false;
  const b = base64Bytes(s);
  if (b[0] !== 0x11 && b[0] !== 0x51) return false;
  if (b[1] !== 0x00 && b[1] !== 0xff) return false;
  return crc16xmodem(b.slice(0, 34)) === ((b[34] << 8) | b[35]);
}

/**
 * A Solana address: the base58 (Bitcoin alphabet) form of a 32-byte ed25519 public key, 32 to 44
 * characters. Solana addresses have no checksum, so the decoded length is all there is to check.
 */
export function isSolanaAddress(s: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)) return false;
  try {
    return base58.decode(s).length === 32;
  } catch {
    return false;
  }
}

/** NEAR named account id (nomicon "Account ID"): dot-separated parts of [a-z0-9] joined by single `-` or `_`. */
const NEAR_NAMED_RE = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

/**
 * A NEAR mainnet account id: an implicit account (64 lower-case hex digits, the ed25519 public key),
 * an ETH-implicit account (`0x` + 40 lower-case hex digits), or a named account of 2 to 64
 * characters under NEAR's account-id rules that is a top-level `.near` account or a sub-account of
 * one (`*.testnet` is refused: testnet).
 */
export function isNearAccount(s: string): boolean {
  if (/^[0-9a-f]{64}$/.test(s) || /^0x[0-9a-f]{40}$/.test(s)) return true;
  if (s.length < 2 || s.length > 64 || !NEAR_NAMED_RE.test(s)) return false;
  return s.endsWith('.near');
}

/**
 * Check a withdrawal destination.
 * @param kind `withdrawType` (V1 withdrawals: `ADDRESS`).
 * @param destination the `address` / `toAddress` exactly as it will be sent (no trimming).
 * @param chainId the chain's id (e.g. `trx`); used for `ADDRESS` only.
 * @returns `{ok, verified, format, reason?}`; never throws.
 */
export function checkWithdrawalDestination(kind: DestinationKind, destination: string, chainId?: string): DestinationCheck {
  if (typeof destination !== 'string' || destination.trim() === '') return { ok: false, verified: false, format: kind, reason: 'Enter a destination.' };
  if (destination !== destination.trim()) return { ok: false, verified: false, format: kind, reason: 'The destination has leading or trailing spaces.' };
  switch (kind) {
    case 'UID':
      return UID_RE.test(destination) ? { ok: true, verified: true, format: 'KuCoin UID' } : { ok: false, verified: true, format: 'KuCoin UID', reason: 'A KuCoin UID is 4 to 20 digits.' };
    case 'MAIL':
      return isMail(destination) ? { ok: true, verified: true, format: 'e-mail address' } : { ok: false, verified: true, format: 'e-mail address', reason: 'Not an e-mail address (name@example.com).' };
    case 'PHONE':
      return PHONE_RE.test(destination)
        ? { ok: true, verified: true, format: 'phone number' }
        : { ok: false, verified: true, format: 'phone number', reason: 'Not a phone number: an optional + and 6 to 15 digits with the country code, no spaces (e.g. +491701234567).' };
    case 'ADDRESS': {
      const f = addressFormatOf(chainId);
      if (f) {
        let ok = false;
        try {
          ok = destination.length <= 4096 && f.test(destination);
        } catch {
          ok = false;
        }
        return ok ? { ok: true, verified: true, format: f.name } : { ok: false, verified: true, format: f.name, reason: `Not a valid address for this chain (expected: ${f.name}). Check it for a typo or a missing character.` };
      }
      const generic = 'address (no known format for this chain: characters only)';
      return GENERIC_ADDRESS.test(destination)
        ? { ok: true, verified: false, format: generic }
        : { ok: false, verified: false, format: generic, reason: 'An address is 1 to 128 letters, digits or :._- (no spaces).' };
    }
    default:
      return { ok: false, verified: false, format: String(kind), reason: `Unknown destination type ${String(kind)}.` };
  }
}
