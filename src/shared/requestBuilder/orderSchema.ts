/**
 * JSON schema of order documents (`*.spotorder.json`): one HF order request or an array of them,
 * generated from the client's zod schema `PlaceOrderRequest` (src/api/schemas.ts, the single
 * source of truth) with zod 4's `z.toJSONSchema` (input side: what a user writes). Cross-field
 * rules (superRefine) cannot be expressed in JSON schema; those and the symbol rules are the
 * order-document diagnostics of orderDocument.ts. Written to media/spotorder.schema.json by
 * scripts/gen-spotorder-schema.ts.
 */
import { z } from 'zod';
import { PlaceOrderRequest } from '../../api/schemas';

/** Extra documentation per field, shown as hover text by VS Code's JSON language service. */
const FIELD_DOCS: Record<string, string> = {
  clientOid: 'Client order id: 1-40 characters of letters, digits, "_" or "-" (a UUID is recommended).',
  symbol: 'Trading pair, e.g. "BTC-USDT".',
  side: '"buy" or "sell".',
  type: '"limit" (needs price and size) or "market" (exactly one of size or funds).',
  price: 'Limit price, a decimal string that is a multiple of the symbol\'s priceIncrement.',
  size: 'Base amount, a decimal string: a multiple of baseIncrement, between baseMinSize and baseMaxSize.',
  funds: 'Market orders only: quote amount, a multiple of quoteIncrement, between quoteMinSize and quoteMaxSize.',
  timeInForce: 'GTC (default), GTT (needs cancelAfter), IOC or FOK.',
  cancelAfter: 'With timeInForce GTT: cancel after this many seconds (> 0; -1 means never, the same as absent).',
  postOnly: 'Post-only (maker only); not allowed with IOC or FOK.',
  hidden: 'Hidden order (not shown in the book); not together with iceberg.',
  iceberg: 'Iceberg order; needs visibleSize.',
  visibleSize: 'Iceberg orders: the size shown in the book (decimal string).',
  stp: 'Self-trade prevention: DC, CO, CN or CB.',
  remark: 'Order remark, at most 20 characters.',
  tags: 'Order tag, at most 20 characters.',
};

/** A plain positive-or-zero decimal string, the JSON-schema form of `isDecimal` (no sign, no exponent). */
const DECIMAL_PATTERN = '^\\d+(\\.\\d+)?$';

/**
 * The order-document JSON schema object (draft-07, which VS Code's JSON service fully supports):
 * `oneOf` [order, array of orders], with the order definition under `definitions.order`. Unknown properties are allowed by the server
 * (stripped) and so are not a schema error; the diagnostics warn about them instead.
 */
export function orderDocumentSchema(): Record<string, unknown> {
  const order = z.toJSONSchema(PlaceOrderRequest, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  delete order.$schema;
  const props = (order.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [k, doc] of Object.entries(FIELD_DOCS)) if (props[k]) props[k] = { description: doc, ...props[k] };
  // The decimal refinements are not representable; state their shape as a pattern.
  for (const k of ['price', 'size', 'funds', 'visibleSize']) {
    if (props[k]?.type === 'string' && !props[k].pattern) props[k].pattern = DECIMAL_PATTERN;
  }
  order.description = 'One HF order request: the body of POST /api/v1/hf/orders and POST /api/v1/hf/orders/test.';
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'spotdesk:spotorder.schema.json',
    title: 'SpotDesk order document',
    description: 'One HF order or an array of HF orders (generated from PlaceOrderRequest in src/api/schemas.ts; do not edit).',
    oneOf: [{ $ref: '#/definitions/order' }, { type: 'array', items: { $ref: '#/definitions/order' } }],
    definitions: { order },
  };
}

/** {@link orderDocumentSchema} as the exact file text (2-space indent, trailing newline). */
export function orderDocumentSchemaText(): string {
  return `${JSON.stringify(orderDocumentSchema(), null, 2)}\n`;
}
