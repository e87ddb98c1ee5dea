/**
 * What only the interrupt form needs, loaded with it rather than with the
 * page: the schema it draws, whether it can draw one, and its error messages.
 */
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { allowsType, type InterruptMessages, isRecord } from './interruptForm.js';

/**
 * The schema handed to the form. A field without a title is labelled by its
 * property name, but a schema that is a single value (not an object) has no
 * name: without a title its input would have no label at all.
 */
export function formSchema(schema: Readonly<Record<string, unknown>>, untitled = 'Your answer'): RJSFSchema {
  const titled = typeof schema.title === 'string' && schema.title !== '';
  const fitted = withFittingDefaults(schema, 0) as Record<string, unknown>;
  return allowsType(schema, 'object') || isRecord(schema.properties) || titled ? fitted : { ...fitted, title: untitled };
}

/** Keywords whose value is a schema, a list of schemas, or a map of them: defaults inside are looked at too. */
const SUBSCHEMAS = ['items', 'additionalItems', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'] as const;

/**
 * A copy of `schema` without the defaults its own node refuses (by `type`,
 * `enum` or `const`): the form would start holding a value its field cannot
 * show (text in a number input reads empty) and that a submit then refuses
 * as of the wrong type. The field starts empty instead. So does a field
 * whose default holds more list entries or keys than a form draws as it
 * opens (`FORM_ENTRIES_LIMIT`): a default of 20,000 tags held the page for a minute.
 */
function withFittingDefaults(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > 64) return schema;
  const copy: Record<string, unknown> = { ...schema };
  if ('default' in copy && (entriesIn(copy.default, 0, 0) > FORM_ENTRIES_LIMIT || !fits(copy.default, copy))) delete copy.default;
  for (const key of SUBSCHEMAS) if (key in copy) copy[key] = withFittingDefaults(copy[key], depth + 1);
  for (const key of SCHEMA_LISTS) {
    const list = copy[key];
    if (Array.isArray(list)) copy[key] = list.map((member) => withFittingDefaults(member, depth + 1));
  }
  // An array `items` (draft-07 tuples) is a list of schemas too.
  if (Array.isArray(copy.items)) copy.items = copy.items.map((member) => withFittingDefaults(member, depth + 1));
  for (const key of SCHEMA_MAPS) {
    const map = copy[key];
    if (!isRecord(map)) continue;
    const fitted: Record<string, unknown> = {};
    for (const name of Object.keys(map))
      Object.defineProperty(fitted, name, {
        value: withFittingDefaults(map[name], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    copy[key] = fitted;
  }
  return copy;
}

/**
 * Whether `value` is of a JSON type `node` allows, one of its `enum` and its `const` (where it has them), and so
 * are its items and fields by the `items` and `properties` of `node`.
 */
function fits(value: unknown, node: unknown, depth = 0): boolean {
  if (!isRecord(node) || depth > 64) return true;
  const types = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  if (types && !types.some((type) => typeof type === 'string' && ofType(value, type))) return false;
  if (Array.isArray(node.enum) || 'const' in node) {
    const json = JSON.stringify(value);
    if (Array.isArray(node.enum) && !node.enum.some((option) => JSON.stringify(option) === json)) return false;
    if ('const' in node && JSON.stringify(node.const) !== json) return false;
  }
  if (Array.isArray(value) && isRecord(node.items)) return value.every((item) => fits(item, node.items, depth + 1));
  if (isRecord(value) && isRecord(node.properties)) {
    const properties = node.properties;
    return Object.keys(value).every((key) => !Object.hasOwn(properties, key) || fits(value[key], properties[key], depth + 1));
  }
  return true;
}

/**
 * How many entries the form draws for `value` (`counted` so far): those of
 * every list in it, nested ones too, and the keys of its objects (a field
 * each where the schema takes keys of any name). Past FORM_ENTRIES_LIMIT,
 * or nested deeper than a form is drawn, it stops: more than the limit.
 */
function entriesIn(value: unknown, counted: number, depth: number): number {
  if (typeof value !== 'object' || value === null || counted > FORM_ENTRIES_LIMIT) return counted;
  if (depth > 64) return Number.POSITIVE_INFINITY;
  let n = counted + (Array.isArray(value) ? value.length : Object.keys(value).length);
  for (const member of Array.isArray(value) ? value : Object.values(value)) {
    if (n > FORM_ENTRIES_LIMIT) break;
    n = entriesIn(member, n, depth + 1);
  }
  return n;
}

function ofType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    default:
      return true;
  }
}

/** The most entries of arrays a form draws as it opens (what `minItems` asks for, nested lists multiplied). */
export const FORM_ENTRIES_LIMIT = 500;

/**
 * Why a form cannot hold the answers `schema` asks for, or undefined where it
 * can: a property named `__proto__` cannot be a field of one (an object's
 * `__proto__` is its prototype, so the field would be dropped, and a
 * `required` check of it would pass on the inherited member), a form draws
 * every entry an array's `minItems` asks for as it opens (200,000 would hold
 * the page for as long as that takes), it weighs every combination of the
 * options of an `allOf`'s members at each keystroke (`Options`, their
 * references followed), and a key required but never defined gets no field
 * (`givesRequired`). Such an interrupt can only be closed. `reason` is for
 * the person (in the locale's words), `detail` for a developer (English,
 * where in the schema).
 */
export function formRefusal(schema: unknown): FormRefusal | undefined {
  const refused = drawable(schema, 0, 1, new Options(schema), []);
  if (refused) return refused;
  if (isRecord(schema) && !givesRequired(schema, definedKeys(schema, 0), 0))
    return { reason: 'required', detail: 'a key listed in `required` is defined by no `properties` of its object' };
  return undefined;
}

/** Why `formRefusal` refused a schema: `reason` in the locale's words (`InterruptMessages['formWhy']`), `detail` in English. */
export interface FormRefusal {
  reason: 'proto' | 'entries' | 'combinations' | 'required' | 'deep';
  detail: string;
}

/** Whether a form can hold the answers `schema` asks for: see `formRefusal`. */
export function formCanHold(schema: unknown): boolean {
  return formRefusal(schema) === undefined;
}

/** A JSON Pointer to the node at `path` (its keys and list indexes). */
const pointer = (path: readonly string[]): string => `/${path.map((key) => key.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * `formRefusal`'s `__proto__`, `minItems` and `allOf` options checks. `entries`: what the arrays around `schema`
 * draw; `path`: where `schema` is in the schema checked (its keys, pushed and popped on the way down).
 */
function drawable(schema: unknown, depth: number, entries: number, options: Options, path: string[]): FormRefusal | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (depth > 64) return { reason: 'deep', detail: `nested deeper than 64 levels at ${pointer(path)}` };
  const node = schema as Record<string, unknown>;
  if (!Array.isArray(schema)) {
    // A field named `__proto__`, or one required: an enum value or an example that reads "__proto__" is only text.
    if (
      (isRecord(node.properties) && Object.hasOwn(node.properties, '__proto__')) ||
      (Array.isArray(node.required) && node.required.includes('__proto__'))
    )
      return { reason: 'proto', detail: `a field named "__proto__" at ${pointer(path)}` };
  }
  const drawn = !Array.isArray(schema) && typeof node.minItems === 'number' && node.minItems > 1 ? entries * node.minItems : entries;
  if (drawn > FORM_ENTRIES_LIMIT)
    return {
      reason: 'entries',
      detail: `minItems at ${pointer(path)} makes the form draw ${drawn} entries as it opens; FORM_ENTRIES_LIMIT is ${FORM_ENTRIES_LIMIT}`,
    };
  if (!Array.isArray(schema)) {
    const merged = options.merged(node);
    // Endless: a member that refers back to itself (or $refs nested past 64 levels), merged without end, whatever its options.
    if (merged === Number.POSITIVE_INFINITY)
      return { reason: 'deep', detail: `the allOf at ${pointer(path)} refers back to itself through $ref, or nests past 64 levels` };
    if (merged > FORM_COMBINATIONS_LIMIT)
      return {
        reason: 'combinations',
        detail: `the allOf at ${pointer(path)} combines ${merged} oneOf/anyOf options; FORM_COMBINATIONS_LIMIT is ${FORM_COMBINATIONS_LIMIT}`,
      };
  }
  for (const key of Object.keys(node)) {
    path.push(key);
    const refused = drawable(node[key], depth + 1, drawn, options, path);
    path.pop();
    if (refused) return refused;
  }
  return undefined;
}

/**
 * The most combinations of `oneOf` / `anyOf` options an object may have
 * once its `allOf` is merged: the form weighs each of them against the
 * answer at every keystroke (2^6 took 90 ms, 2^8 1.3 s, 2^12 held the page).
 */
export const FORM_COMBINATIONS_LIMIT = 64;

const optionCount = (list: unknown) => (Array.isArray(list) && list.length > 0 ? list.length : 1);

/** The `oneOf` / `anyOf` options of the nodes of one schema (`root`), each node counted once. */
class Options {
  readonly #counted = new Map<object, number>();
  constructor(readonly root: unknown) {}

  /**
   * How many `oneOf` / `anyOf` options `node` has once its `allOf` is merged
   * into it: rjsf's merge combines each option of a member with every option
   * of every other. A single list of options is not combined with anything,
   * and counts as one: the form weighs those as it would without the `allOf`.
   */
  merged(node: Record<string, unknown>): number {
    if (!Array.isArray(node.allOf)) return 1;
    const factors = [optionCount(node.oneOf), optionCount(node.anyOf), ...node.allOf.map((member) => this.of(member, 1))];
    const combined = factors.filter((n) => n > 1);
    return combined.length < 2 ? 1 : combined.reduce((a, b) => a * b, 1);
  }

  /**
   * The options of `node` with those of its `allOf` members and of the
   * schema its `$ref` points to in `root` (rjsf resolves it before merging)
   * combined; past the limit, nested past 64 or referring back to itself,
   * more than it. Each node is weighed once: members that refer to the same
   * schema cost no more than one.
   */
  of(node: unknown, depth: number): number {
    if (!isRecord(node)) return 1;
    const known = this.#counted.get(node);
    if (known !== undefined) return known;
    if (depth > 64) return Number.POSITIVE_INFINITY;
    this.#counted.set(node, Number.POSITIVE_INFINITY);
    let n = optionCount(node.oneOf) * optionCount(node.anyOf);
    if (typeof node.$ref === 'string') n *= this.of(pointedTo(this.root, node.$ref), depth + 1);
    if (Array.isArray(node.allOf))
      for (const member of node.allOf) {
        if (n > FORM_COMBINATIONS_LIMIT) break;
        n *= this.of(member, depth + 1);
      }
    this.#counted.set(node, n);
    return n;
  }
}

/** The schema a `$ref` within `root` names (`#/$defs/Choice`); undefined for any other reference. */
function pointedTo(root: unknown, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let node = root;
  for (const part of ref.split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Keywords whose value is data, never a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords that apply a schema to the value inside the one checked (a field, an item, a key): each takes a step into the value. */
const INNER_SCHEMAS = [
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const INNER_MAPS = ['properties', 'patternProperties'];
/** Keywords whose value names schemas: a name there (a field called `default`) is no keyword. */
const NAMED_SCHEMAS = new Set([...INNER_MAPS, '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** References that draft-07 (a schema without a `$schema` of 2019-09 or 2020-12) has not: ajv ignores them there. */
const DYNAMIC_REFS = ['$recursiveRef', '$dynamicRef'];
/** The base URI of a schema without an `$id`: any URI, for its `$ref`s to be read against. */
const DOCUMENT = 'https://aguikit.invalid/response.json';

const uri = (ref: string, base: string): URL | undefined => {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
};

/**
 * The schemas `node` applies to the very value it checks (not to a value inside it):
 * `allOf`, `anyOf`, `oneOf`, `not`, dependencies, and `if` / `then` / `else` where they are a condition (ajv
 * ignores an `if` alone, and a `then` or `else` without one).
 */
function appliedInPlace(node: Record<string, unknown>, draft07: boolean): unknown[] {
  const applied: unknown[] = [];
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[key])) applied.push(...(node[key] as unknown[]));
  applied.push(node.not);
  if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) applied.push(node.if, node.then, node.else);
  for (const key of draft07 ? ['dependencies'] : ['dependentSchemas', 'dependencies'])
    if (isRecord(node[key])) applied.push(...Object.values(node[key]));
  return applied;
}

/**
 * Where `schema` applies itself again to the very value it is checking, without end (a JSON Pointer to the
 * subschema whose `$ref` leads back), or undefined where it never does: `if: { $ref: '#' }` with a `then`, a
 * `not`, `allOf` or dependency that names the schema it is in, directly or through definitions. Checking any answer
 * against such a schema runs out of stack (ajv's and the resume's check alike), so no answer can ever be sent. A
 * `$ref` back to the schema for a value inside the answer (a tree's `items: { $ref: '#' }`) ends with the answer,
 * and is not one. References are read as ajv reads them: against the `$id` of the resource they are in, to a
 * JSON Pointer, an `$id` or an anchor; one that names nothing here leads nowhere. `dependentSchemas`,
 * `$recursiveRef` and `$dynamicRef` count in 2019-09 and 2020-12 only (ajv's draft-07 ignores them), and the
 * last two, where no dynamic anchor answers their fragment, lead back to the whole schema as well.
 */
export function endlessAt(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const places = new Map<object, { path: string; base: string }>();
  // ajv's draft, as `validatorFor` picks it.
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  const draft07 = !draft.includes('2020-12') && !draft.includes('2019-09');
  // The dynamic anchors declared (`$recursiveAnchor: true` declares the one `$recursiveRef` names, "").
  const dynamicAnchors = new Set<string>();
  // The maps of names to schemas met (`properties`): their keys are names, not keywords.
  const names = new Set<object>();
  const escaped = (key: string) => (/[~/]/.test(key) ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key);
  const targets = new Map<string, Record<string, unknown>>([[DOCUMENT, schema]]);
  // Every schema object of the document: where it is, and the URI its references are read against.
  const index = (value: unknown, path: string, base: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        index(item, `${path}/${i}`, base);
      });
      return;
    }
    if (!isRecord(value) || places.has(value)) return;
    if (names.has(value)) {
      for (const key of Object.keys(value)) index(value[key], `${path}/${escaped(key)}`, base);
      return;
    }
    let own = base;
    const id = value.$id;
    const url = typeof id === 'string' ? uri(id, base) : undefined;
    if (url && typeof id === 'string') {
      // Draft 7 names an anchor with an `$id` of a fragment alone; later drafts with `$anchor`.
      if (id.startsWith('#')) targets.set(url.href, value);
      else {
        url.hash = '';
        own = url.href;
        targets.set(own, value);
      }
    }
    places.set(value, { path, base: own });
    for (const anchor of [value.$anchor, value.$dynamicAnchor]) if (typeof anchor === 'string') targets.set(`${own}#${anchor}`, value);
    if (typeof value.$dynamicAnchor === 'string') dynamicAnchors.add(value.$dynamicAnchor);
    if (value.$recursiveAnchor === true) dynamicAnchors.add('');
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (DATA_KEYWORDS.has(key)) continue;
      if (NAMED_SCHEMAS.has(key) && isRecord(member)) names.add(member);
      index(member, `${path}/${escaped(key)}`, own);
    }
  };
  index(schema, '', DOCUMENT);
  // Many fields name the same few definitions: each reference is read once.
  const read = new Map<string, Record<string, unknown> | undefined>();
  const starts: unknown[] = [schema];
  const named = (ref: unknown, base: string): Record<string, unknown> | undefined => {
    if (typeof ref !== 'string') return undefined;
    const key = `${base} ${ref}`;
    if (read.has(key)) return read.get(key);
    const url = uri(ref, base);
    let at: unknown = url && targets.get(url.href);
    if (url && at === undefined) {
      const fragment = url.hash;
      url.hash = '';
      at = pointedTo(targets.get(url.href), fragment === '' ? '#' : fragment);
    }
    const found = isRecord(at) ? at : undefined;
    read.set(key, found);
    return found;
  };
  /** The schemas checked against the same value as `node`: those it applies in place, and those its references name. */
  const sameValue = (node: Record<string, unknown>): Record<string, unknown>[] => {
    const base = places.get(node)?.base ?? DOCUMENT;
    const next = appliedInPlace(node, draft07);
    if (node.$ref !== undefined) next.push(named(node.$ref, base));
    if (!draft07)
      for (const key of DYNAMIC_REFS) {
        const ref = node[key];
        if (ref === undefined) continue;
        next.push(named(ref, base));
        // ajv goes to a dynamic anchor of the name after the "#", and where none is declared, checks the value
        // against the schema it is compiling again: the whole schema (or the one a `$ref` led into, itself on the way).
        if (typeof ref === 'string' && ref.startsWith('#') && !dynamicAnchors.has(ref.slice(1))) next.push(schema);
      }
    return next.filter(isRecord);
  };
  /** Adds the schemas `node` checks the values inside its own against to `starts`. */
  const addInner = (node: Record<string, unknown>): void => {
    for (const key of INNER_SCHEMAS) {
      const value = node[key];
      if (Array.isArray(value)) for (const member of value) starts.push(member);
      else if (value !== undefined) starts.push(value);
    }
    for (const key of INNER_MAPS) {
      const map = node[key];
      if (isRecord(map)) for (const name in map) if (Object.hasOwn(map, name)) starts.push(map[name]);
    }
  };
  // Depth first along the schemas that check the same value, without the stack (a chain of references may be long):
  // a schema met again while it is still being followed is one the check never leaves.
  const state = new Map<object, 'open' | 'done'>();
  while (starts.length > 0) {
    const start = starts.pop();
    if (!isRecord(start) || state.has(start)) continue;
    const stack: { node: Record<string, unknown>; next: Record<string, unknown>[] }[] = [];
    const enter = (node: Record<string, unknown>) => {
      state.set(node, 'open');
      stack.push({ node, next: sameValue(node) });
      addInner(node);
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const next = top.next.pop();
      if (next === undefined) {
        state.set(top.node, 'done');
        stack.pop();
      } else if (state.get(next) === 'open') return places.get(top.node)?.path ?? '';
      else if (!state.has(next)) enter(next);
    }
  }
  return undefined;
}

