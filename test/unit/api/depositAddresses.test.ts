/**
 * GET /api/v2/deposit-addresses (KuCoin "Get Deposit Addresses (V2)"): endpoint row, wire schema and
 * `SpotClient.getDepositAddresses`, decoded from a realistic payload (the shape of KuCoin's published
 * example: an ARRAY of {address, memo, chain, chainId, to, currency, contractAddress}) served by an
 * injected fetch — no fixture files, no network.
 */
import { strict as assert } from 'node:assert';
import { SpotClient } from '../../../src/api/client';
import { ENDPOINTS } from '../../../src/api/endpoints';
import { ValidationError } from '../../../src/api/errors';
import * as S from '../../../src/api/schemas';
import { computeSign, type Credentials } from '../../../src/api/signing';
import type { FetchLike } from '../../../src/api/transport';

const CREDS: Credentials = { apiKey: '5c2db93503aa674c74a31734', apiSecret: 'test-secret-value', apiPassphrase: 'test-passphrase-value', keyVersion: '2' };
const NOW = 1_729_176_273_859;

/** Two USDT addresses as KuCoin lists them: TRC20 to TRADE with its contract, TON with a memo. */
const PAYLOAD = `{"code":"200000","data":[
  {"address":"TSv3L1fS7yA3SxzKD8c1qdX4nLP6rqNxYz","memo":"","chain":"TRC20","chainId":"trx","to":"TRADE","currency":"USDT","contractAddress":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"},
  {"address":"EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZl","memo":"2085202643","chain":"TON","chainId":"ton","to":"MAIN","currency":"USDT","contractAddress":"EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs","extra":1}
]}`;

function client(body: string, seen: { url: string; headers: Record<string, string> }[]): SpotClient {
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, headers: init.headers });
    return { status: 200, headers: { get: (n: string) => (n.toLowerCase() === 'content-type' ? 'application/json' : null) }, text: async () => body };
  };
  return new SpotClient({ baseUrl: 'http://127.0.0.1:9', credentials: CREDS, fetch, now: () => NOW, maxRetries: 0 });
}

describe('GET /api/v2/deposit-addresses', () => {
  it('endpoint row: General, management pool, weight 5, standard envelope', () => {
    const e = ENDPOINTS.depositAddressesV2;
    assert.deepEqual([e.method, e.path, e.permission, e.pool, e.weight, e.envelope], ['GET', '/api/v2/deposit-addresses', 'General', 'management', 5, 'standard']);
  });

  it('getDepositAddresses(currency, chain) signs GET ?currency=&chain= and decodes the array (unknown keys stripped)', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const c = client(PAYLOAD, seen);
    const list = await c.getDepositAddresses('USDT', 'trx');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].url, 'http://127.0.0.1:9/api/v2/deposit-addresses?currency=USDT&chain=trx');
    assert.equal(seen[0].headers['KC-API-SIGN'], computeSign(CREDS.apiSecret, `${NOW}GET/api/v2/deposit-addresses?currency=USDT&chain=trx`));
    assert.deepEqual(list, [
      { address: 'TSv3L1fS7yA3SxzKD8c1qdX4nLP6rqNxYz', memo: '', chain: 'TRC20', chainId: 'trx', to: 'TRADE', currency: 'USDT', contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      { address: 'EQCA1BI4QRZ8qYmskSRDzJmkucGodYRTZCf_b9hckjla6dZl', memo: '2085202643', chain: 'TON', chainId: 'ton', to: 'MAIN', currency: 'USDT', contractAddress: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs' },
    ]);
    c.close();
  });

  it('without chain: only currency is sent; an empty list decodes to []', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const c = client('{"code":"200000","data":[]}', seen);
    assert.deepEqual(await c.getDepositAddresses('ETH'), []);
    assert.equal(seen[0].url, 'http://127.0.0.1:9/api/v2/deposit-addresses?currency=ETH');
    c.close();
  });

  it('schema: memo null kept (as the V1 create sends it); a missing address or an object instead of an array is refused', async () => {
    assert.deepEqual(S.DepositAddressList.parse([{ address: 'rX', memo: null, chain: 'XRP' }]), [{ address: 'rX', memo: null, chain: 'XRP' }]);
    assert.equal(S.DepositAddressList.safeParse([{ memo: '', chain: 'XRP' }]).success, false);
    const c = client('{"code":"200000","data":{"address":"0xabc","memo":"","chain":"ERC20"}}', []);
    await assert.rejects(c.getDepositAddresses('USDT'), (e: unknown) => e instanceof ValidationError && e.side === 'response');
    c.close();
  });

  it('request validation: currency is required and non-empty', async () => {
    const c = client(PAYLOAD, []);
    await assert.rejects(c.getDepositAddresses(''), (e: unknown) => e instanceof ValidationError && e.side === 'request' && /currency/.test(e.message));
    c.close();
  });
});
