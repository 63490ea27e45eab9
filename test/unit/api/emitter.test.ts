import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { listen, TypedEmitter } from '../../../src/api/emitter';
import { L2BookKeeper } from '../../../src/api/l2Book';
import { StreamClient } from '../../../src/api/stream';

type Ev = { value: [number]; done: []; error: [Error] };

describe('TypedEmitter', () => {
  it('calls listeners in order with the arguments, once listeners once', () => {
    const e = new TypedEmitter<Ev>();
    const seen: string[] = [];
    e.on('value', (n) => seen.push(`a${n}`));
    e.once('value', (n) => seen.push(`o${n}`));
    e.on('value', (n) => seen.push(`b${n}`));
    assert.equal(e.emit('value', 1), true);
    e.emit('value', 2);
    assert.deepEqual(seen, ['a1', 'o1', 'b1', 'a2', 'b2']);
    assert.equal(e.listenerCount('value'), 2);
    assert.equal(e.emit('done'), false);
  });

  it('off removes a listener, also a once listener by its function', () => {
    const e = new TypedEmitter<Ev>();
    let n = 0;
    const fn = (): void => void n++;
    e.once('done', fn);
    e.off('done', fn);
    e.emit('done');
    e.on('done', fn);
    e.emit('done');
    e.off('done', fn);
    e.emit('done');
    assert.equal(n, 1);
    assert.equal(e.listenerCount('done'), 0);
  });

  it('a listener removed or added during emit takes effect at the next emit', () => {
    const e = new TypedEmitter<Ev>();
    const seen: string[] = [];
    const b = (): void => void seen.push('b');
    e.on('done', () => {
      seen.push('a');
      e.off('done', b);
      e.on('done', () => seen.push('c'));
    });
    e.on('done', b);
    e.emit('done');
    assert.deepEqual(seen, ['a', 'b']);
    seen.length = 0;
    e.emit('done');
    assert.deepEqual(seen, ['a', 'c']);
  });

  it('throws an error event without listeners, like Node', () => {
    const e = new TypedEmitter<Ev>();
    assert.throws(() => e.emit('error', new Error('boom')), /boom/);
    let got: Error | undefined;
    e.on('error', (err) => (got = err));
    e.emit('error', new Error('caught'));
    assert.equal(got?.message, 'caught');
  });

  it('propagates a listener error by default; isolates it with onListenerError', () => {
    const thrower = (): void => {
      throw new Error('bug');
    };
    const plain = new TypedEmitter<Ev>();
    plain.on('done', thrower);
    assert.throws(() => plain.emit('done'), /bug/);

    const errors: unknown[] = [];
    const isolated = new TypedEmitter<Ev>({ onListenerError: (err) => errors.push(err) });
    let after = 0;
    isolated.on('done', thrower);
    isolated.on('done', () => void after++);
    isolated.emit('done');
    assert.equal(after, 1);
    assert.equal(errors.length, 1);
  });

  it('removeAllListeners drops one event or all; listen() gives a disposable vscode-style event', () => {
    const e = new TypedEmitter<Ev>();
    const seen: number[] = [];
    const sub = listen(e, 'value')((n) => seen.push(n));
    e.on('done', () => seen.push(-1));
    e.emit('value', 7);
    sub.dispose();
    e.emit('value', 8);
    e.removeAllListeners('done');
    e.emit('done');
    e.on('value', (n) => seen.push(n));
    e.removeAllListeners();
    e.emit('value', 9);
    assert.deepEqual(seen, [7]);
  });
});

/**
 * Bots were written against Node's `EventEmitter` (StreamClient and L2BookKeeper extended it): the
 * same calls on a TypedEmitter and on a Node EventEmitter must give the same listener calls,
 * return values and counts.
 */
