/**
 * The verifier's open steps, reasoning spans, subagents, messages and tool
 * calls against an agent that closes and opens the same one again and
 * again while thousands are open. A key deleted from a Map and set again
 * lengthens the Map's chain for it until the Map is rebuilt: 40,000 open
 * and the newest closed and opened 40,000 times took seconds for each kind.
 * And whatever way the sets came to be (forked, closed and opened, compacted),
 * the verifier reports what a plain list of what is open says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, type Verifier } from '../src/verify.js';

const N = 80_000;
/** Tens of milliseconds an event in O(1); several seconds when each reopening walks a chain of the ones before. */
const BUDGET_MS = 1_000;

const kinds: [string, (id: string) => object, (id: string) => object][] = [
  ['steps', (id) => ({ type: 'STEP_STARTED', stepName: id }), (id) => ({ type: 'STEP_FINISHED', stepName: id })],
  ['reasoning spans', (id) => ({ type: 'REASONING_START', messageId: id }), (id) => ({ type: 'REASONING_END', messageId: id })],
  ['subagents', (id) => ({ type: 'SUBAGENT_STARTED', subagentRunId: id }), (id) => ({ type: 'SUBAGENT_FINISHED', subagentRunId: id })],
  [
    'text messages',
    (id) => ({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' }),
    (id) => ({ type: 'TEXT_MESSAGE_END', messageId: id }),
  ],
  [
    'reasoning messages',
    (id) => ({ type: 'REASONING_MESSAGE_START', messageId: id }),
    (id) => ({ type: 'REASONING_MESSAGE_END', messageId: id }),
  ],
  [
    'tool calls',
    (id) => ({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'f' }),
    (id) => ({ type: 'TOOL_CALL_END', toolCallId: id }),
  ],
];

describe('the verifier in O(1) an event, however often one is closed and opened again', { timeout: 120_000 }, () => {
  it.each(kinds)('%s: 80,000 open, the newest closed and opened again 80,000 times', (_kind, open, close) => {
    let best = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 2 && best >= BUDGET_MS; attempt++) {
      const verifier = createVerifier();
      let at = 0;
      verifier.check({ type: 'RUN_STARTED', threadId: 't', runId: 'r' } as never, at++);
      for (let i = 0; i < N; i++) verifier.check(open(`k${i}`) as never, at++);
      const began = performance.now();
      let found = 0;
      for (let i = 0; i < N; i++) {
        found += verifier.check(close(`k${N - 1}`) as never, at++).length;
        found += verifier.check(open(`k${N - 1}`) as never, at++).length;
      }
      best = Math.min(best, performance.now() - began);
      // Tool calls: an id started again is a duplicate start; everything else is fine.
      expect(found).toBe(_kind === 'tool calls' ? N : 0);
    }
    expect(best).toBeLessThan(BUDGET_MS);
  });
});

type Op = { kind: 0 | 1 | 2; open: boolean; id: number } | 'fork' | 'finish';

/** What the verifier says of each event, by a list of what is open per kind (in the order each last opened). */
function model() {
  const open: string[][] = [[], [], []];
  return (op: Exclude<Op, 'fork'>): string[] => {
    if (op === 'finish') {
      const said = [
        ...(open[2]?.length ? [`SUBAGENT_STILL_ACTIVE ${open[2].join(', ')}`] : []),
        ...(open[0]?.length ? [`STEP_STILL_ACTIVE ${open[0].join(', ')}`] : []),
      ];
      open[0] = [];
      open[2] = [];
      return said;
    }
    const list = open[op.kind] as string[];
    const id = `i${op.id}`;
    const has = list.includes(id);
    if (op.open) {
      if (!has) list.push(id);
      return has ? [['STEP_ALREADY_ACTIVE', '', 'DUPLICATE_SUBAGENT'][op.kind] as string] : [];
    }
    if (has) list.splice(list.indexOf(id), 1);
    return has ? [] : [['STEP_NOT_STARTED', 'REASONING_END_WITHOUT_START', 'SUBAGENT_NOT_STARTED'][op.kind] as string];
  };
}

const eventOf = (op: Exclude<Op, 'fork'>, run: number): object => {
  if (op === 'finish') return { type: 'RUN_FINISHED', threadId: 't', runId: `r${run}` };
  const id = `i${op.id}`;
  return (
    [
      [
        { type: 'STEP_FINISHED', stepName: id },
        { type: 'STEP_STARTED', stepName: id },
      ],
      [
        { type: 'REASONING_END', messageId: id },
        { type: 'REASONING_START', messageId: id },
      ],
      [
        { type: 'SUBAGENT_FINISHED', subagentRunId: id },
        { type: 'SUBAGENT_STARTED', subagentRunId: id },
      ],
    ][op.kind] as object[]
  )[op.open ? 1 : 0] as object;
};

const said = (found: readonly { code: string; message: string }[]) =>
  found.map((d) =>
    d.code === 'STEP_STILL_ACTIVE' || d.code === 'SUBAGENT_STILL_ACTIVE' ? `${d.code} ${/active: (.*)\.$/.exec(d.message)?.[1]}` : d.code,
  );

describe('the verifier reports what a list of what is open says', () => {
  it('steps, spans and subagents closed and opened at random, across forks and runs (and compactions)', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 60,
        arbitrary: fc.record({
          kind: fc.constantFrom(0 as const, 1 as const, 2 as const),
          open: fc.constantFrom(true, false, false, false),
          id: fc.nat(300),
        }),
      },
      { weight: 1, arbitrary: fc.constant('fork' as const) },
      { weight: 1, arbitrary: fc.constant('finish' as const) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), fc.array(op, { maxLength: 300 }), (ops, tail) => {
        // Two verifiers going on from each fork: the one forked takes `tail`, the other the rest; each as the model says.
        type Lane = { verifier: Verifier; step: ReturnType<typeof model>; at: number; run: number };
        const begin = (lane: Lane) => {
          lane.verifier.check({ type: 'RUN_STARTED', threadId: 't', runId: `r${++lane.run}` } as never, lane.at++);
        };
        const apply = (lane: Lane, o: Exclude<Op, 'fork'>) => {
          expect(said(lane.verifier.check(eventOf(o, lane.run) as never, lane.at++))).toEqual(lane.step(o));
          if (o === 'finish') begin(lane);
        };
        const main: Lane = { verifier: createVerifier(), step: model(), at: 0, run: 0 };
        begin(main);
        // The model of a fork: the same ops replayed into a model of its own.
        const done: Exclude<Op, 'fork'>[] = [];
        for (const o of ops) {
          if (o !== 'fork') {
            apply(main, o);
            done.push(o);
            continue;
          }
          const forked: Lane = { verifier: main.verifier.fork(), step: model(), at: main.at, run: main.run };
          for (const d of done) forked.step(d);
          for (const t of tail) if (t !== 'fork') apply(forked, t);
        }
      }),
      { numRuns: 100 },
    );
  });
});
