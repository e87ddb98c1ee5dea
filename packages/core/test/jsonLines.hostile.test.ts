/**
 * A saved session or event log is a file anyone can hand over: one built to
 * be slow to read (nesting millions deep, or millions of lines that are not
 * JSON) is read in time linear in its size, its bad lines named (the first
 * hundred of a saved session's, the rest counted) and the good ones kept, as
 * any damaged file's are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../src/index.js';
import { parseEventLog } from '../src/internal.js';
import { MAX_TEXT_DEPTH } from '../src/jsonCheck.js';
import { readJson, readJsonLines } from '../src/jsonLines.js';

const MB = 2 ** 20;
/** `unit` repeated to 5 MB. */
const fiveMb = (unit: string) => unit.repeat(Math.floor((5 * MB) / unit.length));
/** Far more than reading any of these files takes once it is linear (tens of milliseconds); each took 2-30 s before. */
const BOUND_MS = 2000;

const readers = [
  ['parseSession', parseSession],
  ['parseEventLog', parseEventLog],
] as const;

const timed = <T>(read: () => T): { result: T; ms: number } => {
  const t0 = performance.now();
  const result = read();
  return { result, ms: performance.now() - t0 };
};

const sessionLine = JSON.stringify({ type: 'event', at: 1, index: 0, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } });
const logLine = JSON.stringify({ index: 0, receivedAt: 1, event: { type: 'RUN_STARTED', threadId: 't', runId: 'r' } });
/** A JSON text nested `depth` levels deep, the outermost counting one. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('a hostile file is read in linear time', () => {
  it.each(readers)(
    '%s reads 5 MB of `[` in well under 2 s, naming its one line as not read',
    (_name, read) => {
      const { result, ms } = timed(() => read(fiveMb('[')));
      expect(ms).toBeLessThan(BOUND_MS);
      expect(result.entries).toEqual([]);
      // The reason is said, not a parser's crash: a text nested past what is read is named as such.
      expect(result.errors).toEqual([{ line: 1, code: 'NOT_JSON', message: expect.stringMatching(/deeper than/) }]);
    },
    60_000,
  );

  it('parseSession reads `{"a":` then 5 MB of `[` in well under a second (a file that starts as one object)', () => {
    const { result, ms } = timed(() => parseSession(`{"a":${fiveMb('[')}`));
    // A few milliseconds: read as one object first, it took 2-3 s.
    expect(ms).toBeLessThan(500);
    expect(result.entries).toEqual([]);
    expect(result.errors).toEqual([{ line: 1, code: 'NOT_JSON', message: expect.stringMatching(/deeper than/) }]);
  }, 60_000);

  it.each([
    ['parseSession', parseSession, sessionLine],
    ['parseEventLog', parseEventLog, logLine],
  ] as const)(
    '%s keeps the valid line after a 5 MB line of `[`, naming only the hostile one',
    (_name, read, line) => {
      const { result, ms } = timed(() => read(`${fiveMb('[')}\n${line}\n`));
      expect(ms).toBeLessThan(BOUND_MS);
      expect(result.entries).toHaveLength(1);
      expect(result.entries[0]).toMatchObject({ event: { type: 'RUN_STARTED', runId: 'r' } });
      expect(result.errors).toEqual([{ line: 1, code: 'NOT_JSON', message: expect.stringMatching(/deeper than/) }]);
    },
    60_000,
  );

  // Each shape an attacker would reach for: unclosed or closed nesting on one line, nesting across lines, and lines
  // that are not JSON after a valid one (JSON.parse is slow to throw, so millions of throws took tens of seconds).
  const shapes: [string, string, number][] = [
    ['5 MB of `{`', fiveMb('{'), 1],
    ['a single 5 MB line nested 2.6 million deep, closed', nested(2.5 * MB), 1],
    ['200,000 lines of `[`', '[\n'.repeat(200_000), 0],
    ['a valid line, then 500,000 lines of `[`', `${sessionLine}\n${'[\n'.repeat(500_000)}`, 500_000],
    ['a valid line, then `{"a":` on each of a million lines', `${sessionLine}\n${'{"a":\n'.repeat(MB)}`, MB],
    ['a valid line, then 500,000 lines of `x`', `${sessionLine}\n${'x\n'.repeat(MB / 2)}`, MB / 2],
  ];
  it.each(readers)(
    '%s reads each hostile shape in well under 2 s, naming or counting each bad line',
    (_name, read) => {
      for (const [shape, text, named] of shapes) {
        const { result, ms } = timed(() => read(text));
        expect(ms, shape).toBeLessThan(BOUND_MS);
        const refused = 'refused' in result ? (result.refused ?? result.errors.length) : result.errors.length;
        expect(refused, shape).toBeGreaterThanOrEqual(named);
        expect(
          result.errors.every((e) => e.line >= 1 && e.message !== ''),
          shape,
        ).toBe(true);
      }
    },
    300_000,
  );

  it('parseEventLog reads `{"a":` repeated to 5 MB on one line in well under 2 s', () => {
    // parseSession first tries such a text as one JSON object (sessionFile.ts), which is not read here.
    const { result, ms } = timed(() => parseEventLog(fiveMb('{"a":')));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.errors).toEqual([{ line: 1, code: 'NOT_JSON', message: expect.stringMatching(/deeper than/) }]);
  }, 60_000);

  it('readJson refuses a 5 MB object nested deep in well under 2 s, and reads one JSON text as JSON.parse does', () => {
    const { result, ms } = timed(() => readJson(`{"a":${fiveMb('[')}`));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/deeper than/) });
    expect(readJson('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(readJson('{"a":1}\n{"a":2}')).toEqual({ ok: false, message: 'not JSON: unexpected "{" at position 8' });
  }, 60_000);
});

describe('the limits of a line', () => {
  it(`reads a line nested ${MAX_TEXT_DEPTH} deep, names one a level deeper, and keeps the lines after it`, () => {
    // The event log's entry is the outermost level. The second line opens more brackets than the limit, all but one in
    // the deepest run; the fourth is checked before JSON.parse sees it, as each line after one named is.
    const entry = (depth: number) => `{"event":${nested(depth - 1)}}`;
    const lines = [
      entry(MAX_TEXT_DEPTH),
      `{"event":[${nested(MAX_TEXT_DEPTH - 2)},[]]}`,
      entry(MAX_TEXT_DEPTH + 1),
      entry(MAX_TEXT_DEPTH),
      logLine,
    ];
    const parsed = parseEventLog(lines.join('\n'));
    expect(parsed.entries).toHaveLength(4);
    expect(parsed.errors).toEqual([
      { line: 3, code: 'NOT_JSON', message: `nested deeper than ${MAX_TEXT_DEPTH} levels of objects and arrays: not read` },
    ]);
  });

  it('reads a line far longer than the limit that nests shallow, or holds brackets in its strings, as JSON.parse does', () => {
    const event = { type: 'CUSTOM', name: 'n', value: { text: '['.repeat(3 * MAX_TEXT_DEPTH), rows: Array(MAX_TEXT_DEPTH).fill([{}]) } };
    const parsed = parseEventLog(`${JSON.stringify({ event })}\n${JSON.stringify({ event })}`);
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => e.event)).toEqual([event, event]);
  });

  it('names each line that is not JSON in the same words, the first as the ones after it', () => {
    const parsed = parseEventLog(['x', logLine, 'x', '{"event":', '[1,]'].join('\n'));
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.errors).toEqual([
      { line: 1, code: 'NOT_JSON', message: 'not JSON: unexpected "x" at position 0' },
      { line: 3, code: 'NOT_JSON', message: 'not JSON: unexpected "x" at position 0' },
      { line: 4, code: 'NOT_JSON', message: 'not JSON: the text ends before its value does' },
      { line: 5, code: 'NOT_JSON', message: 'not JSON: unexpected "]" at position 3' },
    ]);
  });

  it('after a bad line, takes each line JSON.parse takes and refuses each it refuses', () => {
    // After the first bad line every line is checked before JSON.parse sees it: the check must agree with it.
    const alphabet = [...'{}[]",:0123456789-+.eEtrufalsn \t\\/ubx', '\u0001', '\u00e9', '\u2028', '\ud800'];
    const almostJson = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 24 });
    const json = fc.jsonValue().map((v) => JSON.stringify(v));
    fc.assert(
      fc.property(fc.oneof(almostJson, json), (line) => {
        fc.pre(line.trim() !== '');
        const errors = readJsonLines(`x\n${line}`, () => undefined);
        let parses = true;
        try {
          JSON.parse(line);
        } catch {
          parses = false;
        }
        expect(errors.map((e) => e.line)).toEqual(parses ? [1] : [1, 2]);
      }),
      { numRuns: 3000 },
    );
  });
});
