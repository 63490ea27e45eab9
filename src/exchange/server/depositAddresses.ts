/**
 * Deposit addresses the sandbox hands out (POST /api/v1/deposit-addresses, /api/v3/deposit-address/create):
 * random, but well-formed for their chain, checksum included, so that they pass the withdrawal
 * rule SpotDesk and the sandbox share (src/api/withdrawalAddress.ts) — a user can withdraw to a
 * deposit address the sandbox gave them. Chains with no known format (and the EVM chains: eth, kcc,
 * arbitrum, bsc) get an EVM-style lower-case hex string.
 */
import { createHash, randomBytes } from 'node:crypto';
import segwit from 'multicoin-address-validator/src/crypto/segwit_addr';
import bech32 from 'multicoin-address-validator/src/crypto/bech32';
import { crc16xmodem } from '../../api/withdrawalAddress';

const BITCOIN_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const RIPPLE_ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

function sha256(b: Uint8Array): Buffer {
  return createHash('sha256').update(b).digest();
}

/** Base58check of `version || payload` (checksum: first 4 bytes of double SHA-256) in `alphabet`. */
export function base58check(version: number, payload: Uint8Array, alphabet = BITCOIN_ALPHABET): string {
  const body = Buffer.concat([Buffer.from([version]), Buffer.from(payload)]);
  return base58(Buffer.concat([body, sha256(sha256(body)).subarray(0, 4)]), alphabet);
}

/** Plain base58 of `bytes` (no version, no checksum; each leading zero byte becomes the alphabet's first character). */
export function base58(bytes: Uint8Array, alphabet = BITCOIN_ALPHABET): string {
  const full = Buffer.from(bytes);
  let n = full.length ? BigInt(`0x${full.toString('hex')}`) : 0n;
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of full) {
    if (byte !== 0) break;
    out = alphabet[0] + out;
  }
  return out;
}

/** A TON user-friendly bounceable mainnet address (flag 0x11, workchain 0) for a 32-byte account id. */
export function tonAddress(account: Uint8Array): string {
  const b = [0x11, 0x00, ...account];
  const crc = crc16xmodem(b);
  return Buffer.from([...b, crc >> 8, crc & 0xff]).toString('base64url');
}

/**
 * A well-formed random deposit address for `chainId` (see module docs); `random(n)` supplies the
 * random bytes (default: node:crypto randomBytes).
 */
export function sampleDepositAddress(chainId: string, random: (n: number) => Uint8Array = randomBytes): string {
  switch (chainId) {
    case 'btc':
    case 'omni':
      return base58check(0x00, random(20));
    case 'bech32':
      return segwit.encode('bc', 0, [...random(20)]) ?? base58check(0x00, random(20));
    case 'btcln': {
      // A BOLT 11-shaped invoice: timestamp + payment hash field + signature, as 5-bit groups.
      const groups = [...random(7 + 52 + 104)].map((x) => x & 31);
      return bech32.encode('lnbc', groups, bech32.encodings.BECH32);
    }
    case 'trx':
      return base58check(0x41, random(20));
    case 'ltc':
      return base58check(0x30, random(20));
    case 'neo3':
      return base58check(0x35, random(20));
    case 'xrp':
      return base58check(0x00, random(20), RIPPLE_ALPHABET);
    case 'ton':
      return tonAddress(random(32));
    case 'sol':
      // a Solana address is the base58 of a 32-byte public key (no checksum exists to break)
      return base58(random(32));
    case 'near':
      // a NEAR implicit account: the 32-byte public key as 64 lower-case hex digits
      return Buffer.from(random(32)).toString('hex');
    default:
      return `0x${Buffer.from(random(20)).toString('hex')}`;
  }
}