/**
 * Keywords under which a schema may give an object fields that its
 * `properties` do not list: a reference (its target is not looked into),
 * conditions and dependencies (rjsf draws the fields of the branch the data
 * meets), and the keywords that let an object hold keys of any name.
 */
const OPEN_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'if',
  'then',
  'else',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
] as const;

/**
 * The keys an answer to the object `node` can hold: those of its
 * `properties` and of its `allOf`, `oneOf` and `anyOf` members' (the form
 * draws the chosen option's fields). `undefined` where it may hold others
 * too (`OPEN_KEYWORDS`, `additionalProperties` other than `false`): the
 * check that uses it is only sure of a key defined nowhere.
 */
function definedKeys(node: Record<string, unknown>, depth: number): Set<string> | undefined {
  if (depth > 64 || OPEN_KEYWORDS.some((keyword) => node[keyword] !== undefined && node[keyword] !== false)) return undefined;
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) return undefined;
  const keys = new Set(isRecord(node.properties) ? Object.keys(node.properties) : []);
  for (const member of [node.allOf, node.oneOf, node.anyOf].flatMap((list) => (Array.isArray(list) ? list : []))) {
    if (!isRecord(member)) continue;
    const more = definedKeys(member, depth + 1);
    if (!more) return undefined;
    for (const key of more) keys.add(key);
  }
  return keys;
}

