import { describe, expect, it, vi } from 'vitest';

/**
 * The conversation's first load: the Markdown renderer (react-markdown,
 * remark-gfm), which also turns replies into plain text for announcements, is
 * a dynamic import, never evaluated by importing the conversation's modules.
 */
const evaluated = vi.hoisted(() => new Map<string, number>());
const count = (id: string) => evaluated.set(id, (evaluated.get(id) ?? 0) + 1);

vi.mock('react-markdown', async (original) => {
  count('react-markdown');
  return original();
});
vi.mock('remark-gfm', async (original) => {
  count('remark-gfm');
  return original();
});

describe('the conversation’s first load', () => {
  it('imports the message list, its announcer and the tool chips without evaluating the Markdown renderer', async () => {
    const [list, announcer, tools] = await Promise.all([
      import('../src/Messages.js'),
      import('../src/liveAnnouncer.js'),
      import('../src/ToolCall.js'),
    ]);
    expect(list.MessageList).toBeDefined();
    expect(announcer.announcementText).toBeTypeOf('function');
    expect(tools.ToolCallCard).toBeDefined();
    expect(evaluated.get('react-markdown') ?? 0).toBe(0);
    expect(evaluated.get('remark-gfm') ?? 0).toBe(0);
  });
});
