import { describe, expect, it } from 'vitest';
import { highlightsOf } from '../src/jsonHighlights.js';

describe('highlightsOf: where a delta landed in the document', () => {
  it('marks each of several appends to one array on the element it added', () => {
    const h = highlightsOf(
      [
        { op: 'add', path: '/todos/-', value: '写报告' },
        { op: 'add', path: '/todos/-', value: '打电话' },
      ],
      { todos: ['买牛奶', '写报告', '打电话'] },
    );
    expect([...h.at.keys()]).toEqual(['/todos/1', '/todos/2']);
  });

  it('moves a mark with its node when a later operation of the delta inserts or removes before it in the same array', () => {
    // Replace b, then remove a: the replaced value is now the first element; c, untouched, the second.
    const removedBefore = highlightsOf(
      [
        { op: 'replace', path: '/items/1', value: 'B!' },
        { op: 'remove', path: '/items/0' },
      ],
      { items: ['B!', 'c'] },
    );
    expect([...removedBefore.at.entries()].map(([k, m]) => [k, m.map((x) => x.op)])).toEqual([['/items/0', ['replace']]]);
    expect(removedBefore.removed.get('/items')?.map((r) => r.key)).toEqual(['0']);
    // Replace the first, then insert before it: the replaced value is now the second element.
    const insertedBefore = highlightsOf(
      [
        { op: 'replace', path: '/items/0/name', value: '茶壶' },
        { op: 'add', path: '/items/0', value: { name: 'new' } },
      ],
      { items: [{ name: 'new' }, { name: '茶壶' }] },
    );
    expect([...insertedBefore.at.keys()].sort()).toEqual(['/items/0', '/items/1/name']);
    // An element replaced, then removed: its mark goes with it.
    const gone = highlightsOf(
      [
        { op: 'replace', path: '/items/1', value: 'x' },
        { op: 'remove', path: '/items/1' },
      ],
      { items: ['a'] },
    );
    expect([...gone.at.keys()]).toEqual([]);
    // Keys of an object do not move.
    const object = highlightsOf(
      [
        { op: 'replace', path: '/o/1', value: 2 },
        { op: 'remove', path: '/o/0' },
      ],
      { o: { 1: 2 } },
    );
    expect([...object.at.keys()]).toEqual(['/o/1']);
  });

  it('moves the marks of 1,000 inserts at the front of an array within a second; past that, marks stay where the operations name them', () => {
    const operations = Array.from({ length: 1_000 }, (_, i) => ({ op: 'add', path: '/items/0', value: i }));
    const started = performance.now();
    const h = highlightsOf(operations, { items: Array.from({ length: 1_000 }, (_, i) => 999 - i) });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(h.at.size).toBe(1_000);
    // The first insert's element is now the last.
    expect(h.at.get('/items/999')?.[0]?.at).toBe(0);
    const many = Array.from({ length: 20_000 }, (_, i) => ({ op: 'add', path: '/items/0', value: i }));
    const began = performance.now();
    const unmoved = highlightsOf(many, { items: Array.from({ length: 20_000 }, (_, i) => i) });
    expect(performance.now() - began).toBeLessThan(1_000);
    expect([...unmoved.at.keys()]).toEqual(['/items/0']);
  });

  it('marks each node touched, in the order of the operations, and opens every container above it', () => {
    const doc = { refund: { status: 'approved', items: ['teapot', 'cup'] }, note: '退款' };
    const h = highlightsOf(
      [
        { op: 'replace', path: '/refund/status', value: 'approved' },
        { op: 'add', path: '/refund/items/-', value: 'cup' },
        { op: 'remove', path: '/refund/old' },
        { op: 'test', path: '/refund/status', value: 'approved' },
        { op: 'move', from: '/draft', path: '/note' },
      ],
      doc,
    );
    expect(h.at.get('/refund/status')?.map((m) => [m.at, m.op])).toEqual([
      [0, 'replace'],
      [3, 'test'],
    ]);
    expect(h.at.get('/refund/items/1')?.map((m) => m.op)).toEqual(['add']);
    expect(h.at.get('/note')?.[0]?.note).toEqual({ kind: 'from', path: '/draft' });
    expect(h.removed.get('/refund')?.map((r) => r.key)).toEqual(['old']);
    expect(h.removed.get('')?.map((r) => [r.key, r.mark.op])).toEqual([['draft', 'move']]);
    expect([...h.inside].sort()).toEqual(['', '/refund', '/refund/items']);
  });

  it('takes 30,000 operations on one node in linear time', () => {
    const operations = Array.from({ length: 30_000 }, (_, i) => ({ op: 'replace', path: '/status', value: i }));
    const started = performance.now();
    const h = highlightsOf(operations, { status: 29_999 });
    // Copying the node's list of marks at each operation took 5.7 s.
    expect(performance.now() - started).toBeLessThan(500);
    expect(h.at.get('/status')).toHaveLength(30_000);
  });

  it('takes 1,000 operations 512 levels deep without rebuilding the way down each time', () => {
    const path = `/${Array.from({ length: 512 }, (_, i) => `k${i}`).join('/')}`;
    const operations = Array.from({ length: 1_000 }, () => ({ op: 'test', path, value: 1 }));
    const started = performance.now();
    const h = highlightsOf(operations, {});
    expect(performance.now() - started).toBeLessThan(500);
    expect(h.inside.size).toBe(512);
    expect(h.inside.has('/k0/k1')).toBe(true);
  });
});
