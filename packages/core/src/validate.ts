import { describe, error, warning } from './diagnostics.js';
import { BASE_FIELDS, EVENT_SHAPES, type FieldKind } from './eventShapes.js';
import type { Diagnostic } from './model.js';
import type { ValidatedEvent } from './protocol.js';

export type ValidationResult = { ok: true; event: ValidatedEvent; warnings: readonly Diagnostic[] } | { ok: false; diagnostic: Diagnostic };

export interface ValidateOptions {
  /** Arrival index of the event, written into diagnostics. */
  index?: number;
  /** A text, argument or reasoning `delta` longer than this is kept, with a warning. Default 1 MiB. */
  largeDeltaLength?: number;
}

type Obj = Record<string, unknown>;
/** A check returns an error message, or undefined when the value is fine. It may push warnings and rewrite the value. */
interface Ctx {
  index: number;
  type: string;
  warnings: Diagnostic[];
}
type Fix = { value: unknown } | { drop: true } | { error: string } | undefined;

const NO_WARNINGS: readonly Diagnostic[] = [];
const TEXT_ROLES = new Set(['developer', 'system', 'assistant', 'user']);
const MESSAGE_ROLES = new Set(['developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning']);
const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
const SOURCE_TYPES = new Set(['data', 'url', 'file']);
const MEDIA_PARTS = new Set(['image', 'audio', 'video', 'document']);

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const shape = EVENT_SHAPES[type];
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
  for (const [field, kind] of Object.entries(shape.required)) {
    const value = raw[field];
    if (value === undefined) {
      return fail(index, type, 'MISSING_FIELD', `${type}: required field \`${field}\` is missing.`);
    }
    const fix = check(kind, value, `/${field}`, ctx, true);
    if (fix && 'error' in fix) return fail(index, type, 'INVALID_FIELD', `${type}: field \`${field}\` ${fix.error}.`);
    if (fix) set(field, 'value' in fix ? fix.value : undefined, 'drop' in fix);
  }
  for (const field in raw) {
    if (field === 'type' || field in shape.required) continue;
    const kind = shape.optional[field] ?? BASE_FIELDS[field] ?? (shape.attributable && field === 'subagentRunId' ? 'string' : undefined);
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

function fail(index: number, type: string | undefined, code: string, message: string): ValidationResult {
  return { ok: false, diagnostic: error(index, type, code, message) };
}

const expected = (what: string, value: unknown): Fix => ({ error: `must be ${what}, got ${describe(value)}` });

function check(kind: FieldKind, value: unknown, path: string, ctx: Ctx, required: boolean): Fix {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? undefined : expected('a string', value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : expected('a finite number', value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : expected('a boolean', value);
    case 'object':
      return isObject(value) ? undefined : expected('an object', value);
    case 'json':
      return undefined;
    case 'textRole':
      if (TEXT_ROLES.has(value as string)) return undefined;
      if (required || typeof value !== 'string') return expected('one of developer, system, assistant, user', value);
      ctx.warnings.push(
        warning(
          ctx.index,
          ctx.type,
          'UNKNOWN_ROLE',
          `${ctx.type}: unknown role ${describe(value)} at ${path}; stripped (assistant assumed).`,
        ),
      );
      return { drop: true };
    case 'toolRole':
      return value === 'tool' ? undefined : expected('"tool"', value);
    case 'reasoningRole':
      return value === 'reasoning' ? undefined : expected('"reasoning"', value);
    case 'encryptedSubtype':
      return value === 'tool-call' || value === 'message' ? undefined : expected('"tool-call" or "message"', value);
    case 'usage':
      return Array.isArray(value) && value.every(isObject) ? undefined : expected('an array of TokenUsage objects', value);
    case 'content':
      return checkContent(value, path, ctx);
    case 'patch':
      return checkPatch(value, path, ctx);
    case 'messages':
      return checkMessages(value, path, ctx);
    case 'runOutcome':
      return checkRunOutcome(value, path, ctx);
    case 'subagentOutcome':
      return checkSubagentOutcome(value, path, ctx);
  }
}

/** Drops the elements for which `keep` returns false, copying the array only when one goes. */
function filterList(list: readonly unknown[], keep: (item: unknown, i: number) => boolean | string): Fix {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const verdict = keep(list[i], i);
    if (typeof verdict === 'string') return { error: verdict };
    if (!verdict) out ??= list.slice(0, i);
    else out?.push(list[i]);
  }
  return out ? { value: out } : undefined;
}

function checkContent(value: unknown, path: string, ctx: Ctx): Fix {
  if (typeof value === 'string') return undefined;
  if (!Array.isArray(value)) return expected('a string or an array of content parts', value);
  return filterList(value, (part, i) => {
    if (!isObject(part) || typeof part.type !== 'string') return `has a content part at ${path}/${i} that is not an object with a type`;
    if (part.type === 'text') return typeof part.text === 'string' || `has a text part at ${path}/${i} without a string \`text\``;
    if (MEDIA_PARTS.has(part.type)) {
      const source = part.source;
      if (isObject(source) && SOURCE_TYPES.has(source.type as string) && typeof source.value === 'string') return true;
      return `has a ${part.type} part at ${path}/${i} without a valid source`;
    }
    ctx.warnings.push(
      warning(
        ctx.index,
        ctx.type,
        'UNKNOWN_CONTENT_PART',
        `${ctx.type}: content part of unknown type ${describe(part.type)} at ${path}/${i}; dropped.`,
      ),
    );
    return false;
  });
}

function checkPatch(value: unknown, path: string, ctx: Ctx): Fix {
  if (!Array.isArray(value)) return expected('an array of JSON Patch operations', value);
  return filterList(value, (op, i) => {
    if (!isObject(op) || typeof op.op !== 'string') return `has an operation at ${path}/${i} that is not an object with an \`op\``;
    if (!PATCH_OPS.has(op.op)) {
      ctx.warnings.push(
        warning(ctx.index, ctx.type, 'UNKNOWN_PATCH_OP', `${ctx.type}: unknown JSON Patch op ${describe(op.op)} at ${path}/${i}; dropped.`),
      );
      return false;
    }
    if (typeof op.path !== 'string') return `has an operation at ${path}/${i} without a string \`path\``;
    if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string')
      return `has a ${op.op} at ${path}/${i} without a string \`from\``;
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op))
      return `has a ${op.op} at ${path}/${i} without a \`value\``;
    return true;
  });
}

