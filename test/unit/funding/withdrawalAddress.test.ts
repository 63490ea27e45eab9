/**
 * The withdrawal-destination rule shared by SpotDesk and the sandbox (src/api/withdrawalAddress.ts),
 * checked directly and through the extension's validation (src/features/funding/model/validate.ts): valid and
 * invalid addresses for every chain the sandbox world seeds, the real KuCoin deposit addresses of
 * test/fixtures/kucoin (all of it, beyond-spec/ included), the UID/MAIL/PHONE formats, and properties (the sandbox's own deposit
 * addresses pass; a one-character typo in a checksummed address is caught).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { addressFormatOf, checkWithdrawalDestination, crc16xmodem, isLightningInvoice, isTonAddress } from '../../../src/api/withdrawalAddress';
import { sampleDepositAddress } from '../../../src/exchange/server/depositAddresses';
import { buildWorld } from '../../../src/exchange/server/world';
import { checkDestination } from '../../../src/features/funding/model/validate';
import { ADDRESSES } from './addresses';
import { LN_INVOICE } from './fixtures';
import { FIXTURES_DIR } from '../../fixtures';

/** Every {address, chainId} of the recorded KuCoin responses (masked addresses left out). */
function fixtureDepositAddresses(): Array<{ address: string; chainId: string; file: string }> {
  const root = FIXTURES_DIR;
  const out: Array<{ address: string; chainId: string; file: string }> = [];
  const walk = (v: unknown, file: string): void => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, file));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.address === 'string' && typeof o.chainId === 'string' && !o.address.includes('*')) out.push({ address: o.address, chainId: o.chainId, file });
      Object.values(o).forEach((x) => walk(x, file));
    }
  };
  const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.json') ? [path.join(dir, e.name)] : []));
  for (const f of files(root)) walk(JSON.parse(fs.readFileSync(f, 'utf8')), path.relative(root, f));
  return out;
}

