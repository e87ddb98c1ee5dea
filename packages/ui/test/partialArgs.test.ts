import { describe, expect, it } from 'vitest';
import { argsView, EMPTY_ARGS_MEMO } from '../src/partialArgs.js';

const streaming = (argsText: string) => ({ argsText, status: 'args_streaming' as const });

describe('argsView, the policy behind useArgsView', () => {
  it('re-parses a streaming call only once its text has grown by a quarter since the last parse', () => {
    const first = argsView(streaming('{"a": 1'), EMPTY_ARGS_MEMO);
    expect(first.view).toEqual({ kind: 'parsed', value: { a: 1 }, partial: true });
    expect(first.memo.length).toBe(7);

    const small = argsView(streaming('{"a": 1,'), first.memo);
    expect(small.memo).toBe(first.memo);
    expect(small.view).toBe(first.view);

    const grown = argsView(streaming('{"a": 1, "b": 2'), small.memo);
    expect(grown.view).toEqual({ kind: 'parsed', value: { a: 1, b: 2 }, partial: true });
    expect(grown.memo.length).toBe(15);
  });

  it('once the call stopped streaming without complete arguments (its run died), parses all it received and says it is incomplete', () => {
    const memo = argsView(streaming('{"orderId":"A-1001","amount":4'), EMPTY_ARGS_MEMO).memo;
    const cut = argsView({ argsText: '{"orderId":"A-1001","amount":4200', status: 'failed' }, memo);
    expect(cut.view).toEqual({ kind: 'parsed', value: { orderId: 'A-1001', amount: 4200 }, partial: false, incomplete: true });
    // Parsed once: the next render keeps it.
    expect(argsView({ argsText: '{"orderId":"A-1001","amount":4200', status: 'failed' }, cut.memo).view).toBe(cut.view);
  });

  it('re-parses when the text is shorter than the last parse (another call)', () => {
    const long = argsView(streaming('{"query": "refund order A-1001"'), EMPTY_ARGS_MEMO);
    const other = argsView(streaming('{"id": 7'), long.memo);
    expect(other.view).toEqual({ kind: 'parsed', value: { id: 7 }, partial: true });
  });

  it('shows complete arguments exactly, and failed ones raw with the error, keeping the memo', () => {
    const memo = argsView(streaming('{"a": 1'), EMPTY_ARGS_MEMO).memo;
    const done = argsView({ argsText: '{"a": 1}', args: { a: 1 }, status: 'ready' }, memo);
    expect(done.view).toEqual({ kind: 'parsed', value: { a: 1 }, partial: false });
    expect(done.memo).toBe(memo);
    const failed = argsView({ argsText: '{"a": ', argsError: 'arguments are not valid JSON', status: 'ready' }, memo);
    expect(failed.view).toEqual({ kind: 'raw', text: '{"a": ', error: 'arguments are not valid JSON' });
    expect(failed.memo).toBe(memo);
  });

  it('is empty without a call or before any text', () => {
    expect(argsView(undefined, EMPTY_ARGS_MEMO).view).toEqual({ kind: 'empty' });
    expect(argsView(streaming(''), EMPTY_ARGS_MEMO).view).toEqual({ kind: 'empty' });
  });
});

describe('a key named __proto__ in arguments as they stream', () => {
  // Complete arguments come from JSON.parse, which keeps such a key as data: the streaming view shows the same.
  it.each([
    ['an object', '{"__proto__": {"admin": true}, "amount": 5', { admin: true }],
    ['null', '{"__proto__": null, "amount": 5', null],
    ['a number', '{"__proto__": 7, "amount": 5', 7],
    ['a string, nested', '{"user": {"__proto__" : "x", "amount": 5', 'x'],
  ])('holding %s is shown as the key it is, in its place, and no object gets another prototype', (_what, text, expected) => {
    const { view } = argsView(streaming(text), EMPTY_ARGS_MEMO);
    if (view.kind !== 'parsed') throw new Error(`not parsed: ${view.kind}`);
    const value = view.value as Record<string, unknown>;
    const holder = (Object.hasOwn(value, 'user') ? value.user : value) as Record<string, unknown>;
    expect(Object.keys(holder)).toEqual(['__proto__', 'amount']);
    expect(Object.getOwnPropertyDescriptor(holder, '__proto__')?.value).toEqual(expected);
    expect(holder.amount).toBe(5);
    expect(Object.getPrototypeOf(holder)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(`${text}}${holder === value ? '' : '}'}`)));
  });

  it('a value that reads "__proto__" is left as it was', () => {
    const { view } = argsView(streaming('{"note": "\\"__proto__\\": 1", "k": "__proto__"'), EMPTY_ARGS_MEMO);
    expect(view).toEqual({ kind: 'parsed', value: { note: '"__proto__": 1', k: '__proto__' }, partial: true });
  });
});
