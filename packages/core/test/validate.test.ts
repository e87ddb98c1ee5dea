import { describe, expect, it } from 'vitest';
import { validateEvent } from '../src/engine.js';
import { EVENT_SHAPES } from '../src/eventShapes.js';
import { EVENT_TYPES } from '../src/index.js';
import { VALID_EXAMPLES } from './support/examples.js';

describe('validateEvent: every event type', () => {
  it.each(EVENT_TYPES)('accepts a valid %s unchanged and quietly', (type) => {
    const raw = VALID_EXAMPLES[type];
    const r = validateEvent(raw);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.event).toBe(raw);
    expect(r.warnings).toEqual([]);
  });

  const required = EVENT_TYPES.flatMap((type) => Object.keys(EVENT_SHAPES[type]?.required ?? {}).map((field) => [type, field] as const));
  it.each(required)('refuses %s without its required field %s, naming both', (type, field) => {
    const { [field]: _dropped, ...rest } = VALID_EXAMPLES[type];
    const r = validateEvent(rest, { index: 7 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic).toMatchObject({ index: 7, eventType: type, code: 'MISSING_FIELD', severity: 'error' });
    expect(r.diagnostic.message).toContain(type);
    expect(r.diagnostic.message).toContain(field);
  });

  const stringFields = required.filter(([type, field]) => EVENT_SHAPES[type]?.required[field] === 'string');
  it.each(stringFields)('refuses %s whose %s is a number', (type, field) => {
    const r = validateEvent({ ...VALID_EXAMPLES[type], [field]: 42 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe('INVALID_FIELD');
    expect(r.diagnostic.message).toMatch(new RegExp(`${type}.*${field}.*must be a string, got number 42`));
  });
});

describe('validateEvent: frames that are not events', () => {
  it.each([null, 42, 'TEXT_MESSAGE_START', [], [{ type: 'RUN_STARTED' }], true, undefined])('refuses %j as not an object', (raw) => {
    const r = validateEvent(raw);
    expect(r).toMatchObject({ ok: false, diagnostic: { code: 'NOT_AN_OBJECT', severity: 'error' } });
  });

  it.each([{}, { type: '' }, { type: 7 }, { type: null }])('refuses %j without a string type', (raw) => {
    expect(validateEvent(raw)).toMatchObject({ ok: false, diagnostic: { code: 'MISSING_TYPE' } });
  });
});

describe('validateEvent: tolerance that loses nothing', () => {
  it('keeps an unknown event type for observation, with a warning', () => {
    const raw = { type: 'FUTURE_EVENT', payload: 1 };
    const r = validateEvent(raw);
    expect(r).toMatchObject({ ok: true, event: raw, warnings: [{ code: 'UNKNOWN_EVENT_TYPE', severity: 'warning' }] });
  });

  it('strips an undescribed property and names its path; the input is not mutated', () => {
    const raw = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', futureProp: 1 };
    const r = validateEvent(raw);
    expect(r.ok && r.event).toEqual({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' });
    expect(r.ok && r.warnings[0]?.message).toContain('/futureProp');
    expect(raw.futureProp).toBe(1);
  });

  it('strips an optional field sent as null (optional fields are omitted, never null)', () => {
    const r = validateEvent({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n', parentMessageId: null });
    expect(r.ok && r.event).toEqual({ type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'n' });
    expect(r.ok && r.warnings[0]?.code).toBe('NULL_FIELD');
  });

  it('accepts subagentRunId on attributable events only', () => {
    expect(validateEvent({ ...VALID_EXAMPLES.CUSTOM, subagentRunId: 's' })).toMatchObject({ ok: true, warnings: [] });
    const r = validateEvent({ ...VALID_EXAMPLES.RUN_STARTED, subagentRunId: 's' });
    expect(r.ok && r.warnings[0]?.code).toBe('UNKNOWN_PROPERTY');
  });

  it('drops an unknown content part and keeps its siblings', () => {
    const r = validateEvent({
      type: 'MESSAGES_SNAPSHOT',
      messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'hologram' }, { type: 'text', text: 'b' }] }],
    });
    expect(r.ok && r.event).toMatchObject({ messages: [{ content: [{ text: 'a' }, { text: 'b' }] }] });
    expect(r.ok && r.warnings[0]?.message).toContain('/messages/0/content/1');
  });

  it('drops an unknown JSON Patch op and keeps the rest', () => {
    const r = validateEvent({
      type: 'STATE_DELTA',
      delta: [
        { op: 'increment', path: '/n' },
        { op: 'add', path: '/m', value: 1 },
      ],
    });
    expect(r.ok && r.event).toEqual({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/m', value: 1 }] });
    expect(r.ok && r.warnings[0]?.code).toBe('UNKNOWN_PATCH_OP');
  });

  it('strips an unknown RUN_FINISHED outcome (the run ends as a plain success)', () => {
    const r = validateEvent({ type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'paused' } });
    expect(r.ok && r.event).toEqual({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
    expect(r.ok && r.warnings[0]?.message).toContain('/outcome');
  });

  it('strips an unknown text role with a warning, as the specification asks', () => {
    const r = validateEvent({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'narrator' });
    expect(r.ok && r.event).toEqual({ type: 'TEXT_MESSAGE_START', messageId: 'm' });
    expect(r.ok && r.warnings[0]?.code).toBe('UNKNOWN_ROLE');
  });

  it('keeps a very large delta, with a warning', () => {
    const delta = 'x'.repeat(10 * 1024 * 1024);
    const r = validateEvent({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta });
    expect(r.ok && (r.event as { delta: string }).delta.length).toBe(delta.length);
    expect(r.ok && r.warnings[0]?.code).toBe('LARGE_DELTA');
  });
});

describe('validateEvent: structural errors inside fields', () => {
  it.each([
    ['an outcome that is an array', { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: [] }, 'expected object, received array'],
    [
      'an interrupt outcome without interrupts',
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt' } },
      'interrupts',
    ],
    [
      'an interrupt without reason',
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r', outcome: { type: 'interrupt', interrupts: [{ id: 'i' }] } },
      'reason',
    ],
    ['a patch op without path', { type: 'STATE_DELTA', delta: [{ op: 'remove' }] }, 'path'],
    ['a replace without value', { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a' }] }, 'value'],
    ['a move without from', { type: 'STATE_DELTA', delta: [{ op: 'move', path: '/a' }] }, 'from'],
    ['a patch that is not an array', { type: 'STATE_DELTA', delta: { op: 'add' } }, 'JSON Patch'],
    ['a message without id', { type: 'MESSAGES_SNAPSHOT', messages: [{ role: 'user', content: 'x' }] }, 'id'],
    ['a message with an unknown role', { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'x', role: 'robot' }] }, 'robot'],
    ['a tool message without toolCallId', { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'x', role: 'tool', content: '' }] }, 'toolCallId'],
    ['an image part without source', { type: 'TOOL_CALL_RESULT', messageId: 'm', toolCallId: 'c', content: [{ type: 'image' }] }, 'source'],
    ['a reasoning message with role assistant', { type: 'REASONING_MESSAGE_START', messageId: 'm', role: 'assistant' }, '"reasoning"'],
    ['a non-finite timestamp', { type: 'CUSTOM', name: 'n', value: 1, timestamp: 'now' }, 'timestamp'],
    ['metadata that is not an object', { type: 'CUSTOM', name: 'n', value: 1, metadata: [1] }, 'metadata'],
  ])('refuses %s', (_what, raw, mention) => {
    const r = validateEvent(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.message).toContain(mention);
  });
});
