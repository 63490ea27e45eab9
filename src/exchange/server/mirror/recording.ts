/**
 * The SpotDesk market recording format (docs/recording.md): a header and a stream of recorded
 * {@link MarketEvent}s, written append-only as a sequence of independently flushed gzip members
 * ("blocks"). The whole file is a valid multi-member gzip stream (`zcat FILE` prints it as NDJSON);
 * each member also carries its own total length in a gzip FEXTRA subfield `SD` (like BGZF), so a reader
 * can step from block to block synchronously with bounded memory and skip a torn last block.
 *
 * Crash safety: every block is written with one `write` call at the end of the file; a recorder killed
 * (even SIGKILL) mid-write leaves at most the last block torn, which readers skip with a warning.
 *
 * Block content: UTF-8 NDJSON, one record per line. Block 0 holds exactly the {@link RecordingHeader}.
 * Every later line is a {@link RecordedEvent} (a `MarketEvent` plus `recv`, the recorder's receive time in
 * ms) or the {@link RecordingEnd} trailer written by a clean stop.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import type { Currency, SymbolInfo } from '../../../api/schemas';
import { cmp } from '../../../api/decimal';
import type { MarketEvent } from './source';

/** `format` value of a recording header. */
export const RECORDING_FORMAT = 'spotdesk-market-recording';
/** Current format version (readers refuse higher ones). */
export const RECORDING_VERSION = 1;

/**
 * Block 0 of a recording: what a replay needs to build its world.
 * Times are ms since the epoch.
 */
export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: number;
  /** Base URL of the recorded upstream (e.g. "https://api.kucoin.com"), or a `tardis:` description for converted files. */
  source: string;
  /** When the recording started (recorder clock, ms). */
  start: number;
  /** The recorded symbols, in the order given to the recorder. */
  symbolNames: string[];
  /** Their GET /api/v2/symbols rows (as SpotDesk's schema decodes them). */
  symbols: SymbolInfo[];
  /** GET /api/v3/currencies rows of every base, quote and fee currency of those symbols. */
  currencies: Currency[];
  /** Free-form notes of the writer (recorder version, snapshot depth, conversion notes). */
  notes?: Record<string, string | number | boolean>;
}

/** One recorded market event: the event as delivered plus `recv`, the recorder's receive time (ms). */
export type RecordedEvent = MarketEvent & { recv: number };

/** Trailer of a cleanly stopped recording: `events` recorded events precede it. */
export interface RecordingEnd {
  type: 'end';
  recv: number;
  events: number;
  reason: string;
}

/** Gzip header flag FEXTRA. */
const FEXTRA = 4;
/** Bytes of our block header: 10 (gzip) + 2 (XLEN) + 8 (subfield SD: SI1 SI2 LEN(2) size(4)). */
const BLOCK_HEADER = 20;

/**
 * Frame `payload` as one gzip member carrying its own total length (subfield `SD`, uint32 LE) in FEXTRA.
 * @returns the member's bytes (a complete, standard gzip member).
 */
export function encodeBlock(payload: Buffer, level = 6): Buffer {
  const gz = zlib.gzipSync(payload, { level });
  // gzipSync writes a 10-byte header without optional fields: its deflate body and trailer follow at 10.
  const body = gz.subarray(10);
  const out = Buffer.allocUnsafe(BLOCK_HEADER + body.length);
  gz.copy(out, 0, 0, 10);
  out[3] = gz[3] | FEXTRA;
  out.writeUInt16LE(8, 10);
  out[12] = 0x53; // 'S'
  out[13] = 0x44; // 'D'
  out.writeUInt16LE(4, 14);
  out.writeUInt32LE(out.length, 16);
  body.copy(out, BLOCK_HEADER);
  return out;
}

/**
 * Appends blocks to a recording file, synchronously (one `fs.writeSync` per block, so a kill tears at most
 * the last block). Records are buffered in memory until {@link flush} (the recorder flushes on a timer).
 */
export class RecordingWriter {
  private readonly fd: number;
  private lines: string[] = [];
  private pendingChars = 0;
  private closed = false;
  /** Bytes written to the file so far. */
  bytes = 0;
  /** Events appended so far (header and trailer excluded). */
  events = 0;
  /** Blocks written so far (the header's included). */
  blocks = 0;

  /**
   * Create (truncate) `file` and write the header block at once.
   * @param maxBlockChars flush by itself when the buffered text reaches this many characters (default 1 MiB).
   * @throws the fs error when the file cannot be created.
   */
  constructor(
    readonly file: string,
    header: RecordingHeader,
    private readonly maxBlockChars = 1 << 20,
  ) {
    this.fd = fs.openSync(file, 'w');
    this.writeBlock(`${JSON.stringify(header)}\n`);
  }

