/**
 * Random sessions of a controller for the replay properties: a scripted
 * agent whose runs send text, chunked text, tool calls, shared-state deltas
 * and snapshots, bad events and cut-offs, and the client actions a user
 * takes between them (messages, stops, edits, answers, retries, resets).
 */
import fc from 'fast-check';
import {
  type AgentSource,
  AgentTransportError,
  createRunController,
  type FrameScheduler,
  type RunController,
  type ThreadState,
} from '../../src/index.js';

/** What one run of the scripted agent sends. */
type Step =
  | { kind: 'text'; id: number; delta: string }
  /** A text message sent as chunks: the first names it, the rest continue the open chunk stream. */
  | { kind: 'chunks'; id: number; deltas: string[] }
  | { kind: 'tool'; id: number; name: 'frontend' | 'backend'; args: string }
  | { kind: 'delta'; key: string; value: number }
  | { kind: 'badDelta' }
  | { kind: 'snapshot'; value: number }
  | { kind: 'junk' }
  | { kind: 'yield' };
/**
 * `refuse`: the first request fails before any event (HTTP 503); sent again (`retry()`), it finishes. Before its
 * RUN_STARTED (events of no run first): `refuseLate` ends with a RUN_ERROR, `cutEarly` breaks; `refuseThenCut` is a
 * `refuse` whose request sent again breaks so.
 */
type Ending = 'finish' | 'interrupt' | 'error' | 'cut' | 'refuse' | 'refuseLate' | 'cutEarly' | 'refuseThenCut';
const ENDINGS: Ending[] = ['finish', 'interrupt', 'error', 'cut', 'refuse', 'refuseLate', 'cutEarly', 'refuseThenCut'];

export type Command =
  | { kind: 'run'; message: string; steps: Step[]; ending: Ending }
  | { kind: 'stop' }
  | { kind: 'edit'; key: string; value: number }
  | { kind: 'set'; value: number }
  | { kind: 'answer'; approve: boolean; ending: Ending }
  | { kind: 'retry' }
  | { kind: 'reset' }
  | { kind: 'settle' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), id: fc.integer({ min: 0, max: 3 }), delta: fc.string({ maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('tool' as const),
    id: fc.integer({ min: 0, max: 3 }),
    name: fc.constantFrom('frontend' as const, 'backend' as const),
    args: fc.constantFrom('{}', '{"a":1}', '{"a"'),
  }),
  fc.record({ kind: fc.constant('delta' as const), key: fc.constantFrom('a', 'b'), value: fc.integer({ min: 0, max: 9 }) }),
  fc.constant({ kind: 'badDelta' as const }),
  fc.record({ kind: fc.constant('snapshot' as const), value: fc.integer({ min: 0, max: 9 }) }),
  fc.constant({ kind: 'junk' as const }),
  fc.record({
    kind: fc.constant('chunks' as const),
    id: fc.integer({ min: 0, max: 3 }),
    deltas: fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.constant({ kind: 'yield' as const }),
);

export const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      message: fc.string({ maxLength: 6 }),
      steps: fc.array(step, { maxLength: 8 }),
      ending: fc.constantFrom<Ending>(...ENDINGS),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'stop' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), key: fc.constantFrom('a', 'b', 'c'), value: fc.integer() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('set' as const), value: fc.integer() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      approve: fc.boolean(),
      ending: fc.constantFrom<Ending>('finish', 'refuse', 'cut', 'interrupt', 'refuseLate', 'cutEarly', 'refuseThenCut'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'retry' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'settle' as const }) },
);

/** The events of one run, from its steps, as the agent would send them (ids made unique per run). */
function* eventsOf(runId: string, threadId: string, steps: readonly Step[], ending: Ending): Generator<unknown> {
  if (ending === 'refuseLate' || ending === 'cutEarly') {
    yield { type: 'CUSTOM', name: 'queue', value: steps.length };
    if (ending === 'refuseLate') yield { type: 'RUN_ERROR', message: 'refused', code: 'OVERLOADED' };
    return;
  }
  yield { type: 'RUN_STARTED', threadId, runId };
  for (const s of steps) {
    switch (s.kind) {
      case 'text':
        yield { type: 'TEXT_MESSAGE_START', messageId: `${runId}-m${s.id}`, role: 'assistant' };
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `${runId}-m${s.id}`, delta: s.delta || '.' };
        yield { type: 'TEXT_MESSAGE_END', messageId: `${runId}-m${s.id}` };
        break;
      case 'tool':
        yield { type: 'TOOL_CALL_START', toolCallId: `${runId}-c${s.id}`, toolCallName: s.name };
        yield { type: 'TOOL_CALL_ARGS', toolCallId: `${runId}-c${s.id}`, delta: s.args };
        yield { type: 'TOOL_CALL_END', toolCallId: `${runId}-c${s.id}` };
        break;
      case 'delta':
        yield { type: 'STATE_DELTA', delta: [{ op: 'add', path: `/${s.key}`, value: s.value }] };
        break;
      case 'badDelta':
        yield { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/missing/deep', value: 1 }] };
        break;
      case 'snapshot':
        yield { type: 'STATE_SNAPSHOT', snapshot: { a: s.value } };
        break;
      case 'chunks':
        for (const [i, delta] of s.deltas.entries())
          yield { type: 'TEXT_MESSAGE_CHUNK', ...(i === 0 ? { messageId: `${runId}-k${s.id}`, role: 'assistant' } : {}), delta };
        break;
      case 'junk':
        yield { type: 'TEXT_MESSAGE_CONTENT', messageId: 'nowhere', delta: 'x' };
        break;
      case 'yield':
        yield 'yield';
        break;
    }
  }
  if (ending === 'finish') yield { type: 'RUN_FINISHED', threadId, runId };
  else if (ending === 'interrupt') {
    // Held on the run's first tool call, when it has one: its frontend tool waits for the answer.
    const held = steps.find((s) => s.kind === 'tool');
    const toolCallId = held?.kind === 'tool' ? `${runId}-c${held.id}` : undefined;
    yield {
      type: 'RUN_FINISHED',
      threadId,
      runId,
      outcome: {
        type: 'interrupt',
        interrupts: [{ id: `${runId}-i`, reason: 'confirmation', message: 'Sure?', ...(toolCallId ? { toolCallId } : {}) }],
      },
    };
  } else if (ending === 'error') yield { type: 'RUN_ERROR', message: 'boom' };
}

