/**
 * What the server says about an order's fields in completion and hover. Field names, enum values and which
 * fields are required come from the rules modules (ORDER_FIELDS, SIDES…; src/api/advancedOrderRules.ts for stop
 * and OCO orders); each field's description and JSON type from the JSON schema generated from the zod schemas
 * `PlaceOrderRequest`, `StopOrderRequest` and `OcoOrderRequest` (media/spotorder.schema.json, bundled at build
 * time), so the text is written once. The one-line meanings of enum values are written here: no schema carries them.
 *
 * Each function takes the kind of the order the cursor is in ({@link OrderKind}: an HF order, a stop order or an
 * OCO order; src/api/advancedOrderRules.ts `orderKind`): an OCO order's `price` is its take-profit price, not a
 * limit price, and an HF order has no `stopPrice`.
 */
import schema from '../../media/spotorder.schema.json';
import { ORDER_FIELDS, ORDER_TYPES, SIDES, STP_VALUES, TIME_IN_FORCE } from '../api/orderRules';
import { OCO_FIELDS, STOP_FIELDS, STOP_KINDS, type OrderKind } from '../api/advancedOrderRules';

export type { OrderKind };

interface SchemaProp {
  description?: string;
  type?: string;
  enum?: string[];
}
type Def = { properties: Record<string, SchemaProp>; required?: string[] };
const DEFS = (schema as unknown as { definitions: { order: Def; stopOrder: Def; ocoOrder: Def } }).definitions;
const DEF: Record<OrderKind, Def> = { order: DEFS.order, stop: DEFS.stopOrder, oco: DEFS.ocoOrder };

/** Field names of an HF order, in wire order. */
export const FIELD_NAMES: readonly string[] = ORDER_FIELDS;

/**
 * The fields completion offers in an order of `kind`, in wire order: an HF order's own and the stop fields
 * (`stop`, `stopPrice`, which make it a stop order); a stop order's; an OCO order's.
 */
export function fieldNames(kind: OrderKind): readonly string[] {
  return kind === 'oco' ? OCO_FIELDS : [...ORDER_FIELDS, ...STOP_FIELDS];
}

/** The description of a field of an order of `kind` (from the generated schema), or undefined for a field it does not have. */
export function fieldDoc(field: string, kind: OrderKind = 'order'): string | undefined {
  // a stop order's own HF fields are described by the HF order's schema
  return DEF[kind].properties[field]?.description ?? (kind === 'stop' ? DEFS.order.properties[field]?.description : undefined) ?? (kind === 'order' && (STOP_FIELDS as readonly string[]).includes(field) ? DEFS.stopOrder.properties[field]?.description : undefined);
}

/** JSON type of a field's value: 'string' | 'integer' | 'boolean' (undefined for an unknown field). */
export function fieldType(field: string, kind: OrderKind = 'order'): string | undefined {
  return DEF[kind].properties[field]?.type ?? DEFS.stopOrder.properties[field]?.type;
}

/** True for the fields every order of `kind` needs (an HF order: symbol, side, type; a stop order: also stopPrice; an OCO order: all but remark). */
export function isRequired(field: string, kind: OrderKind = 'order'): boolean {
  return (DEF[kind].required ?? []).includes(field);
}

/** Meaning of each enum value, per field (KuCoin "Add Order (HF)", "Add Stop Order"). */
const VALUE_DOCS: Record<string, Record<string, string>> = {
  side: { buy: 'Buy the base currency with the quote currency.', sell: 'Sell the base currency for the quote currency.' },
  type: {
    limit: 'Limit order: rests at `price` until filled, cancelled or expired. Needs `price` and `size`.',
    market: 'Market order: fills immediately against the book. Takes exactly one of `size` (base) or `funds` (quote).',
  },
  timeInForce: {
    GTC: 'Good till cancelled (default).',
    GTT: 'Good till time: cancelled automatically after `cancelAfter` seconds.',
    IOC: 'Immediate or cancel: what does not fill at once is cancelled. Not with `postOnly`.',
    FOK: 'Fill or kill: fills completely at once or is cancelled. Not with `postOnly`.',
  },
  stp: {
    DC: 'Decrease and cancel: the smaller order is cancelled and the larger one decreased by it (not for a market order by `funds`).',
    CO: 'Cancel oldest: the resting order is cancelled.',
    CN: 'Cancel newest: the incoming order is cancelled.',
    CB: 'Cancel both orders.',
  },
  stop: {
    loss: 'Fires when the last trade price falls to `stopPrice` or below (default): a stop loss, or a buy on the way down.',
    entry: 'Fires when the last trade price rises to `stopPrice` or above: a breakout buy, or a sell on the way up.',
  },
};

/** Allowed values of the enum fields (from the rules modules), with their meaning. */
export function enumValues(field: string): { value: string; doc: string }[] | undefined {
  const values: readonly string[] | undefined =
    field === 'side' ? SIDES : field === 'type' ? ORDER_TYPES : field === 'timeInForce' ? TIME_IN_FORCE : field === 'stp' ? STP_VALUES : field === 'stop' ? STOP_KINDS : undefined;
  return values?.map((value) => ({ value, doc: VALUE_DOCS[field]?.[value] ?? '' }));
}