function checkMessages(value: unknown, path: string, ctx: Ctx): Fix {
  if (!Array.isArray(value)) return expected('an array of messages', value);
  return mapList(value, (message, i) => {
    const at = `${path}/${i}`;
    if (!isObject(message)) return { error: `has a message at ${at} that is not an object` };
    if (typeof message.id !== 'string') return { error: `has a message at ${at} without a string \`id\`` };
    if (!MESSAGE_ROLES.has(message.role as string)) return { error: `has a message at ${at} with unknown role ${describe(message.role)}` };
    if (message.role === 'tool' && typeof message.toolCallId !== 'string')
      return { error: `has a tool message at ${at} without a string \`toolCallId\`` };
    if (message.content === undefined || message.role === 'activity') return undefined;
    const fix = checkContent(message.content, `${at}/content`, ctx);
    if (fix && 'value' in fix) return { value: { ...message, content: fix.value } };
    return fix;
  });
}

/** Maps each element through `fix`, copying the array only when one changes. */
function mapList(list: readonly unknown[], fix: (item: unknown, i: number) => Fix): Fix {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const f = fix(list[i], i);
    if (f && 'error' in f) return f;
    if (f && 'value' in f) {
      out ??= list.slice();
      out[i] = f.value;
    }
  }
  return out ? { value: out } : undefined;
}

function checkRunOutcome(value: unknown, path: string, ctx: Ctx): Fix {
  if (Array.isArray(value)) return { error: 'must be an object, got an array (expected object, received array)' };
  if (!isObject(value)) return expected('an object', value);
  switch (value.type) {
    case 'success': {
      const ids = value.pendingToolCallIds;
      if (ids === undefined || (Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) return undefined;
      return { error: 'has `pendingToolCallIds` that is not an array of strings' };
    }
    case 'cancelled':
      return undefined;
    case 'interrupt': {
      const list = value.interrupts;
      if (!Array.isArray(list)) return { error: 'is an interrupt outcome without an `interrupts` array' };
      for (let i = 0; i < list.length; i++) {
        const it: unknown = list[i];
        if (!isObject(it)) return { error: `has an interrupt at ${path}/interrupts/${i} that is not an object` };
        if (it.id !== undefined && typeof it.id !== 'string')
          return { error: `has an interrupt at ${path}/interrupts/${i} whose \`id\` is not a string` };
        if (typeof it.reason !== 'string') return { error: `has an interrupt at ${path}/interrupts/${i} without a string \`reason\`` };
        if (it.responseSchema !== undefined && !isObject(it.responseSchema))
          return { error: `has an interrupt at ${path}/interrupts/${i} whose responseSchema is not an object` };
        if (it.expiresAt !== undefined && typeof it.expiresAt !== 'string')
          return { error: `has an interrupt at ${path}/interrupts/${i} whose expiresAt is not a string` };
      }
      return undefined;
    }
    default:
      ctx.warnings.push(
        warning(
          ctx.index,
          ctx.type,
          'UNKNOWN_OUTCOME',
          `${ctx.type}: unknown outcome type ${describe(value.type)} at ${path}; stripped (the run ends as a plain success).`,
        ),
      );
      return { drop: true };
  }
}

function checkSubagentOutcome(value: unknown, path: string, ctx: Ctx): Fix {
  if (!isObject(value)) return expected('an object', value);
  if (value.type === 'success') return undefined;
  if (value.type === 'suspended') {
    const ids = value.interruptIds;
    if (ids === undefined || (Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) return undefined;
    return { error: 'has `interruptIds` that is not an array of strings' };
  }
  ctx.warnings.push(
    warning(ctx.index, ctx.type, 'UNKNOWN_OUTCOME', `${ctx.type}: unknown outcome type ${describe(value.type)} at ${path}; stripped.`),
  );
  return { drop: true };
}
