/**
 * The checks of validateEvent for each kind of field (see eventShapes.ts).
 * A check returns nothing when the value is fine, a replacement value or a
 * drop when it tolerates it (pushing a warning), or an error.
 */
import { describe } from './describe.js';
import { warning } from './diagnostics.js';
import type { FieldKind } from './eventShapes.js';
import { isObject, messageProblem, partProblem, UNKNOWN_PART } from './messageShape.js';
import type { Diagnostic } from './model.js';

export type Obj = Record<string, unknown>;
export interface Ctx {
  index: number;
  type: string;
  warnings: Diagnostic[];
}
export type Fix = { value: unknown } | { drop: true } | { error: string } | undefined;

const TEXT_ROLES = new Set(['developer', 'system', 'assistant', 'user']);
const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

export { isObject };

const expected = (what: string, value: unknown): Fix => ({ error: `must be ${what}, got ${describe(value)}` });

export function check(kind: FieldKind, value: unknown, path: string, ctx: Ctx, required: boolean): Fix {
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
    case 'runInput':
      return checkRunInput(value, path, ctx);
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
    const problem = partProblem(part, `${path}/${i}`);
    if (problem !== UNKNOWN_PART) return problem ?? true;
    ctx.warnings.push(
      warning(
        ctx.index,
        ctx.type,
        'UNKNOWN_CONTENT_PART',
        `${ctx.type}: content part of unknown type ${describe((part as Obj).type)} at ${path}/${i}; dropped.`,
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
    const problem = messageProblem(message, at);
    if (problem) return { error: problem };
    const m = message as Obj;
    if (m.content === undefined || m.role === 'activity') return undefined;
    const fix = checkContent(m.content, `${at}/content`, ctx);
    if (fix && 'value' in fix) return { value: { ...m, content: fix.value } };
    return fix;
  });
}

/** The parts of a RUN_STARTED input the client reads: the history it restates and the resume it carries. */
function checkRunInput(value: unknown, path: string, ctx: Ctx): Fix {
  if (!isObject(value)) return expected('an object', value);
  const resume = value.resume;
  if (resume !== undefined) {
    if (!Array.isArray(resume)) return { error: `has a \`resume\` at ${path}/resume that is not an array` };
    for (let i = 0; i < resume.length; i++) {
      const entry: unknown = resume[i];
      if (!isObject(entry) || typeof entry.interruptId !== 'string' || (entry.status !== 'resolved' && entry.status !== 'cancelled'))
        return {
          error: `has a resume entry at ${path}/resume/${i} without a string \`interruptId\` and a status of resolved or cancelled`,
        };
    }
  }
  if (value.messages === undefined) return undefined;
  const fix = checkMessages(value.messages, `${path}/messages`, ctx);
  if (fix && 'value' in fix) return { value: { ...value, messages: fix.value } };
  return fix;
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
        for (const field of ['expiresAt', 'toolCallId', 'message', 'subagentRunId'] as const) {
          if (it[field] !== undefined && typeof it[field] !== 'string')
            return { error: `has an interrupt at ${path}/interrupts/${i} whose ${field} is not a string` };
        }
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
