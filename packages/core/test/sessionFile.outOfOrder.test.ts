/**
 * A session file whose event lines are out of order, hostile or large: every
 * line refused is counted, each stretch between resets is judged on its own,
 * judging their order costs about what reading them does, and it goes in
 * slices, the page free between them, as the rest of the read does.
 */
import { describe, expect, it, vi } from 'vitest';
import { eventOrder } from '../src/controller/eventOrder.js';
import { readSession, type SessionLineProblem } from '../src/controller/sessionFile.js';
import { parseSession } from '../src/index.js';
import { MAX_NAMED_LINES, Refusals } from '../src/jsonLines.js';

const line = (index: number) => `{"type":"event","at":1,"index":${index},"event":{"type":"CUSTOM","name":"e","value":${index % 1000}}}`;
const file = (indexes: number[]) => indexes.map(line).join('\n');
const count = (n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => at(i));
/** The least time of three runs, in milliseconds. */
const least = (run: () => unknown) =>
  Math.min(
    ...[0, 1, 2].map(() => {
      const t0 = performance.now();
      run();
      return performance.now() - t0;
    }),
  );

describe('parseSession: event lines out of order, many or hostile', () => {
  it('counts every line refused out of order past the hundred it names, as a Blob read line by line does', async () => {
    const reversed = file(count(1000, (i) => 999 - i));
    const parsed = parseSession(reversed);
    expect(parsed.errors).toHaveLength(MAX_NAMED_LINES);
    expect(parsed.refused).toBe(999);
    expect(await readSession(new Blob([reversed]), 0)).toEqual(parsed);
    // Refused lines of other kinds first, then lines out of order: all of them counted.
    const mixed = [...Array.from({ length: 60 }, () => 'not json'), file(count(61, (i) => 60 - i))].join('\n');
    expect(parseSession(mixed)).toMatchObject({ refused: 120 });
  });

  it('judges each stretch between resets on its own, long or short, and counts the lines kept before a second init', async () => {
    const reset = '{"type":"reset","at":2}';
    const init = '{"type":"init","at":1,"threadId":"t","messages":[]}';
    const text = [init, file(count(5000, (i) => 4999 - i)), reset, file(count(10, (i) => 9 - i)), reset, file(count(5000, (i) => i))].join(
      '\n',
    );
    const parsed = parseSession(text);
    expect(parsed.entries.map((e) => e.type).join(' ')).toBe(`init event reset event reset${' event'.repeat(5000)}`);
    expect(parsed.entries.filter((e) => e.type === 'event').map((e) => e.index)).toEqual([0, 0, ...count(5000, (i) => i)]);
    expect(parsed.refused).toBe(4999 + 9);
    expect(parsed.errors.map((e) => e.line)).toEqual(count(MAX_NAMED_LINES, (i) => i + 3));
    expect(await readSession(new Blob([text]), 0)).toEqual(parsed);
    const second = [init, file(count(5000, (i) => (i < 4990 ? i : 0))), init].join('\n');
    expect(parseSession(second).errors.at(-1)).toMatchObject({
      line: 5002,
      code: 'SECOND_SESSION',
      message: expect.stringContaining('follows 4991 entries'),
    });
  });

  it('judges a million event lines, one far ahead first, in about the time a sort of their indexes takes', () => {
    const n = 1_000_000;
    const indexes = [1e15, ...count(n, (i) => i)];
    const shuffled = count(n, () => Math.random());
    const judge = () => {
      const refused = new Refusals<SessionLineProblem>(MAX_NAMED_LINES);
      const order = eventOrder(refused);
      for (let i = 0; i < indexes.length; i++) order.take(indexes[i] as number, i + 1, false, i);
      order.judged();
      return refused;
    };
    expect(judge()).toMatchObject({ count: 1, errors: [{ line: 1, code: 'OUT_OF_ORDER' }] });
    // A map of a million indexes, or one object a line, would take many times as long (and as much memory).
    expect(least(judge)).toBeLessThan(1.5 * least(() => [...shuffled].sort((a, b) => a - b)) + 50);
  }, 120_000);

  it.each([
    ['read whole', 2 ** 24],
    ['read line by line', 0],
  ])(
    'judges the order of a file of lines shuffled in slices, the page going on between them, %s',
    async (_name, whole) => {
      const n = 120_000;
      const indexes = count(n, (i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number];
      }
      // The page gets a turn (a message on a channel) at the end of each slice; a clock moving 3 ms at each reading
      // ends a slice at each step, on a machine of any speed.
      const Channel = MessageChannel;
      let turns = 0;
      vi.stubGlobal(
        'MessageChannel',
        class extends Channel {
          constructor() {
            super();
            turns++;
          }
        },
      );
      let clock = 0;
      const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
      try {
        const turnsFor = async (text: string) => {
          turns = 0;
          const read = await readSession(new Blob([text]), whole);
          return { turns, read };
        };
        const inOrder = await turnsFor(file(count(n, (i) => i)));
        const shuffled = await turnsFor(file(indexes));
        // Judged in one go, the page would get no more turns than for the same lines in order: it waits through it all.
        expect(shuffled.turns).toBeGreaterThanOrEqual(inOrder.turns + 5);
        expect(shuffled.read).toEqual(parseSession(file(indexes)));
        expect(shuffled.read.entries.length).toBeLessThan(1000);
      } finally {
        now.mockRestore();
        vi.unstubAllGlobals();
      }
    },
    60_000,
  );
});
