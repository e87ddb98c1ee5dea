/**
 * Writes a plan drawn by `arbitraries.ts` out as a valid AG-UI stream,
 * keeping just enough of a model (message ids and roles, the state document,
 * open interrupts) to resolve each event against the stream so far.
 */

import { resolveOp } from './arbitrariesOps.js';
import type { EndPlan, FreshMessage, Obj, OpIntent, ParentChoice, RunPlan, UnitPlan, WireEvent } from './arbitrariesPlan.js';

export type {
  EndPlan,
  FreshMessage,
  OpIntent,
  OpKind,
  ParentChoice,
  Part,
  RunPlan,
  SegmentPlan,
  UnitPlan,
  WireEvent,
} from './arbitrariesPlan.js';
export { STATE_KEYS, TEXT_ROLES } from './arbitrariesPlan.js';

interface KnownMessage {
  role: string;
  toolCallId?: string;
  calls: { id: string; name: string }[];
  /** Content that is a list of parts (or, for an activity, an object) rather than text. */
  structured?: boolean;
  activity?: { activityType: string; content: Obj };
}
interface OpenInterrupt {
  id: string;
  reason: string;
  toolCallId?: string;
}

/** Writes a plan out as events, keeping just enough of a model (ids, roles, the state document) to keep every event valid. */
class StreamWriter {
  readonly events: WireEvent[] = [];
  private readonly counters = new Map<string, number>();
  /** Messages the client holds, in order, as far as ids and roles go. */
  private known = new Map<string, KnownMessage>();
  private document: Obj = {};
  private interrupts: OpenInterrupt[] = [];
  private runCalls: string[] = [];
  private answered = new Set<string>();
  /** Messages a unit of the current group re-opens: a message is open once at a time. */
  private reopened = new Set<string>();
  /** While a run is cut short by RUN_ERROR: how many more body events it may send. */
  private budget = Number.POSITIVE_INFINITY;

