import { strict as assert } from 'node:assert';
import { listen, TypedEmitter } from '../../../src/api/emitter';

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
