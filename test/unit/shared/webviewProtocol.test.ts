/**
 * The one validation style of the webview protocols (src/webviewBridge/validate.ts,
 * src/webviewBridge/protocol.ts): schemas parse into new objects with only declared keys, name the
 * offending field, never throw on any input; each protocol validates both directions from one
 * declaration.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import * as v from '../../../src/webviewBridge/validate';
import { defineProtocol } from '../../../src/webviewBridge/protocol';
import { REQUEST_BUILDER_PROTOCOL, emptyDraft, DRAFT_TEXT_MAX } from '../../../src/features/requestBuilder/protocol';
import { FUNDING_PROTOCOL } from '../../../src/features/funding/protocol';
import { ORDER_BOOK_PROTOCOL } from '../../../src/features/market/protocol';

describe('shared schemas (src/webviewBridge/validate.ts)', () => {
  const S = v.object({ a: v.string({ max: 3 }), b: v.optional(v.number({ int: true, min: 0 })), c: v.nullable(v.oneOf(['x', 'y'] as const)) });

  it('returns a new object with only the declared keys', () => {
    const input = { a: 'ab', c: null, extra: 1 };
    const r = S.parse(input);
    assert.ok(r.ok);
    assert.deepEqual(r.value, { a: 'ab', c: null });
    assert.notEqual(r.value, input);
    assert.deepEqual(S.parse({ a: 'ab', b: 2, c: 'y' }), { ok: true, value: { a: 'ab', b: 2, c: 'y' } });
  });

  it('names the offending field', () => {
    assert.deepEqual(S.parse({ a: 'abcd', c: null }, 'msg'), { ok: false, error: 'msg.a: expected a string of at most 3 characters' });
    assert.deepEqual(S.parse({ a: 'a', b: 1.5, c: null }), { ok: false, error: 'b: expected an integer ≥ 0' });
    assert.deepEqual(S.parse({ a: 'a', c: 'z' }), { ok: false, error: 'c: expected one of "x", "y"' });
    assert.deepEqual(v.array(v.boolean(), { max: 2 }).parse([true, 1], 'list'), { ok: false, error: 'list[1]: expected true or false' });
    assert.deepEqual(v.array(v.boolean(), { max: 2 }).parse([true, true, true]), { ok: false, error: 'value: expected an array of at most 2 elements' });
  });

  it('never throws, whatever it is given', () => {
    const all = [S, v.record(v.string()), v.array(S), v.ms, ORDER_BOOK_PROTOCOL.toWebview.snapshot, REQUEST_BUILDER_PROTOCOL.toHost.draft];
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true, withTypedArray: true }), (x) => {
        for (const s of all) s.parse(x);
      }),
      { numRuns: 300 },
    );
  });

  it('ms accepts only safe non-negative integers', () => {
    assert.equal(v.ms.parse(0).ok, true);
    assert.equal(v.ms.parse(-1).ok, false);
    assert.equal(v.ms.parse(2 ** 53).ok, false);
    assert.equal(v.ms.parse(Number.NaN).ok, false);
  });
});

describe('webview protocols (src/webviewBridge/protocol.ts)', () => {
  const P = defineProtocol({
    toWebview: { hello: v.object({ n: v.number() }) },
    toHost: { ready: v.object({}), ping: v.object({ s: v.string({ max: 5 }) }) },
  });

  it('parses each direction with its own map and keeps `type`', () => {
    assert.deepEqual(P.parseToWebview({ type: 'hello', n: 1, x: 2 }), { type: 'hello', n: 1 });
    assert.equal(P.parseToWebview({ type: 'ping', s: 'a' }), undefined, 'a host message is not a webview message');
    assert.deepEqual(P.parseToHost({ type: 'ping', s: 'a' }), { type: 'ping', s: 'a' });
    assert.equal(P.parseToHost({ type: 'toString' }), undefined, 'inherited names are no message types');
  });

  it('explains why a webview message was refused (for the log)', () => {
    assert.equal(P.explainToHost({ type: 'ready' }), '');
    assert.equal(P.explainToHost({ type: 'ping', s: 'toolong' }), 'ping.s: expected a string of at most 5 characters');
    assert.equal(P.explainToHost({ type: 'eval' }), 'unknown message type "eval"');
    assert.equal(P.explainToHost('ready'), 'not an object');
  });

  it('request builder: a draft field longer than the form sends is refused; a whole draft round-trips', () => {
    const draft = emptyDraft('BTC-USDT', 'abc');
    assert.deepEqual(REQUEST_BUILDER_PROTOCOL.parseToHost({ type: 'runTest', draft }), { type: 'runTest', draft });
    assert.equal(REQUEST_BUILDER_PROTOCOL.parseToHost({ type: 'runTest', draft: { ...draft, price: '1'.repeat(DRAFT_TEXT_MAX + 1) } }), undefined);
    assert.equal(REQUEST_BUILDER_PROTOCOL.parseToHost({ type: 'runTest', draft: { ...draft, side: 'hold' } }), undefined);
    assert.equal(REQUEST_BUILDER_PROTOCOL.parseToHost({ type: 'place', draft: { ...draft, postOnly: 'yes' } }), undefined);
    const init = { type: 'init', symbols: [], draft, profile: { name: 'Sandbox (local)', sandbox: true }, replaceDraft: false };
    assert.deepEqual(REQUEST_BUILDER_PROTOCOL.parseToWebview(init), init);
  });

  it('funding: the webview may only ask to copy the address or the memo', () => {
    assert.deepEqual(FUNDING_PROTOCOL.parseToHost({ type: 'copy', field: 'address', address: 'attacker' }), { type: 'copy', field: 'address' });
    assert.equal(FUNDING_PROTOCOL.parseToHost({ type: 'copy', field: 'secret' }), undefined);
  });
});