  id(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}${n}`;
  }

  private get full() {
    return this.budget <= 0;
  }

  private send(events: WireEvent[]) {
    for (const e of events) this.events.push(e);
    this.budget -= events.length;
  }

  writeRun(plan: RunPlan) {
    const runId = this.id('run');
    this.runCalls = [];
    this.answered = new Set();
    const input: Obj = {};
    const echoed = plan.echo.flatMap((m) => this.materialise(m));
    const knownIds = [...this.known.keys()];
    const picked = new Set(knownIds.length ? plan.restate.map((pick) => knownIds[pick % knownIds.length] as string) : []);
    const restated = [...picked].map((id) => this.restate(id, 'echo'));
    if (echoed.length || restated.length) input.messages = [...restated, ...echoed];
    if (this.interrupts.length)
      input.resume = this.interrupts.map((it) => ({ interruptId: it.id, status: 'resolved', payload: { ok: true } }));
    this.interrupts = [];
    for (const m of echoed) this.remember(m);
    const started: WireEvent = { type: 'RUN_STARTED', threadId: 't', runId };
    if (Object.keys(input).length) started.input = { threadId: 't', runId, tools: [], context: [], messages: [], ...input };
    this.events.push(started);
    this.budget = plan.end.kind === 'error' ? plan.end.cut : Number.POSITIVE_INFINITY;
    for (const segment of plan.segments) {
      if (this.full) break;
      if (segment.kind === 'group') this.writeGroup(segment.units, segment.schedule);
      else this.writeMessagesSnapshot(segment.keep, segment.fresh);
    }
    this.budget = Number.POSITIVE_INFINITY;
    this.events.push(this.terminal(plan.end, runId));
  }

  private terminal(end: EndPlan, runId: string): WireEvent {
    const finished: WireEvent = { type: 'RUN_FINISHED', threadId: 't', runId };
    switch (end.kind) {
      case 'error':
        return { type: 'RUN_ERROR', message: 'the agent failed', code: 'agent_error' };
      case 'plain':
        if (end.result !== undefined) finished.result = end.result;
        return finished;
      case 'success': {
        const pending = this.runCalls.filter((id) => !this.answered.has(id));
        if (end.result !== undefined) finished.result = end.result;
        finished.outcome = pending.length ? { type: 'success', pendingToolCallIds: pending } : { type: 'success' };
        return finished;
      }
      case 'cancelled':
        finished.outcome = { type: 'cancelled' };
        return finished;
      case 'interrupt': {
        const call = this.runCalls.at(-1);
        this.interrupts = end.reasons.map((reason) => {
          const id = this.id('i');
          if (reason === 'tool_call' && call !== undefined) return { id, reason, toolCallId: call };
          return { id, reason: reason === 'tool_call' ? 'input_required' : reason };
        });
        finished.outcome = { type: 'interrupt', interrupts: this.interrupts.map((it) => ({ ...it, message: `Please answer ${it.id}` })) };
        return finished;
      }
    }
  }

  private writeGroup(units: UnitPlan[], schedule: number[]) {
    const textIds = units.map((u) => (u.kind === 'text' ? this.id('m') : undefined));
    const siblings = textIds.filter((id): id is string => id !== undefined);
    this.reopened = new Set();
    const queues = units.map((u, i) => this.steps(u, textIds[i], siblings));
    for (let step = 0; !this.full; step++) {
      const active = queues.filter((q) => q.length > 0);
      if (active.length === 0) return;
      const queue = active[(schedule[step % schedule.length] ?? 0) % active.length];
      const next = queue?.shift();
      if (next) this.send(next());
    }
  }

  /** The events of one unit, as thunks: each is resolved only when its turn comes, against the stream so far. */
  private steps(unit: UnitPlan, textId: string | undefined, siblings: string[]): (() => WireEvent[])[] {
    switch (unit.kind) {
      case 'text': {
        const messageId = textId ?? this.id('m');
        const lane = attribution(unit.subagent);
        const start: WireEvent = { type: 'TEXT_MESSAGE_START', messageId, ...lane };
        if (unit.role !== undefined) start.role = unit.role;
        if (unit.name !== undefined) start.name = unit.name;
        return [
          () => {
            if (!this.known.has(messageId)) this.known.set(messageId, { role: unit.role ?? 'assistant', calls: [] });
            return [start];
          },
          ...unit.deltas.map((delta) => () => [{ type: 'TEXT_MESSAGE_CONTENT', messageId, delta, ...lane }]),
          () => [{ type: 'TEXT_MESSAGE_END', messageId, ...lane }],
        ];
      }
      case 'tool': {
        const toolCallId = this.id('c');
        const lane = attribution(unit.subagent);
        const chunks = splitAt(unit.args, unit.cuts);
        const fresh = unit.parent.kind === 'fresh' ? this.id('p') : undefined;
        // A subagent's call opens a message of its own: attaching it to the parent agent's message breaks attribution.
        const parent: ParentChoice =
          unit.subagent && (unit.parent.kind === 'sibling' || unit.parent.kind === 'known') ? { kind: 'none' } : unit.parent;
        const steps: (() => WireEvent[])[] = [
          () => {
            const parentMessageId = this.parentFor(parent, siblings, fresh);
            this.attachCall(toolCallId, unit.name, parentMessageId);
            this.runCalls.push(toolCallId);
            const start: WireEvent = { type: 'TOOL_CALL_START', toolCallId, toolCallName: unit.name, ...lane };
            if (parentMessageId !== undefined) start.parentMessageId = parentMessageId;
            return [start];
          },
          ...chunks.map((delta) => () => [{ type: 'TOOL_CALL_ARGS', toolCallId, delta, ...lane }]),
          () => [{ type: 'TOOL_CALL_END', toolCallId, ...lane }],
        ];
        const result = unit.result;
        if (result) {
          const messageId = this.id('tr');
          steps.push(() => {
            this.placeResult(messageId, { role: 'tool', toolCallId, calls: [], structured: typeof result.content !== 'string' });
            this.answered.add(toolCallId);
            const event: WireEvent = { type: 'TOOL_CALL_RESULT', messageId, toolCallId, content: result.content, ...lane };
            if (result.role) event.role = 'tool';
            return [event];
          });
        }
        return steps;
      }
      case 'reasoning': {
        const messageId = this.id('rm');
        const span = unit.span ? this.id('rs') : undefined;
        const steps: (() => WireEvent[])[] = [
          () => {
            this.known.set(messageId, { role: 'reasoning', calls: [] });
            return [{ type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' }];
          },
          ...unit.deltas.map((delta) => () => [{ type: 'REASONING_MESSAGE_CONTENT', messageId, delta }]),
          () => [{ type: 'REASONING_MESSAGE_END', messageId }],
        ];
        if (span === undefined) return steps;
        return [() => [{ type: 'REASONING_START', messageId: span }], ...steps, () => [{ type: 'REASONING_END', messageId: span }]];
      }
      case 'reopen': {
        // Re-sending START/CONTENT/END of a closed message appends to it; only text content is picked, since appending to
        // parts is where the official client is wrong (see the differential test).
        const closed = [...this.known]
          .filter(([id, k]) => !k.structured && k.role !== 'activity' && !this.reopened.has(id))
          .map(([id]) => id);
        const messageId = closed[unit.pick % Math.max(closed.length, 1)];
        if (messageId === undefined) return [];
        this.reopened.add(messageId);
        return [
          () => [{ type: 'TEXT_MESSAGE_START', messageId }],
          ...unit.deltas.map((delta) => () => [{ type: 'TEXT_MESSAGE_CONTENT', messageId, delta }]),
          () => [{ type: 'TEXT_MESSAGE_END', messageId }],
        ];
      }
      case 'activity':
        return [() => this.activity(unit.pick, unit.replace, unit.content, unit.deltas)];
      case 'stateSnapshot':
        // A snapshot and the deltas that follow it go out back to back, as a server sends them after a resync.
        return [
          () => {
            this.document = structuredClone(unit.snapshot);
            return [{ type: 'STATE_SNAPSHOT', snapshot: unit.snapshot }, ...unit.deltas.map((d) => this.delta(d))];
          },
        ];
      case 'stateDelta':
        return [() => [this.delta(unit.ops)]];
      case 'step': {
        const stepName = this.id('step');
        return [() => [{ type: 'STEP_STARTED', stepName }], () => [{ type: 'STEP_FINISHED', stepName }]];
      }
      case 'custom':
        return [() => [{ type: 'CUSTOM', name: 'progress', value: unit.value }]];
    }
  }

  private activity(pick: number | undefined, replace: boolean | undefined, content: Obj, deltas: OpIntent[][]): WireEvent[] {
    const existing = [...this.known].filter(([, k]) => k.activity !== undefined);
    const [messageId, known] =
      pick !== undefined && existing.length ? (existing[pick % existing.length] as [string, KnownMessage]) : [this.id('act'), undefined];
    const activityType = known?.activity?.activityType ?? 'plan';
    const kept = known?.activity !== undefined && replace === false;
    let current = kept && known?.activity ? known.activity.content : structuredClone(content);
    const snapshot: WireEvent = { type: 'ACTIVITY_SNAPSHOT', messageId, activityType, content };
    if (replace !== undefined) snapshot.replace = replace;
    const events = [snapshot];
    for (const intents of deltas) {
      const patch: Obj[] = [];
      for (const intent of intents) {
        const [op, next] = resolveOp(current, intent);
        patch.push(op);
        current = next;
      }
      events.push({ type: 'ACTIVITY_DELTA', messageId, activityType, patch });
    }
    this.known.set(messageId, { role: 'activity', calls: [], structured: true, activity: { activityType, content: current } });
    return events;
  }

  /**
   * Puts a tool result where a client does: after the message carrying its
   * call and the results already after it, so that the order the writer knows
   * (and restates in a MESSAGES_SNAPSHOT) is the client's.
   */
  private placeResult(id: string, result: KnownMessage) {
    const entries = [...this.known];
    let at = entries.findIndex(([, k]) => k.calls.some((c) => c.id === result.toolCallId));
    if (at < 0) {
      this.known.set(id, result);
      return;
    }
    at++;
    while (at < entries.length && entries[at]?.[1].role === 'tool') at++;
    entries.splice(at, 0, [id, result]);
    this.known = new Map(entries);
  }

  private parentFor(choice: ParentChoice, siblings: string[], fresh: string | undefined): string | undefined {
    switch (choice.kind) {
      case 'none':
        return undefined;
      case 'fresh':
        return fresh;
      case 'sibling':
        return siblings.length ? siblings[choice.pick % siblings.length] : undefined;
      case 'known': {
        const ids = [...this.known.keys()];
        return ids.length ? ids[choice.pick % ids.length] : undefined;
      }
    }
  }

  /** Where a client attaches a new call: the named assistant message, or a new one (named after the call when the parent is not an assistant). */
  private attachCall(toolCallId: string, name: string, parentMessageId: string | undefined) {
    const parent = parentMessageId === undefined ? undefined : this.known.get(parentMessageId);
    const ownerId = parentMessageId === undefined || (parent && parent.role !== 'assistant') ? toolCallId : parentMessageId;
    const owner = this.known.get(ownerId) ?? { role: 'assistant', calls: [] };
    owner.calls.push({ id: toolCallId, name });
    this.known.set(ownerId, owner);
  }

  private delta(intents: OpIntent[]): WireEvent {
    const delta: Obj[] = [];
    for (const intent of intents) {
      const [op, document] = resolveOp(this.document, intent);
      delta.push(op);
      this.document = document;
    }
    return { type: 'STATE_DELTA', delta };
  }

  private writeMessagesSnapshot(keep: boolean[], fresh: FreshMessage[]) {
    const kept = [...this.known.keys()].filter((_, i) => keep[i % keep.length]);
    const messages = [...kept.map((id) => this.restate(id, 'snapshot')), ...fresh.flatMap((m) => this.materialise(m))];
    const has = (role: string) => messages.some((m) => m.role === role);
    const listed = new Set(messages.map((m) => m.id as string));
    const next = new Map<string, KnownMessage>();
    for (const [id, k] of this.known) {
      if (listed.has(id) || ((k.role === 'reasoning' || k.role === 'activity') && !has(k.role))) next.set(id, k);
    }
    this.known = next;
    for (const m of messages) this.remember(m);
    this.send([{ type: 'MESSAGES_SNAPSHOT', messages }]);
  }

  /** The message `id` as a server would restate it (the calls keep their ids; arguments and text are the server's). */
  private restate(id: string, text: string): Obj {
    const k = this.known.get(id) ?? { role: 'user', calls: [] };
    if (k.role === 'assistant') {
      const toolCalls = k.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: '{}' } }));
      return { id, role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) };
    }
    if (k.role === 'tool') return { id, role: 'tool', content: text, toolCallId: k.toolCallId ?? 'unknown' };
    if (k.activity) return { id, role: 'activity', activityType: k.activity.activityType, content: k.activity.content };
    return { id, role: k.role, content: text };
  }

  private materialise(m: FreshMessage): Obj[] {
    const id = this.id('s');
    if (m.role !== 'assistant') return [{ id, role: m.role, content: m.content }];
    const calls = m.calls.map((c) => ({ ...c, id: this.id('sc') }));
    const assistant: Obj = { id, role: 'assistant' };
    if (m.content !== undefined) assistant.content = m.content;
    if (calls.length)
      assistant.toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
    const answers = calls.flatMap((c) =>
      c.answer === undefined ? [] : [{ id: this.id('st'), role: 'tool', toolCallId: c.id, content: c.answer }],
    );
    return [assistant, ...answers];
  }

  private remember(m: Obj) {
    const id = m.id as string;
    const toolCalls = (m.toolCalls ?? []) as { id: string; function: { name: string } }[];
    const known: KnownMessage = { role: m.role as string, calls: toolCalls.map((c) => ({ id: c.id, name: c.function.name })) };
    if (typeof m.toolCallId === 'string') known.toolCallId = m.toolCallId;
    if (typeof m.content !== 'string' && m.content !== undefined) known.structured = true;
    if (m.role === 'activity') known.activity = { activityType: m.activityType as string, content: m.content as Obj };
    this.known.set(id, known);
  }
}

/** Attribution-only subagent events (no SUBAGENT_* lifecycle), which the spec allows. */
const attribution = (subagent: boolean): Obj => (subagent ? { subagentRunId: 'sa1' } : {});

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return text === '' ? [] : out;
}

/** The events of a stream of runs, as they arrive off the wire: plain JSON. */
export function writeStream(runs: readonly RunPlan[]): WireEvent[] {
  const writer = new StreamWriter();
  for (const run of runs) writer.writeRun(run);
  return JSON.parse(JSON.stringify(writer.events)) as WireEvent[];
}