describe('TypedEmitter: Node EventEmitter compatibility', () => {
  type Op =
    | { op: 'on' | 'addListener' | 'once' | 'off' | 'removeListener'; event: 'a' | 'b'; fn: number }
    | { op: 'removeAll'; event: 'a' | 'b' | undefined }
    | { op: 'emit'; event: 'a' | 'b'; arg: number }
    | { op: 'count'; event: 'a' | 'b' };
  const event = fc.constantFrom('a' as const, 'b' as const);
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constantFrom('on' as const, 'addListener' as const, 'once' as const, 'off' as const, 'removeListener' as const), event, fn: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ op: fc.constant('removeAll' as const), event: fc.option(event, { nil: undefined }) }),
    fc.record({ op: fc.constant('emit' as const), event, arg: fc.integer({ min: 0, max: 99 }) }),
    fc.record({ op: fc.constant('count' as const), event }),
  );

  /** Any emitter with Node's surface (both implementations are driven through it). */
  interface NodeLike {
    on(e: string, f: (n: number) => void): unknown;
    addListener(e: string, f: (n: number) => void): unknown;
    once(e: string, f: (n: number) => void): unknown;
    off(e: string, f: (n: number) => void): unknown;
    removeListener(e: string, f: (n: number) => void): unknown;
    removeAllListeners(e?: string): unknown;
    emit(e: string, n: number): boolean;
    listenerCount(e: string): number;
    listeners(e: string): unknown[];
  }

  /** Run `ops`; listener 3 re-enters (emits 'b' once and removes listener 0 from 'a'). Returns the trace. */
  function trace(em: NodeLike, ops: Op[]): string[] {
    const out: string[] = [];
    let depth = 0;
    const fns: ((n: number) => void)[] = [0, 1, 2].map((i) => (n: number) => void out.push(`f${i}(${n})`));
    fns.push((n: number) => {
      out.push(`f3(${n})`);
      if (depth > 0) return;
      depth++;
      em.off('a', fns[0]);
      em.emit('b', n + 1000);
      depth--;
    });
    for (const o of ops) {
      switch (o.op) {
        case 'removeAll':
          if (o.event === undefined) em.removeAllListeners();
          else em.removeAllListeners(o.event);
          break;
        case 'emit':
          out.push(`emit ${o.event} → ${em.emit(o.event, o.arg)}`);
          break;
        case 'count':
          out.push(`count ${o.event} = ${em.listenerCount(o.event)}, listeners ${em.listeners(o.event).map((f) => fns.indexOf(f as (n: number) => void)).join(',')}`);
          break;
        default:
          assert.equal(em[o.op](o.event, fns[o.fn]), em, `${o.op} returns the emitter`);
      }
    }
    return out;
  }

  it('random sequences of on/addListener/once/off/removeListener/removeAllListeners/emit/listenerCount behave as on Node', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const node = new EventEmitter();
        const ours = new TypedEmitter<{ a: [number]; b: [number] }>();
        assert.deepEqual(trace(ours as unknown as NodeLike, ops), trace(node as unknown as NodeLike, ops));
      }),
      { numRuns: 500 },
    );
  });

  it('a once listener nested in its own emit runs once, and the plain registration of the same function stays', () => {
    for (const make of [() => new EventEmitter() as unknown as NodeLike, () => new TypedEmitter<{ a: [number] }>() as unknown as NodeLike]) {
      const em = make();
      const seen: number[] = [];
      const f = (n: number): void => void seen.push(n);
      em.on('a', (n) => {
        if (n === 1) em.emit('a', 2);
      });
      em.once('a', f);
      em.on('a', f);
      em.emit('a', 1);
      assert.deepEqual(seen, [2, 2, 1], 'inner emit: once and plain; outer: plain only');
      assert.equal(em.listenerCount('a'), 2);
    }
  });

  it('StreamClient and L2BookKeeper keep the calls a bot makes: chaining, aliases, setMaxListeners', () => {
    const stream = new StreamClient({ token: () => Promise.reject(new Error('not used')) });
    const keeper = new L2BookKeeper({ symbol: 'BTC-USDT', fetchSnapshot: () => Promise.reject(new Error('not used')) });
    const got: string[] = [];
    const onPong = (): void => void got.push('pong');
    const onResync = (e: { reason: string }): void => void got.push(`resync ${e.reason}`);
    assert.equal(stream.setMaxListeners(50).addListener('pong', onPong), stream);
    assert.equal(stream.getMaxListeners(), 50);
    assert.throws(() => stream.setMaxListeners(-1), RangeError);
    stream.emit('pong');
    assert.equal(stream.listenerCount('pong'), 1);
    assert.deepEqual(stream.listeners('pong'), [onPong]);
    assert.ok(stream.eventNames().includes('pong'));
    stream.removeListener('pong', onPong).emit('pong');
    assert.equal(stream.listenerCount('pong'), 0);

    keeper.setMaxListeners(0).addListener('resync', onResync);
    keeper.resync(); // emits 'resync' synchronously, then asks for a snapshot (which fails: retried)
    keeper.on('error', () => undefined);
    keeper.removeListener('resync', onResync).resync();
    keeper.close();
    stream.close();
    assert.deepEqual(got, ['pong', 'resync requested']);
  });
});
