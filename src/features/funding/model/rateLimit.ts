/**
 * Local tracker for the V4 withdrawal rate limit (spec "POST /api/v4/withdrawals", V4 rule and
 * "Limits"): withdrawals by `UID`, `MAIL` or `PHONE` are limited to 3 per 10 seconds and 50 per
 * 24 hours, rolling from the first request time. The extension records when it sent such a
 * request (that the server accepted, or whose outcome is unknown) so that, before sending another
 * one or after the server refuses one, it can tell the user how long to wait. Pure: time is passed
 * in (ms since epoch), nothing reads a clock.
 *
 * Window model ("rolling from the first request"): per rule a window opens at the first request
 * and lasts `windowMs`; requests inside it count; the first request after it closes opens the next
 * window. A request is allowed while the open window holds fewer than `max` requests; otherwise the
 * wait is until the window closes. (The sandbox in src/exchange/server/state.ts uses the same model.)
 */

/** One limit: at most `max` requests per window of `windowMs` milliseconds. */
export interface RateRule {
  max: number;
  windowMs: number;
  /** Human wording of the rule, e.g. "3 per 10 seconds". */
  label: string;
}

/** The two V4 limits for UID/MAIL/PHONE withdrawals. */
export const V4_WITHDRAW_RULES: readonly RateRule[] = [
  { max: 3, windowMs: 10_000, label: '3 per 10 seconds' },
  { max: 50, windowMs: 24 * 60 * 60 * 1000, label: '50 per 24 hours' },
];

/** Result of {@link RateTracker.check}: `waitMs` 0 means a request may be sent now. */
export interface RateCheck {
  waitMs: number;
  /** The rule that forces the (longest) wait, when waiting. */
  rule?: RateRule;
}

interface Window {
  start: number;
  count: number;
}

/** Records send times (ms) and computes the wait before the next request under `rules`. */
export class RateTracker {
  private readonly windows: (Window | undefined)[];

  constructor(private readonly rules: readonly RateRule[] = V4_WITHDRAW_RULES) {
    this.windows = rules.map(() => undefined);
  }

  /** Record that a request was sent at `now` (ms). */
  record(now: number): void {
    this.rules.forEach((rule, i) => {
      const w = this.windows[i];
      if (!w || now - w.start >= rule.windowMs) this.windows[i] = { start: now, count: 1 };
      else w.count++;
    });
  }

  /** How long (ms) to wait at `now` before another request fits every rule, and which rule binds. */
  check(now: number): RateCheck {
    let best: RateCheck = { waitMs: 0 };
    this.rules.forEach((rule, i) => {
      const w = this.windows[i];
      if (w && now - w.start < rule.windowMs && w.count >= rule.max) {
        const wait = w.start + rule.windowMs - now;
        if (wait > best.waitMs) best = { waitMs: wait, rule };
      }
    });
    return best;
  }

  /** Requests counted in each rule's open window at `now` (0 when the window has closed). */
  counts(now: number): number[] {
    return this.rules.map((rule, i) => {
      const w = this.windows[i];
      return w && now - w.start < rule.windowMs ? w.count : 0;
    });
  }
}

/**
 * Wait announced in a server message such as "… limited to 3 per 10 seconds; retry in 7 s":
 * the number of seconds × 1000, or undefined when the message names none.
 */
export function waitFromMessage(msg: string): number | undefined {
  const m = /retry in (\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?)\b/i.exec(msg);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2].toLowerCase() === 'ms' ? n : Math.round(n * 1000);
}

/**
 * Formats a wait in ms for people: "4.2 s", "3 min 5 s", "2 h 10 min". Below a minute it rounds
 * up to the next tenth of a second; above, to whole seconds.
 */
export function formatWait(ms: number): string {
  if (ms <= 0) return '0 s';
  if (ms < 60_000) return `${(Math.ceil(ms / 100) / 10).toFixed(1)} s`;
  const totalS = Math.ceil(ms / 1000);
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  if (h > 0) return `${h} h ${m} min`;
  return s > 0 ? `${m} min ${s} s` : `${m} min`;
}