describe('withdrawal destination rule (src/api/withdrawalAddress.ts)', () => {
  const world = buildWorld();
  const seededChains = [...new Set(world.currencies.flatMap((c) => c.chains.map((ch) => ch.chainId)))];

  it('knows a format for every seeded chain but btcp (which falls back to the generic check)', () => {
    assert.deepEqual(seededChains.filter((id) => !addressFormatOf(id)).sort(), ['btcp']);
    assert.deepEqual(Object.keys(ADDRESSES).sort(), seededChains.filter((id) => id !== 'btcp').sort());
  });

  for (const [chainId, { valid, invalid }] of Object.entries(ADDRESSES)) {
    it(`${chainId}: accepts ${valid.length} valid and refuses ${invalid.length} invalid addresses (directly and through the extension's validation)`, () => {
      for (const a of valid) {
        assert.deepEqual(checkWithdrawalDestination('ADDRESS', a, chainId), { ok: true, verified: true, format: addressFormatOf(chainId)!.name }, `${a} on ${chainId}`);
        assert.equal(checkDestination('ADDRESS', a, chainId), undefined, `${a} on ${chainId} (extension)`);
      }
      for (const a of invalid) {
        const r = checkWithdrawalDestination('ADDRESS', a, chainId);
        assert.equal(r.ok, false, `${a} on ${chainId} must be refused`);
        assert.equal(r.reason, `Not a valid address for this chain (expected: ${addressFormatOf(chainId)!.name}). Check it for a typo or a missing character.`);
        assert.equal(checkDestination('ADDRESS', a, chainId), r.reason, `${a} on ${chainId} (extension)`);
      }
    });
  }

  it('the issue\'s case: "hello" on TRC20 is refused', () => {
    assert.equal(checkWithdrawalDestination('ADDRESS', 'hello', 'trx').ok, false);
    assert.equal(checkWithdrawalDestination('ADDRESS', 'hello', 'TRX').ok, false, 'chain ids are case-insensitive');
  });

  it('real KuCoin deposit addresses from the fixtures pass', () => {
    const found = fixtureDepositAddresses();
    assert.ok(found.length >= 4, `fixture addresses: ${JSON.stringify(found)}`);
    for (const { address, chainId, file } of found) {
      const r = checkWithdrawalDestination('ADDRESS', address, chainId);
      assert.deepEqual([r.ok, r.verified], [true, true], `${address} (${chainId}) from ${file}`);
    }
    assert.ok(found.some((f) => f.chainId === 'ton') && found.some((f) => f.chainId === 'eth') && found.some((f) => f.chainId === 'bsc'));
  });

  it('a chain with no known format: the generic check, verified false', () => {
    assert.deepEqual(checkWithdrawalDestination('ADDRESS', 'b1Vk3mZx9Q', 'btcp'), { ok: true, verified: false, format: 'address (no known format for this chain: characters only)' });
    assert.deepEqual(checkWithdrawalDestination('ADDRESS', 'b1Vk3mZx9Q', undefined).verified, false);
    for (const bad of ['a b', 'x'.repeat(129), 'é', '']) assert.equal(checkWithdrawalDestination('ADDRESS', bad, 'btcp').ok, false, JSON.stringify(bad));
    assert.equal(checkWithdrawalDestination('ADDRESS', ' TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'trx').reason, 'The destination has leading or trailing spaces.');
  });

  it('UID, MAIL and PHONE have their own formats', () => {
    const ok = (k: 'UID' | 'MAIL' | 'PHONE', v: string) => checkWithdrawalDestination(k, v).ok;
    for (const v of ['1234', '226999001', '1'.repeat(20)]) assert.ok(ok('UID', v), v);
    for (const v of ['123', '12a4', '1'.repeat(21), '+12345', '-1234']) assert.ok(!ok('UID', v), v);
    for (const v of ['ada@example.com', 'a.b+tag@mail.example.co.uk', 'x_y%z@a-b.io']) assert.ok(ok('MAIL', v), v);
    for (const v of ['a@b', 'not-an-email', '@example.com', 'a@@b.io', 'a..b@example.com', '.a@example.com', 'a@-b.io', 'a@b.c0m', `${'a'.repeat(65)}@b.io`, 'a b@c.io']) assert.ok(!ok('MAIL', v), v);
    for (const v of ['+491701234567', '905320000000', '+123456']) assert.ok(ok('PHONE', v), v);
    for (const v of ['+90 532 000 0000', '+0123456789', '12345', '+1234567890123456', 'call me', '+49-170-1234567']) assert.ok(!ok('PHONE', v), v);
  });

  it('Lightning and TON checks: parts the library does not cover', () => {
    assert.equal(crc16xmodem([...Buffer.from('123456789')]), 0x31c3, 'CRC-16/XMODEM check value');
    assert.equal(isLightningInvoice(LN_INVOICE.slice(0, 120)), false, 'truncated: checksum');
    assert.equal(isLightningInvoice('lnbc2500u1' + LN_INVOICE.slice(5)), false, 'amount changed: checksum covers the prefix');
    // The testnet flag (0x80) on the fixture's account: a kQ… address, refused on mainnet.
    const raw = Buffer.from('EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZl', 'base64url');
    raw[0] |= 0x80;
    const crc = crc16xmodem([...raw.subarray(0, 34)]);
    raw[34] = crc >> 8;
    raw[35] = crc & 0xff;
    assert.equal(isTonAddress(raw.toString('base64url')), false);
    raw[0] = 0x51; // non-bounceable mainnet (UQ…)
    const crc2 = crc16xmodem([...raw.subarray(0, 34)]);
    raw[34] = crc2 >> 8;
    raw[35] = crc2 & 0xff;
    assert.match(raw.toString('base64url'), /^UQ/);
    assert.equal(isTonAddress(raw.toString('base64url')), true);
  });

  it('property: the deposit addresses the sandbox hands out pass the rule on their chain', () => {
    const chains = seededChains.filter((id) => id !== 'btcp');
    fc.assert(
      fc.property(fc.constantFrom(...chains), fc.uint8Array({ minLength: 256, maxLength: 256 }), (chainId, bytes) => {
        let at = 0;
        const random = (n: number) => bytes.subarray(at, (at += n));
        const address = sampleDepositAddress(chainId, random);
        const r = checkWithdrawalDestination('ADDRESS', address, chainId);
        assert.deepEqual([r.ok, r.verified], [true, true], `${address} on ${chainId}`);
      }),
    );
  });

  it('property: one changed character in a checksummed address (base58check, bech32, TON) is refused', () => {
    const CHECKSUMMED = ['btc', 'bech32', 'omni', 'btcln', 'trx', 'ltc', 'xrp', 'ton', 'neo3'];
    fc.assert(
      fc.property(fc.constantFrom(...CHECKSUMMED), fc.uint8Array({ minLength: 256, maxLength: 256 }), fc.nat(), fc.nat(), (chainId, bytes, pos, delta) => {
        let at = 0;
        const address = sampleDepositAddress(chainId, (n) => bytes.subarray(at, (at += n)));
        // Change one character of the payload part to another character of the same alphabet.
        const alphabet = chainId === 'btcln' || chainId === 'bech32' ? 'qpzry9x8gf2tvdw0s3jn54khce6mua7l' : chainId === 'ton' ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_' : chainId === 'xrp' ? 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz' : '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
        const start = chainId === 'btcln' ? 5 : chainId === 'bech32' ? 4 : 1;
        const i = start + (pos % (address.length - start));
        const j = alphabet.indexOf(address[i]);
        if (j < 0) return; // not a payload character
        const mutated = address.slice(0, i) + alphabet[(j + 1 + (delta % (alphabet.length - 1))) % alphabet.length] + address.slice(i + 1);
        assert.equal(checkWithdrawalDestination('ADDRESS', mutated, chainId).ok, false, `${address} → ${mutated} on ${chainId}`);
      }),
      { numRuns: 300 },
    );
  });
});
