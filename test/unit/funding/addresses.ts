/**
 * Withdrawal destinations per seeded chainId for the address-rule tests (unit and sandbox HTTP).
 * Valid ones are real or standard examples: BIP-173/BIP-350, EIP-55 and BOLT 11 examples,
 * multicoin-address-validator's own test vectors, KuCoin fixtures; invalid ones are typos
 * (one character changed), other chains' addresses, testnet addresses and junk.
 */
import { LN_INVOICE } from './fixtures';

/** Valid and invalid addresses per seeded chainId (kcc, arbitrum and bsc share eth's). */
export const ADDRESSES: Record<string, { valid: string[]; invalid: string[] }> = {
  btc: {
    valid: ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '12QeMLzSrB8XH8FvEzPMVoRxVAzTr5XM2y', '3FyVFsEyyBPzHjD3qUEgX7Jsn4tcHNZFkn', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    invalid: ['hello', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', 'mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  },
  bech32: {
    valid: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1q2t63ewm3mvh0ztmnmezxm7s0tefknenxlrlwrk', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    invalid: ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr', 'bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea'],
  },
  omni: {
    valid: ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '3FyVFsEyyBPzHjD3qUEgX7Jsn4tcHNZFkn'],
    invalid: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN'],
  },
  btcln: {
    valid: [LN_INVOICE, LN_INVOICE.toUpperCase()],
    invalid: [
      'lnbc1xyz',
      `${LN_INVOICE.slice(0, -1)}x`,
      `lntb${LN_INVOICE.slice(4)}`,
      `${LN_INVOICE.slice(0, 10).toUpperCase()}${LN_INVOICE.slice(10)}`,
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ],
  },
  eth: {
    valid: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', '0x02028456f38e78609904e8a002c787ede7a73d7c', '0x52908400098527886E0F7030069857D2E4169EE7'],
    invalid: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xg2028456f38e78609904e8a002c787ede7a73d7c', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'hello'],
  },
  trx: {
    valid: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TKFRQXSDcY4kd3QLzw7uK16GmLrjJggwX8', 'TMn4XcAaiXmoAjGeGs93zQhBnGZq3dHHnz'],
    invalid: ['hello', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', 'TKFRQXSDcY4kd3ZnXKN8pE16GmLrjJggwX8', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  },
  ltc: {
    valid: ['LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', 'LTpYZG19YmfvY2bBDYtCKpunVRw7nVgRHW', 'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea'],
    invalid: ['LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'tltc1qu78xur5xnq6fjy83amy0qcjfau8m367defyhms'],
  },
  xrp: {
    valid: ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh'],
    invalid: ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi', 'r123', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'hello'],
  },
  ton: {
    // The fixture's address, URL-safe and standard base64 (same bytes), and raw forms.
    valid: ['EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZl', 'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf/b9hckjla6dZl', `0:${'ab'.repeat(32)}`, `-1:${'0F'.repeat(32)}`],
    invalid: [
      'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZm',
      'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZ',
      'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6d+l',
      `1:${'ab'.repeat(32)}`,
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    ],
  },
  neo3: {
    valid: ['NdqT9EgbQbbCUTLHuBS4JhRnHmzCAkoUXx'],
    invalid: ['NdqT9EgbQbbCUTLHuBS4JhRnHmzCAkoUXy', 'AK2nJJpJr6o664CWJKi1QRXjqeic2zRp8y', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'hello'],
  },
  // Solana: the USDT mint, the token program, the wrapped-SOL mint and the system program (32 zero bytes).
  sol: {
    valid: ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'So11111111111111111111111111111111111111112', '11111111111111111111111111111111'],
    // 33 bytes, a character outside base58 (0, O, I, l), too short, an EVM and a TRON address
    invalid: ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYBB', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwN0B', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNIB', '1111111111111111111111111111111', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'hello'],
  },
  // NEAR: an implicit account (64 hex digits), an ETH-implicit account, named .near accounts (USDT's contract among them).
  near: {
    valid: ['98793cd91a3f870fb126f66285808c7e094afcfc4eda8a970f6648cdf0dbd6de', '0x02028456f38e78609904e8a002c787ede7a73d7c', 'alice.near', 'usdt.tether-token.near', 'app_1.bob-2.near'],
    invalid: ['98793CD91A3F870FB126F66285808C7E094AFCFC4EDA8A970F6648CDF0DBD6DE', '98793cd91a3f870fb126f66285808c7e094afcfc4eda8a970f6648cdf0dbd6d', 'alice.testnet', 'Alice.near', 'alice..near', 'alice-.near', `${'a'.repeat(60)}.near`, 'hello'],
  },
};
ADDRESSES.kcc = ADDRESSES.eth;
ADDRESSES.arbitrum = ADDRESSES.eth;
ADDRESSES.bsc = ADDRESSES.eth;

