/**
 * The kinds of event the timeline filters by, as a row's `data-group`.
 *
 * @example
 * const onlyTools: EventGroup[] = ['tools'];
 */
export type EventGroup = 'lifecycle' | 'text' | 'tools' | 'state' | 'interrupts' | 'other';

export const EVENT_GROUPS: readonly EventGroup[] = ['lifecycle', 'text', 'tools', 'state', 'interrupts', 'other'];

export const GROUP_LABELS: Record<EventGroup, string> = {
  lifecycle: 'Lifecycle',
  text: 'Text',
  tools: 'Tools',
  state: 'State',
  interrupts: 'Interrupts',
  other: 'Other',
};

type Fields = Record<string, unknown>;

function fields(event: unknown): Fields | undefined {
  return typeof event === 'object' && event !== null && !Array.isArray(event) ? (event as Fields) : undefined;
}

/** The event's `type`, or a placeholder for input that has none: the log keeps invalid events too. */
export function eventType(event: unknown): string {
  const type = fields(event)?.type;
  return typeof type === 'string' ? type : '(no type)';
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

function clip(value: string, max = 40): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function operations(ops: readonly unknown[]): string {
  const named = ops.slice(0, 2).map((op) => {
    const o = fields(op);
    return o ? `${String(field(o, 'op'))} ${String(field(o, 'path'))}` : 'not an operation';
  });
  return `${count(ops.length, 'op')}${named.length ? `: ${named.join(', ')}${ops.length > 2 ? ', …' : ''}` : ''}`;
}

function keysOf(value: unknown): string {
  if (Array.isArray(value)) return count(value.length, 'item');
  const o = fields(value);
  return o ? count(Object.keys(o).length, 'key') : typeof value;
}

/**
 * One line about an event, for a timeline row: the ids it concerns and the
 * size of what it carries, never its whole payload (which may be huge).
 */
export function summarizeEvent(event: unknown): string {
  const e = fields(event);
  if (!e) return `not an event object (${event === null ? 'null' : Array.isArray(event) ? 'array' : typeof event})`;
  const type = eventType(event);
  const parts: string[] = [];
  const add = (value: string | undefined) => {
    if (value !== undefined && value !== '') parts.push(value);
  };
  const delta = text(e, 'delta');
  switch (type) {
    case 'RUN_STARTED': {
      add(text(e, 'runId'));
      const resumed = resumeCount(e);
      if (resumed) add(`resumes ${count(resumed, 'interrupt')}`);
      break;
    }
    case 'RUN_FINISHED': {
      add(text(e, 'runId'));
      const outcome = fields(field(e, 'outcome'));
      const kind = outcome ? field(outcome, 'type') : undefined;
      add(typeof kind === 'string' ? kind : 'success');
      const raised = interruptCount(e);
      if (raised >= 0) add(count(raised, 'interrupt'));
      break;
    }
    case 'RUN_ERROR':
      add(text(e, 'code'));
      add(clip(text(e, 'message') ?? ''));
      break;
    case 'STATE_SNAPSHOT':
      add(keysOf(field(e, 'snapshot')));
      break;
    case 'STATE_DELTA': {
      const ops = list(e, 'delta');
      add(ops ? operations(ops) : 'delta is not a list');
      break;
    }
    case 'MESSAGES_SNAPSHOT':
      add(count(list(e, 'messages')?.length ?? 0, 'message'));
      break;
    case 'TOOL_CALL_START':
      add(text(e, 'toolCallId'));
      add(text(e, 'toolCallName'));
      break;
    case 'TOOL_CALL_RESULT':
      add(text(e, 'toolCallId'));
      add(text(e, 'messageId') && `→ ${text(e, 'messageId')}`);
      break;
    default:
      add(text(e, 'messageId') ?? text(e, 'toolCallId') ?? text(e, 'subagentRunId'));
      add(text(e, 'role'));
      add(text(e, 'stepName') ?? text(e, 'name') ?? text(e, 'activityType'));
  }
  if (delta !== undefined && type !== 'STATE_DELTA') add(`+${count(delta.length, 'char')} ${JSON.stringify(clip(delta, 24))}`);
  return parts.join(' · ');
}
