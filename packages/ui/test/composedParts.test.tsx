import { AgentProvider, type AgentStore } from '@aguikit/react';
import { act, render, screen } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Message } from '../src/Message.js';
import { SubagentGroup } from '../src/SubagentGroup.js';
import { CONCURRENT_SUBAGENTS } from '../src/storybook/conversations.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';
import { ToolCall, ToolCallCard } from '../src/ToolCall.js';

const stores: AgentStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.destroy();
});

async function conversation() {
  const store = await playedStore([
    {
      say: 'Where is A-1001?',
      events: runOf([
        ...say('m-1', 'Looking it up.'),
        ...call('call-1', 'lookup_order', { orderId: 'A-1001' }, { parent: 'm-1', result: { ok: true } }),
        ...CONCURRENT_SUBAGENTS.filter((e) => e.type !== 'RUN_STARTED' && e.type !== 'RUN_FINISHED'),
      ]),
    },
  ]);
  stores.push(store);
  return store;
}

async function show(ui: React.ReactNode) {
  const view = render(<AgentProvider store={await conversation()}>{ui}</AgentProvider>);
  await act(async () => undefined);
  return view;
}

/** Each `aria-labelledby` id that names no element of the document. */
function missingLabels(root: HTMLElement): string[] {
  return [...root.querySelectorAll('[aria-labelledby]')].flatMap((el) =>
    (el.getAttribute('aria-labelledby') ?? '')
      .split(/\s+/)
      .filter((id) => id && !root.ownerDocument.getElementById(id))
      .map((id) => `${el.className} -> ${id}`),
  );
}

describe('a part composed without its Header', () => {
  it('Message.Root with only a body is still named by its author, through no id that is missing', async () => {
    const { container } = await show(
      <Message.Root id="m-1">
        <Message.Body />
        <Message.ToolCalls />
      </Message.Root>,
    );
    expect(missingLabels(container)).toEqual([]);
    expect(screen.getByRole('article', { name: 'Assistant' })).toHaveTextContent('Looking it up.');
  });

  it('Message.Root with its Header is named by the author the Header shows', async () => {
    const { container } = await show(
      <Message.Root id="m-1">
        <Message.Header />
        <Message.Body />
      </Message.Root>,
    );
    const article = screen.getByRole('article', { name: 'Assistant' });
    expect(article).toHaveAttribute('aria-labelledby', container.querySelector('.agk-message__author')?.id);
    expect(article).not.toHaveAttribute('aria-label');
  });

  it('ToolCall.Root with a header of its own is named by the tool and its status, through no id that is missing', async () => {
    const { container } = await show(
      <ToolCall.Root id="call-1" defaultOpen>
        <h4>Order lookup</h4>
        <ToolCall.Panel />
      </ToolCall.Root>,
    );
    expect(missingLabels(container)).toEqual([]);
    expect(screen.getByRole('article', { name: 'lookup_order Succeeded' })).toBeInTheDocument();
  });

  it('ToolCall.Root with its Header is named by the Header’s button and badge', async () => {
    const { container } = await show(<ToolCallCard id="call-1" />);
    expect(missingLabels(container)).toEqual([]);
    const article = screen.getByRole('article', { name: 'lookup_order Succeeded' });
    const button = screen.getByRole('button', { name: 'lookup_order' });
    expect(article.getAttribute('aria-labelledby')?.split(' ')[0]).toBe(button.id);
  });
});

describe("a caller's ARIA props win", () => {
  it("SubagentGroup keeps a caller's aria-labelledby and role, as ToolCall.Root does", async () => {
    const { container } = await show(
      <>
        <h4 id="my-title">Research</h4>
        <ToolCallCard id="call-1" aria-labelledby="my-title" />
        <SubagentGroup id="sa-policy" aria-labelledby="my-title" role="region" />
      </>,
    );
    expect(container.querySelector('article.agk-toolcall')).toHaveAttribute('aria-labelledby', 'my-title');
    const group = container.querySelector('.agk-subagent');
    expect(group).toHaveAttribute('aria-labelledby', 'my-title');
    expect(group).toHaveAttribute('role', 'region');
    expect(screen.getByRole('region', { name: 'Research' })).toBe(group);
  });

  it("SubagentGroup keeps a caller's aria-label in place of its own name", async () => {
    await show(<SubagentGroup id="sa-policy" aria-label="Policy research" />);
    expect(screen.getByRole('group', { name: 'Policy research' })).toBeInTheDocument();
  });

  it("Message.Root and ToolCall.Root keep a caller's aria-label in place of their own name", async () => {
    await show(
      <>
        <Message id="m-1" aria-label="The reply" />
        <ToolCallCard id="call-1" aria-label="The lookup" />
      </>,
    );
    expect(screen.getByRole('article', { name: 'The reply' })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'The lookup' })).toBeInTheDocument();
  });
});