/** A source that plays each request's script, yielding to the test between events. */
function scriptedSource(
  scripts: Map<string, { steps: Step[]; ending: Ending }>,
  next: () => { steps: Step[]; ending: Ending },
): AgentSource {
  return {
    async deliver(input, options, onEvent) {
      // A retried request replays its script; a new run takes the next one.
      let script = scripts.get(input.runId);
      if (!script) {
        script = next();
        scripts.set(input.runId, script);
        if (script.ending === 'refuse' || script.ending === 'refuseThenCut')
          throw new AgentTransportError('HTTP_STATUS', 'The agent answered HTTP 503.', 503, 'busy');
      }
      const ending = script.ending === 'refuse' ? 'finish' : script.ending === 'refuseThenCut' ? 'cutEarly' : script.ending;
      for (const event of eventsOf(input.runId, input.threadId, script.steps, ending)) {
        await Promise.resolve();
        if (options.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
        if (event !== 'yield') onEvent(event);
      }
      if (ending === 'cutEarly') throw new TypeError('network error');
    },
    run() {
      throw new Error('the push form is used');
    },
  };
}

/** The thread as a person sees it: every record, with the persistent maps read out. */
export function view(t: ThreadState) {
  return {
    run: t.run,
    runs: t.runs,
    messages: t.messages.ids.map((id) => t.messages.byId.get(id)),
    toolCalls: [...t.toolCalls],
    sharedState: t.sharedState,
    interrupts: t.interrupts,
    answers: t.answers,
    subagents: t.subagents,
    diagnostics: t.diagnostics.map((d) => `${d.index}:${d.code}`),
  };
}

const microScheduler: FrameScheduler = (flush) => {
  let live = true;
  queueMicrotask(() => live && flush());
  return () => {
    live = false;
  };
};

export async function play(commands: readonly Command[]): Promise<RunController> {
  const scripts = new Map<string, { steps: Step[]; ending: Ending }>();
  const queue: { steps: Step[]; ending: Ending }[] = [];
  const controller = createRunController({
    source: scriptedSource(scripts, () => queue.shift() ?? { steps: [], ending: 'finish' }),
    threadId: 't',
    initialState: { a: 0 },
    scheduler: microScheduler,
    now: () => 1_000,
    tools: { frontend: { description: 'runs in the page', handler: async (args) => ({ echoed: args }) } },
  });
  const pending: Promise<unknown>[] = [];
  for (const c of commands) {
    switch (c.kind) {
      case 'run':
        queue.push({ steps: c.steps, ending: c.ending });
        pending.push(controller.run(c.message));
        break;
      case 'stop':
        controller.stop();
        break;
      case 'edit':
        pending.push(
          controller.updateSharedState((draft) => {
            if (draft && typeof draft === 'object' && !Array.isArray(draft)) (draft as Record<string, number>)[c.key] = c.value;
          }),
        );
        break;
      case 'set':
        pending.push(controller.setState({ a: c.value }));
        break;
      case 'answer': {
        const open = controller.getSnapshot().thread.interrupts;
        if (open.length) {
          queue.push({ steps: [], ending: c.ending });
          pending.push(controller.resume(open.map((it) => ({ interruptId: it.id, status: 'resolved', payload: { approved: c.approve } }))));
        }
        break;
      }
      case 'retry':
        pending.push(controller.retry());
        break;
      case 'reset':
        controller.reset();
        break;
      case 'settle':
        await Promise.all(pending.splice(0));
        break;
    }
    // Let a few events through between commands.
    for (let i = 0; i < 3; i++) await Promise.resolve();
  }
  await Promise.all(pending);
  await new Promise((r) => setTimeout(r, 0));
  return controller;
}
