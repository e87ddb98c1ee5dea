/**
 * A filter over a streaming log: each flush reads the rows it adds, and a
 * tool call that starts reads again only the rows still waiting for a name
 * (its calls' events that came before it), not the whole log.
 */
import type { LoggedEvent } from '@aguikit/core';
import { AgentProvider } from '@aguikit/react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { drivenStore } from './support/drivenStore.js';

// How many times a row is asked for: a filter reads one per event it checks.
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/timelineContext.js', async (actual) => {
  const real = await actual<typeof import('../src/timelineContext.js')>();
  return {
    ...real,
    rowOf: (entry: LoggedEvent, names?: Parameters<typeof real.rowOf>[1]) => {
      reads.count++;
      return real.rowOf(entry, names);
    },
  };
});

const rows = () => screen.queryAllByRole('option');
const typeOf = (row: HTMLElement) => row.querySelector('.agk-timeline__type')?.textContent ?? '';

async function filtered(query: string) {
  const user = userEvent.setup();
  const driven = drivenStore();
  render(
    <AgentProvider store={driven.store}>
      <EventTimelinePanel />
    </AgentProvider>,
  );
  await driven.start();
  await driven.push({ type: 'TEXT_MESSAGE_START', messageId: 'x', role: 'assistant' });
  await user.type(screen.getByRole('searchbox'), query);
  return driven;
}

describe('EventTimelinePanel filtering a stream of tool calls', () => {
  it('reads each row about once when every flush starts a tool call: 20,000 events, 200 calls', async () => {
    const { push } = await filtered('lookup_order');
    reads.count = 0;
    for (let flush = 0; flush < 200; flush++) {
      const id = `c${flush}`;
      await push(
        { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'lookup_order' },
        { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: id },
        ...Array.from({ length: 97 }, () => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'a' })),
      );
    }
    expect(screen.getByText('600 of 20,002 events')).toBeInTheDocument();
    // Read again from the start at each call, the log's rows come to some 2 million reads (200 × 20,000 / 2).
    expect(reads.count).toBeLessThan(3 * 20_002);
  }, 120_000);

  it('a call whose events came before its start is found by its name once the start comes', async () => {
    const { push } = await filtered('late_name');
    await push({ type: 'TOOL_CALL_ARGS', toolCallId: 'c9', delta: '{}' }, { type: 'TOOL_CALL_END', toolCallId: 'c9' });
    await push({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'other_tool' });
    expect(rows()).toHaveLength(0);
    await push({ type: 'TOOL_CALL_START', toolCallId: 'c9', toolCallName: 'late_name' });
    expect(rows().map(typeOf)).toEqual(['TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_START']);
    expect(screen.getByText('3 of 6 events')).toBeInTheDocument();
  });
});
