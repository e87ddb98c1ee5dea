import { describe } from './describe.js';
import { error, warning } from './diagnostics.js';
import { BASE_FIELDS, EVENT_SHAPES, type FieldKind } from './eventShapes.js';
import type { Diagnostic } from './model.js';
import type { ValidatedEvent } from './protocol.js';
import { type Ctx, check, isObject, type Obj } from './validateFields.js';

export type ValidationResult = { ok: true; event: ValidatedEvent; warnings: readonly Diagnostic[] } | { ok: false; diagnostic: Diagnostic };

export interface ValidateOptions {
  /** Arrival index of the event, written into diagnostics. */
  index?: number;
  /** A text, argument or reasoning `delta` longer than this is kept, with a warning. Default 1 MiB. */
  largeDeltaLength?: number;
}

const NO_WARNINGS: readonly Diagnostic[] = [];

/**
 * Checks one raw event against the AG-UI 1.0 shapes. Never throws.
 *
 * - A known event with every required field of the right type is returned,
 *   with undescribed properties and `null` optional fields stripped (each with
 *   a warning naming its JSON pointer), unknown content parts and unknown
 *   patch operations dropped, and an unrecognised outcome or role removed.
 * - An unknown event type is not an error: it comes back as an `UnknownEvent`
 *   with a warning, so that it can be kept and observed.
 * - Anything else is `{ ok: false }` with a diagnostic that names the event
 *   type and the field.
 *
 * @example
 * const r = validateEvent(JSON.parse(frame));
 * if (r.ok) reduce(r.event); else report(r.diagnostic.message);
 */
export function validateEvent(raw: unknown, options: ValidateOptions = {}): ValidationResult {
  const index = options.index ?? -1;
  if (!isObject(raw)) {
    return fail(index, undefined, 'NOT_AN_OBJECT', `An event must be a JSON object, got ${describe(raw)}.`);
  }
  const type = raw.type;
  if (typeof type !== 'string' || type === '') {
    return fail(index, undefined, 'MISSING_TYPE', `An event needs a non-empty string \`type\`, got ${describe(type)}.`);
  }
  const shape = shapeOf(type);
  if (shape === undefined) {
    const w = warning(index, type, 'UNKNOWN_EVENT_TYPE', `Unknown event type ${type}: kept for observation, not applied.`);
    return { ok: true, event: raw as ValidatedEvent, warnings: [w] };
  }
  const ctx = CTX;
  ctx.index = index;
  ctx.type = type;
  if (ctx.warnings.length) ctx.warnings = [];
  // The event as corrected: a copy made at the first correction.
  let out: Obj | undefined;
  const fields = shape.requiredFields;
  for (let i = 0; i < fields.length; i++) {
    const { name: field, kind, path } = fields[i] as FieldCheck;
    const value = raw[field];
    if (value === undefined) {
      return fail(index, type, 'MISSING_FIELD', `${type}: required field \`${field}\` is missing.`);
    }
    // A string field holding a string, the common case, without the call.
    const fix = kind === 'string' && typeof value === 'string' ? undefined : check(kind, value, path, ctx, true);
    if (fix && 'error' in fix) return fail(index, type, 'INVALID_FIELD', `${type}: field \`${field}\` ${fix.error}.`);
    if (fix) out = apply(out ?? { ...raw }, field, fix);
  }
  for (const field in raw) {
    if (field === 'type' || isRequired(fields, field)) continue;
    const kind = shape.others.get(field);
    const value = raw[field];
    if (kind === undefined) {
      ctx.warnings.push(warning(index, type, 'UNKNOWN_PROPERTY', `${type}: property /${field} is not part of the event; stripped.`));
      out = apply(out ?? { ...raw }, field, DROP);
      continue;
    }
    if (value === undefined) continue;
    if (value === null && kind !== 'json') {
      ctx.warnings.push(warning(index, type, 'NULL_FIELD', `${type}: optional /${field} is null (omit it instead); stripped.`));
      out = apply(out ?? { ...raw }, field, DROP);
      continue;
    }
    const fix = check(kind, value, `/${field}`, ctx, false);
    if (fix && 'error' in fix) return fail(index, type, 'INVALID_FIELD', `${type}: field \`${field}\` ${fix.error}.`);
    if (fix) out = apply(out ?? { ...raw }, field, fix);
  }
  const delta = raw.delta;
  const large = options.largeDeltaLength ?? 1 << 20;
  if (typeof delta === 'string' && delta.length > large) {
    ctx.warnings.push(warning(index, type, 'LARGE_DELTA', `${type}: delta of ${delta.length} characters (over ${large}); applied.`));
  }
  return { ok: true, event: (out ?? raw) as ValidatedEvent, warnings: takeWarnings(ctx) };
}

/**
 * The context of the event being checked, reused from one event to the next
 * (validation is synchronous and never nested): an event without warnings,
 * nearly every one, allocates none.
 */
const CTX: Ctx = { index: -1, type: '', warnings: [] };

/** The warnings found, handed over with their list (the context starts a new one). */
function takeWarnings(ctx: Ctx): readonly Diagnostic[] {
  const found = ctx.warnings;
  if (found.length === 0) return NO_WARNINGS;
  ctx.warnings = [];
  return found;
}

const DROP = { drop: true } as const;

/** Writes a correction into the copy of the event. */
function apply(out: Obj, field: string, fix: { value: unknown } | { drop: true }): Obj {
  if ('drop' in fix) delete out[field];
  else out[field] = fix.value;
  return out;
}

/** Whether `field` is among the required ones: a scan of a list of a few names, each compared as an interned string. */
function isRequired(fields: readonly FieldCheck[], field: string): boolean {
  for (let i = 0; i < fields.length; i++) if ((fields[i] as FieldCheck).name === field) return true;
  return false;
}

interface FieldCheck {
  readonly name: string;
  readonly kind: FieldKind;
  readonly path: string;
}

/** An event shape as validation reads it: lookups in maps rather than in plain objects keyed by arbitrary strings. */
interface CompiledShape {
  /** The required fields, in order, each with its JSON pointer written once. */
  readonly requiredFields: readonly FieldCheck[];
  /** The kind of every other field the event may carry: its own optional fields, the base fields, `subagentRunId`. */
  readonly others: ReadonlyMap<string, FieldKind>;
}

const SHAPES: ReadonlyMap<string, CompiledShape> = new Map(
  Object.entries(EVENT_SHAPES).map(([type, shape]) => {
    const others = new Map<string, FieldKind>();
    // Later entries win: the event's own optional fields over the base fields over subagentRunId.
    if (shape.attributable) others.set('subagentRunId', 'string');
    for (const [field, kind] of Object.entries(BASE_FIELDS)) others.set(field, kind);
    for (const [field, kind] of Object.entries(shape.optional)) others.set(field, kind);
    const requiredFields = shape.requiredList.map(([name, kind]) => ({ name, kind, path: `/${name}` }));
    return [type, { requiredFields, others }] as const;
  }),
);

/** The type last looked up and its shape: a stream repeats a type for long stretches (every token of a message). */
let lastType = '';
let lastShape: CompiledShape | undefined;

function shapeOf(type: string): CompiledShape | undefined {
  if (type !== lastType) {
    lastShape = SHAPES.get(type);
    lastType = type;
  }
  return lastShape;
}

function fail(index: number, type: string | undefined, code: string, message: string): ValidationResult {
  return { ok: false, diagnostic: error(index, type, code, message) };
}
