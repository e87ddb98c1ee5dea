'use client';

import { ANY_OF_KEY, ONE_OF_KEY } from '@rjsf/utils';

/**
 * How the error summary finds the schema of a field on an error's path: the
 * member of an object, the item of a list, through `allOf`, the `oneOf` /
 * `anyOf` option chosen in the form, and a `$ref` into the form's own
 * schema. An agent's schema may be hostile: a step visits each schema node
 * once at most (`seen`), so a `$ref` that leads back to where it came from,
 * or many that lead to one node, ends the walk rather than recursing for
 * ever or for an exponential time.
 */

/**
 * The option of a `oneOf` / `anyOf` field (`kind`) chosen in the form: the
 * field whose id is `id` draws a selector of its options, whose value is the
 * chosen option's index. Undefined where it draws none.
 */
export type ChosenOption = (kind: typeof ONE_OF_KEY | typeof ANY_OF_KEY) => number | undefined;

/** One step of a walk: the form's schema (what a `$ref` points into), and the nodes visited. */
export interface Walk {
  root: unknown;
  seen: Set<unknown>;
}

/** A new step of a walk over `root`. */
export const walkOf = (root: unknown): Walk => ({ root, seen: new Set() });

/** A JSON pointer's segment as a key: its URI escapes (a `%` that escapes nothing is left as it is), then `~1` and `~0`. */
function unescapePointer(part: string): string {
  let key = part;
  try {
    key = decodeURIComponent(part);
  } catch {}
  return key.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The schema `node` names with a `$ref` that points into the form's own
 * schema (`#`, `#/$defs/Person`: as pydantic writes a nested model); `node`
 * itself otherwise (another document's, an anchor). Undefined once the walk
 * has been there.
 */
function local(node: unknown, walk: Walk): unknown {
  for (;;) {
    if (walk.seen.has(node)) return undefined;
    if (typeof node === 'object' && node !== null) walk.seen.add(node);
    const ref = (node as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/'))) return node;
    let target: unknown = walk.root;
    for (const part of ref === '#' ? [] : ref.slice(2).split('/')) {
      const key = unescapePointer(part);
      target =
        typeof target === 'object' && target !== null && Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (target === undefined) return node;
    node = target;
  }
}

/**
 * The schema of the field `key` of `node`: in its `properties`, else in
 * those of an `allOf` member, else in those of the `oneOf` / `anyOf` option
 * chosen in the form (`chosen`; where the form shows no choice, the first
 * option that defines it). Options may each define the key with a title of
 * their own: the one named is the one drawn.
 */
export function propertyOf(node: unknown, key: string, chosen: ChosenOption, walk: Walk): unknown {
  const own = local(node, walk);
  if (typeof own !== 'object' || own === null) return undefined;
  const { properties, allOf, oneOf, anyOf } = own as Record<string, unknown>;
  if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, key)) {
    return (properties as Record<string, unknown>)[key];
  }
  const first = (members: readonly unknown[]) => {
    for (const member of members) {
      const found = propertyOf(member, key, chosen, walk);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const inAllOf = Array.isArray(allOf) ? first(allOf) : undefined;
  if (inAllOf !== undefined) return inAllOf;
  for (const [kind, options] of [
    [ONE_OF_KEY, oneOf],
    [ANY_OF_KEY, anyOf],
  ] as const) {
    if (!Array.isArray(options)) continue;
    const at = chosen(kind);
    const found = at !== undefined && at < options.length ? propertyOf(options[at], key, chosen, walk) : first(options);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The schema of item `index` of the list `node` (`items`, or a tuple's own
 * item), or undefined where `node` is no list; a list that is one option of
 * several (`anyOf: [list, null]`, an optional list) by the option chosen in
 * the form, or else the first that is a list.
 */
export function itemOf(node: unknown, index: string, chosen: ChosenOption, walk: Walk): { schema: unknown } | undefined {
  const own = local(node, walk);
  if (typeof own !== 'object' || own === null || !/^\d+$/.test(index)) return undefined;
  const { type, items, prefixItems, additionalItems, oneOf, anyOf } = own as Record<string, unknown>;
  const at = Number(index);
  if (Array.isArray(prefixItems)) return { schema: at < prefixItems.length ? prefixItems[at] : items };
  if (Array.isArray(items)) return { schema: at < items.length ? items[at] : additionalItems };
  if (items !== undefined || type === 'array') return { schema: items };
  for (const [kind, options] of [
    [ONE_OF_KEY, oneOf],
    [ANY_OF_KEY, anyOf],
  ] as const) {
    if (!Array.isArray(options)) continue;
    const picked = chosen(kind);
    const candidates = picked !== undefined && picked < options.length ? [options[picked]] : options;
    for (const option of candidates) {
      const found = itemOf(option, index, () => undefined, walk);
      if (found) return found;
    }
  }
  return undefined;
}
