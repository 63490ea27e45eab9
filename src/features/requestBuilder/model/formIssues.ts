/**
 * Which rule issues the request-builder form shows, and where ("no error before input,
 * and show it at the field at fault"). The rules module anchors an issue about a MISSING property
 * on the property that requires it (a missing `price` on `type`, for order documents); in the form
 * the field to fill in is the one at fault, so those issues move to it. An issue is shown once
 * its field has been touched by the person, or after they tried to run or place the order; issues
 * that belong to no field are shown only after such a try. Pure.
 */
import type { RuleIssue } from '../../../api/orderRules';

/** Issue code → the form field a person must fill in to fix it (when it is not `issue.field`). */
const FIELD_AT_FAULT: Readonly<Record<string, string>> = {
  'limit-missing-price': 'price',
  'limit-missing-size': 'size',
  'market-missing-amount': 'size',
};

/** The form field an issue belongs to, or null for the whole order. */
export function formFieldOf(issue: RuleIssue): string | null {
  if (issue.code === 'missing-field') {
    const m = /"(\w+)"/.exec(issue.message);
    return m ? m[1] : issue.field;
  }
  return FIELD_AT_FAULT[issue.code] ?? issue.field;
}

/** The issues to show: per field (in the order given) and for the whole order. */
export interface ShownIssues {
  byField: Map<string, RuleIssue[]>;
  general: RuleIssue[];
}

/**
 * The issues of `issues` the form shows now: those of `touched` fields, all of them once
 * `attempted` (the person pressed "Run order test" or "Place order…").
 */
export function shownIssues(issues: readonly RuleIssue[], touched: ReadonlySet<string>, attempted: boolean): ShownIssues {
  const out: ShownIssues = { byField: new Map(), general: [] };
  for (const i of issues) {
    const field = formFieldOf(i);
    if (field === null) {
      if (attempted) out.general.push(i);
    } else if (attempted || touched.has(field)) {
      out.byField.set(field, [...(out.byField.get(field) ?? []), i]);
    }
  }
  return out;
}
