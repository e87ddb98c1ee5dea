/**
 * A file read whole (under 16 M characters) is let go of once it is read:
 * nothing `parseSession` leaves behind (the last text a regular expression
 * matched, `RegExp.input`, among them) keeps its text alive.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseEventLog } from '../src/eventLog.js';
import { parseSession } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// 12 M characters of lines that are no entries (nothing is kept for them but the first hundred named).
const line = `${JSON.stringify({ type: 'stop', at: 1, answered: 'x'.repeat(80) })}\n`;
const lines = Math.floor(12e6 / line.length);

describe('parseSession: the text of a file read whole', () => {
  it('is not held once a stream of its bytes is read', async () => {
    const chunk = new TextEncoder().encode(line.repeat(1000));
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled * 1000 >= lines) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const before = heap();
    const read = await parseSession(stream);
    expect(read.refused).toBe(pulled * 1000);
    expect(heap() - before).toBeLessThan(4);
  }, 30_000);

  it('is not held once the text is read', () => {
    const read = (count: number) => parseSession(line.repeat(count));
    const before = heap();
    expect(read(lines).refused).toBe(lines);
    expect(heap() - before).toBeLessThan(4);
  }, 30_000);

  it('is not held once parseEventLog reads it, CRLF lines too', () => {
    const read = (count: number) => parseEventLog(line.replace('\n', '\r\n').repeat(count));
    const before = heap();
    expect(read(lines).refused).toBe(lines);
    expect(heap() - before).toBeLessThan(4);
  }, 30_000);
});