/**
 * Whether each key `schema` requires can be given. A key defined nowhere
 * (`definedKeys`) gets no field, so every answer would be refused: the
 * question can only be closed, which is better said as it opens than after
 * a submit naming a field nobody can see. The check is only sure of a key no
 * field can ever hold: one option of a `oneOf` / `anyOf` that can be met is
 * enough, an object with a condition, a dependency or a `$ref` may define
 * any key, what conditions require is left out, and definitions (`$defs`,
 * `definitions`) are not judged on their own: one may be a mixin that only
 * adds `required` to the object it is used in, or be used nowhere. `keys`:
 * what the object `schema` belongs to defines (`undefined`: any key).
 */
function givesRequired(schema: unknown, keys: ReadonlySet<string> | undefined, depth: number): boolean {
  if (!isRecord(schema)) return true;
  if (depth > 64) return false;
  const required = Array.isArray(schema.required) && (schema.type === undefined || allowsType(schema, 'object')) ? schema.required : [];
  if (keys && required.some((key) => typeof key === 'string' && !keys.has(key))) return false;
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const met = (member: unknown) => givesRequired(member, keys, depth + 1);
  if (!list(schema.allOf).every(met)) return false;
  if ([schema.oneOf, schema.anyOf].some((options) => list(options).length > 0 && !list(options).some(met))) return false;
  // The schemas of the values inside (fields, items): each an object of its own.
  const inner = [schema.items, schema.prefixItems, schema.additionalProperties].flatMap((v) => (Array.isArray(v) ? v : [v]));
  if (isRecord(schema.properties)) inner.push(...Object.values(schema.properties));
  return inner.every((value) => !isRecord(value) || givesRequired(value, definedKeys(value, depth + 1), depth + 1));
}

