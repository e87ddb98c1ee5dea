import { AgentProvider } from '@aguikit/react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { LONG_TEXT } from '../src/LongText.js';
import { MessageList } from '../src/Messages.js';
import { call, playedStore, runOf, say } from '../src/storybook/scripted.js';

/**
 * A tool's arguments can be as long as its result: a `write_file` call
 * carries the whole file. Past LONG_TEXT characters they show their head and
 * *Show all*, as a result does, in the card and in the interrupt that holds
 * the call: laid out whole, a megabyte of arguments held Chromium's page for
 * seconds as the card or the approval opened.
 */

const FILE = `${'const total = order.lines.reduce((sum, line) => sum + line.amount, 0);\n'.repeat(Math.ceil((LONG_TEXT * 2) / 72))}// the end`;

async function writeFileApproval() {
  return playedStore([
    {
      say: 'Write the report script',
      events: runOf([...say('a1', 'Writing it.'), ...call('c1', 'write_file', { path: 'report.ts', content: FILE }, { parent: 'a1' })], {
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'int-1',
              reason: 'tool_call',
              toolCallId: 'c1',
              responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } } },
            },
          ],
        },
      }),
    },
  ]);
}

describe('tool arguments past LONG_TEXT characters', () => {
  it("show their head in the call's card, and Show all shows the rest", async () => {
    const store = await writeFileApproval();
    const view = render(
      <AgentProvider store={store}>
        <MessageList />
      </AgentProvider>,
    );
    const card = view.container.querySelector('.agk-toolcall');
    const args = card?.querySelector('.agk-toolcall__section');
    expect(args?.textContent?.length).toBeLessThan(LONG_TEXT + 1_000);
    expect(args?.textContent).toContain('"path": "report.ts"');
    expect(args?.textContent).not.toContain('// the end');
    const showAll = args?.querySelector<HTMLButtonElement>('.agk-longtext__note button');
    if (!showAll) throw new Error('no Show all for the arguments');
    showAll.click();
    await waitFor(() => expect(args?.textContent).toContain('// the end'));
  });

  it('show their head in the interrupt that holds the call, which can still be answered', async () => {
    const store = await writeFileApproval();
    const view = render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const facts = view.container.querySelector('.agk-interrupt__facts');
    expect(facts?.textContent?.length).toBeLessThan(LONG_TEXT + 1_000);
    expect(facts?.textContent).not.toContain('// the end');
    expect(facts?.querySelector('.agk-longtext__note button')).not.toBeNull();
    expect(await screen.findByRole('button', { name: /approve/i })).toBeInTheDocument();
  });
});
