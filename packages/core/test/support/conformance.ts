/**
 * The official AG-UI conformance corpus (kept outside the repository, at
 * ../shared/agui-conformance/ next to the checkout; FORMAT.md there explains
 * it) and how its expectations map to aguikit. Shared by the in-memory replay
 * (core's conformance.test.ts) and the replay over HTTP + SSE (react's
 * conformance.wire.test.ts). The corpus is read in place and never copied here.
 *
 * How the corpus maps to aguikit:
 * - `failed` means the final state has an error diagnostic, `completed` that it
 *   has none. The corpus's `errorContains` is TypeScript-client wording, so each
 *   failing fixture is mapped to aguikit's diagnostic code in ERROR_CODES.
 * - The delivered events are those the pipeline passes to `onEvent`, i.e.
 *   what reaches the reducer after chunk expansion.
 * - Warnings are SHOULD-level (FORMAT §7.2): their wording is not compared, but
 *   the mapped warning code must be present, as must any JSON pointer the
 *   fixture names.
 * - `request` and `requestAbsentPaths` concern the HTTP request a client sends:
 *   `check` leaves them out, `checkRequest` checks them against a request body.
 * - `client.maxProtocolVersion` pins the peer for downgrade shims aguikit does
 *   not have.
 * - `noWarnings` is checked strictly, with no exceptions: aguikit understands
 *   protocol 1.1, so the corpus's `protocolVersion: "1.1"` declarations are quiet.
 * - Fixtures aguikit deliberately treats differently are listed in DIFFERENT,
 *   each with its reason and an assertion of what aguikit does instead. That
 *   includes every pinned-peer (`era-*` with `client.maxProtocolVersion`) fixture.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { type ExpandedEvent, type Message, type ThreadState, toAgUiMessages } from '../../src/index.js';

/** The corpus folder, with a trailing slash. */
// Resolved with node:path, not `new URL`, so that it also holds where a DOM environment replaces the global URL.
export const CORPUS = `${resolvePath(dirname(fileURLToPath(import.meta.url)), '../../../../../shared/agui-conformance')}/`;
/** Whether the corpus is there: the suites are skipped, with a notice, where it is absent. */
export const corpusPresent = existsSync(`${CORPUS}streams/MANIFEST.txt`);

export interface Expectation {
  outcome?: 'completed' | 'failed';
  errorContains?: string;
  runError?: boolean | string;
  eventTypes?: string[];
  eventTypesAbsent?: string[];
  eventPaths?: Record<string, unknown>;
  eventAbsentPaths?: string[];
  warnings?: string[];
  noWarnings?: true;
  messageCount?: number;
  messages?: unknown[];
  state?: unknown;
  request?: unknown;
  requestAbsentPaths?: string[];
}

export interface Fixture {
  name: string;
  area: string;
  description: string;
  client?: { maxProtocolVersion?: string };
  input?: { messages?: Message[] };
  stream: unknown[];
  expect: Expectation;
  expectOverrides?: { typescript?: Expectation & { intentional: string }; dotnet?: unknown };
}

export interface Replay {
  fixture: Fixture;
  state: ThreadState;
  /** The events that reached the reducer, in order. */
  events: ExpandedEvent[];
  errors: ThreadState['diagnostics'];
  warnings: ThreadState['diagnostics'];
}

/**
 * aguikit's diagnostic code for each fixture whose stream must fail (the first
 * error must carry it), and the ids or fields its message must name.
 */
