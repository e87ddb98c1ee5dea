'use client';

import { RE2JS } from 're2js';

/**
 * How the form's validator matches `pattern` and `patternProperties`: RE2,
 * in time linear in the answer, as the resume's own check in
 * `@aguikit/core/schema` does. A backtracking engine takes minutes on
 * `^(a+)+$` against forty letters: an agent's schema would hold the page as
 * the form checks a default, an option of a `oneOf`, or what was typed.
 */
export const linearRegExp = Object.assign(
  (pattern: string) => {
    // Written as JSON Schema writes it (ECMA-262: \uXXXX, \cJ, [^]), spelt as RE2 reads it.
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    // ajv keeps one matcher per `toString()`, as a RegExp's gives its source.
    return { test: (text: string) => re.test(text), toString: () => `/${pattern}/` };
  },
  { code: 'linearRegExp' },
);

/**
 * Whether RE2 runs every pattern of `schema` (a lookaround or a
 * backreference it does not): a schema with one it cannot run can be checked
 * neither here nor by the resume's check, and its question can only be closed.
 */
export function patternsRun(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null || depth > 64) return true;
  if (Array.isArray(schema)) return schema.every((item) => patternsRun(item, depth + 1));
  const node = schema as Record<string, unknown>;
  const patterns = [
    ...(typeof node.pattern === 'string' ? [node.pattern] : []),
    ...(typeof node.patternProperties === 'object' && node.patternProperties !== null ? Object.keys(node.patternProperties) : []),
  ];
  for (const pattern of patterns) {
    try {
      RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch {
      return false;
    }
  }
  // Data (an enum's values, a default) is no schema: a member named "pattern" there is text.
  return Object.keys(node).every(
    (key) => key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || patternsRun(node[key], depth + 1),
  );
}
