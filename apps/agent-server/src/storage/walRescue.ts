/**
 * A database file left empty beside a WAL that holds its commits. Until the
 * first checkpoint, every commit of a new database is in its WAL, which
 * `synchronous = FULL` syncs at each one; the database file holds only the
 * header written as it was made, which nothing syncs. A power cut can leave
 * that file empty (ext4's delayed allocation does) and the WAL whole. SQLite
 * then takes the empty file for a new database and deletes the WAL as it
 * opens it: every run, thread and side effect gone, silently.
 *
 * `rescueFromWal` gives the file its first page back, as the WAL's last
 * valid commit holds it (the header, which says the database is in WAL mode
 * and its page size), so SQLite reads the rest from the WAL, as after any
 * crash. Frames count only up to the last commit whose checksums hold, as
 * SQLite counts them (https://www.sqlite.org/fileformat2.html#walformat).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/** The WAL's magic numbers: its checksums read words little-endian, or big-endian. */
const LITTLE = 0x377f0682;
const BIG = 0x377f0683;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;
/** The database header's size: a file shorter than this holds no database. */
const DB_HEADER = 100;

/** What was done: nothing to rescue, the file rebuilt from its WAL, or a WAL with no first page to rebuild it from. */
export type WalRescue = 'none' | 'rebuilt' | 'unreadable';

export function rescueFromWal(file: string): WalRescue {
  const walFile = `${file}-wal`;
  if (!existsSync(file) || statSync(file).size >= DB_HEADER || !existsSync(walFile)) return 'none';
  const wal = readFileSync(walFile);
  if (wal.length <= WAL_HEADER) return 'none';
  const page = committedFirstPage(wal);
  if (!page) return 'unreadable';
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, page);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return 'rebuilt';
}

/** Page 1 as the WAL's last valid commit holds it; undefined when no valid commit holds it. */
function committedFirstPage(wal: Buffer): Buffer | undefined {
  const magic = wal.readUInt32BE(0);
  if (magic !== LITTLE && magic !== BIG) return undefined;
  const word = magic === LITTLE ? (at: number) => wal.readUInt32LE(at) : (at: number) => wal.readUInt32BE(at);
  const pageSize = wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  let sum = checksum(word, 0, 24, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28)) return undefined;
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let pending: Buffer | undefined;
  let committed: Buffer | undefined;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    sum = checksum(word, at + FRAME_HEADER, pageSize, checksum(word, at, 8, sum));
    if (sum[0] !== wal.readUInt32BE(at + 16) || sum[1] !== wal.readUInt32BE(at + 20)) break;
    if (wal.readUInt32BE(at) === 1) pending = wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize);
    // A commit frame (the database's size after it, not 0) makes what came before it part of the database.
    if (wal.readUInt32BE(at + 4) !== 0) committed = pending ?? committed;
  }
  return committed;
}

/** SQLite's WAL checksum of `length` bytes at `from` (a multiple of 8), going on from `[s0, s1]`. */
function checksum(word: (at: number) => number, from: number, length: number, [s0, s1]: number[]): [number, number] {
  let a = s0 as number;
  let b = s1 as number;
  for (let at = from; at < from + length; at += 8) {
    a = (a + word(at) + b) >>> 0;
    b = (b + word(at + 4) + a) >>> 0;
  }
  return [a, b];
}
