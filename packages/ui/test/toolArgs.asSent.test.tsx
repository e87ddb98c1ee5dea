/**
 * A call's complete arguments are shown indented, read and written again:
 * where that would change what they say (`1e309` read as Infinity and
 * written `null`, a 20-digit account number rounded, a key given twice of
 * which only the last is kept), they are shown as the agent sent them, in
 * the call's card and in the approval a person decides on, their direction
 * controls escaped all the same.
 */
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { playedStore, runOf, type ScriptEvent } from '../src/storybook/scripted.js';
import { ToolCall } from '../src/ToolCall.js';

const stores: AgentStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy();
});

/** A call of `send_payment` whose arguments are `text` exactly, awaiting approval. */
async function paymentAwaitingApproval(text: string): Promise<AgentStore> {
  const events: ScriptEvent[] = [
    { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'send_payment' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: text },
    { type: 'TOOL_CALL_END', toolCallId: 'call-1' },
  ];
  const approval = { id: 'int-pay', reason: 'tool_call', toolCallId: 'call-1' };
  const store = await playedStore([{ say: 'Pay it', events: runOf(events, { outcome: { type: 'interrupt', interrupts: [approval] } }) }]);
  stores.push(store);
  return store;
}

async function shown(text: string): Promise<{ card: string; approval: string }> {
  const store = await paymentAwaitingApproval(text);
  const view = render(
    <AgentProvider store={store}>
      <ToolCall.Root id="call-1" defaultOpen>
        <ToolCall.Args />
      </ToolCall.Root>
      <InterruptDialog />
    </AgentProvider>,
  );
  await act(async () => undefined);
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt pre')).not.toBeNull());
  const card = view.container.querySelector('.agk-toolcall__section pre')?.textContent ?? '';
  const approval = view.container.querySelector('.agk-interrupt pre')?.textContent ?? '';
  view.unmount();
  return { card, approval };
}

describe("a call's complete arguments", () => {
  it('are shown as the agent sent them where reading them would change a value, in the card and in the approval', async () => {
    for (const [text, sent] of [
      ['{"account": 12345678901234567891, "amount": 42}', '12345678901234567891'],
      ['{"amount": 1e309}', '1e309'],
      ['{"to": "alice", "to": "mallory"}', '"alice"'],
    ] as const) {
      const { card, approval } = await shown(text);
      expect(card, text).toContain(sent);
      expect(approval, text).toContain(sent);
    }
  });

  it('shown as sent, keep their direction controls escaped', async () => {
    const { card, approval } = await shown('{"note": "\u202Eabc", "amount": 1e309}');
    for (const text of [card, approval]) {
      expect(text).not.toContain('\u202E');
      expect(text).toContain('\\u202e');
      expect(text).toContain('1e309');
    }
  });

  it('are shown indented where they read the same', async () => {
    const { card, approval } = await shown('{"amount":42.5,"to":"alice","tags":["a","b"]}');
    for (const text of [card, approval]) expect(text).toContain('{\n  "amount": 42.5,\n  "to": "alice",');
  });
});

describe('complete arguments written with escapes and decimals, as Python agents write them', () => {
  it('read the same, and are shown indented in their own letters', async () => {
    const { card, approval } = await shown(
      '{"to": "Jos\\u00e9 \\u05e9\\u05dc\\u05d5\\u05dd", "amount": 10.0, "rate": 1e-07, "path": "a\\/b"}',
    );
    for (const text of [card, approval]) {
      expect(text).toContain('{\n  "to": "José שלום",\n  "amount": 10,\n  "rate": 1e-7,\n  "path": "a/b"\n}');
    }
  });
});

describe("a call's summary in its card's header", () => {
  it('shows a value as the agent sent it where reading it would change it', async () => {
    const store = await paymentAwaitingApproval('{"account": 12345678901234567891, "amount": 1e309}');
    const view = render(
      <AgentProvider store={store}>
        <ToolCall.Root id="call-1">
          <ToolCall.Header />
        </ToolCall.Root>
      </AgentProvider>,
    );
    await act(async () => undefined);
    const summary = view.container.querySelector('.agk-toolcall__summary')?.textContent ?? '';
    expect(summary).toContain('12345678901234567891');
    expect(summary).toContain('1e309');
    expect(summary).not.toContain('Infinity');
    view.unmount();
  });
});

describe('long complete arguments', () => {
  it('are indented once, not again at each render of the card or the approval', async () => {
    const text = JSON.stringify({ path: 'notes.md', content: 'é\n'.repeat(20_000) });
    const store = await paymentAwaitingApproval(text);
    const tree = (label: string) => (
      <AgentProvider store={store}>
        <ToolCall.Root id="call-1" defaultOpen aria-label={label}>
          <ToolCall.Args />
        </ToolCall.Root>
        <InterruptDialog />
      </AgentProvider>
    );
    const view = render(tree('0'));
    await act(async () => undefined);
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt pre')).not.toBeNull());
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      for (let i = 1; i <= 5; i++) view.rerender(tree(String(i)));
      expect(stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'content' in value)).toHaveLength(0);
    } finally {
      stringify.mockRestore();
    }
    view.unmount();
  });
});
