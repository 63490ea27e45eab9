/**
 * What a trader reads about one active order: side, type, price, size, filled,
 * remaining, time in force, flags and age — instead of the ~33 raw API fields, which stay one
 * right-click away ("Copy Order JSON"). Pure (no `vscode`): the Active Orders view renders the
 * rows as a Markdown table. Amounts are the API's exact strings.
 */
import * as dec from '../../../api/decimal';
import type { HfOrder } from '../../../api/schemas';

/** Meaning of each `timeInForce` (spec "HF order"). */
const TIME_IN_FORCE: Readonly<Record<string, string>> = {
  GTC: 'GTC — good till cancelled',
  GTT: 'GTT — good till time',
  IOC: 'IOC — immediate or cancel',
  FOK: 'FOK — fill or kill',
};

/** `ms` as "3 h 12 min", "12 min 4 s", "45 s" (the two largest units). */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const units: Array<[number, string]> = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor(s / 3600) % 24, 'h'],
    [Math.floor(s / 60) % 60, 'min'],
    [s % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first < 0) return '0 s';
  return units
    .slice(first, first + 2)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, u]) => `${n} ${u}`)
    .join(' ');
}

/**
 * The rows of an order's tooltip as [label, value] pairs. `base`/`quote` are the symbol's
 * currencies (from the symbol, e.g. BTC-USDT → BTC, USDT); `now` is the local clock, ms.
 */
export function orderRows(o: HfOrder, now: number): Array<[string, string]> {
  const [base, quote] = o.symbol.split('-');
  const byFunds = o.type === 'market' && dec.isZero(o.size) && !dec.isZero(o.funds);
  const amount = (v: string, cur: string | undefined) => `${v}${cur ? ` ${cur}` : ''}`;
  const pct = (part: string, whole: string) => (dec.isZero(whole) ? '' : ` (${dec.normalize(dec.divDown(dec.mul(part, '100'), whole, 2))} %)`);
  const rows: Array<[string, string]> = [
    ['Side', o.side === 'buy' ? 'Buy' : 'Sell'],
    ['Type', o.type === 'market' ? 'Market' : 'Limit'],
    ['Price', o.type === 'market' ? 'market' : amount(o.price, quote)],
    byFunds ? ['Funds', amount(o.funds, quote)] : ['Size', amount(o.size, base)],
    byFunds ? ['Filled', `${amount(o.dealFunds, quote)}${pct(o.dealFunds, o.funds)}`] : ['Filled', `${amount(o.dealSize, base)}${pct(o.dealSize, o.size)}`],
    byFunds ? ['Remaining', amount(o.remainFunds, quote)] : ['Remaining', amount(o.remainSize, base)],
  ];
  if (o.type !== 'market') {
    const tif = TIME_IN_FORCE[o.timeInForce] ?? o.timeInForce;
    rows.push(['Time in force', o.timeInForce === 'GTT' && o.cancelAfter > 0 ? `${tif}, cancelled ${age(o.cancelAfter * 1000)} after placement` : tif]);
  }
  const flags = [
    o.postOnly ? 'post-only' : '',
    o.hidden ? 'hidden' : '',
    o.iceberg ? `iceberg (shows ${amount(o.visibleSize, base)})` : '',
    o.stp ? `self-trade prevention ${o.stp}` : '',
  ].filter((f) => f);
  rows.push(['Flags', flags.length ? flags.join(' · ') : 'none']);
  rows.push(['Age', `${age(now - o.createdAt)} (placed ${new Date(o.createdAt).toISOString().replace('T', ' ').slice(0, 19)} UTC)`]);
  return rows;
}
