/**
 * Every storage through one contract (`storageContract.ts`), and the
 * idempotency key that side effects are recorded under.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson, effectIdempotencyKey, idempotencyKey, normalizeArguments } from '../src/storage/idempotency.js';
import { openMemoryStorage } from '../src/storage/memory.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { storageContract } from './storageContract.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storageContract('memory', async () => openMemoryStorage());
storageContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'aguikit-storage-'));
  dirs.push(dir);
  return openSqliteStorage(dir);
});

describe('the idempotency key', () => {
  const action = {
    threadId: 't1',
    businessActionId: 'r1-refund-approval',
    toolName: 'refund',
    arguments: { orderId: 'A-1001', amount: 42 },
  };

  it('is the SHA-256 of the canonical JSON of thread, action, tool and arguments', async () => {
    const { createHash } = await import('node:crypto');
    const text =
      '{"businessActionId":"r1-refund-approval","normalizedArguments":{"amount":42,"orderId":"A-1001"},"threadId":"t1","toolName":"refund"}';
    expect(idempotencyKey(action)).toBe(createHash('sha256').update(text).digest('hex'));
    expect(idempotencyKey(action)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order, nor on arguments given as a JSON string', () => {
    const key = idempotencyKey(action);
    expect(idempotencyKey({ ...action, arguments: { amount: 42, orderId: 'A-1001' } })).toBe(key);
    expect(idempotencyKey({ ...action, arguments: '{"amount":42,"orderId":"A-1001"}' })).toBe(key);
    expect(idempotencyKey({ ...action, arguments: { amount: 42, orderId: 'A-1001', note: undefined } })).toBe(key);
  });

  it('changes with each of the four parts, and parts cannot run into each other', () => {
    const key = idempotencyKey(action);
    const others = [
      { ...action, threadId: 't2' },
      { ...action, businessActionId: 'r2-refund-approval' },
      { ...action, toolName: 'refund_order' },
      { ...action, arguments: { orderId: 'A-1001', amount: 43 } },
      { ...action, arguments: { orderId: 'A-1001', amount: '42' } },
      // Concatenated, these two would read alike.
      { ...action, threadId: 't1r1-refund-approval', businessActionId: '' },
    ];
    const keys = new Set(others.map(idempotencyKey));
    expect(keys.size).toBe(others.length);
    expect(keys.has(key)).toBe(false);
  });

  it('is the key of a scenario effect: its key is the action, its kind the tool, its detail the arguments', () => {
    expect(effectIdempotencyKey('t1', { kind: 'refund', key: 'r1-refund-approval', detail: { amount: 42, orderId: 'A-1001' } })).toBe(
      idempotencyKey(action),
    );
  });

  it('writes canonical JSON: sorted keys at every depth, one form for -0 and for what JSON cannot say', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
    expect(canonicalJson({ z: -0, y: Number.NaN, x: [undefined] })).toBe('{"x":[null],"y":null,"z":0}');
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(normalizeArguments('not json')).toBe('not json');
    expect(normalizeArguments(undefined)).toBe(null);
  });

  it('refuses values JSON cannot hold rather than hash something lossy', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    // The same object twice is not a cycle.
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it('stays fast and stack-safe enough for any RunAgentInput-sized argument', () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    expect(idempotencyKey({ ...action, arguments: wide })).toMatch(/^[0-9a-f]{64}$/);
  });
});
