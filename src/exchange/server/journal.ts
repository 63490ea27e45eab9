/**
 * Append-only command journal of the sandbox exchange (issue 4, part B).
 *
 * Every acknowledged state change of the sandbox (order placement and cancellation, transfers,
 * deposits, withdrawals, admin operations, clock advances, market-simulation actions) is a
 * {@link JournalCommand} that {@link SandboxState.exec} applied successfully. The server appends the
 * command here BEFORE it sends the response, and on start replays the returned `commands` through
 * `state.exec` in order (with their original `t`), which rebuilds exactly the same state because
 * the exchange core is deterministic given commands + timestamps.
 *
 * ## File format (`STATE_DIR/journal.log`, version 1)
 * A text file: one header line `SPOTDESK-JOURNAL 1\n`, then one line per record:
 *
 *     <len> <crc> <json>\n
 *
 * - `len`: decimal byte length of `<json>` (UTF-8);
 * - `crc`: CRC-32 (IEEE, as `zlib.crc32`) of the `<json>` bytes, 8 lowercase hex digits;
 * - `json`: `JSON.stringify(command)` — a single line (JSON.stringify never emits a raw newline).
 *
 * Money stays lossless: commands carry decimal amounts as strings, and the only JSON numbers in a
 * command are safe integers such as `t` (ms). {@link Journal.append} rejects a command holding a
 * non-integer or unsafe number, a bigint, or a non-finite value, so nothing is rounded through a float.
 *
 * ## Torn records
 * A process killed in the middle of `write` can leave a partial last record. {@link Journal.open}
 * validates each record's length, checksum, JSON and trailing newline; the first invalid record and
 * everything after it is reported in `warnings` and TRUNCATED from the file, so later appends do not
 * follow garbage. When a *valid* record is found after an invalid one, the damage is not a torn tail
 * but corruption in the middle of the file (acknowledged data would be lost): `open` then throws
 * {@link JournalCorruptError} instead of silently dropping it, unless `opts.truncateCorrupt` is set.
 *
 * ## Durability
 * `append` writes the whole record with synchronous `fs.writeSync` on a descriptor opened in append
 * mode. When `writeSync` returns, the bytes are in the kernel's page cache, which survives the death
 * of the process (SIGKILL, crash, uncaught exception); only a kernel crash or power loss before the
 * kernel flushes the cache could lose them. `opts.fsync: true` additionally calls `fdatasync` after
 * every record (durable against power loss; costs one disk flush per acknowledged change).
 *
 * ## Exclusive use
 * The journal itself takes no lock: the sandbox holds the state dir's OS-released lock
 * (stateLock.ts) for as long as it runs, and opens the journal only while holding it.
 *
 * ## Not done: snapshots / compaction
 * The journal grows without bound (about 100–250 bytes per command; the market simulation adds
 * about 2–3 commands per symbol per second, ≈ 20 MB per hour with the 12 seeded symbols). Start-up
 * cost is linear in the journal length: measured on the 2-core dev box, reading + verifying ≈ 55 000
 * records/s (JSON.parse dominates) and replaying ≈ 90 000 commands/s; appending costs ≈ 30 µs per
 * record (one write syscall). Compaction would
 * need a serialisable snapshot of `SandboxState` + the engine, which they do not offer yet; the
 * planned design is `STATE_DIR/snapshot-<n>.json` written atomically (tmp + rename) followed by a
 * fresh journal whose header names the snapshot. Until then, delete the state dir to start over.
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

/** Options of {@link Journal.open}. */
export interface JournalOptions {
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
}

