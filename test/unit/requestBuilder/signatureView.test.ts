import { strict as assert } from 'assert';
import { prehashOf, signRequest, buildQuery, computeSign } from '../../../src/api/signing';
import { renderCurl, renderHeaders, renderPrehash, showWhitespace, utf8Length, type PreparedView } from '../../../src/features/requestBuilder/model/signatureView';
import { signingVectorsFixture as vectors } from '../../fixtures';

const V = vectors[0] as { apiKey: string; secret: string; timestamp: string; method: string; endpoint: string; body: string; stringToSign: string; expectedSign: string };
const creds = { apiKey: V.apiKey, apiSecret: V.secret, apiPassphrase: 'pass phrase', keyVersion: '2' as const };

function prepared(method: string, path: string, body: string): PreparedView {
  const s = signRequest({ credentials: creds, timestamp: V.timestamp, method, pathWithRawQuery: path, body });
  return { method, url: `http://127.0.0.1:1${path}`, pathWithRawQuery: path, body, prehash: s.prehash, headers: s.redactedHeaders, timestamp: V.timestamp, keyVersion: '2', clockOffsetMs: 12 };
}

describe('requestBuilder/signatureView', () => {
  it('POST with body: prehash parts are timestamp, METHOD, path, body (KuCoin published vector)', () => {
    const p = prepared('post', V.endpoint, V.body);
    assert.equal(p.prehash, V.stringToSign);
    assert.equal(computeSign(V.secret, p.prehash), V.expectedSign);
    const r = renderPrehash(p);
    assert.deepEqual(r.parts, [
      { label: 'timestamp', text: '1547015186532' },
      { label: 'method', text: 'POST' },
      { label: 'path', text: '/api/v1/deposit-addresses' },
      { label: 'body', text: '{"currency":"BTC"}' },
    ]);
    assert.equal(r.consistent, true);
    assert.equal(r.bytes, 60);
  });

  it('GET with a raw query containing a space: no body part, whitespace made visible', () => {
    const q = buildQuery({ symbol: 'BTC-USDT', remark: 'a b' });
    assert.equal(q.encoded, 'symbol=BTC-USDT&remark=a%20b');
    const p = prepared('GET', `/api/v1/hf/orders/active?${q.raw}`, '');
    assert.equal(p.prehash, prehashOf(V.timestamp, 'GET', '/api/v1/hf/orders/active?symbol=BTC-USDT&remark=a b', ''));
    const r = renderPrehash(p);
    assert.deepEqual(r.parts, [
      { label: 'timestamp', text: '1547015186532' },
      { label: 'method', text: 'GET' },
      { label: 'path', text: '/api/v1/hf/orders/active?symbol=BTC-USDT&remark=a b' },
    ]);
    assert.equal(r.visible, '1547015186532GET/api/v1/hf/orders/active?symbol=BTC-USDT&remark=a·b');
  });

  it('flags a prehash that is not the concatenation of its parts', () => {
    const p = { ...prepared('POST', '/api/v1/hf/orders/test', '{"a":1}'), body: '{"a": 1}' };
    const r = renderPrehash(p);
    assert.equal(r.consistent, false);
    assert.deepEqual(r.parts, [{ label: 'path', text: '1547015186532POST/api/v1/hf/orders/test{"a":1}' }]);
  });

  it('headers: KC-API-* in fixed order, key masked, passphrase never shown', () => {
    const p = prepared('POST', V.endpoint, V.body);
    assert.deepEqual(renderHeaders(p.headers), [
      { name: 'KC-API-KEY', value: '5c2d…1734', masked: true },
      { name: 'KC-API-SIGN', value: '<redacted>', masked: false },
      { name: 'KC-API-TIMESTAMP', value: '1547015186532', masked: false },
      { name: 'KC-API-PASSPHRASE', value: '•••• (passphrase never shown)', masked: true },
      { name: 'KC-API-KEY-VERSION', value: '2', masked: false },
    ]);
    // Even an unredacted map is masked.
    const full = signRequest({ credentials: { ...creds, keyVersion: '1' }, timestamp: V.timestamp, method: 'POST', pathWithRawQuery: V.endpoint, body: V.body }).headers;
    const shown = renderHeaders(full);
    assert.equal(shown[0].value, '5c2d…1734');
    assert.equal(shown[1].value, V.expectedSign);
    assert.equal(shown[3].value, '•••• (passphrase never shown)');
    assert.ok(!JSON.stringify(shown).includes('pass phrase'));
  });

  it('curl: masked by default, real values only when asked; single quotes escaped', () => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...signRequest({ credentials: creds, timestamp: V.timestamp, method: 'POST', pathWithRawQuery: '/api/v1/hf/orders/test', body: `{"remark":"it's"}` }).headers };
    const masked = renderCurl({ method: 'POST', url: 'http://127.0.0.1:8080/api/v1/hf/orders/test', headers, body: `{"remark":"it's"}` });
    const sign = headers['KC-API-SIGN'];
    const pp = headers['KC-API-PASSPHRASE'];
    assert.equal(
      masked,
      [
        "curl -sS -X POST 'http://127.0.0.1:8080/api/v1/hf/orders/test'",
        "-H 'KC-API-KEY: 5c2d…1734'",
        `-H 'KC-API-SIGN: ${sign}'`,
        "-H 'KC-API-TIMESTAMP: 1547015186532'",
        "-H 'KC-API-PASSPHRASE: •••• (passphrase never shown)'",
        "-H 'KC-API-KEY-VERSION: 2'",
        "-H 'Content-Type: application/json'",
        `--data-raw '{"remark":"it'\\''s"}'`,
      ].join(' \\\n  '),
    );
    const open = renderCurl({ method: 'POST', url: 'http://x/y', headers, body: '' }, true);
    assert.ok(open.includes(`-H 'KC-API-KEY: ${V.apiKey}'`));
    assert.ok(open.includes(`-H 'KC-API-PASSPHRASE: ${pp}'`));
    assert.ok(!open.includes('--data-raw'));
  });

  it('whitespace and byte helpers', () => {
    assert.equal(showWhitespace('a b\tc\r\n'), 'a·b→c␍⏎');
    assert.equal(utf8Length('€'), 3);
  });
});
