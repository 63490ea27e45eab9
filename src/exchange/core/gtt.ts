/**
 * GTT expiries of the exchange core: a binary min-heap of (expireAt ms, order seq). Entries of orders that
 * were done before they expired stay in the heap and are skipped when popped (see Resting.expire).
 */

/** One pending expiry: the order `seq` expires at `expireAt` (ms). */
export interface GttEntry {
  expireAt: number;
  seq: number;
}

/** Min-heap of GTT expiries ordered by (expireAt, seq). */
export class GttHeap {
  private readonly h: GttEntry[] = [];

  /** Number of entries (done orders' entries included until popped). */
  get length(): number {
    return this.h.length;
  }

  /** The earliest entry, undefined when empty. */
  peek(): GttEntry | undefined {
    return this.h[0];
  }

  /** Add an expiry. */
  push(e: GttEntry): void {
    const h = this.h;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  /** Remove and return the earliest entry (undefined when empty). */
  pop(): GttEntry | undefined {
    const h = this.h;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l], h[m])) m = l;
        if (r < h.length && less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function less(a: GttEntry, b: GttEntry): boolean {
  return a.expireAt < b.expireAt || (a.expireAt === b.expireAt && a.seq < b.seq);
}
