/**
 * fast-check arbitraries for valid AG-UI event streams: runs with interleaved
 * text, reasoning and tool calls, results, re-opened messages, activities,
 * state snapshots and deltas that apply, message snapshots, interrupts and
 * their resumes. A stream is drawn as a plan, then written out in order by
 * `writeStream`, so that every id, patch path and resume is resolved against
 * what was sent before it.
 */
import fc from 'fast-check';
import {
  type EndPlan,
  type FreshMessage,
  type OpIntent,
  type OpKind,
  type ParentChoice,
  type Part,
  type RunPlan,
  type SegmentPlan,
  STATE_KEYS,
  TEXT_ROLES,
  type UnitPlan,
  type WireEvent,
  writeStream,
} from './arbitrariesWriter.js';

export type { WireEvent };

const word = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 3 }));
const json = fc.jsonValue({ maxDepth: 2 });
const stateKey = fc.constantFrom(...STATE_KEYS);
const stateDocument = fc.dictionary(stateKey, json, { maxKeys: 4 });

const parts = fc.array(
  fc.oneof(
    word.map((text): Part => ({ type: 'text', text })),
    fc
      .constantFrom('https://example.com/a.png', 'https://example.com/b.png')
      .map((value): Part => ({ type: 'image', source: { type: 'url', value } })),
  ),
  { minLength: 1, maxLength: 2 },
);

const toolName = fc.constantFrom('search', 'get_weather', 'confirm');
const argsText = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 3 }).map((a) => JSON.stringify(a)) },
  { weight: 1, arbitrary: fc.constant('') },
);

const freshMessage: fc.Arbitrary<FreshMessage> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: fc.oneof(word, parts) }),
  fc.record({ role: fc.constantFrom('system' as const, 'developer' as const, 'reasoning' as const), content: word }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: fc.option(word, { nil: undefined }),
    calls: fc.array(fc.record({ name: toolName, args: argsText, answer: fc.option(word, { nil: undefined }) }), { maxLength: 2 }),
  }),
);

const opIntent: fc.Arbitrary<OpIntent> = fc.record({
  kind: fc.constantFrom<OpKind>('add', 'replace', 'remove', 'move', 'copy', 'test', 'append', 'nested'),
  key: stateKey,
  pick: fc.nat(),
  value: json,
});
const ops = fc.array(opIntent, { minLength: 1, maxLength: 3 });

const unitPlan: fc.Arbitrary<UnitPlan> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      role: fc.option(fc.constantFrom(...TEXT_ROLES), { nil: undefined, freq: 3 }),
      name: fc.option(fc.constantFrom('alice', 'bot'), { nil: undefined, freq: 4 }),
      deltas: fc.array(word, { maxLength: 4 }),
      subagent: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      subagent: fc.boolean(),
      name: toolName,
      parent: fc.oneof(
        fc.constant<ParentChoice>({ kind: 'none' }),
        fc.constant<ParentChoice>({ kind: 'fresh' }),
        fc.record({ kind: fc.constantFrom('sibling' as const, 'known' as const), pick: fc.nat() }),
      ),
      args: argsText,
      cuts: fc.array(fc.nat(), { maxLength: 4 }),
      result: fc.option(
        fc.record({ content: fc.oneof({ weight: 3, arbitrary: word }, { weight: 1, arbitrary: parts }), role: fc.boolean() }),
        {
          nil: undefined,
          freq: 4,
        },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reasoning' as const), span: fc.boolean(), deltas: fc.array(word, { maxLength: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), pick: fc.nat(), deltas: fc.array(word, { maxLength: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('activity' as const),
      pick: fc.option(fc.nat(), { nil: undefined }),
      replace: fc.option(fc.boolean(), { nil: undefined }),
      content: stateDocument,
      deltas: fc.array(ops, { maxLength: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('stateSnapshot' as const), snapshot: stateDocument, deltas: fc.array(ops, { maxLength: 3 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('stateDelta' as const), ops }) },
  { weight: 1, arbitrary: fc.constant<UnitPlan>({ kind: 'step' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('custom' as const), value: json }) },
);

const segmentPlan: fc.Arbitrary<SegmentPlan> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('group' as const),
      units: fc.array(unitPlan, { minLength: 1, maxLength: 4 }),
      // Small numbers, so that one unit often sends several events in a row.
      schedule: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 12 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('messagesSnapshot' as const),
      keep: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      fresh: fc.array(freshMessage, { maxLength: 3 }),
    }),
  },
);

const endPlan: fc.Arbitrary<EndPlan> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('plain' as const), result: fc.option(json, { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('success' as const), result: fc.option(json, { nil: undefined }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('interrupt' as const),
      reasons: fc.array(fc.constantFrom('input_required', 'confirmation', 'tool_call', 'acme:review'), { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant<EndPlan>({ kind: 'cancelled' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('error' as const), cut: fc.nat({ max: 30 }) }) },
);

const runPlan: fc.Arbitrary<RunPlan> = fc.record({
  echo: fc.array(freshMessage, { maxLength: 2 }),
  restate: fc.array(fc.nat(), { maxLength: 2 }),
  segments: fc.array(segmentPlan, { minLength: 1, maxLength: 4 }),
  end: endPlan,
});

/** Metadata an event may carry: a few keys that recur, so that merges overwrite (never the reserved `ag-ui`). */
const metadata = fc.dictionary(fc.constantFrom('trace', 'usage', 'model', 'n'), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 2 });
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
/** What the n-th event of a stream carries besides its own fields: metadata and a timestamp, each on about a quarter of the events. */
const extras = fc.array(fc.record({ metadata: sometimes(metadata), timestamp: sometimes(fc.nat()) }), { maxLength: 80 });

/** Adds the base fields drawn in `extras` to the events, the n-th to the n-th. */
function decorate(events: WireEvent[], drawn: { metadata: unknown; timestamp: number | undefined }[]): WireEvent[] {
  const out = events.map((e, i) => {
    const extra = drawn[i];
    if (!extra) return e;
    const next: WireEvent = { ...e };
    if (extra.metadata !== undefined) next.metadata = extra.metadata;
    if (extra.timestamp !== undefined) next.timestamp = extra.timestamp;
    return next;
  });
  return JSON.parse(JSON.stringify(out)) as WireEvent[];
}

/** Streams that follow AG-UI 1.0: one to three runs of the thread 't', a quarter of their events with metadata or a timestamp. */
export const validStream: fc.Arbitrary<WireEvent[]> = fc
  .tuple(fc.array(runPlan, { minLength: 1, maxLength: 3 }), extras)
  .map(([runs, drawn]) => decorate(writeStream(runs), drawn));
