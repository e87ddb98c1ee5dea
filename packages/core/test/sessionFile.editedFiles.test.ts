/**
 * A session file edited by hand or torn on the way: every good line comes
 * back, and each bad one is named, alone. The event lines kept are the
 * longest run whose indexes grow (the earliest such run when two are as
 * long); each line left out is refused as OUT_OF_ORDER, whatever the shape
 * of the damage and however many lines it spans.
 */
import { describe, expect, it } from 'vitest';
import { readSession } from '../src/controller/sessionFile.js';
import { type ParsedSession, parseSession } from '../src/index.js';

const event = (i: number) => ({ type: 'CUSTOM', name: `e${i}`, value: i });
const line = (index: number, name = index) => JSON.stringify({ type: 'event', at: 1, index, event: event(name) });
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => line(from + i));
const init = (threadId: string) => JSON.stringify({ type: 'init', at: 1, threadId, messages: [] });
const names = (entries: ParsedSession['entries']) => entries.map((e) => (e.type === 'event' ? (e.event as { name: string }).name : e.type));
const named = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `e${from + i}`);
/** What a reader makes of the file, with the lines refused by number and code; the same read from bytes, line by line. */
async function read(fileLines: string[]) {
  const text = fileLines.join('\n');
  const parsed = parseSession(text);
  expect(await readSession(new Blob([text]), 0)).toEqual(parsed);
  // Renumbered from 0, in the order kept.
  expect(parsed.entries.filter((e) => e.type === 'event').map((e) => e.index)).toEqual(
    parsed.entries.filter((e) => e.type === 'event').map((_, i) => i),
  );
  return { names: names(parsed.entries), refused: parsed.errors.map((e) => [e.line, e.code]), errors: parsed.errors };
}
const outOfOrder = (...at: number[]) => at.map((n) => [n, 'OUT_OF_ORDER']);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('parseSession: a file edited by hand', () => {
  it('keeps the lines after a block of consecutive far lines (a block pasted from further on), refusing the block alone', async () => {
    const file = [init('t'), ...lines(0, 50), ...lines(5_000, 5_010), ...lines(50, 100)];
    const { names: kept, refused, errors } = await read(file);
    expect(kept).toEqual(['init', ...named(0, 100)]);
    expect(refused).toEqual(outOfOrder(...range(52, 62)));
    expect(errors[0]?.message).toContain('index 5000 runs ahead of the lines after it');
  });

  it('keeps the lines after more than 16 far lines in a row', async () => {
    const far = Array.from({ length: 20 }, (_, i) => line(1e12 * (i + 1), 900 + i));
    const file = [...lines(0, 30), ...far, ...lines(30, 60)];
    const { names: kept, refused } = await read(file);
    expect(kept).toEqual(named(0, 60));
    expect(refused).toEqual(outOfOrder(...range(31, 51)));
  });

  it('keeps a gap (lines lost) and refuses the stray old line after it', async () => {
    const file = [...lines(0, 3), ...lines(40, 41), line(3, 999), ...lines(41, 45)];
    const { names: kept, refused, errors } = await read(file);
    expect(kept).toEqual([...named(0, 3), ...named(40, 45)]);
    expect(refused).toEqual(outOfOrder(5));
    expect(errors[0]?.message).toContain('index 3 does not follow the one before it (40)');
  });

  it('keeps every whole line of a file torn in its last line, naming that one', async () => {
    const file = [init('t'), ...lines(0, 20), line(20).slice(0, 30)];
    const { names: kept, refused } = await read(file);
    expect(kept).toEqual(['init', ...named(0, 20)]);
    expect(refused).toEqual([[22, 'NOT_JSON']]);
  });

  it('refuses each line of a block duplicated further down, and keeps the lines after it', async () => {
    const file = [init('t'), ...lines(0, 40), ...lines(10, 30), ...lines(40, 60)];
    const { names: kept, refused } = await read(file);
    expect(kept).toEqual(['init', ...named(0, 60)]);
    expect(refused).toEqual(outOfOrder(...range(42, 62)));
  });

  it('refuses the second of two lines swapped, and of two blocks swapped the shorter', async () => {
    const swapped = [...lines(0, 5), line(6), line(5), ...lines(7, 10)];
    expect(await read(swapped)).toMatchObject({ names: ['e0', 'e1', 'e2', 'e3', 'e4', 'e6', 'e7', 'e8', 'e9'], refused: outOfOrder(7) });
    const blocks = [...lines(0, 5), ...lines(25, 30), ...lines(5, 25), ...lines(30, 35)];
    const { names: kept, refused } = await read(blocks);
    expect(kept).toEqual([...named(0, 25), ...named(30, 35)]);
    expect(refused).toEqual(outOfOrder(...range(6, 11)));
  });

  it('refuses a block pasted from another session, its indexes from 0 again, and keeps the lines around it', async () => {
    const other = Array.from({ length: 15 }, (_, i) => line(i, 700 + i));
    const file = [init('t'), ...lines(0, 30), ...other, ...lines(30, 50)];
    const { names: kept, refused } = await read(file);
    expect(kept).toEqual(['init', ...named(0, 50)]);
    expect(refused).toEqual(outOfOrder(...range(32, 47)));
  });
});
