/** The thread machine's shape (`machine.ts`): what the controller, a recording and a replay drive. */
import type { ExpandedEvent } from '../expand.js';
import type { Diagnostic, ThreadState } from '../model.js';
import type { EventPipeline } from '../pipeline.js';
import type { ResumeTaken } from '../reducer/run.js';
import type { Engine } from './engineLoader.js';
import type { SessionEntryBody } from './sessionLog.js';
import type { Init } from './transitions.js';

export interface MachineCallbacks {
  /** The engine, or `undefined` while it has not loaded: an entry that needs it then throws. */
  engine: () => Engine | undefined;
  /** Every event that reaches the reducer, with its index among the thread's agent events. */
  onEvent?: (event: ExpandedEvent, index: number) => void;
  onDiagnostic?: ((diagnostic: Diagnostic) => void) | undefined;
}

export interface ThreadMachine {
  readonly thread: ThreadState;
  /** A stream is open (its events go to its pipeline, made at its first event). */
  readonly streaming: boolean;
  /** A stream ended inside its run and can go on (`stream_start` with `reconnect`). */
  readonly reconnectable: boolean;
  /** How many agent events were applied. */
  readonly eventCount: number;
  /** An `init` entry was applied: a reset starts the thread again from it. */
  readonly started: boolean;
  /** A resume's answers wait for its stream's first event, and the agent has not answered its request: a stop gives them back. */
  readonly resumeAwaiting: boolean;
  apply(entry: SessionEntryBody): ThreadState;
  /**
   * Applies entries in one batch (`apply`, inside `apply`), seen only at its end: thousands of messages in linear
   * time, and arrays its agent events made grown in place (batchOwned.ts). Its thread has plain messages again unless
   * `seen` is false (a recording's checkpoint, read only by a fork's later batch: its ids stay a list sharing the past).
   */
  batch(apply: () => void, seen?: boolean): void;
  /** A machine in the state this one is in (its streams' pipelines copied), heard by `callbacks`, that goes on apart from it. */
  fork(callbacks: MachineCallbacks): ThreadMachine;
}

/** What a machine holds between entries (see `fork`). */
export interface MachineState {
  init: Init | undefined;
  thread: ThreadState;
  opened: boolean;
  pipeline: EventPipeline | undefined;
  dropped: EventPipeline | undefined;
  runId: string | undefined;
  unstarted: string | undefined;
  refused: ResumeTaken | undefined;
  events: number;
  answering: ResumeTaken | undefined;
  agentHas: ResumeTaken | undefined;
}
