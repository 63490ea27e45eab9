/** Text formatting of the market panel's header and tape: change rates and exchange times, by string arithmetic where money is involved. */

/** A change rate ("-0.0123") as a signed percentage with two decimals ("−1.23 %"), by string arithmetic. */
export function percentText(rate: string): string {
  const neg = rate.startsWith('-');
  const [i, f = ''] = (neg ? rate.slice(1) : rate).split('.');
  const digits = (i + (f + '0000').slice(0, 4)).replace(/^0+(?=\d)/, '');
  const padded = digits.padStart(3, '0');
  const pct = `${padded.slice(0, -2)}.${padded.slice(-2)}`;
  const zero = !/[1-9]/.test(pct);
  return `${zero ? '' : neg ? '−' : '+'}${pct} %`;
}

/** Exchange time (ms) as local `HH:MM:SS.mmm`. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}
