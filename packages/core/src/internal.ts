/**
 * `@aguikit/core/internal`: what aguikit's own packages, tests and tools use,
 * exported so they need not reach into files. Not part of the public API: a
 * name here may change or go in any release. Applications use
 * `@aguikit/core`.
 */

export { classifyFailure, isRetryable } from './controller/classifyFailure.js';
export { createThreadMachine, type MachineCallbacks, type ThreadMachine } from './controller/machine.js';
export { reportThrown, tellApp } from './controller/report.js';
export { createSessionLog } from './controller/sessionLog.js';
export { enumCopy } from './enumCopy.js';
export { createEventLog, parseEventLog, serializeEventLog } from './eventLog.js';
export { type IdMap, idMap } from './idMap.js';
export { newId } from './ids.js';
export { LARGE_OBJECT_KEYS } from './jsonPatch.js';
export { UNDERSTOOD_PROTOCOL_VERSION } from './protocol.js';
export { appendMessages, cancelRun, setSharedDocument } from './reducer/local.js';
export { MAX_JSON_DEPTH } from './reducer/ownJson.js';
export { recordResume, streamTruncated } from './reducer/run.js';
export { addToolResult, markToolCallExecuting } from './reducer/toolLocal.js';
