/**
 * A client entry of a saved session that names what the thread does not hold
 * (an interrupt never raised, a tool call never made, an edit the document
 * cannot take) comes only from a file edited by hand: the live controller
 * logs none. Replayed, it changes nothing and says so, as a warning of the
 * thread (`LOG_ENTRY_NOT_APPLIED`), rather than nothing at all.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { createRecording, createRunController, loadEngine, parseSession } from '../src/index.js';
import { microScheduler, scripted } from './support/controllerHarness.js';
import { command, play, view } from './support/sessions.js';

beforeAll(() => loadEngine());

/** A run that asks to confirm `i1` (tool call `c1`), as a session logs it. */
const session = [
  { type: 'init', at: 1, threadId: 't', state: { a: 1 } },
  { type: 'user_message', at: 2, message: { id: 'u1', role: 'user', content: 'go' } },
  { type: 'stream_start', at: 3, kind: 'run', runId: 'r1' },
  { type: 'event', at: 4, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r1' } },
  { type: 'event', at: 5, index: 1, event: { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'pay', parentMessageId: 'a1' } },
  { type: 'event', at: 6, index: 2, event: { type: 'TOOL_CALL_END', toolCallId: 'c1' } },
  {
    type: 'event',
    at: 7,
    index: 3,
    event: {
      type: 'RUN_FINISHED',
      threadId: 't',
      runId: 'r1',
      outcome: { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'confirmation', toolCallId: 'c1' }] },
    },
  },
  { type: 'stream_end', at: 8, open: false },
];

const text = (...extra: object[]) => [...session, ...extra].map((e) => JSON.stringify(e)).join('\n');

const warnings = (thread: ReturnType<typeof replaySession>) =>
  thread.diagnostics.filter((d) => d.code === 'LOG_ENTRY_NOT_APPLIED').map((d) => [d.severity, d.index, d.message]);

