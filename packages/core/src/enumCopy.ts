/**
 * The copy of a JSON Schema whose meta-schema check says what it would say of
 * the schema, in time linear in the schema: the resume's check
 * (`@aguikit/core/schema`) and the interrupt form check a schema with it, so
 * they take and refuse the same schemas.
 */

/** Keywords whose value is data, never a schema: what is under them is not looked into. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose value maps names to schemas: each of its values is a schema, whatever its name. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  'definitions',
  '$defs',
]);

/** Own keys ajv's comparison of two objects calls as methods: what JSON holds under one is no function, and it throws. */
const METHOD_KEYS = ['valueOf', 'toString'] as const;

/** Objects told apart by identity alone: each its own key. */
const identities = new WeakMap<object, string>();
let identified = 0;

/**
 * A value as a key that two values share when ajv's comparison (that of
 * `uniqueItems`) finds them equal: object keys in any order, 0 and -0 alike.
 * ajv's comparison reads an own `constructor` key as the object's class: one
 * holding an object (or array) makes its object equal to itself alone.
 * Undefined for what JSON cannot hold, what is nested past 64 levels, an own
 * `valueOf` or `toString` key (ajv's comparison calls it, and throws) and a
 * prototype other than the plain one: ajv compares those itself.
 */
function equalityKey(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value === 0 ? 0 : value) : undefined;
  if (typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = equalityKey(value[i], depth + 1);
      if (item === undefined) return undefined;
      items.push(item);
    }
    return `[${items.join(',')}]`;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const record = value as Record<string, unknown>;
  if (METHOD_KEYS.some((key) => Object.hasOwn(record, key))) return undefined;
  if (typeof record.constructor === 'object' && record.constructor !== null) {
    const own = identities.get(record) ?? `#${identified++}`;
    identities.set(record, own);
    return own;
  }
  const entries: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const inner = equalityKey(record[key], depth + 1);
    if (inner === undefined) return undefined;
    entries.push(`${JSON.stringify(key)}:${inner}`);
  }
  return `{${entries.join(',')}}`;
}

/**
 * An enum's values as its meta-schema may check them in linear time: the
 * first value alone where they are distinct, the first value given twice
 * and its repetition where one is, all of them where `equalityKey` leaves
 * one to ajv.
 */
function choicesToCheck(values: readonly unknown[]): readonly unknown[] {
  const first = new Map<string, unknown>();
  for (const value of values) {
    const key = equalityKey(value);
    if (key === undefined) return values;
    if (first.has(key)) return [first.get(key), value];
    first.set(key, value);
  }
  return values.slice(0, 1);
}

/**
 * `schema` as its meta-schema is to be checked against in linear time: a
 * copy whose meta-schema check says what it would say of `schema`. The
 * meta-schema of draft-07 asks for an enum's values to be unique, and ajv
 * checks that by comparing each value with every other: an enum of 100,000
 * values took ajv a minute and more, the page frozen meanwhile. Here each
 * enum's values are told apart in one pass, and the copy holds its first
 * value only, or the value it gives twice, twice: whether a repetition
 * matters is the meta-schema's to say (those of 2019-09 and 2020-12 allow
 * one, and none looks into a keyword it does not know). An enum with a
 * value `equalityKey` leaves to ajv is left as it is.
 *
 * @example
 * enumCopy({ enum: ['a', 'b'] }); // { enum: ['a'] }
 * enumCopy({ enum: [{ x: 1, y: 2 }, 'z', { y: 2, x: 1 }] }); // { enum: [{ x: 1, y: 2 }, { y: 2, x: 1 }] }
 */
export function enumCopy(schema: unknown): unknown {
  return withFirstChoices(schema, 0, false);
}

/** `enumCopy`'s walk: `map`, the value of a keyword mapping names to schemas. */
function withFirstChoices(schema: unknown, depth: number, map: boolean): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 128) return schema;
  if (Array.isArray(schema)) return schema.map((item) => withFirstChoices(item, depth + 1, false));
  const node = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  // Defined, not assigned: a key named `__proto__` stays a key.
  const put = (key: string, value: unknown) =>
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (map) put(key, withFirstChoices(value, depth + 1, false));
    else if (key === 'enum' && Array.isArray(value) && value.length > 1) put(key, choicesToCheck(value));
    else if (DATA_KEYWORDS.has(key)) put(key, value);
    else put(key, withFirstChoices(value, depth + 1, SCHEMA_MAPS.has(key)));
  }
  return copy;
}
