import type { UiSchema } from '@rjsf/utils';
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function allowsType(schema: unknown, type: string): boolean {
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