/**
 * ajv's messages in the locale's words: a missing property is "This field is
 * required." (ajv names the property again, next to the field that already
 * says it), limits and formats are said plainly; anything else keeps ajv's
 * own message.
 */
export function transformErrors(errors: RJSFValidationError[], t: InterruptMessages['errors']): RJSFValidationError[] {
  return errors.map((e) => {
    const limit = String((e.params as { limit?: unknown } | undefined)?.limit ?? '');
    switch (e.name) {
      case 'required':
        return { ...e, message: t.required };
      case 'minimum':
      case 'exclusiveMinimum':
        return { ...e, message: t.minimum(limit) };
      case 'maximum':
      case 'exclusiveMaximum':
        return { ...e, message: t.maximum(limit) };
      case 'minLength':
        return { ...e, message: t.minLength(limit) };
      case 'maxLength':
        return { ...e, message: t.maxLength(limit) };
      case 'enum':
        return { ...e, message: t.enum };
      case 'type':
        return { ...e, message: t.type };
      case 'format':
        return { ...e, message: t.format };
      case 'pattern':
        return { ...e, message: t.pattern };
      case 'minProperties':
        return { ...e, message: t.minProperties(limit) };
      case 'maxProperties':
        return { ...e, message: t.maxProperties(limit) };
      case 'minItems':
        return { ...e, message: t.minItems(limit) };
      case 'maxItems':
        return { ...e, message: t.maxItems(limit) };
      case 'uniqueItems':
        return { ...e, message: t.uniqueItems };
      case 'multipleOf':
        return { ...e, message: t.multipleOf(String((e.params as { multipleOf?: unknown } | undefined)?.multipleOf ?? '')) };
      case 'const':
        return { ...e, message: t.const };
      case 'additionalProperties':
        return { ...e, message: t.additionalProperties };
      case 'oneOf':
      case 'anyOf':
        return { ...e, message: t.oneOf };
      default:
        // ajv's own words are English: a locale that has no words of its own for the check says so generally.
        return { ...e, message: t.invalid(e.message ?? '') };
    }
  });
}