  /** Buffer one event (written at the next flush). */
  append(e: RecordedEvent): void {
    if (this.closed) return;
    const line = JSON.stringify(e);
    this.lines.push(line);
    this.pendingChars += line.length + 1;
    this.events++;
    if (this.pendingChars >= this.maxBlockChars) this.flush();
  }

  /** Write the buffered events as one block (nothing when none). */
  flush(): void {
    if (this.closed || this.lines.length === 0) return;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    this.pendingChars = 0;
    this.writeBlock(text);
  }

  /** Flush, write the {@link RecordingEnd} trailer and close the file. Idempotent. */
  close(reason: string, recv: number): void {
    if (this.closed) return;
    this.flush();
    const end: RecordingEnd = { type: 'end', recv, events: this.events, reason };
    this.writeBlock(`${JSON.stringify(end)}\n`);
    this.closed = true;
    fs.closeSync(this.fd);
  }

  private writeBlock(text: string): void {
    const block = encodeBlock(Buffer.from(text, 'utf8'));
    let off = 0;
    while (off < block.length) off += fs.writeSync(this.fd, block, off, block.length - off);
    this.bytes += block.length;
    this.blocks++;
  }
}

/** Thrown when a file is not a SpotDesk recording (or of a newer version), or its header block is unreadable. */
export class RecordingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingFormatError';
  }
}

/**
 * Reads a recording block by block, synchronously (bounded memory: one block at a time).
 * A torn or corrupt block is skipped with a warning (`warnings`); a torn block can only be the last one,
 * so reading stops there. The header is read by the constructor.
 */
export class RecordingReader {
  readonly header: RecordingHeader;
  /** Warnings about skipped blocks or lines (people-readable). */
  readonly warnings: string[] = [];
  /** The trailer, once read (undefined for a recording whose recorder was killed). */
  end: RecordingEnd | undefined;
  private readonly fd: number;
  private readonly size: number;
  private offset = 0;
  private block = 0;
  private pending: RecordedEvent[] = [];
  private pos = 0;
  private done = false;

  /** @throws RecordingFormatError when the file is not a readable recording; fs errors when it cannot be opened. */
  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    this.size = fs.fstatSync(this.fd).size;
    const first = this.readBlockText();
    if (first === undefined) {
      fs.closeSync(this.fd);
      throw new RecordingFormatError(`${file}: no readable header block (${this.warnings.join('; ') || 'empty file'})`);
    }
    let h: RecordingHeader;
    try {
      h = JSON.parse(first) as RecordingHeader;
    } catch {
      fs.closeSync(this.fd);
      throw new RecordingFormatError(`${file}: the header is not JSON`);
    }
    if (h.format !== RECORDING_FORMAT) {
      fs.closeSync(this.fd);
      throw new RecordingFormatError(`${file}: not a SpotDesk market recording (format ${String(h.format)})`);
    }
    if (typeof h.version !== 'number' || h.version > RECORDING_VERSION) {
      fs.closeSync(this.fd);
      throw new RecordingFormatError(`${file}: recording format version ${String(h.version)} is newer than this reader's (${RECORDING_VERSION})`);
    }
    this.header = h;
  }

  /** The next recorded event in file order, or undefined at the end (the file is then closed). */
  next(): RecordedEvent | undefined {
    while (this.pos >= this.pending.length) {
      if (this.done) return undefined;
      const text = this.readBlockText();
      if (text === undefined) {
        this.finish();
        return undefined;
      }
      this.pending = this.parseLines(text);
      this.pos = 0;
    }
    return this.pending[this.pos++];
  }

  /** Close the file (idempotent); `next()` then returns undefined. */
  close(): void {
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.pending = [];
    this.pos = 0;
    fs.closeSync(this.fd);
  }

  private parseLines(text: string): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      let r: RecordedEvent | RecordingEnd;
      try {
        r = JSON.parse(line) as RecordedEvent | RecordingEnd;
      } catch {
        this.warnings.push(`block ${this.block - 1}: a line is not JSON; skipped`);
        continue;
      }
      if (r.type === 'end') this.end = r;
      else out.push(r);
    }
    return out;
  }

  /** The text of the next readable block; undefined at the end of the file or at a torn block. */
  private readBlockText(): string | undefined {
    for (;;) {
      if (this.offset >= this.size) return undefined;
      const n = this.block++;
      const left = this.size - this.offset;
      if (left < BLOCK_HEADER) {
        this.warnings.push(`block ${n} at byte ${this.offset} is torn (${left} bytes of a header): skipped`);
        return undefined;
      }
      const head = Buffer.alloc(BLOCK_HEADER);
      fs.readSync(this.fd, head, 0, BLOCK_HEADER, this.offset);
      if (head[0] !== 0x1f || head[1] !== 0x8b || (head[3] & FEXTRA) === 0 || head[12] !== 0x53 || head[13] !== 0x44) {
        this.warnings.push(`block ${n} at byte ${this.offset} has no SpotDesk block header: the rest of the file is skipped`);
        return undefined;
      }
      const len = head.readUInt32LE(16);
      if (len < BLOCK_HEADER + 8) {
        this.warnings.push(`block ${n} at byte ${this.offset} has an impossible length ${len}: the rest of the file is skipped`);
        return undefined;
      }
      if (len > left) {
        this.warnings.push(`block ${n} at byte ${this.offset} is torn (${left} of ${len} bytes): skipped`);
        return undefined;
      }
      const buf = Buffer.allocUnsafe(len);
      fs.readSync(this.fd, buf, 0, len, this.offset);
      this.offset += len;
      try {
        return zlib.gunzipSync(buf).toString('utf8');
      } catch (e) {
        // A complete but corrupt block (its length is known): skip it and go on with the next one.
        this.warnings.push(`block ${n} is corrupt (${(e as Error).message}): skipped`);
      }
    }
  }
}

