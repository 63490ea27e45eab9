/**
 * What the server says about the order request's fields in completion and hover. Field names,
 * enum values and which fields are required come from the rules module (ORDER_FIELDS, SIDES…);
 * each field's description and JSON type from the JSON schema generated from the zod schema
 * `PlaceOrderRequest` (media/spotorder.schema.json, bundled at build time), so the text is written
 * once. The one-line meanings of enum values are written here: no schema carries them.
 */
import schema from '../../media/spotorder.schema.json';
import { ORDER_FIELDS, ORDER_TYPES, SIDES, STP_VALUES, TIME_IN_FORCE } from '../api/orderRules';

interface SchemaProp {
  description?: string;
  type?: string;
  enum?: string[];
}
const PROPS = (schema as unknown as { definitions: { order: { properties: Record<string, SchemaProp>; required?: string[] } } }).definitions.order;

/** Field names of an order, in wire order. */
export const FIELD_NAMES: readonly string[] = ORDER_FIELDS;

/** The description of a field (from the generated schema), or undefined for an unknown field. */
export function fieldDoc(field: string): string | undefined {
  return PROPS.properties[field]?.description;
}

/** JSON type of a field's value: 'string' | 'integer' | 'boolean' (undefined for an unknown field). */
export function fieldType(field: string): string | undefined {
  return PROPS.properties[field]?.type;
}

/** True for the fields every order needs (symbol, side, type). */
export function isRequired(field: string): boolean {
  return (PROPS.required ?? []).includes(field);
}

/** Meaning of each enum value, per field (KuCoin "Add Order (HF)"). */
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
};

/** Allowed values of the enum fields (from the rules module), with their meaning. */
export function enumValues(field: string): { value: string; doc: string }[] | undefined {
  const values: readonly string[] | undefined =
    field === 'side' ? SIDES : field === 'type' ? ORDER_TYPES : field === 'timeInForce' ? TIME_IN_FORCE : field === 'stp' ? STP_VALUES : undefined;
  return values?.map((value) => ({ value, doc: VALUE_DOCS[field]?.[value] ?? '' }));
}