export const ERROR_CODES: Record<string, { code: string; mentions?: string[] }> = {
  'chunk-conflicting-role-fatal': { code: 'CHUNK_CONFLICT', mentions: ['role', 'chunk-role-m1'] },
  'chunk-conflicting-tool-name-fatal': { code: 'CHUNK_CONFLICT', mentions: ['toolCallName', 'chunk-tool-name-tc1'] },
  'content-without-start-fatal': { code: 'CONTENT_WITHOUT_START', mentions: ['orphan-content-m1'] },
  'custom-closes-chunk-stream-fatal': { code: 'CHUNK_WITHOUT_ID', mentions: ['TEXT_MESSAGE_CHUNK', 'messageId'] },
  'event-after-run-finished-fatal': { code: 'EVENT_AFTER_RUN_END', mentions: ['RUN_FINISHED', 'TEXT_MESSAGE_START'] },
  'first-chunk-missing-id-fatal': { code: 'CHUNK_WITHOUT_ID', mentions: ['TEXT_MESSAGE_CHUNK', 'messageId'] },
  'first-event-not-run-started-fatal': { code: 'FIRST_EVENT_NOT_RUN_STARTED', mentions: ['RUN_STARTED', 'TEXT_MESSAGE_START'] },
  'first-tool-chunk-missing-name-fatal': { code: 'CHUNK_WITHOUT_NAME', mentions: ['toolCallName', 'first-tool-chunk-tc1'] },
  'malformed-known-field-fatal': { code: 'INVALID_FIELD', mentions: ['delta'] },
  'nested-run-started-fatal': { code: 'NESTED_RUN_STARTED', mentions: ['RUN_STARTED', 'nested-run-started-r-1'] },
  'open-message-at-run-finished-fatal': { code: 'OPEN_AT_RUN_FINISHED', mentions: ['open-message-at-run-finished-m-1'] },
  'reasoning-discipline-verified': { code: 'CONTENT_WITHOUT_START', mentions: ['reasoning', 'm-reasoning-discipline-1'] },
  'reasoning-message-wrong-role-fatal': { code: 'INVALID_FIELD', mentions: ['role', '"reasoning"'] },
  'run-finished-with-active-subagent-fatal': { code: 'SUBAGENT_STILL_ACTIVE', mentions: ['s-run-finished-active-subagent-1'] },
  'step-finished-without-start-fatal': { code: 'STEP_NOT_STARTED', mentions: ['step-finished-without-start-never-opened'] },
  'subagent-attribution-mismatch-fatal': {
    code: 'ATTRIBUTION_MISMATCH',
    mentions: ['tc-subagent-attribution-mismatch-1', 's-subagent-attribution-mismatch-1', 's-subagent-attribution-mismatch-2'],
  },
  'subagent-finished-unstarted-fatal': { code: 'SUBAGENT_NOT_STARTED', mentions: ['s-subagent-finished-unstarted-1'] },
  'subagent-started-missing-name-fatal': { code: 'MISSING_FIELD', mentions: ['`name`'] },
  'unknown-outcome-array-fatal': { code: 'INVALID_FIELD', mentions: ['outcome', 'array'] },
  // extras/draft-only
  'duplicate-interrupt-id-fatal': { code: 'DUPLICATE_INTERRUPT_ID', mentions: ['i-duplicate-interrupt'] },
  'run-finished-wrong-run-id-fatal': { code: 'RUN_ID_MISMATCH', mentions: ['r-run-id-mismatch-other', 'r-run-id-mismatch-opened'] },
  'run-finished-wrong-thread-id-fatal': { code: 'THREAD_MISMATCH', mentions: ['t-thread-id-mismatch-other', 't-thread-id-mismatch'] },
  'second-run-on-another-thread-fatal': { code: 'THREAD_MISMATCH', mentions: ['t-second-run-thread-other'] },
  'truncated-stream-fails-the-run': { code: 'STREAM_TRUNCATED', mentions: ['r-truncated'] },
  // extras/1.0-only, where it is expected to complete: see DIFFERENT
  'truncated-run-reported-as-completed': { code: 'STREAM_TRUNCATED', mentions: ['r-truncated-run'] },
};

