import { newId } from '../ids.js';
import type { ThreadState, ToolCallRecord } from '../model.js';
import { toPlainJson } from '../plainJson.js';
import { thrownText } from '../thrownText.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { Stream } from './stream.js';
import type { FrontendTool } from './types.js';

export interface ToolDeps {
  thread(): ThreadState;
  tools(): Record<string, FrontendTool> | undefined;
  /** Records a client entry (the events before it applied first), unless `still` says no once they have. */
  client(entry: SessionEntryBody, still?: () => boolean): void;
  publish(): void;
}

/**
 * Runs frontend tools once their run has finished (`RUN_FINISHED`: the
 * agent's turn is over and it waits for their results): each call of that
 * run that is `ready`, except one an open
 * interrupt holds (it waits for the answer); and each call an answer of the
 * stream's resume released (a rejection made it `denied`, a cancellation
 * `cancelled`: neither runs). A call that arrives after its run ended belongs
 * to no run, and does not run. The handler gets an AbortSignal; the call is
 * `executing` meanwhile, and its result (or error) is recorded whenever it
 * lands, unless the stream that started it was torn down (stop, reset,
 * destroy), which also aborts the signal. A call whose arguments are not JSON,
 * or to a tool the app (which gave tools, or offered some in the run's
 * request) does not have, does not run: it fails, and the agent is told why.
 * An app that gave no tools runs none.
 */
export function frontendTools(deps: ToolDeps): (stream: Stream, runId: string) => void {
  /** A call no handler can take fails at once, and the agent hears why with the results of the others. */
  const fail = (stream: Stream, toolCallId: string, message: string) => {
    stream.tools.set(toolCallId, { done: Promise.resolve(), abort: new AbortController() });
    deps.client({ type: 'tool_result', toolCallId, messageId: newId('tool-result'), content: message, error: message }, () => stream.live);
    deps.publish();
  };
  const start = (stream: Stream, call: ToolCallRecord, tool: FrontendTool | undefined) => {
    // A tool started before it (or a listener it told) may have stopped the run: then nothing more starts.
    if (!stream.live) return;
    const toolCallId = call.id;
    // Arguments that are not JSON (or too deep) are no call the handler can take.
    if (call.argsError !== undefined) {
      const why = call.argsErrorCode === 'TOO_DEEP' ? call.argsError : `not valid JSON: ${call.argsError}`;
      return fail(stream, toolCallId, `The tool did not run: its arguments are ${why}.`);
    }
    // Nobody would ever run it: Ready would be a promise nobody keeps.
    if (!tool) return fail(stream, toolCallId, `The tool did not run: this app has no tool named ${JSON.stringify(call.name)}.`);
    // The stream holds the run before anyone hears of it: a stop from then on (a listener's, the handler's own) aborts it.
    const abort = new AbortController();
    let finished: () => void = () => undefined;
    stream.tools.set(toolCallId, { done: new Promise<void>((resolve) => (finished = resolve)), abort });
    // The events waiting before it apply first: a listener of theirs that stopped or reset the run leaves no call to start.
    deps.client({ type: 'tool_started', toolCallId }, () => stream.live);
    deps.publish();
    // A listener told the call is executing stopped the run: the handler is not called at all.
    if (!stream.live) {
      finished();
      return;
    }
    void (async () => {
      let result: { content: string; error?: string };
      try {
        // Copies: what the handler changes is its own, never the thread's record of what the agent asked. A record
        // grown past LARGE_OBJECT_KEYS (its metadata, merged per key) holds a Proxy, which structuredClone refuses.
        const copy = structuredClone(toPlainJson(call));
        const value = await tool.handler(copy.args, copy, { signal: abort.signal });
        const content = typeof value === 'string' ? value : JSON.stringify(value ?? null);
        if (content === undefined) throw new TypeError(`The tool returned a ${typeof value}, which has no JSON form.`);
        result = { content };
      } catch (e) {
        const message = thrownText(e);
        result = { content: message, error: message };
      }
      try {
        // Checked again once the events waiting before it have applied: a listener of theirs may have torn the stream down.
        const still = () => stream.live && !abort.signal.aborted;
        if (still()) {
          deps.client({ type: 'tool_result', toolCallId, messageId: newId('tool-result'), ...result }, still);
          deps.publish();
        }
      } finally {
        finished();
      }
    })();
  };
  const startAll = (stream: Stream, runId: string, known: ReadonlySet<string>) => {
    const thread = deps.thread();
    // The tools the app has, or none where the request offered some (the component that gave them hidden since):
    // the agent was told they are there, and hears they are not.
    const tools = deps.tools() ?? (stream.input.tools?.length ? {} : undefined);
    // That run's own end, not the current run's: a RUN_STARTED of the next run in the same batch changes nothing.
    // (An inherited member, `constructor` for a run id, has no status.)
    const status = thread.runs[runId]?.status;
    if (!tools || !stream.live || (status !== 'success' && status !== 'interrupted')) return;
    for (const call of thread.toolCalls) {
      if (call.status !== 'ready' || call.interruptId !== undefined || stream.tools.has(call.id)) continue;
      if (!known.has(call.id) && call.answer?.runId !== stream.input.runId) continue;
      // Only the app's own tools: a call named `toString` or `constructor` is not one of Object's members.
      start(stream, call, Object.hasOwn(tools, call.name) ? (tools[call.name] as FrontendTool) : undefined);
    }
  };
  // Told of RUN_FINISHED before it applies: the calls there are now are the run's (one sent after it is no call of
  // the run, however soon it applies). They start once it has applied, with the rest of its batch, which may hold
  // interrupts that hold them.
  return (stream, runId) => {
    const known = new Set<string>();
    for (const call of deps.thread().toolCalls) if (call.runId === runId) known.add(call.id);
    queueMicrotask(() => startAll(stream, runId, known));
  };
}
