import type { RunActions, RunControllerOptions, RunSnapshot } from '@aguikit/core';

export type {
  ActionResult,
  FrontendTool,
  Refusal,
  RefusalCode,
  RunFailure,
  RunFailureCode,
  RunRequest,
} from '@aguikit/core';

/** The options of a store: those of the `RunController` it binds. */
export type AgentStoreOptions<Doc = unknown> = RunControllerOptions<Doc>;

/** The actions a store holds: the controller's. */
export type AgentActions<Doc = unknown> = RunActions<Doc>;

/** What a store holds: the controller's snapshot and its actions. */
export type AgentStoreState<Doc = unknown> = RunSnapshot & RunActions<Doc>;
