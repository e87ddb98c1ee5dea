import { describe, error, warning } from './diagnostics.js';
import { BASE_FIELDS, EVENT_SHAPES } from './eventShapes.js';
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
  const shape = own(EVENT_SHAPES, type);
  if (shape === undefined) {
    const w = warning(index, type, 'UNKNOWN_EVENT_TYPE', `Unknown event type ${type}: kept for observation, not applied.`);
    return { ok: true, event: raw as ValidatedEvent, warnings: [w] };
  }
  const ctx: Ctx = { index, type, warnings: [] };
  let out: Obj | undefined;
  const set = (key: string, value: unknown, drop: boolean) => {
    out ??= { ...raw };
    if (drop) delete out[key];
    else out[key] = value;
  };
  for (const [field, kind] of shape.requiredList) {
    const value = raw[field];
    if (value === undefined) {
      return fail(index, type, 'MISSING_FIELD', `${type}: required field \`${field}\` is missing.`);
    }
    const fix = check(kind, value, `/${field}`, ctx, true);
    if (fix && 'error' in fix) return fail(index, type, 'INVALID_FIELD', `${type}: field \`${field}\` ${fix.error}.`);
    if (fix) set(field, 'value' in fix ? fix.value : undefined, 'drop' in fix);
  }
  for (const field in raw) {
    if (field === 'type' || Object.hasOwn(shape.required, field)) continue;
    const kind =
      own(shape.optional, field) ?? own(BASE_FIELDS, field) ?? (shape.attributable && field === 'subagentRunId' ? 'string' : undefined);
    const value = raw[field];
    if (kind === undefined) {
      ctx.warnings.push(warning(index, type, 'UNKNOWN_PROPERTY', `${type}: property /${field} is not part of the event; stripped.`));
      set(field, undefined, true);
      continue;
    }
    if (value === undefined) continue;
    if (value === null && kind !== 'json') {
      ctx.warnings.push(warning(index, type, 'NULL_FIELD', `${type}: optional /${field} is null (omit it instead); stripped.`));
      set(field, undefined, true);
      continue;
    }
    const fix = check(kind, value, `/${field}`, ctx, false);
    if (fix && 'error' in fix) return fail(index, type, 'INVALID_FIELD', `${type}: field \`${field}\` ${fix.error}.`);
    if (fix) set(field, 'value' in fix ? fix.value : undefined, 'drop' in fix);
  }
  const delta = raw.delta;
  const large = options.largeDeltaLength ?? 1 << 20;
  if (typeof delta === 'string' && delta.length > large) {
    ctx.warnings.push(warning(index, type, 'LARGE_DELTA', `${type}: delta of ${delta.length} characters (over ${large}); applied.`));
  }
  return { ok: true, event: (out ?? raw) as ValidatedEvent, warnings: ctx.warnings.length ? ctx.warnings : NO_WARNINGS };
}

/** `table[key]` for the table's own keys only: a type or field named `constructor` or `__proto__` is not in any table. */
function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

function fail(index: number, type: string | undefined, code: string, message: string): ValidationResult {
  return { ok: false, diagnostic: error(index, type, code, message) };
}
