/**
 * Snapshot files of the sandbox: the whole state — the exchange core and every state
 * section (SandboxState.sections) — at one command count, written as a stream of records and read back the
 * same way, so neither writing nor reading ever holds a snapshot whole in memory.
 *
 * Records are framed like journal records (length, CRC-32, JSON) and end with a record that counts them
 * and carries the file's SHA-256, so a snapshot cut short, reordered or altered is refused; a snapshot is
 * written to a `.tmp` file and renamed, so it is complete or absent. File format and write order:
 * docs/sandbox.md, "Snapshot files".
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LineReader, frameRecord, unframeRecord } from './journal';
import { decodeSnapshotRecord, encodeSnapshotRecord } from './snapshotCodec';

/** First line of a snapshot file (format version 1). */
export const SNAPSHOT_HEADER = 'SPOTDESK-SNAPSHOT 1\n';
/** Bytes written at a time. */
const WRITE_CHUNK = 1 << 20;

/** File name of generation `gen`'s snapshot. */
export function snapshotName(gen: number): string {
  return `snapshot-${String(gen).padStart(8, '0')}.snap`;
}

/** What a snapshot's first record says. */
export interface SnapshotMeta {
  gen: number;
  /** commands included */
  count: number;
  /** sandbox clock (ms) */
  t: number;
  /** wall clock (ms) when written */
  createdAt: number;
}

/** A source of a snapshot's sections: the name of each and its records, in order. */
export type SnapshotSections = Iterable<{ name: string; records: Iterable<unknown> }>;

/** Timings and size of a written snapshot. */
export interface SnapshotWriteStats {
  file: string;
  bytes: number;
  records: number;
  /** ms spent producing and writing the records (the state must not change meanwhile) */
  writeMs: number;
  /** ms of fsync + rename + directory fsync */
  syncMs: number;
}

/** fsync a directory (so a rename or a new file in it is durable); a no-op where directories cannot be
 * opened for that (Windows). */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Write `meta` and `sections` as `dir/snapshot-<gen>.snap` (see the module doc): streamed through a `.tmp`
 * file, fsynced, renamed into place, the directory fsynced. `hook(bytes, gen)`, when given, is called after each
 * write with the bytes written so far (tests use it to kill the process mid-write).
 * @throws Error on I/O failure (the `.tmp` file is removed) or when a section's record cannot be encoded
 */
export function writeSnapshot(dir: string, meta: SnapshotMeta, sections: SnapshotSections, hook?: (bytes: number, gen: number) => void): SnapshotWriteStats {
  const file = path.join(dir, snapshotName(meta.gen));
  const tmp = `${file}.tmp`;
  const t0 = performance.now();
  const fd = fs.openSync(tmp, 'w', 0o600);
  let bytes = 0;
  let records = 0;
  const hash = createHash('sha256');
  let parts: Buffer[] = [];
  let pending = 0;
  const flush = (): void => {
    if (pending === 0) return;
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, pending);
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    bytes += buf.length;
    parts = [];
    pending = 0;
    hook?.(bytes, meta.gen);
  };
  const put = (b: Buffer): void => {
    hash.update(b);
    parts.push(b);
    pending += b.length;
    if (pending >= WRITE_CHUNK) flush();
  };
  let synced = 0;
  try {
    put(Buffer.from(SNAPSHOT_HEADER, 'latin1'));
    put(frameRecord(JSON.stringify({ sec: 'meta', ...meta })));
    records++;
    for (const s of sections) {
      if (s.name === 'meta' || s.name === 'end') throw new Error(`snapshot: a section cannot be named ${s.name}`);
      const prefix = `{"sec":${JSON.stringify(s.name)},"r":`;
      for (const r of s.records) {
        put(frameRecord(`${prefix}${encodeSnapshotRecord(r)}}`));
        records++;
      }
    }
    const end = frameRecord(JSON.stringify({ sec: 'end', records, sha256: hash.copy().digest('hex') }));
    put(end);
    flush();
    const t1 = performance.now();
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    synced = 1;
    fs.renameSync(tmp, file);
    fsyncDir(dir);
    return { file, bytes, records: records + 1, writeMs: t1 - t0, syncMs: performance.now() - t1 };
  } catch (e) {
    if (synced === 0) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** A snapshot that cannot be used (torn, damaged, of another format). */
export class SnapshotError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`snapshot ${file}: ${reason}`);
    this.name = 'SnapshotError';
  }
}

/**
 * A snapshot file read record by record (see the module doc): the meta record at once, then each section's
 * records through {@link section} as they are read, then {@link finish} to check the end record. Every
 * record's frame (length, CRC-32) is checked as it is read; any damage throws {@link SnapshotError}.
 */
