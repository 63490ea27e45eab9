/**
 * GTT expiries of the exchange core: a binary min-heap of (expireAt ms, order seq). Entries of orders that
 * were done before they expired stay in the heap and are skipped when popped (see OrderBook.expire).
 */
import { objectArray } from './base';

/** One pending expiry: the order `seq` expires at `expireAt` (ms). */
export interface GttEntry {
  expireAt: number;
  seq: number;
}

/** Min-heap of GTT expiries ordered by (expireAt, seq). */
export class GttHeap {
  private readonly h: GttEntry[] = objectArray();

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

  /** Keep only the entries `keep` accepts (the heap is rebuilt; entries keep their (expireAt, seq) order). */
  retain(keep: (e: GttEntry) => boolean): void {
    const kept = this.h.filter(keep);
    kept.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0));
    this.h.length = 0;
    // a sorted array is a valid min-heap
    for (const e of kept) this.h.push(e);
  }

  /** Every entry, in heap order (a snapshot rebuilds the heap from the live orders instead). */
  entries(): readonly GttEntry[] {
    return this.h;
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
