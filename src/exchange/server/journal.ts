/**
 * Append-only command journal of the sandbox exchange.
 *
 * Every acknowledged state change is a {@link JournalCommand} that {@link SandboxState.exec} applied; the
 * server appends it here BEFORE it responds, and a start replays the journal through `state.exec` on top
 * of the snapshot it continues (stateStore.ts). Records are `<len> <crc> <json>` lines (CRC-32), money stays
 * lossless (no non-integer numbers), a torn tail is truncated and damage in the middle refused, and reads
 * are streamed. File format, torn records, durability and rotation: docs/sandbox.md, "Command journal".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/**
 * The minimal shape the journal needs from a command: an operation name, the clock time (ms) at
 * which it was executed, and its arguments (JSON-serialisable, decimal strings for money).
 * `Command` of `./state` (part A) is a discriminated union that satisfies it.
 */
export interface JournalCommand {
  op: string;
  t: number;
  args?: unknown;
}

/** What a journal's header says: its generation, the snapshot it continues and the commands before it. */
export interface JournalHeader {
  /** 1: the legacy `journal.log` (generation 0, empty base); 2: `journal-<gen>.log` */
  version: 1 | 2;
  gen: number;
  /** file name of the base snapshot in the state dir, null: the empty state */
  base: string | null;
  /** commands executed before this journal's first record */
  start: number;
}

/** Options of {@link Journal.open}. */
export interface JournalOptions<C extends JournalCommand = JournalCommand> {
  /** Call `fdatasync` after every appended record (power-loss durability). Default false. */
  fsync?: boolean;
  /** Journal file name inside the state dir. Default `journal.log`. */
  fileName?: string;
  /**
   * When a valid record follows an invalid one (corruption in the middle of the file), truncate at
   * the first invalid record anyway (with a warning) instead of throwing {@link JournalCorruptError}.
   * Default false.
   */
  truncateCorrupt?: boolean;
  /** Called with every whole record of the file, in order, as it is read (replay it). */
  onCommand?: (cmd: C, index: number) => void;
  /** Header of a file that does not exist yet (version 2). Default: generation 0, empty base, start 0. */
  create?: Omit<JournalHeader, 'version'>;
}

/** Result of {@link Journal.open}. */
export interface OpenedJournal<C extends JournalCommand> {
  /** The journal, ready for {@link Journal.append}. */
  journal: Journal<C>;
  /** The file's header (as created when the file was new or empty). */
  header: JournalHeader;
  /** Whole records read (each went to `onCommand`). */
  count: number;
  /** Human-readable notes (torn tail truncated, …); empty when the file was clean. */
  warnings: string[];
}

/** Thrown by {@link Journal.open} when the journal is damaged before its last whole record. */
export class JournalCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`journal ${file} is corrupt at byte ${offset} (${reason}) and valid records follow; refusing to drop them`);
    this.name = 'JournalCorruptError';
  }
}

/** Thrown by {@link Journal.append} for a command that cannot be journaled losslessly. */
export class JournalValueError extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = 'JournalValueError';
  }
}

/** First line of a version 1 journal (legacy `journal.log`). */
export const JOURNAL_HEADER = 'SPOTDESK-JOURNAL 1\n';
const HEADER_PREFIX = 'SPOTDESK-JOURNAL ';
const NL = 0x0a;
const SP = 0x20;
/** Bytes read at a time. */
const READ_CHUNK = 4 << 20;
/**
 * The longest line a {@link LineReader} buffers (64 MiB): far above any record (a command's HTTP body is at
 * most 1 MiB, a snapshot record a few MiB); a longer run of bytes without a newline is garbage, skipped.
 */
export const MAX_LINE_BYTES = 64 << 20;

/** The header line of a version 2 journal. */
export function journalHeaderLine(h: Omit<JournalHeader, 'version'>): string {
  return `${HEADER_PREFIX}2 ${JSON.stringify({ gen: h.gen, base: h.base, start: h.start })}\n`;
}

/** The header of a header line (without its newline), or an error. */
function parseHeader(line: string): JournalHeader | { error: string } {
  if (line === JOURNAL_HEADER.slice(0, -1)) return { version: 1, gen: 0, base: null, start: 0 };
  if (!line.startsWith(`${HEADER_PREFIX}2 `)) return { error: 'bad header' };
  try {
    const v = JSON.parse(line.slice(HEADER_PREFIX.length + 2)) as { gen?: unknown; base?: unknown; start?: unknown };
    if (Number.isSafeInteger(v.gen) && (v.base === null || typeof v.base === 'string') && Number.isSafeInteger(v.start)) {
      return { version: 2, gen: v.gen as number, base: v.base as string | null, start: v.start as number };
    }
  } catch {
    // fall through
  }
  return { error: 'bad header' };
}

