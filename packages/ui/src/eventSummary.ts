import { type PatchOp, patchOp } from './jsonHighlights.js';
import { clip } from './textCut.js';

/**
 * The kinds of event the timeline filters by, as a row's `data-group`.
 *
 * @example
 * const onlyTools: EventGroup[] = ['tools'];
 */
export type EventGroup = 'lifecycle' | 'text' | 'tools' | 'state' | 'interrupts' | 'other';

export const EVENT_GROUPS: readonly EventGroup[] = ['lifecycle', 'text', 'tools', 'state', 'interrupts', 'other'];

type Fields = Record<string, unknown>;

function fields(event: unknown): Fields | undefined {
  return typeof event === 'object' && event !== null && !Array.isArray(event) ? (event as Fields) : undefined;
}

/** The event's `type`, or a placeholder for input that has none (or an empty one): the log keeps invalid events too. */
export function eventType(event: unknown): string {
  const type = fields(event)?.type;
  return typeof type === 'string' && type !== '' ? type : '(no type)';
}

/** Words already lowercased: a log repeats a few event types, and a type-ahead key reads every row's. */
const folded = new Map<string, string>();
const FOLDED_WORDS = 4096;
const FOLDED_WORD_LENGTH = 64;

/** Whether `word`, case-insensitively, starts with `prefix` (lowercased already). */
export function foldedStartsWith(word: string, prefix: string): boolean {
  let lower = folded.get(word);
  if (lower === undefined) {
    lower = word.toLocaleLowerCase();
    if (word.length <= FOLDED_WORD_LENGTH && folded.size < FOLDED_WORDS) folded.set(word, lower);
  }
  return lower.startsWith(prefix);
}

/**
 * For type-ahead, whether a logged event's row starts with `prefix` (lowercased): its index, or its type. Nothing is
 * built per row: a key reads every row of a long log.
 */
export function eventRowStarts(entry: { readonly index: number; readonly event: unknown }, prefix: string): boolean {
  const c = prefix.charCodeAt(0);
  return (c >= 48 && c <= 57 && String(entry.index).startsWith(prefix)) || foldedStartsWith(eventType(entry.event), prefix);
}

function field(e: Fields, name: string): unknown {
  return Object.hasOwn(e, name) ? e[name] : undefined;
}

function text(e: Fields, name: string): string | undefined {
  const value = field(e, name);
  return typeof value === 'string' ? value : undefined;
}

function list(e: Fields, name: string): readonly unknown[] | undefined {
  const value = field(e, name);
  return Array.isArray(value) ? value : undefined;
}

function interruptCount(e: Fields): number {
  const outcome = fields(field(e, 'outcome'));
  return outcome && field(outcome, 'type') === 'interrupt' ? (list(outcome, 'interrupts')?.length ?? 0) : -1;
}

function resumeCount(e: Fields): number {
  const input = fields(field(e, 'input'));
  return (input && list(input, 'resume')?.length) || 0;
}

/**
 * The groups an event belongs to. A run that ends on interrupts, or starts
 * with a resume, is both lifecycle and interrupts: filtering on either must
 * keep it, since AG-UI carries interrupts on the run's own events.
 */
export function eventGroups(event: unknown): readonly EventGroup[] {
  const e = fields(event);
  const type = eventType(event);
  if (!e) return ['other'];
  if (type === 'RUN_FINISHED') return interruptCount(e) >= 0 ? ['lifecycle', 'interrupts'] : ['lifecycle'];
  if (type === 'RUN_STARTED') return resumeCount(e) > 0 ? ['lifecycle', 'interrupts'] : ['lifecycle'];
  if (type === 'RUN_ERROR' || type.startsWith('STEP_')) return ['lifecycle'];
  if (type.startsWith('TEXT_MESSAGE_') || type.startsWith('REASONING_') || type.startsWith('THINKING_') || type === 'MESSAGES_SNAPSHOT')
    return ['text'];
  if (type.startsWith('TOOL_CALL_')) return ['tools'];
  if (type === 'STATE_SNAPSHOT' || type === 'STATE_DELTA') return ['state'];
  return ['other'];
}

/** The kinds of id a summary names; each shows shortened, with its role in words. */
export type IdRole = 'run' | 'message' | 'toolCall' | 'parent' | 'subagent' | 'thread';

/** Counted things a summary names. */
export type CountUnit = 'chars' | 'ops' | 'keys' | 'items' | 'messages' | 'moreOps' | 'resumes' | 'interrupted';

/**
 * One piece of an event's summary, in no language: the timeline and the
 * state history render it through the locale.
 */
