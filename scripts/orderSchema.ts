/**
 * Generators of the two artefacts derived from the order request schema `PlaceOrderRequest`
 * (src/api/schemas.ts, the single source of truth) — and, for order documents, from the stop and OCO
 * order requests `StopOrderRequest` and `OcoOrderRequest` (src/api/schemas/advancedOrders.ts) — both
 * written by scripts/gen-spotorder-schema.ts and checked by its `--check` mode (a unit test runs it):
 *
 * - media/spotorder.schema.json: the JSON schema of order documents (`*.spotorder.json`): one order —
 *   an HF order, a stop order (`stopPrice`, `stop`) or an OCO order (`limitPrice`) — or an array of
 *   them, from zod 4's `z.toJSONSchema` (input side: what a user
 *   writes; the schema's `.describe()` texts are the field docs of the order-document language
 *   server's completion and hovers, src/language/fields.ts, which bundles this file). Cross-field
 *   rules (superRefine) cannot be expressed in JSON schema; those and the symbol rules are the
 *   language server's diagnostics (src/language/analysis.ts, from src/api/orderRules.ts).
 * - src/api/orderFields.ts: the same fields as a zod-free table (name, kind, enum values, pattern,
 *   maximum length, required), for the order rules, the request builder's draft and the webviews,
 *   which must not load zod. Only the table's rows are generated: the module's frame (its notice,
 *   docstring, the `OrderFieldSpec` interface and the `satisfies` clause) is read from the module as
 *   it stands, so it is written once, there.
 */
import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import type { OrderFieldSpec } from '../src/api/orderFields';
import { DECIMAL_PATTERN, OcoOrderRequest, PlaceOrderRequest, StopOrderRequest } from '../src/api/schemas';

/** JSON schema of one property, as `z.toJSONSchema` emits it for the order request. */
interface JsonProperty {
  description?: string;
  type?: string;
  enum?: string[];
  pattern?: string;
  maxLength?: number;
  [k: string]: unknown;
}

/** A request's JSON schema (draft-07, input side; default: the HF order request), each property's description first. */
function orderRequestJsonSchema(schema: z.ZodType = PlaceOrderRequest): { properties: Record<string, JsonProperty>; required: string[]; [k: string]: unknown } {
  const order = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  delete order.$schema;
  const props = (order.properties ?? {}) as Record<string, JsonProperty>;
  for (const [k, p] of Object.entries(props)) {
    const { description, ...rest } = p;
    props[k] = description === undefined ? rest : { description, ...rest };
  }
  return { ...order, properties: props, required: (order.required ?? []) as string[] };
}

/**
 * The order-document JSON schema object (draft-07, which VS Code's JSON service fully supports):
 * `oneOf` [an order, array of orders], an order being `anyOf` the HF order (`definitions.order`), the stop
 * order (`definitions.stopOrder`) and the OCO order (`definitions.ocoOrder`). Unknown properties are allowed
 * by the server (stripped) and so are not a schema error; the diagnostics warn about them instead.
 */
export function orderDocumentSchema(): Record<string, unknown> {
  const order: Record<string, unknown> = orderRequestJsonSchema();
  order.description = 'One HF order request: the body of POST /api/v1/hf/orders and POST /api/v1/hf/orders/test.';
  const stopOrder: Record<string, unknown> = orderRequestJsonSchema(StopOrderRequest);
  stopOrder.description = 'One stop order request: the body of POST /api/v1/stop-order (an HF order plus stopPrice and stop).';
  const ocoOrder: Record<string, unknown> = orderRequestJsonSchema(OcoOrderRequest);
  ocoOrder.description = 'One OCO order request: the body of POST /api/v3/oco/order (a take-profit leg at price, a stop leg at limitPrice fired at stopPrice).';
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'spotdesk:spotorder.schema.json',
    title: 'SpotDesk order document',
    description:
      'One order or an array of orders: HF orders, stop orders, OCO orders (generated from PlaceOrderRequest in src/api/schemas.ts and StopOrderRequest, OcoOrderRequest in src/api/schemas/advancedOrders.ts; do not edit).',
    oneOf: [{ $ref: '#/definitions/anyOrder' }, { type: 'array', items: { $ref: '#/definitions/anyOrder' } }],
    definitions: { anyOrder: { anyOf: [{ $ref: '#/definitions/order' }, { $ref: '#/definitions/stopOrder' }, { $ref: '#/definitions/ocoOrder' }] }, order, stopOrder, ocoOrder },
  };
}

