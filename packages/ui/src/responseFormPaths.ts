'use client';

import { ErrorSchemaBuilder, type RJSFValidationError, toPath, type ValidatorType } from '@rjsf/utils';

/**
 * How the interrupt form addresses its fields. rjsf makes a field's id and
 * an error's `property` of the keys on its path, joined with "_" and "."
 * (`.contact.email`): a key the agent wrote with a "." reads as two keys
 * there, and an id with a space cannot be named by `aria-describedby` (a
 * list of ids separated by spaces).
 */

/**
 * `id` as an element the form renders to describe a field is given it, and
 * as `aria-describedby` names it: white space and "%" written as in a URL
 * (`Full name` -> `Full%20name`), so that it holds no space, and no two ids
 * become one.
 */
export function describableId(id: string): string {
  return id.replace(/[%\s]/gu, (c) => encodeURIComponent(c));
}

/** The exact path (keys and indexes) of each error a wrapped validator reported. */
const paths = new WeakMap<RJSFValidationError, readonly string[]>();

/** The keys and indexes on the path to the field `error` belongs to: `['contact.email']` where its `property` says `.contact.email`. */
export function errorPath(error: RJSFValidationError): readonly string[] {
  return paths.get(error) ?? toPath(error.property ?? '');
}

/** A key as ajv writes it into an instance path (a JSON Pointer, RFC 6901). */
const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The keys and indexes of `data` that `parts` (an instance path whose "/" were
 * made ".") lead through: where several of them, joined by ".", are one key
 * of `data`, that key. `undefined` when they lead nowhere in `data`.
 */
function dataPath(data: unknown, parts: readonly string[]): string[] | undefined {
  if (parts.length === 0) return [];
  if (typeof data !== 'object' || data === null) return undefined;
  if (Array.isArray(data)) {
    const [index = '', ...rest] = parts;
    const tail = /^\d+$/.test(index) ? dataPath(data[Number(index)], rest) : undefined;
    return tail && [index, ...tail];
  }
  const keys = new Map(Object.keys(data).map((key) => [pointerKey(key), key]));
  // The longest key first: `a.b` is the key "a.b" before it is "a" holding "b".
  for (let n = parts.length; n > 0; n--) {
    const key = keys.get(parts.slice(0, n).join('.'));
    if (key === undefined) continue;
    const tail = dataPath((data as Record<string, unknown>)[key], parts.slice(n));
    if (tail) return [key, ...tail];
  }
  return undefined;
}

/** Where in `formData` the field of `error` is: its `property` read against the keys the data has, a missing property's own name as ajv gave it. */
function exactPath(error: RJSFValidationError, formData: unknown): string[] | undefined {
  const property = error.property ?? '';
  const missing = (error.params as { missingProperty?: unknown } | undefined)?.missingProperty;
  const named = typeof missing === 'string';
  // rjsf appends a missing property to its object's path with a ".", or gives it alone at the top.
  const at = !named ? property : property === missing ? '' : property.slice(0, -(missing.length + 1));
  const parts = at === '' ? [] : at.replace(/^\./, '').split('.');
  const path = dataPath(formData, parts);
  return path && named ? [...path, missing] : path;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * `validator`, its errors addressed by their exact paths: the error schema
 * that puts each error under its field is made again from them where a key
 * holds a "." (or "[", "]"), and `errorPath` gives each error's path.
 */
export function withExactPaths<V extends ValidatorType>(validator: V): V {
  const validate = validator.validateFormData.bind(validator);
  validator.validateFormData = (formData, schema, customValidate, transformErrors, uiSchema) => {
    const result = validate(formData, schema, customValidate, transformErrors, uiSchema);
    let exact = true;
    for (const error of result.errors) {
      const path = exactPath(error, formData);
      if (!path) continue;
      paths.set(error, path);
      if (!samePath(path, toPath(error.property ?? ''))) exact = false;
    }
    if (exact) return result;
    const { $schema } = result.errorSchema as { $schema?: unknown };
    const builder = new ErrorSchemaBuilder($schema === undefined ? undefined : ({ $schema } as typeof result.errorSchema));
    for (const error of result.errors) if (error.message) builder.addErrors(error.message, [...errorPath(error)]);
    return { ...result, errorSchema: builder.ErrorSchema };
  };
  return validator;
}
