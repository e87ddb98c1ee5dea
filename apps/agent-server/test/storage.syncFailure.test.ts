/**
 * SQLite's WAL synced off the event loop after a group commit: when that sync fails, the writes it held are refused,
 * and what they committed (in the OS's cache, maybe never on disk) is neither read nor built on by a later request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { type Storage, StorageUnavailable } from '../src/storage/types.js';
import { effectRecord, runRecord, threadRecord } from './storageContract.js';

/** `fail`: the next syncs fail with EIO; `during`: called as a sync starts (its commit made, not yet on disk). */
const control = vi.hoisted(() => ({ fail: false, syncs: 0, synced: 0, during: undefined as (() => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const fsync = (fd: number, done: (e: NodeJS.ErrnoException | null) => void) => {
    control.syncs += 1;
    const during = control.during;
    control.during = undefined;
    // Once the sync is under way (this call returned), long before it ends.
    if (during) setImmediate(during);
    if (!control.fail) {
      // Slow, as a disk under load is: an answer given before it ends would be seen.
      setTimeout(
        () =>
          fs.fsync(fd, (e) => {
            if (!e) control.synced += 1;
            done(e);
          }),
        30,
      );
      return;
    }
    setTimeout(() => done(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })), 20);
  };
  return { ...fs, default: { ...fs, fsync }, fsync };
});

const dirs: string[] = [];
const opened: Storage[] = [];
afterEach(async () => {
  control.fail = false;
  control.during = undefined;
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(): Storage {
  const dir = mkdtempSync(join(tmpdir(), 'aguikit-syncfail-'));
  dirs.push(dir);
  const storage = openSqliteStorage(dir);
  opened.push(storage);
  return storage;
}

describe('the sync of the WAL after a group commit', () => {
  it('answers a run or an effect only once the sync that holds it ended; an event frame without waiting for one', async () => {
    const storage = open();
    await storage.performEffect(effectRecord('first'));
    for (const write of [
      () => storage.performEffect(effectRecord('second')),
      () => storage.beginRun(runRecord('run-1'), threadRecord('thread-1', []), 0),
      () => storage.markRead('run-1'),
    ]) {
      const synced = control.synced;
      await write();
      expect(control.synced).toBeGreaterThan(synced);
    }
    const syncs = control.syncs;
    await storage.appendEvent('run-1', 0, 'frame 0');
    expect(control.syncs).toBe(syncs);
  });
});

describe('a failed sync of the WAL', () => {
  it('refuses the write, and no request reads it or is answered on top of it afterwards', async () => {
    const storage = open();
    // Synced fine first: the storage works.
    expect((await storage.performEffect(effectRecord('before'))).fresh).toBe(true);
    const syncsBefore = control.syncs;
    control.fail = true;
    let readMeanwhile: Promise<unknown> | undefined;
    control.during = () => {
      readMeanwhile = storage.effects().then(
        (effects) => effects.map((e) => e.key),
        (e: unknown) => e,
      );
    };
    await expect(storage.performEffect(effectRecord('lost'))).rejects.toBeInstanceOf(StorageUnavailable);
    expect(control.syncs).toBeGreaterThan(syncsBefore);
    control.fail = false;
    // A read asked for while the sync ran does not see the write it failed for.
    expect(await readMeanwhile).not.toEqual(['before', 'lost']);
    // Nor does a later one, nor a retry of the same effect, which would be told it was done already.
    const later = await storage.effects().then(
      (effects) => effects.map((e) => e.key),
      (e: unknown) => e,
    );
    expect(later).not.toEqual(['before', 'lost']);
    const retried = await storage.performEffect(effectRecord('lost')).then(
      (r) => r.fresh,
      (e: unknown) => e,
    );
    expect(retried).not.toBe(false);
  });
});