/** aguikit's warning code for each fixture that lists warnings, and what its message must name beyond the fixture's JSON pointers. */
export const WARNING_CODES: Record<string, { code: string; mentions?: string[] }> = {
  'era-0-0-45-thinking-translated': { code: 'RETIRED_EVENT', mentions: ['THINKING_START'] },
  'producer-declares-newer-version-warns': { code: 'PROTOCOL_VERSION_NEWER', mentions: ['1.2', '1.1'] },
  'producer-declares-uninterpretable-version-warns': { code: 'PROTOCOL_VERSION_UNREADABLE', mentions: ['draft', 'cannot interpret'] },
  'state-delta-unappliable-warns-and-keeps': { code: 'PATCH_FAILED', mentions: ['/absent/deeper'] },
  'state-delta-unknown-op-dropped': { code: 'UNKNOWN_PATCH_OP', mentions: ['increment'] },
  'unknown-event-dropped': { code: 'UNKNOWN_EVENT_TYPE', mentions: ['FUTURE_EVENT'] },
  'unknown-outcome-stripped': { code: 'UNKNOWN_OUTCOME', mentions: ['paused'] },
  'unknown-part-in-message-list': { code: 'UNKNOWN_CONTENT_PART', mentions: ['hologram'] },
  'unknown-property-stripped': { code: 'UNKNOWN_PROPERTY', mentions: ['futureProp'] },
};

export interface Difference {
  reason: string;
  /** Replaces expectation keys, like a lane override (FORMAT §4). */
  expect?: Expectation;
  /** What aguikit does instead: always asserted. */
  check: (replay: Replay) => void;
}

const PINNED =
  'pinned peer (client.maxProtocolVersion): aguikit has no peer ceiling and no downgrade shims (what it sends is checked by the wire replay)';

/** Fixtures aguikit deliberately treats differently, each with the reason and an assertion of its own behaviour. */
export const DIFFERENT: Record<string, Difference> = {
  'era-0-0-39-flattens-content': {
    reason: `${PINNED}; with no flattening there is nothing to warn about, and the multimodal history stays whole`,
    expect: { warnings: [], noWarnings: true },
    check: ({ state }) => {
      expect(
        subsetMismatch(
          [
            { id: 'era39-u1', role: 'user', content: [{ type: 'text' }, { type: 'image', source: { type: 'url' } }] },
            { id: 'era39-m1', role: 'assistant', content: 'A cat.' },
          ],
          toAgUiMessages(state),
        ),
      ).toBeUndefined();
    },
  },
  'era-0-0-45-thinking-translated': {
    reason: `${PINNED}; passes regardless, because aguikit reads the retired THINKING_* events as REASONING_* for every peer`,
    check: ({ events, warnings }) => {
      const types = events.map((e) => e.type);
      expect(types.filter((t) => t.startsWith('THINKING_'))).toEqual([]);
      expect(types.slice(1, 6)).toEqual([
        'REASONING_START',
        'REASONING_MESSAGE_START',
        'REASONING_MESSAGE_CONTENT',
        'REASONING_MESSAGE_END',
        'REASONING_END',
      ]);
      expect(new Set(codes(warnings))).toEqual(new Set(['RETIRED_EVENT']));
    },
  },
  'era-0-0-47-upgrades-binary-content': {
    reason: `${PINNED}; the fixture checks only the upgraded request`,
    check: ({ state, warnings }) => {
      expect(warnings).toEqual([]);
      expect(state.run.status).toBe('success');
      expect(
        subsetMismatch(
          [
            { id: 'era47-u1', role: 'user' },
            { id: 'era47-m1', content: 'Legacy.' },
          ],
          toAgUiMessages(state),
        ),
      ).toBeUndefined();
    },
  },
  'era-0-0-57-subagent-dropped-with-warning': {
    reason: `${PINNED}; SUBAGENT_* are applied like for any peer, so nothing is withheld and nothing is warned about`,
    expect: {
      warnings: [],
      noWarnings: true,
      eventTypesAbsent: [],
      eventTypes: [
        'RUN_STARTED',
        'SUBAGENT_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'SUBAGENT_FINISHED',
        'RUN_FINISHED',
      ],
      messages: [{ id: 'era57-m1', role: 'assistant', content: 'Found it.', subagentRunId: 'era57-s1' }],
    },
    check: ({ state }) => {
      expect(state.subagents['era57-s1']).toMatchObject({ name: 'researcher', status: 'success' });
    },
  },
  'era-pinned-peer-omits-protocol-version': {
    reason: `${PINNED}; the fixture checks only the request`,
    check: ({ state, warnings }) => {
      expect(warnings).toEqual([]);
      expect(state.run).toMatchObject({ runId: 'r-1', status: 'success' });
      expect(state.run.protocolVersion).toBeUndefined();
    },
  },
  'unknown-enum-value-role-fatal': {
    reason:
      'ADMITTED GAP in the corpus (FORMAT §7.4): the spec says an unknown enum value is stripped with a warning, not fatal; aguikit follows the spec and reads the message as an assistant message',
    expect: { outcome: 'completed', messageCount: 1 },
    check: ({ state, warnings }) => {
      const role = warnings.filter((w) => w.code === 'UNKNOWN_ROLE');
      expect(role).toHaveLength(1);
      expect(role[0]?.message).toContain('/role');
      expect(role[0]?.message).toContain('narrator');
      expect(
        subsetMismatch(
          [{ id: 'm-unknown-role', role: 'assistant', content: 'the role above is the only defect in this stream' }],
          toAgUiMessages(state),
        ),
      ).toBeUndefined();
    },
  },
  'unknown-event-dropped': {
    reason:
      'aguikit keeps an unknown event for observation (state.unknownEvents) instead of dropping it: it reaches the reducer, which applies nothing for it',
    expect: {
      eventTypesAbsent: [],
      eventTypes: [
        'RUN_STARTED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'FUTURE_EVENT',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'RUN_FINISHED',
      ],
    },
    check: ({ state }) => {
      expect(state.unknownEvents).toEqual([{ type: 'FUTURE_EVENT', somethingNew: true }]);
    },
  },
  'truncated-run-reported-as-completed': {
    reason:
      'ADMITTED GAP in the 1.0 corpus (FORMAT §7.4): the spec says a truncated run must not count as a success; aguikit reports STREAM_TRUNCATED and leaves the run `unknown` (as the draft fixture truncated-stream-fails-the-run demands)',
    expect: { outcome: 'failed' },
    check: ({ state }) => {
      expect(state.run.status).toBe('unknown');
      expect(state.runs['r-truncated-run']?.status).toBe('unknown');
      expect(state.messages.byId.get('m-truncated-run')?.streaming).toBe(false);
    },
  },
};