export type SummaryPart =
  /** Text the agent streamed or sent (a delta, a result, an error message): shown quoted. */
  | { kind: 'text'; text: string }
  /** A fragment of JSON (a tool call's arguments delta): shown as code. */
  | { kind: 'json'; text: string }
  /** A name the agent gave: a tool, a step, a role. */
  | { kind: 'name'; text: string }
  /** A JSON Patch operation: its op as a badge, then its path. */
  | { kind: 'op'; op: PatchOp; label: string; path: string; from?: string }
  | { kind: 'count'; unit: CountUnit; n: number }
  | { kind: 'id'; role: IdRole; id: string }
  | { kind: 'succeeded' }
  | { kind: 'ended'; outcome: string }
  | { kind: 'notAnEvent'; what: string }
  | { kind: 'notAList' }
  | { kind: 'notAnOperation' };

/**
 * What a row says about an event: `lead` is what changed (the delta text,
 * the tool and its arguments, the operations, the size of a snapshot) and
 * comes first; `meta` follows (sizes, ids).
 */
export interface EventSummary {
  lead: readonly SummaryPart[];
  meta: readonly SummaryPart[];
}

/** Past this length a delta or a message is cut in a summary: the row shows one line of it, the detail all of it. */
const CLIP = 160;

/** Operations named in a STATE_DELTA row before the rest are counted. */
const NAMED_OPS = 3;

function operationParts(ops: readonly unknown[]): SummaryPart[] {
  const out: SummaryPart[] = ops.slice(0, NAMED_OPS).map((op): SummaryPart => {
    const o = fields(op);
    if (!o) return { kind: 'notAnOperation' };
    const name = field(o, 'op');
    const from = text(o, 'from');
    return {
      kind: 'op',
      op: patchOp(name),
      label: String(name),
      path: String(field(o, 'path')),
      ...(from === undefined ? {} : { from }),
    };
  });
  if (ops.length > NAMED_OPS) out.push({ kind: 'count', unit: 'moreOps', n: ops.length - NAMED_OPS });
  return out;
}

function sizeOf(value: unknown): SummaryPart {
  if (Array.isArray(value)) return { kind: 'count', unit: 'items', n: value.length };
  const o = fields(value);
  return o ? { kind: 'count', unit: 'keys', n: Object.keys(o).length } : { kind: 'name', text: typeof value };
}

/** Tool names by tool call id, for the events of a call that do not repeat its name. */
export type ToolNames = ReadonlyMap<string, string>;

/**
 * What an event changed, for a timeline row: the delta text, the tool and
 * its arguments, the operations or the size of a snapshot first, then the
 * ids it concerns; never its whole payload (which may be huge). `toolNames`
 * gives the name of a call whose TOOL_CALL_ARGS, END or RESULT is summarized.
 *
 * @example
 * summarizeEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' }).lead; // [{ kind: 'text', text: 'Hi' }]
 */
