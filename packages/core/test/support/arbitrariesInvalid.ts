/**
 * fast-check arbitraries for input that is not a valid stream:
 *
 * - `eventLike`: objects shaped like events of a random type (real or not),
 *   with fields missing, wrong-typed, or pointing at ids that may not exist.
 * - `anyValue`: anything at all, JSON or not, mostly event-like.
 * - `mostlyValidStream`: valid streams with noise inserted and events damaged.
 */
import fc from 'fast-check';
import { EVENT_SHAPES, type FieldKind } from '../../src/eventShapes.js';
import { EVENT_TYPES } from '../../src/index.js';
import { validStream } from './arbitraries.js';

type Obj = Record<string, unknown>;

const RETIRED = [
  'THINKING_START',
  'THINKING_END',
  'THINKING_TEXT_MESSAGE_START',
  'THINKING_TEXT_MESSAGE_CONTENT',
  'THINKING_TEXT_MESSAGE_END',
];
/** Real event type names, retired ones, and names that are not event types (some shadow Object.prototype). */
const TYPE_NAMES = [
  ...EVENT_TYPES,
  ...RETIRED,
  'UNKNOWN_EVENT',
  'text_message_start',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

const idPool = fc.constantFrom('m1', 'm2', 'c1', 'c2', 'i1', 's1', 'run1', 'run2', 't', '', ...PROTO_KEYS);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string({ maxLength: 3 }),
  fc.constant([]),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 1 }),
);
const usually = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: junk });

/** An object with the given entries as own properties (a `__proto__` key stays a key, as JSON.parse leaves it). */
function ownObject(entries: readonly (readonly [string, unknown])[]): Obj {
  const o: Obj = {};
  for (const [k, v] of entries) {
    if (v !== undefined) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return o;
}

/** A record whose keys are each present with probability 1/2 (or `undefined`-valued keys dropped). */
const someOf = (fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Obj> =>
  fc.record(fields, { requiredKeys: [] }).map((r) => ownObject(Object.entries(r)));

const pointerLike = fc.constantFrom(
  '',
  '/',
  '/a',
  '/a/b',
  '/count',
  '/items/-',
  '/items/0',
  '/items/9',
  '/~1',
  '/a~0b',
  '/__proto__',
  '/__proto__/polluted',
  '/a/__proto__/polluted',
  '/constructor/prototype/polluted',
  '/constructor',
  'a',
);
const patchOpLike = usually(
  someOf({
    op: fc.oneof(fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'merge'), junk),
    path: usually(pointerLike),
    from: usually(pointerLike),
    value: fc.jsonValue({ maxDepth: 1 }),
  }),
);
const patchLike = usually(fc.array(patchOpLike, { maxLength: 3 }));
const partsLike = fc.array(
  usually(
    fc.oneof(
      someOf({ type: fc.constant('text'), text: usually(fc.string({ maxLength: 3 })) }),
      someOf({
        type: fc.constantFrom('image', 'audio', 'sticker'),
        source: usually(someOf({ type: fc.constantFrom('url', 'data'), value: fc.string() })),
      }),
    ),
  ),
  { maxLength: 2 },
);
const contentLike = fc.oneof(fc.string({ maxLength: 4 }), partsLike, junk);
const toolCallLike = usually(
  someOf({
    id: usually(idPool),
    type: fc.constant('function'),
    function: usually(
      someOf({ name: usually(fc.string({ maxLength: 3 })), arguments: usually(fc.constantFrom('{}', '{"a":1}', '{', '')) }),
    ),
  }),
);
const messageLike = usually(
  someOf({
    id: usually(idPool),
    role: usually(fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'reasoning', 'activity', 'robot')),
    content: contentLike,
    toolCallId: usually(idPool),
    toolCalls: usually(fc.array(toolCallLike, { maxLength: 2 })),
    name: usually(fc.string({ maxLength: 3 })),
    error: usually(fc.string({ maxLength: 3 })),
    activityType: usually(fc.string({ maxLength: 3 })),
    metadata: usually(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
  }),
);
const messagesLike = usually(fc.array(messageLike, { maxLength: 3 }));
const interruptLike = usually(
  someOf({
    id: usually(idPool),
    reason: usually(fc.constantFrom('tool_call', 'input_required', 'confirmation', 'acme:review')),
    toolCallId: usually(idPool),
    message: fc.string({ maxLength: 3 }),
    expiresAt: usually(fc.constantFrom('2020-01-01T00:00:00Z', '2999-01-01T00:00:00Z', 'soon')),
    responseSchema: usually(fc.constant({ type: 'object' })),
  }),
);
const outcomeLike = usually(
  fc.oneof(
    someOf({ type: fc.constant('success'), pendingToolCallIds: usually(fc.array(usually(idPool), { maxLength: 2 })) }),
    someOf({ type: fc.constant('interrupt'), interrupts: usually(fc.array(interruptLike, { maxLength: 2 })) }),
    fc.constant({ type: 'cancelled' }),
    someOf({ type: junk }),
  ),
);
const runInputLike = someOf({
  threadId: usually(idPool),
  runId: usually(idPool),
  messages: messagesLike,
  resume: usually(
    fc.array(
      usually(someOf({ interruptId: usually(idPool), status: usually(fc.constantFrom('resolved', 'cancelled', 'maybe')), payload: junk })),
      { maxLength: 2 },
    ),
  ),
  state: fc.jsonValue({ maxDepth: 1 }),
  tools: usually(fc.constant([])),
  context: usually(fc.constant([])),
});

function fieldValue(kind: FieldKind, field: string): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      if (field === 'threadId') return usually(fc.constantFrom('t', 't2'));
      if (/Id$|^name$|^stepName$|^toolCallName$/.test(field)) return usually(idPool);
      return usually(fc.string({ maxLength: 4 }));
    case 'number':
      return usually(fc.integer());
    case 'boolean':
      return usually(fc.boolean());
    case 'runInput':
      return usually(runInputLike);
    case 'object':
      return usually(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
    case 'json':
      return fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.anything({ maxDepth: 1 }));
    case 'content':
      return contentLike;
    case 'patch':
      return patchLike;
    case 'messages':
      return messagesLike;
    case 'usage':
      return usually(fc.array(usually(someOf({ inputTokens: fc.nat(), model: fc.string({ maxLength: 3 }) })), { maxLength: 2 }));
    case 'runOutcome':
      return outcomeLike;
    case 'subagentOutcome':
      return usually(someOf({ type: usually(fc.constantFrom('success', 'suspended')), interruptIds: usually(fc.array(usually(idPool))) }));
    case 'textRole':
      return usually(fc.constantFrom('assistant', 'user', 'system', 'developer', 'tool', 'robot'));
    case 'toolRole':
      return usually(fc.constantFrom('tool', 'assistant'));
    case 'reasoningRole':
      return usually(fc.constantFrom('reasoning', 'assistant'));
    case 'encryptedSubtype':
      return usually(fc.constantFrom('tool-call', 'message', 'other'));
  }
}

