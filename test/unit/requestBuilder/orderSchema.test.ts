import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { orderDocumentSchema, orderDocumentSchemaText, orderFieldSpecs, orderFieldsModuleText } from '../../../scripts/orderSchema';
import { ORDER_FIELD_SPECS } from '../../../src/api/orderFields';
import { PlaceOrderRequest } from '../../../src/api/schemas';

const ROOT = path.join(__dirname, '..', '..', '..');

describe('requestBuilder/orderSchema (media/spotorder.schema.json)', () => {
  it('the committed schema file is exactly what the generator produces from PlaceOrderRequest', () => {
    const file = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'media', 'spotorder.schema.json'), 'utf8');
    assert.equal(file, orderDocumentSchemaText(), 'run: npx tsx scripts/gen-spotorder-schema.ts');
  });

  it('accepts one order or an array of orders — HF, stop or OCO; the order definition mirrors PlaceOrderRequest', () => {
    type Def = { required: string[]; properties: Record<string, { type?: string; enum?: string[]; pattern?: string; maxLength?: number; description?: string }> };
    const s = orderDocumentSchema() as { oneOf: unknown[]; definitions: { anyOrder: unknown; order: Def; stopOrder: Def; ocoOrder: Def } };
    assert.deepEqual(s.oneOf, [{ $ref: '#/definitions/anyOrder' }, { type: 'array', items: { $ref: '#/definitions/anyOrder' } }]);
    assert.deepEqual(s.definitions.anyOrder, { anyOf: [{ $ref: '#/definitions/order' }, { $ref: '#/definitions/stopOrder' }, { $ref: '#/definitions/ocoOrder' }] });
    // the stop order: the HF order's fields plus stop and stopPrice (StopOrderRequest), stopPrice required
    assert.deepEqual(Object.keys(s.definitions.stopOrder.properties), [...Object.keys(s.definitions.order.properties), 'stop', 'stopPrice', 'tradeType']);
    assert.deepEqual(s.definitions.stopOrder.required, ['symbol', 'side', 'type', 'stopPrice']);
    assert.deepEqual(s.definitions.stopOrder.properties.stop.enum, ['loss', 'entry']);
    assert.match(s.definitions.stopOrder.properties.stopPrice.description ?? '', /trigger/);
    // the OCO order (OcoOrderRequest): its own fields, clientOid required, described
    assert.deepEqual(Object.keys(s.definitions.ocoOrder.properties), ['clientOid', 'symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice', 'remark', 'tradeType']);
    assert.deepEqual(s.definitions.ocoOrder.required, ['clientOid', 'symbol', 'side', 'price', 'size', 'stopPrice', 'limitPrice']);
    assert.match(s.definitions.ocoOrder.properties.price.description ?? '', /take-profit/);
    const o = s.definitions.order;
    assert.deepEqual(o.required, ['symbol', 'side', 'type']);
    assert.deepEqual(Object.keys(o.properties), ['clientOid', 'symbol', 'side', 'type', 'price', 'size', 'funds', 'timeInForce', 'cancelAfter', 'postOnly', 'hidden', 'iceberg', 'visibleSize', 'stp', 'remark', 'tags']);
    assert.deepEqual(o.properties.side.enum, ['buy', 'sell']);
    assert.deepEqual(o.properties.timeInForce.enum, ['GTC', 'GTT', 'IOC', 'FOK']);
    assert.equal(o.properties.price.pattern, '^\\d+(\\.\\d+)?$');
    assert.equal(o.properties.cancelAfter.type, 'integer');
    assert.equal(o.properties.remark.maxLength, 20);
  });

  it('the generated field table src/api/orderFields.ts is the schema, field for field and in order', () => {
    assert.equal(fs.readFileSync(path.join(ROOT, 'src', 'api', 'orderFields.ts'), 'utf8'), orderFieldsModuleText());
    assert.deepEqual(Object.keys(ORDER_FIELD_SPECS), Object.keys(PlaceOrderRequest.shape));
    assert.deepEqual(JSON.parse(JSON.stringify(ORDER_FIELD_SPECS)), orderFieldSpecs());
    assert.deepEqual(ORDER_FIELD_SPECS.price, { kind: 'decimal' });
    assert.deepEqual(ORDER_FIELD_SPECS.side, { kind: 'enum', values: ['buy', 'sell'], required: true });
    assert.deepEqual(ORDER_FIELD_SPECS.remark, { kind: 'string', maxLength: 20 });
  });

  it('the generator fills only the table of src/api/orderFields.ts and keeps the module around it byte for byte', () => {
    const file = fs.readFileSync(path.join(ROOT, 'src', 'api', 'orderFields.ts'), 'utf8');
    const open = 'export const ORDER_FIELD_SPECS = {\n';
    const head = file.slice(0, file.indexOf(open) + open.length);
    const tail = file.slice(file.indexOf('\n} as const satisfies '));
    const rows = file.slice(head.length, file.length - tail.length);
    assert.equal(rows.split('\n').length, Object.keys(PlaceOrderRequest.shape).length);
    // a stale table and an edited frame: the rows are made anew, the frame is kept as it is
    const stale = `// edited notice\n${head.replace('How one field', 'How a field')}  clientOid: { kind: 'boolean' },\n  gone: { kind: 'string' },${tail}\n// trailer\n`;
    assert.equal(orderFieldsModuleText(stale), `// edited notice\n${head.replace('How one field', 'How a field')}${rows}${tail}\n// trailer\n`);
    // an empty table is filled too
    assert.equal(orderFieldsModuleText(`${head}${tail}`.replace(`${open}\n}`, `${open}}`)), file);
    assert.throws(() => orderFieldsModuleText(file.replace('ORDER_FIELD_SPECS', 'FIELDS')), /no "export const ORDER_FIELD_SPECS = \{"/);
    assert.throws(() => orderFieldsModuleText(file.replace('} as const satisfies ', '};\n')), /table to fill/);
  });

  it('scripts/gen-spotorder-schema.ts --check exits 0 and names both generated files as up to date', function () {
    this.timeout(30_000);
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'gen-spotorder-schema.ts'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /media[\\/]spotorder\.schema\.json is up to date/);
    assert.match(r.stdout, /src[\\/]api[\\/]orderFields\.ts is up to date/);
  });
});