export function summarizeEvent(event: unknown, toolNames?: ToolNames): EventSummary {
  const e = fields(event);
  if (!e) {
    const what = event === null ? 'null' : Array.isArray(event) ? 'array' : typeof event;
    return { lead: [{ kind: 'notAnEvent', what }], meta: [] };
  }
  const type = eventType(event);
  const lead: SummaryPart[] = [];
  const meta: SummaryPart[] = [];
  const id = (role: IdRole, value: string | undefined) => {
    if (value) meta.push({ kind: 'id', role, id: value });
  };
  const name = (value: string | undefined) => {
    if (value) lead.push({ kind: 'name', text: value });
  };
  const toolCallId = text(e, 'toolCallId');
  const toolName = text(e, 'toolCallName') ?? (toolCallId === undefined ? undefined : toolNames?.get(toolCallId));
  const delta = text(e, 'delta');
  switch (type) {
    case 'RUN_STARTED': {
      const resumed = resumeCount(e);
      if (resumed) lead.push({ kind: 'count', unit: 'resumes', n: resumed });
      id('run', text(e, 'runId'));
      break;
    }
    case 'RUN_FINISHED': {
      const outcome = fields(field(e, 'outcome'));
      const kind = outcome ? field(outcome, 'type') : undefined;
      const raised = interruptCount(e);
      if (raised >= 0) lead.push({ kind: 'count', unit: 'interrupted', n: raised });
      else if (kind === undefined || kind === 'success') lead.push({ kind: 'succeeded' });
      else lead.push({ kind: 'ended', outcome: String(kind) });
      id('run', text(e, 'runId'));
      break;
    }
    case 'RUN_ERROR': {
      const message = text(e, 'message');
      if (message) lead.push({ kind: 'text', text: clip(message, CLIP) });
      name(text(e, 'code'));
      break;
    }
    case 'STATE_SNAPSHOT':
      lead.push(sizeOf(field(e, 'snapshot')));
      break;
    case 'STATE_DELTA': {
      const ops = list(e, 'delta');
      if (!ops) lead.push({ kind: 'notAList' });
      else {
        lead.push(...operationParts(ops));
        if (ops.length > 1) meta.push({ kind: 'count', unit: 'ops', n: ops.length });
      }
      break;
    }
    case 'MESSAGES_SNAPSHOT':
      lead.push({ kind: 'count', unit: 'messages', n: list(e, 'messages')?.length ?? 0 });
      break;
    default:
      if (type.startsWith('TOOL_CALL_')) {
        name(toolName);
        if (delta !== undefined) {
          lead.push({ kind: 'json', text: clip(delta, CLIP) });
          meta.push({ kind: 'count', unit: 'chars', n: delta.length });
        }
        const content = text(e, 'content');
        if (content !== undefined) lead.push({ kind: 'text', text: clip(content, CLIP) });
        id('toolCall', toolCallId);
        id('parent', text(e, 'parentMessageId'));
        id('message', text(e, 'messageId'));
        break;
      }
      if (delta !== undefined) {
        lead.push({ kind: 'text', text: clip(delta, CLIP) });
        meta.push({ kind: 'count', unit: 'chars', n: delta.length });
      }
      name(text(e, 'stepName') ?? text(e, 'name') ?? text(e, 'activityType'));
      name(text(e, 'role'));
      id('message', text(e, 'messageId'));
      id('toolCall', toolCallId);
      id('subagent', text(e, 'subagentRunId'));
  }
  return { lead, meta };
}

/** The text of every part that is data (names, texts, full ids, paths), for the timeline's filter. */
export function summaryData(summary: EventSummary): string {
  const out: string[] = [];
  for (const part of [...summary.lead, ...summary.meta]) {
    if (part.kind === 'text' || part.kind === 'json' || part.kind === 'name') out.push(part.text);
    else if (part.kind === 'id') out.push(part.id);
    else if (part.kind === 'op') out.push(`${part.label} ${part.path}${part.from === undefined ? '' : ` ${part.from}`}`);
    else if (part.kind === 'ended') out.push(part.outcome);
  }
  return out.join(' ');
}

/** How much of a text the filter searches past what its row shows, and of a delta's operations. */
const SEARCH_CHARS = 2_000;
const SEARCH_OPS = 500;

/**
 * What the timeline's filter finds beyond what a row shows: the start of a
 * long text (a delta, a result's content) past the row's cut, and the path
 * of each operation of a STATE_DELTA past the ones the row names ("which
 * event changed /cart/total?"). Capped: a payload may be huge.
 */
export function searchBeyondRow(event: unknown): string {
  const e = fields(event);
  if (!e) return '';
  const out: string[] = [];
  for (const name of ['delta', 'content']) {
    const value = text(e, name);
    // From its start: a phrase across the row's cut is found whole.
    if (value !== undefined && value.length > CLIP) out.push(value.slice(0, SEARCH_CHARS));
  }
  const ops = field(e, 'type') === 'STATE_DELTA' ? list(e, 'delta') : undefined;
  for (const op of ops?.slice(NAMED_OPS, SEARCH_OPS) ?? []) {
    const o = fields(op);
    if (!o) continue;
    out.push(`${String(field(o, 'op'))} ${String(field(o, 'path'))}`);
    const from = text(o, 'from');
    if (from !== undefined) out.push(from);
  }
  return out.join(' ');
}

/** Past this length an id is shortened (the whole id on hover and in the detail). */
const SHORT_ID = 12;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * An id as a row shows it: a UUID as `f47ac10b…`, a short id as it is, and
 * an id that goes on past a UUID it holds (`run-<uuid>-researcher-m1`, the
 * ids of a run's subagents and messages) by what follows it,
 * `…researcher-m1`: their heads are all the same.
 */
export function shortId(id: string): string {
  if (id.length <= SHORT_ID) return id;
  const uuid = UUID.exec(id);
  const tail = uuid ? id.slice(uuid.index + uuid[0].length).replace(/^[-_:.#/]+/, '') : '';
  if (tail) return `…${tail.length > 16 ? tail.slice(-16) : tail}`;
  return `${id.slice(0, 8)}…`;
}
