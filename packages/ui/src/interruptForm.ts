import type { RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import type { LocaleFormat } from './locale.js';
import type { en } from './locales/interrupt.js';

/** The strings of the interrupt area. */
export type InterruptMessages = typeof en;

/**
 * The `data-reason` of `Interrupt.Root`: the reasons aguikit words on its
 * own; any other reason, namespaced or not, is `custom` and gets the generic
 * form with its metadata shown.
 *
 * @example
 * .agk-interrupt[data-reason="custom"] { border-left-color: var(--agk-info); }
 */
export type InterruptReasonKind = 'tool_call' | 'input_required' | 'confirmation' | 'custom';

/**
 * How an interrupt is answered: `confirm` (no responseSchema: Confirm sends
 * `resolved` without a payload), `approval` (the schema has a boolean
 * `approved`: Approve / Reject submit the form with it set), or `form`
 * (any other schema: Submit). It is `Interrupt.Root`'s `data-shape`.
 *
 * @example
 * .agk-interrupt[data-shape="approval"] .agk-interrupt__buttons { justify-content: flex-end; }
 */
export type AnswerShape = 'confirm' | 'approval' | 'form';

const KNOWN_REASONS: ReadonlySet<string> = new Set(['tool_call', 'input_required', 'confirmation']);

/**
 * The kind of an interrupt's open-string `reason`, for `data-reason`.
 *
 * @example
 * reasonKind('risk:manual_review'); // 'custom'
 */
export function reasonKind(reason: string): InterruptReasonKind {
  return KNOWN_REASONS.has(reason) ? (reason as InterruptReasonKind) : 'custom';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function allowsType(schema: unknown, type: string): boolean {
  if (!isRecord(schema)) return false;
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/**
 * Which answer controls an interrupt gets, from its `responseSchema`.
 *
 * @example
 * answerShape({ type: 'object', properties: { approved: { type: 'boolean' } } }); // 'approval'
 */
export function answerShape(schema: Readonly<Record<string, unknown>> | undefined): AnswerShape {
  if (schema === undefined) return 'confirm';
  return isRecord(schema.properties) && allowsType(schema.properties.approved, 'boolean') ? 'approval' : 'form';
}

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
 * as of the wrong type. The field starts empty instead.
 */
function withFittingDefaults(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > 64) return schema;
  const copy: Record<string, unknown> = { ...schema };
  if ('default' in copy && !fits(copy.default, copy)) delete copy.default;
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
 * Whether a form can hold the answers `schema` asks for: a property named
 * `__proto__` cannot be a field of one (an object's `__proto__` is its
 * prototype, so the field would be dropped, and a `required` check of it
 * would pass on the inherited member), a form draws every entry an
 * array's `minItems` asks for as it opens (200,000 would hold the page for
 * as long as that takes), and a key required but never defined gets no
 * field (`givesRequired`). Such an interrupt can only be closed.
 */
export function formCanHold(schema: unknown): boolean {
  return drawable(schema, 0, 1) && (!isRecord(schema) || givesRequired(schema, definedKeys(schema, 0), 0));
}

/** `formCanHold`'s `__proto__` and `minItems` checks. `entries`: what the arrays around `schema` draw. */
function drawable(schema: unknown, depth: number, entries: number): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  if (depth > 64) return false;
  if (Array.isArray(schema)) return schema.every((item) => drawable(item, depth + 1, entries));
  const node = schema as Record<string, unknown>;
  // A field named `__proto__`, or one required: an enum value or an example that reads "__proto__" is only text.
  if (isRecord(node.properties) && Object.hasOwn(node.properties, '__proto__')) return false;
  if (Array.isArray(node.required) && node.required.includes('__proto__')) return false;
  const drawn = typeof node.minItems === 'number' && node.minItems > 1 ? entries * node.minItems : entries;
  if (drawn > FORM_ENTRIES_LIMIT) return false;
  return Object.keys(node).every((key) => drawable(node[key], depth + 1, drawn));
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

/** Free-text fields people write a sentence in, typically on a reject. */
const PROSE = /^(comment|comments|reason|note|notes|explanation|justification|feedback|message)$/i;

/**
 * The label of each option of an enumeration, where a value's plain text
 * would not tell it apart: an object or array value reads as JSON (not
 * "[object Object]"), and values that would read alike (`1` and `"1"`,
 * `null` and `"null"`) are each written as JSON. Undefined when every value's
 * plain text is its label.
 */
function choiceNames(values: readonly unknown[]): string[] | undefined {
  const texts = values.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)));
  // One pass, counted: an agent's enumeration may hold 100,000 values.
  const seen = new Set<string>();
  const alike = new Set<string>();
  for (const text of texts) (seen.has(text) ? alike : seen).add(text);
  const names = texts.map((text, i) => (alike.has(text) ? JSON.stringify(values[i]) : text));
  return names.every((name, i) => name === String(values[i])) ? undefined : names;
}

/** The uiSchema of an enumeration: a "Choose…" prompt, and the labels of `choiceNames`. */
function choiceUi(values: readonly unknown[], choose: string): UiSchema {
  const names = choiceNames(values);
  return names ? { 'ui:placeholder': choose, 'ui:enumNames': names } : { 'ui:placeholder': choose };
}

/** A chosen value as its option read, where `choiceNames` labelled it; undefined otherwise. */
function choiceName(value: unknown, schema: unknown): string | undefined {
  if (!isRecord(schema) || !Array.isArray(schema.enum)) return undefined;
  const names = choiceNames(schema.enum);
  if (!names) return undefined;
  const json = JSON.stringify(value);
  const at = schema.enum.findIndex((v) => JSON.stringify(v) === json);
  return at >= 0 ? names[at] : undefined;
}

