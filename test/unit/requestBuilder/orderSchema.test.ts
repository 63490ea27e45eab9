import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { orderDocumentSchema, orderDocumentSchemaText } from '../../../src/shared/requestBuilder/orderSchema';

describe('requestBuilder/orderSchema (media/spotorder.schema.json)', () => {
  it('the committed schema file is exactly what the generator produces from PlaceOrderRequest', () => {
    const file = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'media', 'spotorder.schema.json'), 'utf8');
    assert.equal(file, orderDocumentSchemaText(), 'run: npx tsx scripts/gen-spotorder-schema.ts');
  });

  it('accepts one order or an array of orders; the order definition mirrors PlaceOrderRequest', () => {
    const s = orderDocumentSchema() as { oneOf: unknown[]; definitions: { order: { required: string[]; properties: Record<string, { type?: string; enum?: string[]; pattern?: string; maxLength?: number }> } } };
    assert.deepEqual(s.oneOf, [{ $ref: '#/definitions/order' }, { type: 'array', items: { $ref: '#/definitions/order' } }]);
    const o = s.definitions.order;
    assert.deepEqual(o.required, ['symbol', 'side', 'type']);
    assert.deepEqual(Object.keys(o.properties), ['clientOid', 'symbol', 'side', 'type', 'price', 'size', 'funds', 'timeInForce', 'cancelAfter', 'postOnly', 'hidden', 'iceberg', 'visibleSize', 'stp', 'remark', 'tags']);
    assert.deepEqual(o.properties.side.enum, ['buy', 'sell']);
    assert.deepEqual(o.properties.timeInForce.enum, ['GTC', 'GTT', 'IOC', 'FOK']);
    assert.equal(o.properties.price.pattern, '^\\d+(\\.\\d+)?$');
    assert.equal(o.properties.cancelAfter.type, 'integer');
    assert.equal(o.properties.remark.maxLength, 20);
  });
});