/** {@link orderDocumentSchema} as the exact file text (2-space indent, trailing newline). */
export function orderDocumentSchemaText(): string {
  return `${JSON.stringify(orderDocumentSchema(), null, 2)}\n`;
}

/** One row of the zod-free field table (src/api/orderFields.ts `ORDER_FIELD_SPECS`): its {@link OrderFieldSpec}, built field by field. */
export type OrderFieldSpecRow = { -readonly [K in keyof OrderFieldSpec]: OrderFieldSpec[K] };

/**
 * The field table of the order request, in the schema's (= wire) order: a property with the
 * {@link DECIMAL_PATTERN} is a `decimal`, one with `enum` an `enum` (with its values), otherwise
 * its JSON type; `pattern` and `maxLength` are kept.
 * @throws Error for a property of a JSON type the table has no kind for (extend the table first).
 */
export function orderFieldSpecs(): Record<string, OrderFieldSpecRow> {
  const json = orderRequestJsonSchema();
  const out: Record<string, OrderFieldSpecRow> = {};
  for (const [name, p] of Object.entries(json.properties)) {
    let row: OrderFieldSpecRow;
    if (p.enum) row = { kind: 'enum', values: p.enum };
    else if (p.type === 'string' && p.pattern === DECIMAL_PATTERN) row = { kind: 'decimal' };
    else if (p.type === 'string' || p.type === 'integer' || p.type === 'boolean') row = { kind: p.type };
    else throw new Error(`orderFieldSpecs: ${name} has JSON type ${String(p.type)}, which the field table has no kind for`);
    if (json.required.includes(name)) row.required = true;
    if (row.kind === 'string' && p.pattern !== undefined) row.pattern = p.pattern;
    if (p.maxLength !== undefined) row.maxLength = p.maxLength;
    out[name] = row;
  }
  return out;
}

/** One table row as a single-line TypeScript object literal, e.g. `{ kind: 'enum', values: ['buy', 'sell'] }`. */
function rowLiteral(row: OrderFieldSpecRow): string {
  const str = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const parts = Object.entries(row).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.map(str).join(', ')}]` : typeof v === 'string' ? str(v) : String(v)}`);
  return `{ ${parts.join(', ')} }`;
}

/** The generated module of the field table; its frame around the table is read from it. */
export const ORDER_FIELDS_MODULE = path.join(__dirname, '..', 'src', 'api', 'orderFields.ts');
/** The line that opens the table in {@link ORDER_FIELDS_MODULE}, and the start of the line that closes it. */
const TABLE_OPEN = 'export const ORDER_FIELD_SPECS = {';
const TABLE_CLOSE = '} as const satisfies ';

/**
 * The text of src/api/orderFields.ts: `current` (the module as it stands) with the rows of its table
 * `ORDER_FIELD_SPECS` generated anew from {@link orderFieldSpecs}, one field a line; everything before
 * and after the rows is kept byte for byte.
 * @throws Error when `current` has no table to fill (its opening line or the `} as const satisfies` line is missing).
 */
export function orderFieldsModuleText(current: string = fs.readFileSync(ORDER_FIELDS_MODULE, 'utf8')): string {
  const open = current.indexOf(`\n${TABLE_OPEN}\n`);
  const close = open < 0 ? -1 : current.indexOf(`\n${TABLE_CLOSE}`, open + TABLE_OPEN.length + 1);
  if (close < 0) throw new Error(`orderFieldsModuleText: src/api/orderFields.ts has no "${TABLE_OPEN}" … "${TABLE_CLOSE}" table to fill`);
  const rows = Object.entries(orderFieldSpecs())
    .map(([name, row]) => `  ${name}: ${rowLiteral(row)},`)
    .join('\n');
  return `${current.slice(0, open + TABLE_OPEN.length + 2)}${rows}${current.slice(close)}`;
}