/** Read a whole recording into memory (tests and small files). @throws RecordingFormatError as {@link RecordingReader}. */
export function readRecording(file: string): { header: RecordingHeader; events: RecordedEvent[]; end: RecordingEnd | undefined; warnings: string[] } {
  const r = new RecordingReader(file);
  const events: RecordedEvent[] = [];
  for (let e = r.next(); e !== undefined; e = r.next()) events.push(e);
  return { header: r.header, events, end: r.end, warnings: r.warnings };
}

/** Read only the header of a recording (the replay's world). @throws RecordingFormatError as {@link RecordingReader}. */
export function readRecordingHeader(file: string): RecordingHeader {
  const r = new RecordingReader(file);
  r.close();
  return r.header;
}

/** Canonical price key: no leading zeros, no trailing fraction zeros ("067000.10" → "67000.1"). */
function priceKey(p: string): string {
  let s = p.replace(/^0+(?=\d)/, '');
  if (s.includes('.')) s = s.replace(/\.?0+$/, '');
  return s;
}

/** True when a decimal string is zero. */
function isZero(s: string): boolean {
  return /^[0.]+$/.test(s);
}

/**
 * A level-2 book rebuilt from market events (KuCoin's rule: a change applies when its sequence is above the
 * book's; size "0" removes the level). Used to check a recording against its upstream, and by the tardis
 * converter. Prices are keyed canonically; sizes are the events' decimal strings.
 */
export class EventBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  /** Sequence of the last applied change (bigint), undefined before the first snapshot. */
  sequence: bigint | undefined;

  /** Apply a snapshot or l2 event of this book's symbol (other types are ignored). @throws Error for an l2 event before any snapshot. */
  apply(e: MarketEvent): void {
    if (e.type === 'snapshot') {
      this.bids.clear();
      this.asks.clear();
      for (const [p, s] of e.bids) if (!isZero(s)) this.bids.set(priceKey(p), s);
      for (const [p, s] of e.asks) if (!isZero(s)) this.asks.set(priceKey(p), s);
      this.sequence = BigInt(e.sequence);
    } else if (e.type === 'l2') {
      if (this.sequence === undefined) throw new Error(`l2 event of ${e.symbol} before its snapshot`);
      const last = this.sequence;
      for (const [side, map] of [
        [e.changes.asks, this.asks],
        [e.changes.bids, this.bids],
      ] as const) {
        for (const [p, s, q] of side) {
          if (BigInt(q) <= last) continue;
          if (isZero(s)) map.delete(priceKey(p));
          else map.set(priceKey(p), s);
        }
      }
      if (BigInt(e.sequenceEnd) > last) this.sequence = BigInt(e.sequenceEnd);
    }
  }

  /** Bids best (highest) first, at most `depth` levels. */
  bidLevels(depth = Infinity): [string, string][] {
    return [...this.bids].sort((a, b) => cmp(b[0], a[0])).slice(0, depth);
  }

  /** Asks best (lowest) first, at most `depth` levels. */
  askLevels(depth = Infinity): [string, string][] {
    return [...this.asks].sort((a, b) => cmp(a[0], b[0])).slice(0, depth);
  }
}