/**
 * The uiSchema of an interrupt form: no submit button of rjsf's own (the
 * Actions part owns the buttons), `approved` hidden for an approval (the
 * Approve / Reject buttons set it), a "Choose…" prompt for enumerations, and
 * a text area for prose fields. Markdown stays off: schema text is the
 * agent's, and is shown as text only.
 */
export function formUiSchema(schema: Readonly<Record<string, unknown>>, shape: AnswerShape, choose = 'Choose…'): UiSchema {
  const ui: UiSchema = {
    'ui:globalOptions': { enableMarkdownInDescription: false, enableMarkdownInHelp: false },
    'ui:submitButtonOptions': { norender: true },
  };
  if (Array.isArray(schema.enum)) Object.assign(ui, choiceUi(schema.enum, choose));
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    if (shape === 'approval' && name === 'approved') ui[name] = { 'ui:widget': 'hidden' };
    else if (Array.isArray(property.enum)) ui[name] = choiceUi(property.enum, choose);
    else if (allowsType(property, 'string') && property.format === undefined && PROSE.test(name)) {
      ui[name] = { 'ui:widget': 'textarea', 'ui:options': { rows: 3 } };
    }
  }
  return ui;
}

/**
 * About how many lines of text the form of `schema` is tall (a label and an
 * input per field, more for a text area), for the placeholder that holds its
 * place while the form code loads.
 *
 * @example
 * formLines({ type: 'object', properties: { approved: { type: 'boolean' }, comment: { type: 'string' } } }, 'approval'); // 6: approved is the buttons', comment a text area
 */
export function formLines(schema: Readonly<Record<string, unknown>>, shape: AnswerShape): number {
  const ui = formUiSchema(schema, shape);
  const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  if (properties.length === 0) return 3;
  let lines = 0;
  for (const name of properties) {
    const field: unknown = ui[name];
    const widget = isRecord(field) ? field['ui:widget'] : undefined;
    if (widget === 'hidden') continue;
    lines += widget === 'textarea' ? 6 : 3;
  }
  return Math.max(lines, 1);
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

/**
 * A metadata key or property name as a label: `riskScore` and `risk_score`
 * read "Risk score". An acronym inside a key keeps its capitals (`orderID`,
 * `SLAMinutes`, `SKU`: "Order ID", "SLA minutes", "SKU"); words all in
 * capitals (`MAX_AMOUNT`) are a constant's name and read as words ("Max
 * amount").
 *
 * @example
 * humanizeKey('SLAMinutes'); // 'SLA minutes'
 */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    // An acronym meets the next word where a capital starts a lowercase run, but not its plural's "s" (`IDs`, `URLs`).
    .replace(/([A-Z])(?=[A-Z](?!s(?:[^a-z]|$))[a-z])/g, '$1 ')
    .split(/[\s_-]+/)
    .filter(Boolean);
  if (words.length === 0) return key;
  const lettered = words.filter((w) => /\p{L}/u.test(w));
  const shouting = lettered.length > 1 && lettered.every((w) => w === w.toUpperCase());
  const said = words.map((w) => (!shouting && isAcronym(w) ? w : w.toLowerCase())).join(' ');
  return (said[0] ?? '').toUpperCase() + said.slice(1);
}

/** Two or more characters in capitals (one a letter), and maybe a plural's "s": `ID`, `SLA`, `IDs`, `URLs`. */
function isAcronym(word: string): boolean {
  const stem = word.length > 2 && word.endsWith('s') ? word.slice(0, -1) : word;
  return stem.length > 1 && stem === stem.toUpperCase() && stem !== stem.toLowerCase();
}

/** How values are said: numbers and lists through `Intl`, booleans as words. */
export interface ValueWords {
  yes: string;
  no: string;
  number(value: number): string;
  list(items: readonly string[]): string;
}

/** The words an answer is said in: numbers and lists through the locale's `Intl`. */
export function valueWords(t: InterruptMessages, format: LocaleFormat): ValueWords {
  return { yes: t.yes, no: t.no, number: format.number, list: format.list };
}

/** A scalar or a list of scalars as words; undefined for anything that needs more structure (objects, nested lists). */
export function plainValue(value: unknown, words: ValueWords): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return words.number(value);
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (value === null) return '—';
  if (Array.isArray(value) && value.every((v) => !Array.isArray(v) && !isRecord(v))) {
    return words.list(value.map((v) => plainValue(v, words) ?? String(v)));
  }
  return undefined;
}

/**
 * The answer of a form, in words: each given field as "Label: value" (the
 * schema's title, or the property name made readable), in a list. A value
 * that is not an object is said as it is.
 *
 * @example
 * formAnswerText({ reason: 'other' }, schema, words, t); // 'Reason: other'
 */
export function formAnswerText(
  payload: unknown,
  schema: Readonly<Record<string, unknown>> | undefined,
  words: ValueWords,
  t: InterruptMessages['answer'],
): string {
  if (!isRecord(payload)) return choiceName(payload, schema) ?? plainValue(payload, words) ?? JSON.stringify(payload) ?? t.empty;
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  const parts: string[] = [];
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined || value === '') continue;
    const property = properties[name];
    const title = isRecord(property) && typeof property.title === 'string' && property.title ? property.title : humanizeKey(name);
    parts.push(t.field(title, choiceName(value, property) ?? plainValue(value, words) ?? JSON.stringify(value)));
  }
  return parts.length > 0 ? words.list(parts) : t.empty;
}