describe('a client entry the thread cannot take', () => {
  it('changes nothing, and each is named in a warning', () => {
    const { entries, errors } = parseSession(
      text(
        { type: 'resume', at: 9, runId: 'r2', resume: [{ interruptId: 'ghost', status: 'resolved', payload: 1 }] },
        { type: 'tool_started', at: 10, toolCallId: 'nope' },
        { type: 'tool_result', at: 11, toolCallId: 'nope', messageId: 'm9', content: 'x' },
        { type: 'state_edit', at: 12, delta: [{ op: 'replace', path: '/missing/x', value: 1 }] },
      ),
    );
    expect(errors).toEqual([]);
    const plain = replaySession(entries.slice(0, session.length));
    const thread = replaySession(entries);
    expect(thread.interrupts).toEqual(plain.interrupts);
    expect(thread.answers).toEqual(plain.answers);
    expect(thread.toolCalls).toEqual(plain.toolCalls);
    expect(thread.messages.ids).toEqual(plain.messages.ids);
    expect(thread.sharedState).toEqual(plain.sharedState);
    expect(warnings(thread)).toEqual([
      ['warning', -1, expect.stringMatching(/resume entry.*"ghost".*not applied/)],
      ['warning', -1, expect.stringMatching(/tool_started entry.*"nope".*not applied/)],
      ['warning', -1, expect.stringMatching(/tool_result entry.*"nope".*not applied/)],
      ['warning', -1, expect.stringMatching(/state_edit entry.*\/missing\/x.*not applied/)],
    ]);
    // Time travel reads the same: before the first of them, none; after each, one more.
    const recording = createRecording(entries);
    expect(warnings(recording.stateAt(session.length - 1))).toEqual([]);
    expect(warnings(recording.stateAt(session.length))).toHaveLength(1);
    expect(warnings(recording.stateAt(entries.length - 1))).toHaveLength(4);
  });

  it('a resume that answers a raised interrupt and one never raised answers the first and names the second', () => {
    const { entries } = parseSession(
      text({
        type: 'resume',
        at: 9,
        runId: 'r2',
        resume: [
          { interruptId: 'i1', status: 'resolved', payload: { approved: true } },
          { interruptId: 'ghost', status: 'cancelled' },
        ],
      }),
    );
    const thread = replaySession(entries);
    expect(thread.interrupts).toEqual([]);
    expect(thread.answers.map((a) => a.interruptId)).toEqual(['i1']);
    expect(warnings(thread)).toEqual([['warning', -1, expect.stringMatching(/"ghost".*those answers not applied, the others applied/)]]);
  });

  it('a resume answering no interrupt the thread holds open leaves the one before it as it was: a request that fails gives its answers back', () => {
    const answered = {
      type: 'resume',
      at: 9,
      runId: 'r2',
      resume: [{ interruptId: 'i1', status: 'resolved', payload: { approved: true } }],
    };
    const ghost = { type: 'resume', at: 10, runId: 'r3', resume: [{ interruptId: 'ghost', status: 'cancelled' }] };
    const failed = {
      type: 'failed',
      at: 12,
      failure: { code: 'HTTP_STATUS', message: 'HTTP 503', status: 503, retryable: true, eventsReceived: 0 },
    };
    const tail = [{ type: 'stream_start', at: 11, kind: 'resume', runId: 'r2' }, failed];
    const plain = replaySession(parseSession(text(answered, ...tail)).entries);
    const thread = replaySession(parseSession(text(answered, ghost, ...tail)).entries);
    expect(plain.interrupts.map((it) => it.id)).toEqual(['i1']);
    expect(thread.interrupts).toEqual(plain.interrupts);
    expect(thread.answers).toEqual(plain.answers);
    expect(thread.toolCalls).toEqual(plain.toolCalls);
    expect(warnings(thread)).toEqual([['warning', -1, expect.stringMatching(/"ghost"/)]]);
  });

  it('a controller started from such a log holds the warning in its thread, and its stateAt reads it there', () => {
    const { entries } = parseSession(text({ type: 'tool_started', at: 10, toolCallId: 'nope' }));
    const { source } = scripted(() => {});
    const c = createRunController({ source, log: entries, scheduler: microScheduler });
    expect(warnings(c.getSnapshot().thread)).toEqual([['warning', -1, expect.stringMatching(/"nope"/)]]);
    expect(warnings(c.stateAt(entries.length - 1))).toHaveLength(1);
    expect(warnings(c.stateAt(entries.length - 2))).toEqual([]);
    c.destroy();
  });

  it('wherever such entries stand in a real session (inside a stream, cut off or not), stateAt and a replay of the prefix agree', async () => {
    const ghosts = [
      { type: 'tool_result', at: 1_000, toolCallId: 'nope', messageId: 'm-nope', content: 'x' },
      { type: 'resume', at: 1_000, runId: 'r-nope', resume: [{ interruptId: 'nope', status: 'cancelled' }] },
      { type: 'state_edit', at: 1_000, delta: [{ op: 'remove', path: '/nope/deeper' }] },
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ghosts)), { minLength: 1, maxLength: 3 }),
        async (commands, inserted) => {
          const controller = await play(commands);
          const entries = [...controller.log.entries];
          controller.destroy();
          // After the init entry, which starts the thread anew (as a reset does), warnings and all.
          for (const [at, ghost] of inserted) entries.splice(1 + (at % entries.length), 0, { ...ghost } as (typeof entries)[number]);
          const recording = createRecording(entries, { every: 3 });
          for (let i = 0; i < entries.length; i++) expect(view(recording.stateAt(i))).toEqual(view(replaySession(entries.slice(0, i + 1))));
          const thread = replaySession(entries);
          const again = createRunController({ source: scripted(() => {}).source, log: entries, asRecorded: true });
          expect(view(again.getSnapshot().thread)).toEqual(view(thread));
          again.destroy();
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});