/** CRC-32 (IEEE 802.3) of `buf` as 8 lowercase hex digits, via `zlib.crc32` (Node ≥ 20.15). */
export function crc32Hex(buf: Uint8Array): string {
  return (zlib.crc32(buf) >>> 0).toString(16).padStart(8, '0');
}

/** Frame a JSON text as a record line (`<len> <crc> <json>\n`), as bytes. */
export function frameRecord(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} ${crc32Hex(body)} `, 'latin1'), body, Buffer.from('\n')]);
}

/** Encode one command as a journal record line (`<len> <crc> <json>\n`), as bytes. */
export function encodeRecord(cmd: JournalCommand): Buffer {
  assertLossless(cmd, 'cmd');
  return frameRecord(JSON.stringify(cmd));
}

/**
 * The JSON text of the record line starting at `start` of `buf` (its length and checksum verified).
 * @returns the text and the offset just past its newline, or `{error}` describing why the bytes at
 *   `start` are not a whole valid record.
 */
export function unframeRecord(buf: Buffer, start: number): { json: string; next: number } | { error: string } {
  const sp1 = buf.indexOf(SP, start);
  if (sp1 < 0 || sp1 - start > 10) return { error: 'missing length' };
  const lenText = buf.toString('latin1', start, sp1);
  if (!/^(0|[1-9]\d*)$/.test(lenText)) return { error: 'bad length field' };
  const len = Number(lenText);
  const crcStart = sp1 + 1;
  if (buf.length < crcStart + 9) return { error: 'truncated header' };
  const crcText = buf.toString('latin1', crcStart, crcStart + 8);
  if (!/^[0-9a-f]{8}$/.test(crcText) || buf[crcStart + 8] !== SP) return { error: 'bad checksum field' };
  const jsonStart = crcStart + 9;
  const jsonEnd = jsonStart + len;
  if (buf.length < jsonEnd + 1) return { error: `truncated record (${buf.length - jsonStart} of ${len + 1} bytes)` };
  if (buf[jsonEnd] !== NL) return { error: 'missing record terminator' };
  const json = buf.subarray(jsonStart, jsonEnd);
  if (crc32Hex(json) !== crcText) return { error: 'checksum mismatch' };
  return { json: json.toString('utf8'), next: jsonEnd + 1 };
}

/**
 * Decode the journal record starting at `start` of `buf`.
 * @returns the command and the offset just past its newline, or `{error}` describing why the bytes
 *   at `start` are not a whole valid record.
 */
export function decodeRecord(buf: Buffer, start: number): { cmd: JournalCommand; next: number } | { error: string } {
  const r = unframeRecord(buf, start);
  if ('error' in r) return r;
  let value: unknown;
  try {
    value = JSON.parse(r.json);
  } catch {
    return { error: 'invalid JSON' };
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as JournalCommand).op !== 'string' ||
    !Number.isSafeInteger((value as JournalCommand).t)
  ) {
    return { error: 'record is not a command {op, t}' };
  }
  return { cmd: value as JournalCommand, next: r.next };
}

/**
 * The lines of a file, read forward in 4 MiB reads (a line longer than the buffer grows it, up to
 * `maxLine` bytes): never the whole file in memory, whatever its size. A longer run of bytes without a
 * newline (garbage, a zero-filled hole) is not buffered: {@link next} hands out its first bytes only (no
 * newline: no record decodes from it) and skips the rest up to and including its newline.
 */
export class LineReader {
  private buf: Buffer;
  /** buf[start, have) holds file bytes not handed out yet, starting at file offset `offset` */
  private start = 0;
  private have = 0;
  /** next file offset to read */
  private pos: number;
  /** The file offset of the next line (after the last one handed out). */
  offset: number;
  /** The file's size when the reader was made. */
  readonly size: number;

  /**
   * @param fd an open file; @param from the byte offset to start at; @param maxLine the longest line
   *   buffered whole (default {@link MAX_LINE_BYTES}; at least the read chunk)
   */
  constructor(
    private readonly fd: number,
    from: number,
    private readonly maxLine = MAX_LINE_BYTES,
  ) {
    this.size = fs.fstatSync(fd).size;
    this.buf = Buffer.allocUnsafe(Math.max(1, Math.min(READ_CHUNK, this.size - from)));
    this.pos = from;
    this.offset = from;
  }

  /** Bytes of the read buffer now (at most about `maxLine`: the memory a reader holds). */
  get bufferBytes(): number {
    return this.buf.length;
  }

  /**
   * The next complete line, newline included (a view valid until the next call), or null when only an
   * incomplete line (or nothing) is left: `offset` is then where it starts.
   */
  next(): Buffer | null {
    for (;;) {
      const nl = this.buf.indexOf(NL, this.start);
      if (nl >= 0 && nl < this.have) {
        const line = this.buf.subarray(this.start, nl + 1);
        this.start = nl + 1;
        this.offset += line.length;
        return line;
      }
      if (this.pos >= this.size) return null;
      const rest = this.have - this.start;
      if (rest === this.buf.length) {
        if (this.buf.length >= this.maxLine) return this.skipOverlong();
        const bigger = Buffer.allocUnsafe(Math.min(this.buf.length * 2, Math.max(this.maxLine, this.buf.length)));
        this.buf.copy(bigger, 0, this.start, this.have);
        this.buf = bigger;
      } else if (this.start > 0) {
        this.buf.copy(this.buf, 0, this.start, this.have);
      }
      this.start = 0;
      this.have = rest;
      const n = fs.readSync(this.fd, this.buf, this.have, Math.min(this.buf.length - this.have, this.size - this.pos), this.pos);
      if (n <= 0) return null;
      this.have += n;
      this.pos += n;
    }
  }

  /**
   * The buffer is full with one line (no newline in it): hand out its first 64 bytes as the line and skip
   * the rest of it, reading on in buffer-sized chunks. Null when the file ends first (`offset` stays at the
   * line's start, like any incomplete last line).
   */
  private skipOverlong(): Buffer | null {
    const head = Buffer.from(this.buf.subarray(this.start, this.start + 64));
    let skipped = this.have - this.start;
    for (;;) {
      if (this.pos >= this.size) {
        this.start = this.have = 0;
        return null;
      }
      const n = fs.readSync(this.fd, this.buf, 0, Math.min(this.buf.length, this.size - this.pos), this.pos);
      if (n <= 0) return null;
      this.pos += n;
      const nl = this.buf.subarray(0, n).indexOf(NL);
      if (nl >= 0) {
        this.start = nl + 1;
        this.have = n;
        this.offset += skipped + nl + 1;
        return head;
      }
      skipped += n;
    }
  }
}

/**
 * The lines of a file, streamed ({@link LineReader}): each complete line (with its newline) goes to `onLine`
 * with its byte offset; `onLine` returns false to stop. @returns the offset where reading stopped (the start
 * of a line that was refused, or of an incomplete last line) and the file size.
 */
export function forEachLine(fd: number, from: number, onLine: (line: Buffer, offset: number) => boolean): { stop: number; size: number } {
  const r = new LineReader(fd, from);
  for (;;) {
    const at = r.offset;
    const line = r.next();
    if (line === null) return { stop: r.offset, size: r.size };
    if (!onLine(line, at)) return { stop: at, size: r.size };
  }
}

/**
 * The append-only command journal of one state dir. See the module documentation for the file
 * format, torn-record handling and durability guarantees.
 */
export class Journal<C extends JournalCommand = JournalCommand> {
  private fd: number | null;
  private appended = 0;

  private constructor(
    /** Absolute path of the journal file. */
    readonly file: string,
    fd: number,
    private readonly fsync: boolean,
    /** The file's header. */
    readonly header: JournalHeader,
    /** Whole records in the file (read + appended). */
    private recordCount: number,
    /** The file's size in bytes. */
    private size: number,
  ) {
    this.fd = fd;
  }

  /**
   * Open (creating if needed) the journal of `stateDir` (created recursively if missing), stream every
   * whole record to `opts.onCommand`, truncate a torn or garbage tail, and return the journal ready
   * for appending.
   * @throws JournalCorruptError when damage precedes valid records (see the module doc)
   * @throws Error when the file is not a SpotDesk journal (wrong header) or on I/O failure
   */
  static open<C extends JournalCommand = JournalCommand>(stateDir: string, opts: JournalOptions<C> = {}): OpenedJournal<C> {
    fs.mkdirSync(stateDir, { recursive: true });
    const file = path.resolve(stateDir, opts.fileName ?? 'journal.log');
    const warnings: string[] = [];
    const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o600);
    try {
      const size = fs.fstatSync(fd).size;
      let header: JournalHeader | null = null;
      let goodEnd = 0;
      let count = 0;
      if (size > 0) {
        const head = Buffer.alloc(Math.min(size, 4096));
        fs.readSync(fd, head, 0, head.length, 0);
        const nl = head.indexOf(NL);
        const prefix = Buffer.from(HEADER_PREFIX, 'latin1');
        if (nl < 0) {
          if (head.length < 64 && (prefix.subarray(0, head.length).equals(head) || head.subarray(0, prefix.length).equals(prefix))) {
            warnings.push(`journal ${file}: torn header (${size} bytes) truncated`);
          } else {
            throw new Error(`${file} is not a SpotDesk journal (bad header); move it away to start fresh`);
          }
        } else {
          const h = parseHeader(head.toString('latin1', 0, nl));
          if ('error' in h) throw new Error(`${file} is not a SpotDesk journal (bad header); move it away to start fresh`);
          header = h;
          goodEnd = nl + 1;
          let bad: { offset: number; error: string } | null = null;
          let validAfter = false;
          forEachLine(fd, goodEnd, (line, offset) => {
            if (bad !== null) {
              // after a bad record: is there a valid one further on?
              validAfter = !('error' in decodeRecord(line, 0));
              return !validAfter;
            }
            const r = decodeRecord(line, 0);
            if ('error' in r) {
              bad = { offset, error: r.error };
              return true;
            }
            opts.onCommand?.(r.cmd as C, count);
            count++;
            goodEnd = offset + line.length;
            return true;
          });
          const b = bad as { offset: number; error: string } | null;
          if (b !== null && validAfter) {
            // a valid record follows the bad one
            if (!opts.truncateCorrupt) throw new JournalCorruptError(file, b.offset, b.error);
            warnings.push(`journal ${file}: corrupt record #${count + 1} at byte ${b.offset} (${b.error}); ` +
              `truncated ${size - b.offset} bytes INCLUDING later valid records (truncateCorrupt)`);
          } else if (b !== null || goodEnd < size) {
            const at = b?.offset ?? goodEnd;
            const why = b?.error ?? `truncated record (${size - goodEnd} bytes, no terminator)`;
            warnings.push(`journal ${file}: torn or invalid last record #${count + 1} at byte ${at} ` +
              `(${why}); skipped and truncated ${size - at} bytes`);
          }
        }
      }
      if (goodEnd < size) fs.ftruncateSync(fd, goodEnd);
      if (header === null) {
        const c = opts.create ?? { gen: 0, base: null, start: 0 };
        const line = Buffer.from(journalHeaderLine(c), 'latin1');
        writeFully(fd, line);
        header = { version: 2, ...c };
        goodEnd = line.length;
      }
      if (opts.fsync) fs.fdatasyncSync(fd);
      return { journal: new Journal<C>(file, fd, opts.fsync === true, header, count, goodEnd), header, count, warnings };
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /**
   * Append one executed command durably (see the module doc) before the server acknowledges it.
   * Synchronous: when it returns, the record survives the death of this process.
   * @throws JournalValueError when the command holds a value JSON cannot carry losslessly
   * @throws Error when the journal is closed or the write fails (the caller must treat the state
   *   change as NOT acknowledged; the in-memory state is then ahead of the journal)
   */
  append(cmd: C): void {
    if (this.fd === null) throw new Error('journal is closed');
    const rec = encodeRecord(cmd);
    writeFully(this.fd, rec);
    if (this.fsync) fs.fdatasyncSync(this.fd);
    this.appended++;
    this.recordCount++;
    this.size += rec.length;
  }

  /** Number of records appended through this instance (not counting replayed ones). */
  get appendedCount(): number {
    return this.appended;
  }

  /** Whole records in the file: read at open + appended. */
  get records(): number {
    return this.recordCount;
  }

  /** The file's size in bytes. */
  get bytes(): number {
    return this.size;
  }

  /** True until {@link close} is called. */
  get isOpen(): boolean {
    return this.fd !== null;
  }

  /** Flush the file to disk (fdatasync). */
  sync(): void {
    if (this.fd !== null) fs.fdatasyncSync(this.fd);
  }

  /** Close the file. Idempotent. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      if (this.fsync) fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** Write all of `buf` to `fd` (writeSync may write fewer bytes than asked). */
function writeFully(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/** Reject values that would not survive JSON losslessly (floats, unsafe ints, bigint, NaN, functions). */
function assertLossless(v: unknown, where: string): void {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isSafeInteger(v)) {
        throw new JournalValueError(`${where} is the number ${v}; journal numbers must be safe integers (use decimal strings for money)`);
      }
      return;
    case 'undefined':
      return;
    case 'object':
      if (v === null) return;
      if (Array.isArray(v)) {
        v.forEach((x, i) => assertLossless(x, `${where}[${i}]`));
        return;
      }
      for (const [k, x] of Object.entries(v)) assertLossless(x, `${where}.${k}`);
      return;
    default:
      throw new JournalValueError(`${where} is a ${typeof v}, which JSON cannot carry`);
  }
}
