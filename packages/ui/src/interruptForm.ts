import type { RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';

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

export const REASON_TITLES: Record<InterruptReasonKind, string> = {
  tool_call: 'Approval needed',
  input_required: 'Input needed',
  confirmation: 'Confirmation needed',
  custom: 'Action needed',
};

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
export function formSchema(schema: Readonly<Record<string, unknown>>): RJSFSchema {
  const titled = typeof schema.title === 'string' && schema.title !== '';
  return allowsType(schema, 'object') || isRecord(schema.properties) || titled ? { ...schema } : { ...schema, title: 'Your answer' };
}

/** Free-text fields people write a sentence in, typically on a reject. */
const PROSE = /^(comment|comments|reason|note|notes|explanation|justification|feedback|message)$/i;

/**
 * The uiSchema of an interrupt form: no submit button of rjsf's own (the
 * Actions part owns the buttons), `approved` hidden for an approval (the
 * Approve / Reject buttons set it), a "Choose…" prompt for enumerations, and
 * a text area for prose fields. Markdown stays off: schema text is the
 * agent's, and is shown as text only.
 */
export function formUiSchema(schema: Readonly<Record<string, unknown>>, shape: AnswerShape): UiSchema {
  const ui: UiSchema = {
    'ui:globalOptions': { enableMarkdownInDescription: false, enableMarkdownInHelp: false },
    'ui:submitButtonOptions': { norender: true },
  };
  if (Array.isArray(schema.enum)) ui['ui:placeholder'] = 'Choose…';
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    if (shape === 'approval' && name === 'approved') ui[name] = { 'ui:widget': 'hidden' };
    else if (Array.isArray(property.enum)) ui[name] = { 'ui:placeholder': 'Choose…' };
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

/** ajv's wording for a missing property names the property again, next to the field that already says it. */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((e) => (e.name === 'required' ? { ...e, message: 'This field is required.' } : e));
}

/**
 * Time left before an expiry, as a clock reading (`4:05`, `1:02:03`) or, from
 * a day on, in days and hours. Rounded up: `0:00` is only ever shown expired.
 *
 * @example
 * formatRemaining(65_000); // '1:05'
 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  if (days > 0) return `${days} d ${hours} h`;
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A metadata value as text: strings as they are, anything else as JSON. */
export function metadataText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
