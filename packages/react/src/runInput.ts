import { newId, PROTOCOL_VERSION, type RunAgentInput, type ThreadState, type Tool, toAgUiMessages } from '@aguikit/core';
import type { AgentStoreOptions, RunRequest } from './types.js';

/** The frontend tools as the agent is told of them: name, description, parameters (the handlers stay here). */
export function toolsInput(tools: AgentStoreOptions['tools']): Tool[] {
  return Object.entries(tools ?? {}).map(([name, t]) => ({
    name,
    description: t.description,
    ...(t.parameters ? { parameters: t.parameters } : {}),
  }));
}

/** The input of a new run on `thread`: the whole history, the shared state, the tools, and the request's context over the store's. */
export function runInput(threadId: string, thread: ThreadState, request: RunRequest, options: AgentStoreOptions): RunAgentInput {
  const forwardedProps = request.forwardedProps ?? options.forwardedProps;
  return {
    threadId,
    runId: newId('run'),
    protocolVersion: PROTOCOL_VERSION,
    ...(thread.run.runId !== undefined ? { parentRunId: thread.run.runId } : {}),
    state: thread.sharedState.document,
    messages: toAgUiMessages(thread),
    tools: toolsInput(options.tools),
    context: request.context ?? options.context ?? [],
    ...(forwardedProps !== undefined ? { forwardedProps } : {}),
  };
}
