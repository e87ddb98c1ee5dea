/**
 * A client entry of a saved session holds what the live controller writes:
 * a state_edit whose operations no JSON Patch could be (an unknown op, no
 * path, no value), or a stream_start whose `reconnect` is no boolean, is
 * named and skipped as it is read, never kept to do nothing, or something
 * else, on replay.
 */
import { describe, expect, it } from 'vitest';
import { replaySession } from '../src/engine.js';
import { parseSession } from '../src/index.js';

const init = JSON.stringify({ type: 'init', at: 1, threadId: 't', state: { a: 1 } });
const edit = (delta: unknown) => JSON.stringify({ type: 'state_edit', at: 2, delta });

describe('parseSession of state_edit lines', () => {
  it('names each edit whose operations are no JSON Patch, and keeps the good ones', () => {
    const text = [
      init,
      edit([{ op: 'frobnicate', path: '/a', value: 2 }]),
      edit([{ op: 'replace', path: 3, value: 2 }]),
      edit([{ op: 'add', path: '/b' }]),
      edit([{ op: 'move', path: '/c' }]),
      edit([{ op: 'replace', path: 'a', value: 2 }]),
      edit(['replace']),
      edit([{ op: 'replace', path: '/a', value: 2 }, null]),
      edit([{ op: 'replace', path: '/a', value: 3 }]),
      edit([
        { op: 'copy', from: '/a', path: '/d' },
        { op: 'remove', path: '/a' },
        { op: 'test', path: '/d', value: 3 },
      ]),
    ].join('\n');
    const { entries, errors } = parseSession(text);
    expect(errors.map((e) => [e.line, e.code])).toEqual([2, 3, 4, 5, 6, 7, 8].map((line) => [line, 'NOT_AN_ENTRY']));
    expect(errors[0]?.message).toMatch(/state_edit.*operation 0.*"frobnicate"/);
    expect(errors[1]?.message).toMatch(/operation 0.*`path`/);
    expect(errors[2]?.message).toMatch(/operation 0.*add.*`value`/);
    expect(errors[3]?.message).toMatch(/operation 0.*move.*`from`/);
    expect(errors[4]?.message).toMatch(/operation 0.*`path`/);
    expect(errors[6]?.message).toMatch(/operation 1/);
    expect(entries.map((e) => e.type)).toEqual(['init', 'state_edit', 'state_edit']);
    expect(replaySession(entries).sharedState.document).toEqual({ d: 3 });
  });
});

describe('parseSession of stream_start lines', () => {
  it('names one whose `reconnect` is no boolean, which would go on with a stream it does not say it resumes', () => {
    const start = (reconnect: unknown) => JSON.stringify({ type: 'stream_start', at: 2, kind: 'run', runId: 'r', reconnect });
    const { entries, errors } = parseSession([init, start('yes'), start(1), start(true), start(false)].join('\n'));
    expect(errors.map((e) => [e.line, e.code, e.message])).toEqual([
      [2, 'NOT_AN_ENTRY', 'a stream_start entry needs a valid `reconnect`'],
      [3, 'NOT_AN_ENTRY', 'a stream_start entry needs a valid `reconnect`'],
    ]);
    expect(entries.map((e) => e.type)).toEqual(['init', 'stream_start', 'stream_start']);
  });
});
