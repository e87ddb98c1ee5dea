/**
 * The event timeline over a long stream: a flush costs work in the order of
 * the events it adds, not of the whole log (no copy, map or walk of it).
 */
import { AgentProvider } from '@aguikit/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { drivenStore } from './support/drivenStore.js';

const rows = () => screen.queryAllByRole('option');
const typeOf = (row: HTMLElement) => row.querySelector('.agk-timeline__type')?.textContent ?? '';

/** Elements of arrays longer than 1,000 that `run` copies, maps, filters or walks (`for…of`, `forEach`). */
async function elementsWalked(run: () => Promise<void>): Promise<number> {
  const proto = Array.prototype as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>;
  const names: PropertyKey[] = ['slice', 'map', 'filter', 'forEach', 'concat', 'values', Symbol.iterator];
  const originals = names.map((name) => proto[name]);
  let walked = 0;
  names.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    proto[name] = function (this: unknown[], ...args: unknown[]) {
      if (this.length > 1000) walked += this.length;
      return original.apply(this, args);
    };
  });
  try {
    await run();
  } finally {
    names.forEach((name, i) => {
      proto[name] = originals[i] as (...args: unknown[]) => unknown;
    });
  }
  return walked;
}

describe('EventTimelinePanel over a long stream', () => {
  it('does work per flush in the order of the events it adds: 20,000 events at 100 a flush', async () => {
    const { store, push, start } = drivenStore();
    render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
    const batch = Array.from({ length: 100 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' }));
    const walked = await elementsWalked(async () => {
      for (let sent = 0; sent < 20_000; sent += 100) await push(...batch);
    });
    expect(store.log.entries).toHaveLength(20_002);
    expect(screen.getByText('20,002 events')).toBeInTheDocument();
    expect(rows()[0]).toHaveAttribute('aria-setsize', '20002');
    // A copy, a map and a walk of the log at each flush come to some 6 million elements here (3 × 20,000² / 2 / 100):
    // all 200 flushes together read fewer than the log holds.
    expect(walked).toBeLessThan(20_000);
  }, 120_000);

  it('names a tool call that starts late in a long stream, and a filter follows the events as they come', async () => {
    const user = userEvent.setup();
    const { store, push, start } = drivenStore();
    render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
    await push(...Array.from({ length: 500 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' })));
    await user.type(screen.getByRole('searchbox'), 'lookup_order');
    expect(rows()).toHaveLength(0);
    await push({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup_order' });
    await push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001"}' }, { type: 'TOOL_CALL_END', toolCallId: 'c1' });
    expect(rows().map(typeOf)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']);
    expect(within(rows()[1] as HTMLElement).getByText(/lookup_order/)).toBeInTheDocument();
    expect(screen.getByText('3 of 505 events')).toBeInTheDocument();
  });

  it('replays a picked event once, not again at each flush that follows it', async () => {
    const user = userEvent.setup();
    const { store, push, start } = drivenStore();
    render(
      <AgentProvider store={store}>
        <EventTimelinePanel />
      </AgentProvider>,
    );
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
    await user.click(rows()[1] as HTMLElement);
    await vi.waitFor(() => expect(document.querySelector('.agk-timeline__detail')).toHaveAttribute('data-state', 'ready'));
    const replays = vi.spyOn(store, 'stateAfterEvent');
    for (let i = 0; i < 5; i++) await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' });
    expect(screen.getByText('7 events')).toBeInTheDocument();
    expect(rows()[1]).toHaveAttribute('aria-selected', 'true');
    expect(replays).not.toHaveBeenCalled();
  });
});
