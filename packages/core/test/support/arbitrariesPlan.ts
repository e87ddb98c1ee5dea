/** The plan of a stream as fast-check draws it, and the plain events it is written to (see arbitrariesWriter.ts). */
export type WireEvent = { type: string; [field: string]: unknown };
export type Obj = Record<string, unknown>;

export const TEXT_ROLES = ['assistant', 'user', 'system', 'developer'] as const;
/** Keys of the shared state document: some need JSON Pointer escaping, some shadow Object.prototype. */
export const STATE_KEYS = ['a', 'b', 'count', 'items', 'a/b', 'x~y', '', 'constructor', 'toString'] as const;
export type StateKey = (typeof STATE_KEYS)[number];

/** The plan of a stream as fast-check draws it: picks and intents, not ids and paths, which depend on what was sent before. */
export type Part = { type: 'text'; text: string } | { type: 'image'; source: { type: 'url'; value: string } };
export type ParentChoice = { kind: 'none' } | { kind: 'fresh' } | { kind: 'sibling' | 'known'; pick: number };
export type OpKind = 'add' | 'replace' | 'remove' | 'move' | 'copy' | 'test' | 'append' | 'nested';
export interface OpIntent {
  kind: OpKind;
  key: StateKey;
  pick: number;
  value: unknown;
}
export type FreshMessage =
  | { role: 'user'; content: string | Part[] }
  | { role: 'system' | 'developer' | 'reasoning'; content: string }
  | { role: 'assistant'; content: string | undefined; calls: { name: string; args: string; answer: string | undefined }[] };

export type UnitPlan =
  | { kind: 'text'; role: (typeof TEXT_ROLES)[number] | undefined; name: string | undefined; deltas: string[]; subagent: boolean }
  | {
      kind: 'tool';
      subagent: boolean;
      name: string;
      parent: ParentChoice;
      args: string;
      cuts: number[];
      result: { content: string | Part[]; role: boolean } | undefined;
    }
  | { kind: 'reasoning'; span: boolean; deltas: string[] }
  | { kind: 'reopen'; pick: number; deltas: string[] }
  | { kind: 'activity'; pick: number | undefined; replace: boolean | undefined; content: Obj; deltas: OpIntent[][] }
  | { kind: 'stateSnapshot'; snapshot: Obj; deltas: OpIntent[][] }
  | { kind: 'stateDelta'; ops: OpIntent[] }
  | { kind: 'step' }
  | { kind: 'custom'; value: unknown };

export type SegmentPlan =
  | { kind: 'group'; units: UnitPlan[]; schedule: number[] }
  | { kind: 'messagesSnapshot'; keep: boolean[]; fresh: FreshMessage[] };

export type EndPlan =
  | { kind: 'plain'; result: unknown }
  | { kind: 'success'; result: unknown }
  | { kind: 'interrupt'; reasons: string[] }
  | { kind: 'cancelled' }
  | { kind: 'error'; cut: number };

export interface RunPlan {
  echo: FreshMessage[];
  restate: number[];
  segments: SegmentPlan[];
  end: EndPlan;
}
