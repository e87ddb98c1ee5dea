/**
 * A tool's result that is JSON is shown indented, read and written again:
 * where that would change what it says (a number past what a double holds,
 * `1e309` read as Infinity and written as `null`, an order number of 19
 * digits rounded, a key given twice of which only the last was kept), it is
 * shown as it came.
 */
import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, playedStore, runOf } from '../src/storybook/scripted.js';
import { ToolCall } from '../src/ToolCall.js';

const stores: AgentStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy();
});

async function resultShown(result: string): Promise<string> {
  const store = await playedStore([{ say: 'Look it up', events: runOf(call('call-1', 'lookup_order', { id: 1 }, { result })) }]);
  stores.push(store);
  const view = render(
    <AgentProvider store={store}>
      <ToolCall.Root id="call-1" defaultOpen>
        <ToolCall.Result />
      </ToolCall.Root>
    </AgentProvider>,
  );
  await act(async () => undefined);
  const section = view.container.querySelector('[data-result="content"]');
  if (!section) throw new Error('no result shown');
  return section.textContent ?? '';
}

describe('a tool result that is JSON', () => {
  it('is shown as it came where reading it would change a value: 1e309, a 19-digit number, a key given twice', async () => {
    expect(await resultShown('{"total": 1e309}')).toContain('1e309');
    expect(await resultShown('{"order": 12345678901234567891}')).toContain('12345678901234567891');
    expect(await resultShown('{"status": "refunded", "status": "declined"}')).toContain('"refunded"');
  });

  it('shown as it came, keeps its direction controls escaped', async () => {
    const text = await resultShown('{"note": "\u202Eabc", "total": 1e309}');
    expect(text).toContain('1e309');
    expect(text).not.toContain('\u202E');
    expect(text).toContain('\\u202e');
  });

  it('is shown indented where it reads the same', async () => {
    expect(await resultShown('{"ok":true,"items":[1,2.5,-3e-7],"note":"a \\"b\\" / c"}')).toContain('\n  "ok": true,\n  "items": [');
    screen.getByText(/"note": "a \\"b\\" \/ c"/);
  });
});

describe('a tool result written with escapes and decimals, as Python tools write it', () => {
  it('reads the same, and is shown indented in its own letters', async () => {
    expect(await resultShown('{"city": "Z\\u00fcrich", "total": 12.50, "ids": [1E3]}')).toContain(
      '{\n  "city": "Zürich",\n  "total": 12.5,\n  "ids": [\n    1000\n  ]\n}',
    );
  });
});

describe('a long JSON result', () => {
  it('is read once, not again at each render of its card', async () => {
    const result = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ id: i, city: 'Zürich' })) });
    const store = await playedStore([{ say: 'Look it up', events: runOf(call('call-1', 'lookup_order', { id: 1 }, { result })) }]);
    stores.push(store);
    const card = (label: string) => (
      <AgentProvider store={store}>
        <ToolCall.Root id="call-1" defaultOpen aria-label={label}>
          <ToolCall.Result />
        </ToolCall.Root>
      </AgentProvider>
    );
    const view = render(card('0'));
    await act(async () => undefined);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (let i = 1; i <= 5; i++) view.rerender(card(String(i)));
      expect(parse.mock.calls.filter(([text]) => text === result)).toHaveLength(0);
    } finally {
      parse.mockRestore();
    }
    expect(view.container.textContent).toContain('"city": "Zürich"');
  });
});
