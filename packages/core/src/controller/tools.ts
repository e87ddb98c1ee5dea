import { newId } from '../ids.js';
import type { ThreadState } from '../model.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { Stream } from './stream.js';
import type { FrontendTool } from './types.js';

export interface ToolDeps {
  thread(): ThreadState;
  tools(): Record<string, FrontendTool> | undefined;
  /** Records a client entry (the events before it applied first). */
  client(entry: SessionEntryBody): void;
  publish(): void;
}

/**
 * Runs frontend tools: once a call's arguments are complete (TOOL_CALL_END)
 * and the app has a tool of that name, its handler runs with an AbortSignal;
 * the call is `executing` meanwhile, and its result (or error) is recorded
 * whenever it lands, unless the stream that started it was torn down (stop,
 * reset, destroy), which also aborts the signal.
 */
export function frontendTools(deps: ToolDeps): (stream: Stream, toolCallId: string) => void {
  return (stream, toolCallId) => {
    const call = deps.thread().toolCalls.get(toolCallId);
    const tools = deps.tools();
    // Only the app's own tools: a call named `toString` or `constructor` is not one of Object's members.
    const tool = call && tools && Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
    if (!call || !tool || !stream.live || stream.tools.has(toolCallId) || call.status !== 'ready') return;
    deps.client({ type: 'tool_started', toolCallId });
    deps.publish();
    const abort = new AbortController();
    const done = (async () => {
      let result: { content: string; error?: string };
      try {
        const value = await tool.handler(call.args, call, { signal: abort.signal });
        const content = typeof value === 'string' ? value : JSON.stringify(value ?? null);
        if (content === undefined) throw new TypeError(`The tool returned a ${typeof value}, which has no JSON form.`);
        result = { content };
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        result = { content: message, error: message };
      }
      if (!stream.live || abort.signal.aborted) return;
      deps.client({ type: 'tool_result', toolCallId, messageId: newId('tool-result'), ...result });
      deps.publish();
    })();
    stream.tools.set(toolCallId, { done, abort });
  };
}
