/**
 * How many subschemas checking a value against a JSON Schema may apply, with
 * every `$ref` taken as a copy of what it names. A schema's text grows with
 * its size; this figure grows with each `$ref` to a `$ref`: a 1.4 KB chain of
 * sixteen definitions, each naming the one before three times, is 3^16
 * subschemas, and a validator collecting every error runs out of memory on
 * it. Pure and ajv-free: `@aguikit/core/schema` refuses such a schema before
 * compiling it, and the interrupt form of `@aguikit/ui` before drawing it.
 */

/** The most subschemas a `responseSchema` may expand to (a form of 300 fields of shared definitions is about 3,000). */
export const SCHEMA_SIZE_LIMIT = 20_000;

/** Keywords whose value is data, never a schema. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose value maps names to schemas. */
const MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', 'definitions', '$defs']);
/** Schemas applied only through a `$ref`: their size counts where they are named. */
const STORES = new Set(['definitions', '$defs']);

const ROOT_BASE = 'https://aguikit.invalid/schema.json';

type Node = Readonly<Record<string, unknown>>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function resolveUri(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch (e) {
    // Only a reference that is no URL names nothing: the stack running out here (a chain of refs deeper than it) is
    // past any limit, and goes to schemaSize's own catch.
    if (e instanceof RangeError) throw e;
    return undefined;
  }
}

/** Where each schema resource (`$id`) and anchor of `root` is, and the base URI each schema object is read against. */
function indexSchema(root: Node): { targets: Map<string, Node>; bases: Map<Node, string> } {
  const targets = new Map<string, Node>();
  const bases = new Map<Node, string>();
  const walk = (value: unknown, base: string, asMap: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, base, false);
      return;
    }
    if (!isNode(value) || bases.has(value)) return;
    if (asMap) {
      for (const key of Object.keys(value)) walk(value[key], base, false);
      return;
    }
    let own = base;
    // `$id` only: `id` is a keyword of draft 4, an annotation since (zod 4 writes one in every named definition).
    const id = value.$id;
    if (typeof id === 'string') {
      const url = resolveUri(id, base);
      if (url) {
        // Draft 7 names an anchor with an `$id` of a fragment alone; later drafts with `$anchor`.
        if (id.startsWith('#')) targets.set(url.href, value);
        else {
          url.hash = '';
          own = url.href;
          targets.set(own, value);
        }
      }
    }
    bases.set(value, own);
    for (const anchor of [value.$anchor, value.$dynamicAnchor, value.$recursiveAnchor === true ? '' : undefined]) {
      if (typeof anchor === 'string') targets.set(`${own}#${anchor}`, value);
    }
    for (const key of Object.keys(value)) if (!DATA.has(key)) walk(value[key], own, MAPS.has(key));
  };
  targets.set(ROOT_BASE, root);
  walk(root, ROOT_BASE, false);
  return { targets, bases };
}

/** The schema a `$ref` names (a resource, an anchor or a JSON Pointer into a resource), or undefined. */
function target(ref: string, base: string, targets: ReadonlyMap<string, Node>): Node | undefined {
  const url = resolveUri(ref, base);
  if (!url) return undefined;
  const named = targets.get(url.href);
  if (named) return named;
  const pointer = decodeURIComponent(url.hash.slice(1));
  url.hash = '';
  let at: unknown = targets.get(url.href);
  if (!pointer.startsWith('/')) return isNode(at) && pointer === '' ? at : undefined;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return isNode(at) ? at : undefined;
}

/**
 * The number of subschemas `schema` expands to, its `$ref`s followed, or
 * `Infinity` once past `limit`. A `$ref` back to a schema being expanded (a
 * tree's `items: { $ref: '#' }`) counts once: how often it applies depends on
 * the value checked, not on the schema. A `$ref` that names nothing counts
 * once too (compiling the schema refuses it). Never throws.
 */
export function schemaSize(schema: unknown, limit = SCHEMA_SIZE_LIMIT): number {
  if (!isNode(schema)) return 1;
  let index: ReturnType<typeof indexSchema>;
  try {
    index = indexSchema(schema);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  const { targets, bases } = index;
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  const sizeOf = (node: Node): number => {
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) return 1;
    open.add(node);
    const base = bases.get(node) ?? ROOT_BASE;
    let size = 1;
    const add = (value: unknown, asMap: boolean): void => {
      if (size > limit) return;
      if (Array.isArray(value)) for (const item of value) add(item, false);
      else if (!isNode(value)) return;
      else if (asMap) for (const key of Object.keys(value)) add(value[key], false);
      else size += sizeOf(value);
    };
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') {
        const named = typeof value === 'string' ? target(value, base, targets) : undefined;
        size += named ? sizeOf(named) : 1;
      } else if (!DATA.has(key) && !STORES.has(key)) add(value, MAPS.has(key));
      if (size > limit) break;
    }
    open.delete(node);
    if (size > limit) size = Number.POSITIVE_INFINITY;
    sizes.set(node, size);
    return size;
  };
  try {
    return sizeOf(schema);
  } catch {
    return Number.POSITIVE_INFINITY; // nested or chained deeper than the stack: no validator could check it either
  }
}
