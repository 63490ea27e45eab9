/**
 * Types of the few `multicoin-address-validator` modules SpotDesk imports one by one (the package
 * has no type declarations, and its index pulls in every currency's validator). Used only by
 * src/api/withdrawalAddress.ts. Each module is CommonJS (`module.exports = {...}`), imported as a
 * default import so that methods keep their `this`.
 */
declare module 'multicoin-address-validator/src/bitcoin_validator' {
  const v: {
    /** Base58check P2PKH/P2SH (version bytes as hex strings) or, with `bech32Hrp`, SegWit/Taproot. */
    isValidAddress(
      address: string,
      currency: { addressTypes: { prod: string[]; testnet: string[] }; bech32Hrp?: { prod: string[]; testnet: string[] } },
      opts?: { networkType?: 'prod' | 'testnet' | 'both' },
    ): boolean;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/crypto/segwit_addr' {
  const v: {
    /** BIP-173/BIP-350 SegWit address (v0 bech32, v1+ bech32m) with one of the given HRPs. */
    isValidAddress(address: string, currency: { bech32Hrp: { prod: string[]; testnet: string[] } }, opts?: { networkType?: 'prod' | 'testnet' | 'both' }): boolean;
    /** Encode a witness program; null when invalid. */
    encode(hrp: string, version: number, program: number[]): string | null;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/crypto/bech32' {
  const v: {
    encodings: { BECH32: 'bech32'; BECH32M: 'bech32m' };
    /** Whether the 5-bit `data` (checksum included) carries a valid checksum for `hrp`. */
    verifyChecksum(hrp: string, data: number[], enc: 'bech32' | 'bech32m'): boolean;
    /** Encode 5-bit `data` (checksum appended); no length limit. */
    encode(hrp: string, data: number[], enc: 'bech32' | 'bech32m'): string;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/ethereum_validator' {
  const v: {
    /** 0x + 40 hex; mixed case must match the EIP-55 checksum. */
    isValidAddress(address: string): boolean;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/ripple_validator' {
  const v: {
    /** XRP Ledger classic address (r…, ripple base58 alphabet, double-SHA-256 checksum). */
    isValidAddress(address: string): boolean;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/tron_validator' {
  const v: {
    /** TRON address: 34 base58 characters, version byte 0x41, double-SHA-256 checksum. */
    isValidAddress(address: string): boolean;
  };
  export = v;
}

declare module 'multicoin-address-validator/src/crypto/base58' {
  const v: {
    /** Decode base58 (Bitcoin alphabet) into bytes; throws on a character outside the alphabet. */
    decode(s: string): number[];
  };
  export = v;
}
