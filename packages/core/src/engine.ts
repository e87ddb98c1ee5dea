/**
 * `@aguikit/core/engine`: the engine's pieces, for a binding or a tool of
 * your own: validate -> expand -> verify -> reduce one event at a time
 * (`createEventPipeline`), replay a saved log (`replaySession`,
 * `replayEvents`), compact an event log, apply JSON Patch. The run controller
 * of `@aguikit/core` loads what it needs of this on demand; importing it here
 * loads it up front.
 */
export { replaySession } from './controller/replay.js';
export { compactEvents } from './eventLog.js';
export type { ExpandedEvent, Expander, ExpandResult } from './expand.js';
export { createExpander } from './expand.js';
export type { PatchFailureCode, PatchResult } from './jsonPatch.js';
export { applyJsonPatch, loadLargeObjects } from './jsonPatch.js';
export type { EventPipeline, PipelineOptions, ReplayOptions } from './pipeline.js';
export { createEventPipeline, replayEvents } from './pipeline.js';
export type { ThreadStateInit } from './reducer/index.js';
export { createThreadState, reduceThread } from './reducer/index.js';
export { schemaSize } from './schemaSize.js';
export type { ValidateOptions, ValidationResult } from './validate.js';
export { validateEvent } from './validate.js';
export type { Verifier, VerifierOptions } from './verify.js';
export { createVerifier } from './verify.js';
