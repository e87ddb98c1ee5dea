/**
 * What a retry or reconnect of a run with a large input costs the server: the input sent is compared with the one
 * stored as its JSON text first, and only an input whose text differs (keys in another order) is compared key by
 * key, sorted. Which requests are taken does not change.
 */
import { describe, expect, it, vi } from 'vitest';
import { post, startServer, userInput } from './support.js';

/** How often a run's input was written as canonical JSON (keys sorted at every depth). */
const canonical = vi.hoisted(() => ({ inputs: 0 }));

vi.mock('../src/storage/idempotency.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/storage/idempotency.js')>();
  return {
    ...original,
    canonicalJson: (value: unknown) => {
      if (typeof value === 'object' && value !== null && Array.isArray((value as { messages?: unknown }).messages)) canonical.inputs++;
      return original.canonicalJson(value);
    },
  };
});

/** A `RunAgentInput` of about 600 KB: 4,000 messages, each with a few fields of its own. */
function largeInput(runId: string) {
  const messages = Array.from({ length: 4_000 }, (_, i) => ({
    id: `${runId}-m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Message ${i} about the teapot from order A-${1000 + i}, which arrived broken.`,
    meta: { seq: i, tags: ['a', 'b'], source: 'import' },
  }));
  return { ...userInput('t-large', runId), messages, forwardedProps: { tokens: 40, tokenDelayMs: 500 } };
}

/** The same JSON value with every object's keys in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

describe('retries and reconnects of a run with a large input, still being produced', () => {
  it('sent as it was stored, the input is compared as text: no canonical JSON of it is made, at the start or on 10 retries and reconnects', async () => {
    const server = await startServer({ maxBodyBytes: 4 * 1024 * 1024 });
    const input = largeInput('large');
    const before = canonical.inputs;
    const own = await post(server, '/agents/fast-stream', input);
    expect(own.status).toBe(200);
    const reader = (own.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: large:1\n')) text += new TextDecoder().decode((await reader.read()).value);
    const started = performance.now();
    for (let n = 0; n < 5; n++) {
      const retry = await post(server, '/agents/fast-stream', input);
      expect(retry.status).toBe(200);
      await retry.body?.cancel();
      const reconnect = await post(server, '/agents/fast-stream', input, { 'Last-Event-ID': 'large:0' });
      expect(reconnect.status).toBe(200);
      await reconnect.body?.cancel();
    }
    const made = canonical.inputs - before;
    console.info(
      `10 retries and reconnects of a 600 KB input: ${Math.round(performance.now() - started)} ms, ${made} canonical JSON texts of an input made`,
    );
    expect(made).toBe(0);
    await reader.cancel();
  }, 60_000);

  it('an input sent with its keys in another order is still taken, and one that differs in one message is not', async () => {
    const server = await startServer({ maxBodyBytes: 4 * 1024 * 1024 });
    const input = largeInput('large');
    const own = await post(server, '/agents/fast-stream', input);
    expect(own.status).toBe(200);
    const reader = (own.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: large:1\n')) text += new TextDecoder().decode((await reader.read()).value);
    const shuffled = reordered(input);
    expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(input));
    const retry = await post(server, '/agents/fast-stream', shuffled);
    expect(retry.status).toBe(200);
    await retry.body?.cancel();
    const reconnect = await post(server, '/agents/fast-stream', shuffled, { 'Last-Event-ID': 'large:0' });
    expect(reconnect.status).toBe(200);
    await reconnect.body?.cancel();
    const changed = { ...input, messages: input.messages.map((m, i) => (i === 2_500 ? { ...m, content: `${m.content}!` } : m)) };
    const other = await post(server, '/agents/fast-stream', changed);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: { code: 'RUN_EXISTS' } });
    const otherReconnect = await post(server, '/agents/fast-stream', changed, { 'Last-Event-ID': 'large:0' });
    expect(otherReconnect.status).toBe(404);
    expect(await otherReconnect.json()).toMatchObject({ error: { code: 'UNKNOWN_RUN' } });
    // -0 and 0 are one value, as they are to a JSON reader: the same input.
    const zero = await post(server, '/agents/fast-stream', JSON.stringify(input).replace('"seq":0,', '"seq":-0,'));
    expect(zero.status).toBe(200);
    await zero.body?.cancel();
    await reader.cancel();
  }, 60_000);
});

describe('a retry of a run still being produced, its JSON written otherwise', () => {
  /** A run paced for 20 s, its forwardedProps holding a number, a non-ASCII string, a `__proto__` member and 50 levels of objects. */
  function inputText() {
    const deep = (d: number): unknown => (d === 0 ? { leaf: 1, other: 'x' } : { level: d, next: deep(d - 1) });
    const input = {
      ...userInput('t-written', 'written'),
      forwardedProps: { tokens: 40, tokenDelayMs: 500, n: 100, s: 'é', deep: deep(50) },
    };
    // A `__proto__` key written in JSON is a member of its object, as JSON.parse reads it.
    return JSON.stringify(input).replace('"forwardedProps":{', '"forwardedProps":{"__proto__":{"admin":true},');
  }

  it('the same JSON (1e2 for 100, \\u escapes, keys in another order at every depth) is taken; another __proto__ member or leaf is not', async () => {
    const server = await startServer();
    const text = inputText();
    const own = await post(server, '/agents/fast-stream', text);
    expect(own.status).toBe(200);
    const reader = (own.body as ReadableStream<Uint8Array>).getReader();
    let read = '';
    while (!read.includes('id: written:1\n')) read += new TextDecoder().decode((await reader.read()).value);
    const same = [
      text.replace('"n":100', '"n":1e2'),
      text.replace('"s":"é"', '"s":"\\u00e9"'),
      JSON.stringify(reordered(JSON.parse(text))),
    ];
    expect(same[2]).not.toBe(text);
    expect(same[2]).toContain('"__proto__":{"admin":true}');
    for (const body of same) {
      const retry = await post(server, '/agents/fast-stream', body);
      expect(retry.status).toBe(200);
      await retry.body?.cancel();
      const reconnect = await post(server, '/agents/fast-stream', body, { 'Last-Event-ID': 'written:0' });
      expect(reconnect.status).toBe(200);
      await reconnect.body?.cancel();
    }
    const other = [
      text.replace('"__proto__":{"admin":true},', ''),
      text.replace('"admin":true', '"admin":false'),
      text.replace('"leaf":1', '"leaf":2'),
    ];
    for (const body of other) {
      const retry = await post(server, '/agents/fast-stream', body);
      expect(retry.status).toBe(409);
      expect(await retry.json()).toMatchObject({ error: { code: 'RUN_EXISTS' } });
      const reconnect = await post(server, '/agents/fast-stream', body, { 'Last-Event-ID': 'written:0' });
      expect(reconnect.status).toBe(404);
      await reconnect.body?.cancel();
    }
    await reader.cancel();
  }, 30_000);
});