export const codes = (list: ThreadState['diagnostics']) => list.map((d) => d.code);

export function loadFixtures(): { file: string; fixture: Fixture }[] {
  const manifest = readFileSync(`${CORPUS}streams/MANIFEST.txt`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const extras = ['extras/1.0-only', 'extras/draft-only'].flatMap((dir) =>
    readdirSync(`${CORPUS}${dir}`)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `${dir}/${f}`),
  );
  return [...manifest.map((f) => `streams/${f}`), ...extras].map((file) => ({
    file,
    fixture: JSON.parse(readFileSync(`${CORPUS}${file}`, 'utf8')) as Fixture,
  }));
}

/** The expectation of the TypeScript lane (FORMAT §4), with aguikit's own overlay (DIFFERENT), then `overlay`, last. */
export function resolve(fixture: Fixture, overlay?: Expectation): Expectation {
  const { intentional: _why, ...typescript } = fixture.expectOverrides?.typescript ?? { intentional: '' };
  return { ...fixture.expect, ...typescript, ...DIFFERENT[fixture.name]?.expect, ...overlay };
}

/** FORMAT §3 subset match; returns where `actual` departs from `expected`, or undefined when it matches. */
export function subsetMismatch(expected: unknown, actual: unknown, at = '$'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${at}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const found = subsetMismatch(expected[i], actual[i], `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return `${at}.${key}: missing`;
      const found = subsetMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return expected === actual ? undefined : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/**
 * Looks up a dotted path under `root`: `"<eventIndex>.<dotted.path>"` in the
 * delivered events, or a path in a request body. Only own properties count.
 */
export function lookup(root: unknown, path: string): { found: boolean; value?: unknown } {
  let node: unknown = root;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return { found: false };
    node = (node as Record<string, unknown>)[segment];
  }
  return { found: true, value: node };
}

export function check(run: Replay, want: Expectation) {
  const { fixture, state, events, errors, warnings } = run;
  const delivered = events.map((e) => e.type);

  if (want.outcome === 'failed') {
    const mapped = ERROR_CODES[fixture.name];
    expect(mapped, `no aguikit error code mapped for ${fixture.name}`).toBeDefined();
    expect(errors.length, 'an error diagnostic').toBeGreaterThan(0);
    if (mapped) {
      // Fails for the named reason: the first violation is the one the fixture is about.
      expect(errors[0]?.code, `first error of ${JSON.stringify(codes(errors))}`).toBe(mapped.code);
      const message = errors[0]?.message ?? '';
      for (const text of mapped.mentions ?? []) expect(message).toContain(text);
    }
  } else if (want.outcome === 'completed') {
    expect(errors, 'no error diagnostic').toEqual([]);
  }

  if (want.runError !== undefined && want.runError !== false) {
    const runErrors = events.filter((e): e is ExpandedEvent & { type: 'RUN_ERROR' } => e.type === 'RUN_ERROR');
    expect(runErrors.length, 'a delivered RUN_ERROR').toBeGreaterThan(0);
    if (typeof want.runError === 'string') expect(runErrors.map((e) => e.message).join('\n')).toContain(want.runError);
    const errored = [state.run.status, ...Object.values(state.runs).map((r) => r.status)];
    expect(errored, 'a run recorded as failed').toContain('error');
  }

  if (want.eventTypes) expect(delivered).toEqual(want.eventTypes);
  for (const type of want.eventTypesAbsent ?? []) expect(delivered).not.toContain(type);
  for (const [path, value] of Object.entries(want.eventPaths ?? {})) {
    const found = lookup(events, path);
    expect(found.found, `event path ${path}`).toBe(true);
    expect(found.value, `event path ${path}`).toEqual(value);
  }
  for (const path of want.eventAbsentPaths ?? []) expect(lookup(events, path).found, `event path ${path} absent`).toBe(false);

  if (want.warnings?.length) {
    const mapped = WARNING_CODES[fixture.name];
    expect(mapped, `no aguikit warning code mapped for ${fixture.name}`).toBeDefined();
    const ofCode = warnings.filter((w) => w.code === mapped?.code);
    expect(ofCode.length, `a ${mapped?.code} warning among ${JSON.stringify(codes(warnings))}`).toBeGreaterThan(0);
    const text = ofCode.map((w) => w.message).join('\n');
    const pointers = want.warnings.filter((w) => w.startsWith('/'));
    for (const mention of [...pointers, ...(mapped?.mentions ?? [])]) expect(text).toContain(mention);
  }
  if (want.noWarnings) expect(warnings, 'no warnings').toEqual([]);

  const messages = toAgUiMessages(state, { includeActivity: true });
  if (want.messageCount !== undefined) expect(messages).toHaveLength(want.messageCount);
  if (want.messages) expect(subsetMismatch(want.messages, messages)).toBeUndefined();
  if ('state' in want) expect(subsetMismatch(want.state, state.sharedState.document)).toBeUndefined();
}

/** The final state of a replay, split into what the expectations look at. */
export function summarize(fixture: Fixture, state: ThreadState, events: ExpandedEvent[]): Replay {
  return {
    fixture,
    state,
    events,
    errors: state.diagnostics.filter((d) => d.severity === 'error'),
    warnings: state.diagnostics.filter((d) => d.severity === 'warning'),
  };
}

/** Checks `request` (a subset match) and `requestAbsentPaths` against the body a client POSTed. */
export function checkRequest(body: unknown, want: Expectation) {
  if (want.request !== undefined) expect(subsetMismatch(want.request, body)).toBeUndefined();
  for (const path of want.requestAbsentPaths ?? []) expect(lookup(body, path).found, `request path ${path} absent`).toBe(false);
}
