/**
 * A `pattern` in an agent's `responseSchema` is matched in time linear in the
 * answer (RE2), never by a backtracking engine: `^(a+)+$` against forty
 * letters and a "!" takes a backtracking engine minutes, so one interrupt
 * would hold the page. A pattern RE2 cannot run (a lookaround, a
 * backreference) makes the schema one that cannot be checked, said as such.
 */
import { describe, expect, it } from 'vitest';
import type { Interrupt } from '../src/index.js';
import { validateResponsePayload } from '../src/schema.js';

const asking = (responseSchema: Record<string, unknown>): Interrupt => ({ id: 'int-5c1d', reason: 'input_required', responseSchema });

describe('a pattern in a responseSchema', () => {
  it('is matched in linear time: a pattern that backtracks without end checks an answer at once', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' }, name: { oneOf: [{ pattern: '^(\\w+\\s?)*$' }, { type: 'number' }] } },
    };
    const began = performance.now();
    const problems = validateResponsePayload(asking(schema), { code: `${'a'.repeat(40)}!`, name: `${'word '.repeat(20)}!` });
    expect(performance.now() - began).toBeLessThan(500);
    expect(Array.isArray(problems) && problems.some((p) => p.startsWith('/code'))).toBe(true);
    expect(validateResponsePayload(asking(schema), { code: 'aaaa', name: 'two words' })).toEqual([]);
  });

  it('keeps what JSON Schema patterns mean: unanchored, Unicode classes, named groups, patternProperties', () => {
    const schema = {
      type: 'object',
      properties: { order: { type: 'string', pattern: 'A-\\d{4}' }, city: { type: 'string', pattern: '^\\p{L}+$' } },
      patternProperties: { '^x-(?<name>[a-z]+)$': { type: 'number' } },
    };
    expect(validateResponsePayload(asking(schema), { order: 'order A-1001 please', city: '上海', 'x-total': 3 })).toEqual([]);
    // ECMA-262 escapes RE2 spells otherwise: \uXXXX, \u{...}, \cJ, [^].
    const name = { type: 'string', pattern: '^[\\u4e00-\\u9fa5]{2,8}$' };
    expect(validateResponsePayload(asking(name), '张三')).toEqual([]);
    expect(validateResponsePayload(asking(name), 'Zhang San')).toHaveLength(1);
    expect(validateResponsePayload(asking({ type: 'string', pattern: '^\\u{1F600}[^]\\cJ$' }), '😀x\n')).toEqual([]);
    const problems = validateResponsePayload(asking(schema), { order: 'A-10', city: 'Paris 75', 'x-total': 'three' });
    expect(Array.isArray(problems) && problems.length).toBe(3);
  });

  it('that RE2 cannot run (a lookahead, a backreference) leaves the schema one that cannot be checked', () => {
    for (const pattern of ['^(?=.*\\d).{8,}$', '^(a)\\1$']) {
      const result = validateResponsePayload(asking({ type: 'string', pattern }), 'a1b2c3d4');
      expect(result).toMatchObject({ schemaInvalid: expect.stringMatching(/cannot be compiled/) });
    }
  });
});
