/**
 * Replays the official AG-UI conformance corpus (kept outside the repository,
 * at ../shared/agui-conformance/ next to the checkout; FORMAT.md there explains
 * it) through `replayEvents` and checks the expectations that concern a
 * reducer. The corpus is read in place and never copied here: the suite is
 * skipped, with a notice, where it is absent.
 *
 * How the corpus maps to aguikit (the tables and checks are in
 * ./support/conformance.ts, shared with the replay over HTTP + SSE in
 * @aguikit/react):
 * - `failed` means the final state has an error diagnostic, `completed` that it
 *   has none; each failing fixture is mapped to aguikit's diagnostic code in
 *   ERROR_CODES.
 * - The delivered events are those `replayEvents` passes to `onEvent`, i.e.
 *   what reaches the reducer after chunk expansion.
 * - Warnings are SHOULD-level (FORMAT §7.2): the mapped warning code must be
 *   present, as must any JSON pointer the fixture names.
 * - `request`, `requestAbsentPaths` and `client.maxProtocolVersion` concern the
 *   HTTP request a client sends and the downgrade shims of a pinned peer; a
 *   reducer sends nothing, so those keys are not checked here.
 * - `noWarnings` is checked strictly, with no exceptions.
 * - Fixtures aguikit deliberately treats differently are listed in DIFFERENT,
 *   each with its reason and an assertion of what aguikit does instead.
 */
import { describe, expect, it } from 'vitest';
import { createThreadState, reduceThread, replayEvents } from '../src/engine.js';
import type { ExpandedEvent, ThreadState } from '../src/index.js';
import {
  CORPUS,
  check,
  corpusPresent,
  DIFFERENT,
  ERROR_CODES,
  type Fixture,
  loadFixtures,
  lookup,
  type Replay,
  resolve,
  subsetMismatch,
  summarize,
  WARNING_CODES,
} from './support/conformance.js';

if (!corpusPresent) console.warn(`AG-UI conformance corpus not found at ${CORPUS}: the conformance suite is skipped.`);

/**
 * The client's history before the run (`input.messages`). It is the client's
 * own, not stream traffic, so it goes straight to the reducer: the pipeline
 * would validate it, and the era fixtures' legacy `binary` parts would be
 * dropped with a warning that says nothing about the stream.
 */
function initialState(fixture: Fixture): ThreadState {
  const messages = fixture.input?.messages;
  if (!messages?.length) return createThreadState();
  return reduceThread(createThreadState(), { type: 'MESSAGES_SNAPSHOT', messages });
}

function replay(fixture: Fixture): Replay {
  const events: ExpandedEvent[] = [];
  const state = replayEvents(fixture.stream, initialState(fixture), { onEvent: (event) => events.push(event) });
  return summarize(fixture, state, events);
}

describe.skipIf(!corpusPresent)('AG-UI conformance corpus', () => {
  const fixtures = corpusPresent ? loadFixtures() : [];

  it('matches subsets and event paths the way FORMAT §3 describes', () => {
    expect(subsetMismatch([{ role: 'user' }], [{ id: 'm', role: 'user' }])).toBeUndefined();
    expect(subsetMismatch([{ role: 'user' }], [{ role: 'user' }, { role: 'user' }])).toBeDefined();
    expect(subsetMismatch({ a: [1] }, { a: { 0: 1 } })).toBeDefined();
    expect(subsetMismatch({ a: undefined }, {})).toBeDefined();
    expect(subsetMismatch(0, null)).toBeDefined();
    expect(subsetMismatch(null, null)).toBeUndefined();
    const events = [{ type: 'RUN_FINISHED', outcome: { interrupts: [{ id: 'i1' }] }, result: null }];
    expect(lookup(events, '0.outcome.interrupts.0.id')).toEqual({ found: true, value: 'i1' });
    expect(lookup(events, '0.result')).toEqual({ found: true, value: null });
    expect(lookup(events, '0.outcome.interrupts.1').found).toBe(false);
    expect(lookup(events, '0.toString').found).toBe(false);
  });

  it('covers the 68 fixtures of the manifest and the extras', () => {
    expect(fixtures.filter((f) => f.file.startsWith('streams/'))).toHaveLength(68);
    expect(fixtures.length).toBeGreaterThan(68);
    const names = new Set(fixtures.map((f) => f.fixture.name));
    for (const name of [...Object.keys(ERROR_CODES), ...Object.keys(WARNING_CODES), ...Object.keys(DIFFERENT)]) {
      expect(names, `table entry ${name} names no fixture`).toContain(name);
    }
  });

  for (const { file, fixture } of fixtures) {
    it(fixture.name, () => {
      expect(file.endsWith(`/${fixture.name}.json`)).toBe(true);
      if (fixture.client?.maxProtocolVersion !== undefined)
        expect(DIFFERENT, 'a pinned-peer fixture is listed in DIFFERENT').toHaveProperty([fixture.name]);
      const run = replay(fixture);
      check(run, resolve(fixture));
      DIFFERENT[fixture.name]?.check(run);
    });
  }
});
