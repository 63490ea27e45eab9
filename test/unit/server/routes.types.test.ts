/**
 * Compile-time guards of the typed route table (src/exchange/server/routes.ts): each handler is
 * typed by its endpoint-table row, so a handler that reads a parameter its row does not have or
 * returns a payload of the wrong shape fails `npm run check-types`. Every `@ts-expect-error` below
 * must stay an error: if one compiled, tsc would report the directive as unused and fail.
 * The runtime part checks that the real handlers are the ones the types describe.
 */
import { strict as assert } from 'node:assert';
import { ENDPOINTS, type EndpointName } from '../../../src/api/endpoints';
import { HANDLERS, type Handlers } from '../../../src/exchange/server/routes';

// A wrong status value: ServiceStatusValue is 'open' | 'close' | 'cancelonly'.
// @ts-expect-error the payload must be {status: 'open' | 'close' | 'cancelonly', msg}
const badStatus: Handlers['status'] = () => ({ status: 'opened', msg: '' });

// A missing field of the payload (CancelResult needs orderId).
// @ts-expect-error the payload must be {orderId}
const badCancel: Handlers['cancelOrder'] = () => ({ id: 'x' });

// A decimal sent as a number where the wire wants a decimal string.
// @ts-expect-error takerFeeRate / makerFeeRate are decimal strings
const badFee: Handlers['baseFee'] = () => ({ takerFeeRate: 0.001, makerFeeRate: '0.001' });

// Reading a parameter the row does not have (level2 takes only `symbol`).
// @ts-expect-error level2_20's params have no `orderId`
const badParam: Handlers['level2_20'] = ({ params }) => ({ sequence: params.orderId, time: 0, bids: [], asks: [] });

// A well-typed handler compiles (the positive control of the guards above).
const goodStatus: Handlers['status'] = () => ({ status: 'cancelonly', msg: 'maintenance' });

describe('server/routes typed handlers', () => {
  it('has exactly one handler per endpoint-table row', () => {
    assert.deepEqual(Object.keys(HANDLERS).sort(), Object.keys(ENDPOINTS).sort());
    for (const name of Object.keys(HANDLERS) as EndpointName[]) assert.equal(typeof HANDLERS[name], 'function', name);
  });

  it('the compile-time examples are functions of the handler type (kept referenced)', () => {
    for (const h of [badStatus, badCancel, badFee, badParam, goodStatus]) assert.equal(typeof h, 'function');
    assert.deepEqual(goodStatus({} as never), { status: 'cancelonly', msg: 'maintenance' });
  });
});