const BASE: Record<string, FieldKind> = { timestamp: 'number', metadata: 'object', rawEvent: 'json', subagentRunId: 'string' };
const EXTRA_FIELDS = ['extra', ...PROTO_KEYS];

/**
 * An object shaped like an event of a random type: each field the type knows
 * is likely present and likely of the right kind, ids come from a small pool
 * so that events meet each other, and unknown fields turn up now and then.
 */
export const eventLike: fc.Arbitrary<Obj> = fc.constantFrom(...TYPE_NAMES).chain((type) => {
  const shape = Object.hasOwn(EVENT_SHAPES, type) ? EVENT_SHAPES[type] : undefined;
  const fields: [string, fc.Arbitrary<unknown>][] = [];
  for (const [f, kind] of Object.entries(shape?.required ?? {}))
    fields.push([f, fc.option(fieldValue(kind, f), { nil: undefined, freq: 12 })]);
  for (const [f, kind] of Object.entries({ ...(shape?.optional ?? {}), ...BASE })) {
    fields.push([f, fc.option(fieldValue(kind, f), { nil: undefined, freq: 2 })]);
  }
  for (const f of EXTRA_FIELDS) fields.push([f, fc.option(junk, { nil: undefined, freq: 20 })]);
  return fc.tuple(...fields.map(([, arb]) => arb)).map((values) => ({
    ...ownObject(fields.map(([f], i) => [f, values[i]] as const)),
    type,
  }));
});

/** Any value: JSON, JS values JSON cannot hold, or something shaped like an event. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.record({ type: fc.oneof(fc.constantFrom(...TYPE_NAMES), junk) }, { requiredKeys: [] }) },
  { weight: 4, arbitrary: eventLike },
);

type Damage =
  | { kind: 'drop'; at: number; field: number }
  | { kind: 'junk'; at: number; field: string; value: unknown }
  | { kind: 'duplicate'; at: number }
  | { kind: 'badPatch'; at: number; ops: unknown };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), field: fc.nat() }),
  fc.record({
    kind: fc.constant('junk' as const),
    at: fc.nat(),
    field: fc.constantFrom('timestamp', 'subagentRunId', 'delta', 'messageId', 'toolCallId', 'runId', 'snapshot', 'metadata', 'role'),
    value: junk,
  }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('badPatch' as const),
    at: fc.nat(),
    ops: fc.oneof(
      fc.constant([null]),
      fc.constant(['add']),
      fc.constant([{ op: 'add', path: '/__proto__/polluted', value: 1 }]),
      fc.constant([{ op: 'remove', path: '/nowhere/at/all' }]),
      fc.constant([{ op: 'test', path: '/a', value: 'surely not' }]),
      fc.array(patchOpLike, { minLength: 1, maxLength: 2 }),
    ),
  }),
);

function applyDamage(events: unknown[], d: Damage): unknown[] {
  if (events.length === 0) return events;
  const i = d.at % events.length;
  const target = events[i];
  if (typeof target !== 'object' || target === null) return events;
  const copy: Obj = { ...(target as Obj) };
  switch (d.kind) {
    case 'drop': {
      const keys = Object.keys(copy).filter((k) => k !== 'type');
      if (keys.length) delete copy[keys[d.field % keys.length] as string];
      break;
    }
    case 'junk':
      copy[d.field] = d.value;
      break;
    case 'duplicate':
      return [...events.slice(0, i + 1), target, ...events.slice(i + 1)];
    case 'badPatch': {
      const delta = events.findIndex((e, j) => j >= i && (e as Obj | null)?.type === 'STATE_DELTA');
      if (delta === -1) return events;
      return events.map((e, j) => (j === delta ? { ...(e as Obj), delta: d.ops } : e));
    }
  }
  return events.map((e, j) => (j === i ? copy : e));
}

/** Valid streams with noise inserted and some events damaged: mostly joinable, sometimes broken. */
export const mostlyValidStream: fc.Arbitrary<unknown[]> = fc
  .tuple(validStream, fc.array(fc.tuple(fc.nat(), anyValue), { maxLength: 4 }), fc.array(damage, { maxLength: 4 }))
  .map(([events, noise, damages]) => {
    let out: unknown[] = [...events];
    for (const [at, value] of noise) out.splice(at % (out.length + 1), 0, value);
    for (const d of damages) out = applyDamage(out, d);
    return out;
  });