export class SnapshotReader {
  readonly meta: SnapshotMeta;
  private readonly fd: number;
  private readonly size: number;
  private readonly lines: LineReader;
  private readonly hash = createHash('sha256');
  private records = 0;
  /** the next record, read ahead: its section and value (null at the end record) */
  private next: { sec: string; r: unknown } | null = null;
  private ended: { records: number; sha256: string } | null = null;
  private closed = false;

  /** @throws SnapshotError when the file is no snapshot, or its meta record is damaged */
  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      this.size = fs.fstatSync(this.fd).size;
      const head = Buffer.alloc(Math.min(this.size, SNAPSHOT_HEADER.length));
      fs.readSync(this.fd, head, 0, head.length, 0);
      if (head.toString('latin1') !== SNAPSHOT_HEADER) throw new SnapshotError(file, 'not a SpotDesk snapshot (bad header)');
      this.hash.update(head);
      this.lines = new LineReader(this.fd, head.length);
      const m = this.read();
      if (m === null || m.sec !== 'meta') throw new SnapshotError(file, 'the meta record is missing');
      const v = m.r as Partial<SnapshotMeta>;
      if (!Number.isSafeInteger(v.gen) || !Number.isSafeInteger(v.count) || typeof v.t !== 'number') throw new SnapshotError(file, 'bad meta record');
      this.meta = { gen: v.gen as number, count: v.count as number, t: v.t, createdAt: Number(v.createdAt ?? 0) };
      this.next = this.read();
    } catch (e) {
      fs.closeSync(this.fd);
      this.closed = true;
      throw e;
    }
  }

  /** The record line at the current offset, decoded (null: the end record was read). */
  private read(): { sec: string; r: unknown } | null {
    if (this.ended !== null) return null;
    const at = this.lines.offset;
    const line = this.lines.next();
    if (line === null) throw new SnapshotError(this.file, `cut short at byte ${at} of ${this.size} (no end record)`);
    const u = unframeRecord(line, 0);
    if ('error' in u) throw new SnapshotError(this.file, `damaged record at byte ${at} (${u.error})`);
    let v: { sec?: unknown; r?: unknown; records?: unknown; sha256?: unknown };
    try {
      v = (u.json.startsWith('{"sec":"end"') || u.json.startsWith('{"sec":"meta"') ? JSON.parse(u.json) : decodeSnapshotRecord(u.json)) as typeof v;
    } catch (e) {
      throw new SnapshotError(this.file, `record at byte ${at}: ${(e as Error).message}`);
    }
    if (typeof v.sec !== 'string') throw new SnapshotError(this.file, `record at byte ${at} names no section`);
    if (v.sec === 'end') {
      this.ended = { records: Number(v.records), sha256: String(v.sha256) };
      return null;
    }
    this.hash.update(line);
    this.records++;
    return { sec: v.sec, r: v.sec === 'meta' ? v : v.r };
  }

  /** The section of the next record, null at the end. */
  peek(): string | null {
    return this.next === null ? null : this.next.sec;
  }

  /**
   * The records of the section at hand (which must be `name`), as they are read; the iteration ends where the
   * next section starts. @throws SnapshotError on damage or when the next section is not `name`.
   */
  *section(name: string): Generator<unknown> {
    if (this.next !== null && this.next.sec !== name) throw new SnapshotError(this.file, `expected section ${name}, found ${this.next.sec}`);
    while (this.next !== null && this.next.sec === name) {
      const r = this.next.r;
      this.next = this.read();
      yield r;
    }
  }

  /** Skip the records of the section at hand. */
  skip(): void {
    const name = this.peek();
    if (name !== null) for (const _ of this.section(name)) void _;
  }

  /**
   * Check the end record (record count, SHA-256 of everything before it; nothing may follow) and close.
   * @throws SnapshotError when a section was not read to its end or the end record does not match.
   */
  finish(): void {
    try {
      if (this.next !== null) throw new SnapshotError(this.file, `section ${this.next.sec} was not read`);
      const e = this.ended;
      if (e === null) throw new SnapshotError(this.file, 'no end record');
      if (e.records !== this.records) throw new SnapshotError(this.file, `end record counts ${e.records} records, the file has ${this.records}`);
      if (e.sha256 !== this.hash.digest('hex')) throw new SnapshotError(this.file, 'SHA-256 mismatch: records missing, repeated or altered');
      if (this.lines.offset !== this.size) throw new SnapshotError(this.file, `${this.size - this.lines.offset} bytes after the end record`);
    } finally {
      this.close();
    }
  }

  /** Close the file (idempotent). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