/** Result of {@link Journal.open}. */
export interface OpenedJournal<C extends JournalCommand> {
  /** The journal, ready for {@link Journal.append}. */
  journal: Journal<C>;
  /** Every whole record of the file, in order: replay them through `state.exec`. */
  commands: C[];
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

/** First line of every journal file (format version 1). */
export const JOURNAL_HEADER = 'SPOTDESK-JOURNAL 1\n';
const NL = 0x0a;
const SP = 0x20;

/** CRC-32 (IEEE 802.3) of `buf` as 8 lowercase hex digits, via `zlib.crc32` (Node ≥ 20.15). */
export function crc32Hex(buf: Uint8Array): string {
  return (zlib.crc32(buf) >>> 0).toString(16).padStart(8, '0');
}

/** Encode one command as a journal record line (`<len> <crc> <json>\n`), as bytes. */
export function encodeRecord(cmd: JournalCommand): Buffer {
  assertLossless(cmd, 'cmd');
  const json = Buffer.from(JSON.stringify(cmd), 'utf8');
  return Buffer.concat([Buffer.from(`${json.length} ${crc32Hex(json)} `, 'latin1'), json, Buffer.from('\n')]);
}

/**
 * Decode the record starting at `start` of `buf`.
 * @returns the command and the offset just past its newline, or `{error}` describing why the bytes
 *   at `start` are not a whole valid record.
 */
export function decodeRecord(buf: Buffer, start: number): { cmd: JournalCommand; next: number } | { error: string } {
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
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
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
  return { cmd: value as JournalCommand, next: jsonEnd + 1 };
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
  ) {
    this.fd = fd;
  }

  /**
   * Open (creating if needed) the journal of `stateDir` (created recursively if missing), read every
   * whole record, truncate a torn or garbage tail, and return the journal ready for appending.
   * @throws JournalCorruptError when damage precedes valid records (see the module doc)
   * @throws Error when the file is not a SpotDesk journal (wrong header) or on I/O failure
   */
  static open<C extends JournalCommand = JournalCommand>(stateDir: string, opts: JournalOptions = {}): OpenedJournal<C> {
    fs.mkdirSync(stateDir, { recursive: true });
    const file = path.resolve(stateDir, opts.fileName ?? 'journal.log');
    const warnings: string[] = [];
    const commands: C[] = [];
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      buf = Buffer.alloc(0);
    }
    const header = Buffer.from(JOURNAL_HEADER, 'latin1');
    let goodEnd: number;
    if (buf.length === 0) {
      goodEnd = 0;
    } else if (buf.length < header.length && header.subarray(0, buf.length).equals(buf)) {
      warnings.push(`journal ${file}: torn header (${buf.length} bytes) truncated`);
      goodEnd = 0;
    } else if (!buf.subarray(0, header.length).equals(header)) {
      throw new Error(`${file} is not a SpotDesk journal (bad header); move it away to start fresh`);
    } else {
      goodEnd = header.length;
      let pos = header.length;
      while (pos < buf.length) {
        const r = decodeRecord(buf, pos);
        if ('error' in r) {
          if (hasValidRecordAfter(buf, pos)) {
            if (!opts.truncateCorrupt) throw new JournalCorruptError(file, pos, r.error);
            warnings.push(`journal ${file}: corrupt record #${commands.length + 1} at byte ${pos} (${r.error}); ` +
              `truncated ${buf.length - pos} bytes INCLUDING later valid records (truncateCorrupt)`);
          } else {
            warnings.push(`journal ${file}: torn or invalid last record #${commands.length + 1} at byte ${pos} ` +
              `(${r.error}); skipped and truncated ${buf.length - pos} bytes`);
          }
          break;
        }
        commands.push(r.cmd as C);
        pos = r.next;
        goodEnd = pos;
      }
    }
    const fd = fs.openSync(file, 'a');
    try {
      if (goodEnd < buf.length) fs.ftruncateSync(fd, goodEnd);
      if (goodEnd === 0) writeFully(fd, header);
      if (opts.fsync) fs.fdatasyncSync(fd);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    return { journal: new Journal<C>(file, fd, opts.fsync === true), commands, warnings };
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
  }

  /** Number of records appended through this instance (not counting replayed ones). */
  get appendedCount(): number {
    return this.appended;
  }

  /** True until {@link close} is called. */
  get isOpen(): boolean {
    return this.fd !== null;
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

/** True when any line starting after the record at `pos` decodes as a valid record. */
function hasValidRecordAfter(buf: Buffer, pos: number): boolean {
  let nl = buf.indexOf(NL, pos);
  while (nl >= 0 && nl + 1 < buf.length) {
    if (!('error' in decodeRecord(buf, nl + 1))) return true;
    nl = buf.indexOf(NL, nl + 1);
  }
  return false;
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
