import type { AgentSource, Message as AgUiMessage } from '@aguikit/core';
import { AgentProvider, type AgentStore, createAgentStore, useMessage } from '@aguikit/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadMarkdown } from '../src/lazyChunks.js';
import { Message } from '../src/Message.js';
import { MessageList, type MessageListProps } from '../src/Messages.js';
import { Reasoning } from '../src/Reasoning.js';
import { SubagentGroup } from '../src/SubagentGroup.js';
import { safeImageSrc, safeLinkHref } from '../src/safeUrl.js';
import { drivenStore, tick } from './support/drivenStore.js';

function renderList(store: AgentStore, props: MessageListProps = {}) {
  return render(
    <AgentProvider store={store}>
      <MessageList {...props} />
    </AgentProvider>,
  );
}

const history = (n: number): AgUiMessage[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 ? { id: `h${i}`, role: 'assistant', content: `reply ${i}` } : { id: `h${i}`, role: 'user', content: `question ${i}` },
  );

const article = (container: HTMLElement, id: string) => {
  const found = [...container.querySelectorAll('article')].find((a) => a.textContent?.includes(id));
  if (!found) throw new Error(`no message containing ${id}`);
  return found;
};

/** jsdom has no layout: the log gets a height and a scroll position, rows a height, as a browser would give them. */
function fakeLayout({ viewport = 400, row = 50, content = () => 1000 }: { viewport?: number; row?: number; content?: () => number } = {}) {
  const tops = new WeakMap<Element, number>();
  const isLog = (el: Element) => el.getAttribute('role') === 'log';
  const max = (el: Element) => Math.max(0, scrollHeightOf(el) - viewport);
  const scrollHeightOf = (el: Element) => {
    const sizer = el.firstElementChild as HTMLElement | null;
    const height = sizer?.style.height ? Number.parseFloat(sizer.style.height) : Number.NaN;
    return Number.isNaN(height) ? content() : height;
  };
  const proto = HTMLElement.prototype;
  const saved = ['clientHeight', 'scrollHeight', 'scrollTop', 'offsetHeight'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(proto, key) ?? Object.getOwnPropertyDescriptor(Element.prototype, key)] as const,
  );
  Object.defineProperties(proto, {
    clientHeight: {
      configurable: true,
      get: function (this: HTMLElement) {
        return isLog(this) ? viewport : 0;
      },
    },
    scrollHeight: {
      configurable: true,
      get: function (this: HTMLElement) {
        return isLog(this) ? scrollHeightOf(this) : 0;
      },
    },
    offsetHeight: {
      configurable: true,
      get: function (this: HTMLElement) {
        return this.classList.contains('agk-messages__row') ? row : 0;
      },
    },
    scrollTop: {
      configurable: true,
      get: function (this: HTMLElement) {
        return tops.get(this) ?? 0;
      },
      set: function (this: HTMLElement, value: number) {
        const next = Math.min(Math.max(0, value), isLog(this) ? max(this) : 0);
        if (next === (tops.get(this) ?? 0)) return;
        tops.set(this, next);
        // A browser reports a scroll, by the script or the reader, with a scroll event.
        queueMicrotask(() => this.dispatchEvent(new Event('scroll')));
      },
    },
  });
  return () => {
    for (const [key, descriptor] of saved) {
      if (descriptor) Object.defineProperty(proto, key, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[key];
    }
  };
}

let restoreLayout: (() => void) | undefined;
afterEach(() => {
  restoreLayout?.();
  restoreLayout = undefined;
});

describe('MessageList: streaming', () => {
  it('appends tokens to one message without re-rendering the list or any other message', async () => {
    // The Markdown renderer loads on demand, and its arrival re-renders the agent's messages once: here it is there first.
    await preloadMarkdown();
    const { store, push, start } = drivenStore(history(150));
    const commits = new Map<string, number>();
    const onRender: ProfilerOnRenderCallback = (id) => commits.set(id, (commits.get(id) ?? 0) + 1);
    const renderMessage = (id: string) => (
      <Profiler id={id} onRender={onRender}>
        <Message id={id} />
      </Profiler>
    );
    const { container } = renderList(store, { renderMessage });
    await start();
    await push({ type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' });
    expect(container.querySelectorAll('article')).toHaveLength(151);
    commits.clear();
    for (let frame = 0; frame < 40; frame++) {
      await push(
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'tok ' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'en ' },
      );
    }
    expect(article(container, 'tok en').textContent).toContain('tok en '.repeat(40).trim());
    expect(article(container, 'tok en').getAttribute('data-status')).toBe('streaming');
    expect([...commits.keys()]).toEqual(['live']);
    expect(commits.get('live')).toBe(40);
  });

  it('announces a reply once, when complete, and never history or tokens', async () => {
    const { store, push, start } = drivenStore(history(4));
    renderList(store);
    const status = screen.getByRole('status');
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Hel' },
    );
    await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'lo **there**' });
    expect(status.textContent).toBe('');
    expect(screen.getByRole('log')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('log')).toHaveAttribute('aria-live', 'off');
    await push({ type: 'TEXT_MESSAGE_END', messageId: 'a' });
    // Plain text: the Markdown is rendered to words, never read out as `**`.
    await waitFor(() => expect(status.textContent).toBe('Assistant: Hello there'));
  });

  it('never announces the history of a thread the provider switches to', async () => {
    await preloadMarkdown();
    const silent: AgentSource = { async *run() {} };
    const thread = (id: string, reply: string) =>
      createAgentStore({
        source: silent,
        threadId: id,
        initialMessages: [
          { id: `${id}-q`, role: 'user', content: 'Where is my order?' },
          { id: `${id}-a`, role: 'assistant', content: reply },
        ],
      });
    const view = render(
      <AgentProvider store={thread('a', 'Order A shipped.')}>
        <MessageList />
      </AgentProvider>,
    );
    await act(tick);
    expect(screen.getByRole('status').textContent).toBe('');
    view.rerender(
      <AgentProvider store={thread('b', 'Order B was refunded.')}>
        <MessageList />
      </AgentProvider>,
    );
    await act(async () => {
      await tick();
      await tick();
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('MessageList: renderMessage', () => {
  it('draws the default message for an id it returns undefined for, and nothing for one it returns null for, as renderTool does', async () => {
    const { store } = drivenStore(history(4));
    const renderMessage = (id: string) => (id === 'h1' ? null : id === 'h2' ? <p>Custom h2</p> : undefined);
    const { container } = renderList(store, { renderMessage });
    await act(tick);
    expect(screen.getByText('Custom h2')).toBeInTheDocument();
    expect(screen.queryByText('reply 1')).toBeNull();
    expect(article(container, 'question 0')).toHaveAttribute('data-role', 'user');
    expect(article(container, 'reply 3')).toHaveAttribute('data-role', 'assistant');
  });

  it('announces a finished reply when the app draws messages of its own, without Message.Root', async () => {
    await preloadMarkdown();
    function Bubble({ id }: { id: string }) {
      const message = useMessage(id);
      return <div className="my-bubble">{String(message?.content ?? '')}</div>;
    }
    const { store, push, start, end } = drivenStore(history(2));
    renderList(store, { renderMessage: (id) => <Bubble key={id} id={id} /> });
    const status = screen.getByRole('status');
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Refund **issued**' },
    );
    expect(status.textContent).toBe('');
    await push({ type: 'TEXT_MESSAGE_END', messageId: 'a' });
    await waitFor(() => expect(status.textContent).toBe('Assistant: Refund issued'));
    // Its run failing afterwards says the reply may be incomplete, as with the default messages.
    await end({ type: 'RUN_ERROR', message: 'Upstream failed' });
    await waitFor(() => expect(status.textContent).toBe('Assistant: the last reply may be incomplete.'));
  });

  it('does not announce a reply the app chose not to draw (renderMessage returned null)', async () => {
    await preloadMarkdown();
    const { store, push, start } = drivenStore(history(2));
    renderList(store, { renderMessage: (id) => (id === 'hidden' ? null : undefined) });
    const status = screen.getByRole('status');
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'hidden', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'hidden', delta: 'Internal note' },
      { type: 'TEXT_MESSAGE_END', messageId: 'hidden' },
      { type: 'TEXT_MESSAGE_START', messageId: 'shown', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'shown', delta: 'Refund issued' },
      { type: 'TEXT_MESSAGE_END', messageId: 'shown' },
    );
    await waitFor(() => expect(status.textContent).toBe('Assistant: Refund issued'));
    expect(status.textContent).not.toMatch(/Internal note/);
  });
});

describe('Message: content', () => {
  it('renders agent Markdown safely: no raw HTML, no script, javascript: links neutralised', async () => {
    const text = [
      '# Title',
      '',
      '- one',
      '- two with `code`',
      '',
      '[safe](https://example.com/docs) and [evil](javascript:alert(1)) and [tab](java&#x09;script:alert(1)) and [rel](/admin)',
      '',
      '<script>window.__pwned = 1</script>',
      '',
      '<div onclick="alert(1)"><img src=x onerror="window.__pwned=1">raw block</div>',
      '',
      'inline <img src=x onerror="window.__pwned=1"> html',
      '',
      '![chart](https://images.example/chart.png)',
      '',
      '```js',
      'const x = 1;',
      '```',
    ].join('\n');
    const { store } = drivenStore([{ id: 'm', role: 'assistant', content: text }]);
    const { container } = renderList(store);
    // Markdown once its renderer has loaded (it is loaded on demand).
    await screen.findByRole('heading', { name: 'Title' });
    const message = article(container, 'Title');
    expect(message.querySelector('script, img, [onclick], [onerror]')).toBeNull();
    expect(message.textContent).not.toContain('raw block');
    expect(message.querySelectorAll('li')).toHaveLength(2);
    // No heading above the list: a reply's `#` is an h2, never the page's h1.
    expect(message.querySelector('h1')).toBeNull();
    expect(within(message).getByRole('heading', { name: 'Title' }).tagName).toBe('H2');
    const links = [...message.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/docs', 'https://images.example/chart.png']);
    for (const a of links) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(within(message).getByText('evil').tagName).toBe('SPAN');
    expect(within(message).getByText('tab').tagName).toBe('SPAN');
    expect(within(message).getByText('rel').tagName).toBe('SPAN');
    expect(message.querySelector('pre.agk-code code')?.textContent).toBe('const x = 1;\n');
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('renders GitHub Flavored Markdown safely: tables, strikethrough, task boxes, bare URLs, footnotes', async () => {
    const text = [
      'Orders',
      '',
      '| Order | Total |',
      '|---|--:|',
      '| A-1001 | ~~$42~~ $0 |',
      '| <img src=x onerror="window.__pwned=1"> | [x](javascript:alert(1)) |',
      '',
      '- [x] refunded',
      '- [ ] shipped',
      '',
      'See https://example.com/track and www.example.org, not javascript:alert(1).[^1]',
      '',
      '[^1]: A note.',
    ].join('\n');
    const { store } = drivenStore([
      { id: 'm', role: 'assistant', content: text },
      { id: 'n', role: 'assistant', content: 'Again.[^1]\n\n[^1]: Another note.' },
    ]);
    const { container } = renderList(store);
    const message = article(container, 'Orders');
    const table = await within(message).findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Order', 'Total']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(message.querySelector('del')?.textContent).toBe('$42');
    expect(message.querySelector('img, [onerror], input, a[href^="javascript" i]')).toBeNull();
    expect(within(message).getByRole('img', { name: 'done' }).textContent).toBe('☑');
    expect(within(message).getByRole('img', { name: 'not done' }).textContent).toBe('☐');
    const hrefs = [...message.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toContain('https://example.com/track');
    expect(hrefs).toContain('http://www.example.org/');
    // Footnote references are in-page links, and agent text never routes inside the page (a hash router would follow them).
    expect(hrefs.filter((h) => h?.startsWith('#'))).toEqual([]);
    for (const a of message.querySelectorAll('a[target]')) expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    const ids = [...container.querySelectorAll('[id]')].map((el) => el.id);
    expect(ids.length).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(ids.length);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('shows what a person wrote verbatim, HTML as text', () => {
    const { store } = drivenStore([{ id: 'u', role: 'user', content: '<b>bold?</b> *not emphasis*' }]);
    const { container } = renderList(store);
    const message = article(container, 'bold?');
    expect(message.querySelector('b, em')).toBeNull();
    expect(message).toHaveTextContent('<b>bold?</b> *not emphasis*');
    expect(message).toHaveAttribute('data-role', 'user');
  });

  it('loads http(s) and data:image images only; anything else is text or a labelled placeholder', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const { store } = drivenStore([
      {
        id: 'u',
        role: 'user',
        content: [
          { type: 'text', text: 'Look at these' },
          { type: 'image', source: { type: 'data', value: png, mimeType: 'image/png' }, metadata: { alt: 'A red pixel' } },
          { type: 'image', source: { type: 'url', value: 'https://images.example/cat.jpg' } },
          { type: 'image', source: { type: 'url', value: 'javascript:alert(1)' } },
          { type: 'image', source: { type: 'url', value: 'data:text/html;base64,PHNjcmlwdD4=' } },
          { type: 'image', source: { type: 'data', value: png, mimeType: 'text/html' } },
          { type: 'image', source: { type: 'file', value: 'file-abc', provider: 'openai' } },
          { type: 'audio', source: { type: 'url', value: 'https://a.example/x.mp3', mimeType: 'audio/mpeg' } },
        ],
      },
    ]);
    const { container } = renderList(store);
    const images = [...container.querySelectorAll('img')];
    expect(images.map((img) => img.getAttribute('src'))).toEqual([`data:image/png;base64,${png}`, 'https://images.example/cat.jpg']);
    expect(images.map((img) => img.getAttribute('alt'))).toEqual(['A red pixel', 'Image from the user']);
    expect(screen.getByText('javascript:alert(1)').closest('[data-blocked]')).not.toBeNull();
    expect(screen.getByText('data:text/html;base64,PHNjcmlwdD4=').closest('[data-blocked]')).not.toBeNull();
    expect(screen.getByText(/inline data of type text\/html/).closest('[data-blocked]')).not.toBeNull();
    const placeholders = [...container.querySelectorAll('.agk-message__attachment:not([data-blocked])')].map((p) => p.textContent);
    expect(placeholders).toEqual(['Image attachment (provider file)', 'Audio attachment (audio/mpeg, link)']);
  });

  it('keeps the URL policy in one place', () => {
    expect(safeLinkHref('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeLinkHref('mailto:help@example.com')).toBe('mailto:help@example.com');
    for (const bad of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\nscript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
      '/relative',
      '#top',
    ]) {
      expect(safeLinkHref(bad)).toBeUndefined();
    }
    expect(safeImageSrc({ type: 'url', value: 'data:image/svg+xml;base64,PHN2Zz4=' })).toBe('data:image/svg+xml;base64,PHN2Zz4=');
    expect(safeImageSrc({ type: 'url', value: 'data:image/png,"><script>' })).toBeUndefined();
    expect(safeImageSrc({ type: 'data', value: 'AAAA"onerror=x', mimeType: 'image/png' })).toBeUndefined();
    expect(safeImageSrc({ type: 'url', value: 'file:///etc/passwd' })).toBeUndefined();
  });

  it('judges a long image value in time proportional to its length, whitespace and all', () => {
    const padded = ' \n'.repeat(100_000);
    const began = performance.now();
    expect(safeImageSrc({ type: 'url', value: `data:image/png;base64,${padded}!` })).toBeUndefined();
    expect(safeImageSrc({ type: 'data', value: `${padded}!`, mimeType: 'image/png' })).toBeUndefined();
    expect(safeImageSrc({ type: 'url', value: `data:image/png;base64,AAAA${padded}` })).toBe(`data:image/png;base64,AAAA${padded}`);
    expect(safeImageSrc({ type: 'data', value: `AA${padded}AA==`, mimeType: 'image/png' })).toBe('data:image/png;base64,AAAA==');
    expect(performance.now() - began).toBeLessThan(200);
  });

  it('shows metadata on demand, per message', async () => {
    const user = userEvent.setup();
    const { store } = drivenStore([
      { id: 'a', role: 'assistant', content: 'Done.', metadata: { model: 'agent-large', usage: { inputTokens: 12, outputTokens: 3 } } },
      { id: 'b', role: 'assistant', content: 'No metadata here.' },
    ]);
    const { container } = renderList(store);
    expect(within(article(container, 'No metadata')).queryByRole('button', { name: 'Details' })).toBeNull();
    const message = article(container, 'Done.');
    const toggle = within(message).getByRole('button', { name: 'Details' });
    const details = message.querySelector('dl');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle.getAttribute('aria-controls')).toBe(details?.id);
    expect(details).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(details).toBeVisible();
    expect(details).toHaveTextContent('modelagent-large');
    expect(details).toHaveTextContent('usage{"inputTokens":12,"outputTokens":3}');
    await user.click(toggle);
    expect(details).not.toBeVisible();
  });

  it("renders an assistant's tool calls as chips, through renderTool, and does not repeat its tool message", async () => {
    const { store, push, start, end } = drivenStore([{ id: 'u', role: 'user', content: 'Refund A-1001' }]);
    const { container } = renderList(store, {
      renderTool: (call) => (call.name === 'custom_tool' ? <p data-testid="custom">custom card for {call.id}</p> : undefined),
    });
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Checking the order.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup_order', parentMessageId: 'a' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"orderId":"A-1001"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'res-1', toolCallId: 'c1', content: '{"status":"delivered"}' },
      { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'custom_tool', parentMessageId: 'a' },
      { type: 'TOOL_CALL_END', toolCallId: 'c2' },
    );
    await end();
    const assistant = article(container, 'Checking the order.');
    expect(within(assistant).getByRole('button', { name: 'lookup_order' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(assistant).getByText(/"status": "delivered"/)).toBeInTheDocument();
    expect(within(assistant).getByTestId('custom')).toHaveTextContent('custom card for c2');
    // The card shows the result: the tool message is not drawn again under it.
    expect(container.querySelector('article[data-role="tool"]')).toBeNull();
  });

  it("marks the last reply of a failed run as error (and not the run's earlier replies), and shows an activity", async () => {
    const { store, push, start, end } = drivenStore();
    const { container } = renderList(store);
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'a0', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a0', delta: 'Planning first.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a0' },
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'PLAN', content: { steps: ['search', 'answer'] } },
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Let me look that' },
    );
    await end({ type: 'RUN_ERROR', message: 'Model overloaded', code: 'OVERLOADED' });
    const reply = article(container, 'Let me look that');
    expect(reply).toHaveAttribute('data-status', 'error');
    expect(reply).toHaveAttribute('data-state', 'incomplete');
    // One short mark; the error itself is the run status's to show.
    expect(reply).toHaveTextContent('may be incomplete');
    expect(reply).not.toHaveTextContent('Run failed');
    expect(reply).not.toHaveTextContent('Model overloaded');
    expect(article(container, 'Planning first.')).toHaveAttribute('data-status', 'complete');
    const activity = container.querySelector('article[data-role="activity"]') as HTMLElement;
    expect(activity).toHaveTextContent('PLAN');
    expect(activity.querySelector('pre')).toBeNull();
    expect(
      within(activity)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['search (pending)', 'answer (pending)']);
  });
});

describe('Reasoning', () => {
  it('says "Thinking…" while it streams, "Reasoning, N words" after, and collapses', async () => {
    const user = userEvent.setup();
    const { store, push, start } = drivenStore();
    const { container } = renderList(store);
    await start();
    await push(
      { type: 'REASONING_START', messageId: 'span' },
      { type: 'REASONING_MESSAGE_START', messageId: 'r', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'The user wants ' },
    );
    const trigger = screen.getByRole('button', { name: 'Thinking…' });
    const root = container.querySelector('.agk-reasoning');
    expect(root).toHaveAttribute('data-state', 'closed');
    expect(container.querySelector('article[data-role="reasoning"]')).toHaveAttribute('data-status', 'streaming');
    await push(
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r', delta: 'a refund, so check the order.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'r' },
    );
    expect(trigger).toHaveAccessibleName('Reasoning, 9 words');
    const panel = document.getElementById(trigger.getAttribute('aria-controls') ?? '');
    expect(panel).not.toBeVisible();
    await user.click(trigger);
    expect(root).toHaveAttribute('data-state', 'open');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    expect(panel).toHaveTextContent('The user wants a refund, so check the order.');
    await user.click(trigger);
    expect(root).toHaveAttribute('data-state', 'closed');
  });

  it('can be controlled', async () => {
    const { store } = drivenStore([{ id: 'r', role: 'reasoning', content: 'one two' } as AgUiMessage]);
    const changes: boolean[] = [];
    render(
      <AgentProvider store={store}>
        <Reasoning id="r" open onOpenChange={(open) => changes.push(open)} />
      </AgentProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reasoning, 2 words' }));
    expect(changes).toEqual([false]);
    expect(screen.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('SubagentGroup', () => {
  async function subagentThread() {
    const driven = drivenStore([{ id: 'u', role: 'user', content: 'Research refunds' }]);
    const { push, start } = driven;
    await start();
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'main-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'main-1', delta: 'Delegating.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'main-1' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'res', name: 'Researcher', description: 'Finds the policy' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'cite', name: 'Citer', parentSubagentRunId: 'res' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'idle', name: 'Idle helper' },
      { type: 'TEXT_MESSAGE_START', messageId: 'res-1', role: 'assistant', subagentRunId: 'res' },
      { type: 'TEXT_MESSAGE_START', messageId: 'cite-1', role: 'assistant', subagentRunId: 'cite' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'res-1', delta: 'Reading policy.', subagentRunId: 'res' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'cite-1', delta: 'Section 4.2.', subagentRunId: 'cite' },
      { type: 'TEXT_MESSAGE_END', messageId: 'cite-1', subagentRunId: 'cite' },
      { type: 'TEXT_MESSAGE_START', messageId: 'main-2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'main-2', delta: 'Still working.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'main-2' },
      { type: 'TEXT_MESSAGE_END', messageId: 'res-1', subagentRunId: 'res' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'cite' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'res', message: 'Policy site unreachable', code: 'FETCH_FAILED' },
    );
    return driven;
  }

  it("groups each subagent's messages under its name and status, nested by parent", async () => {
    const { store } = await subagentThread();
    const { container } = renderList(store);
    const research = screen.getByRole('group', { name: 'Researcher Failed' });
    const cite = within(research).getByRole('group', { name: 'Citer Done' });
    expect(research).toHaveAttribute('data-status', 'error');
    expect(research).toHaveTextContent('FETCH_FAILED Policy site unreachable');
    expect(research).toHaveTextContent('Finds the policy');
    expect(within(research).getByText('Reading policy.')).toBeInTheDocument();
    expect(within(cite).getByText('Section 4.2.')).toBeInTheDocument();
    expect(within(cite).queryByText('Reading policy.')).toBeNull();
    const idle = screen.getByRole('group', { name: 'Idle helper Running' });
    expect(idle).toHaveTextContent('Nothing yet.');
    // Top level, in thread order: the main agent's messages, with each group where its first message is.
    const log = screen.getByRole('log');
    const topLevel = [...log.querySelectorAll(':scope .agk-messages__row > *')].map((el) =>
      el.getAttribute('role') === 'group' ? `group:${el.getAttribute('data-subagent')}` : el.textContent?.replace(/^Assistant|^You/, ''),
    );
    expect(topLevel).toEqual(['Research refunds', 'Delegating.', 'group:res', 'Still working.', 'group:idle']);
    expect(container.querySelectorAll('article')).toHaveLength(5);
  });

  it('collapses, and renders on its own outside a list', async () => {
    const user = userEvent.setup();
    const { store } = await subagentThread();
    render(
      <AgentProvider store={store}>
        <SubagentGroup id="res" defaultOpen={false} />
      </AgentProvider>,
    );
    const group = screen.getByRole('group', { name: 'Researcher Failed' });
    expect(group).toHaveAttribute('data-state', 'closed');
    expect(within(group).getByText('Reading policy.')).not.toBeVisible();
    await user.click(within(group).getByRole('button', { name: 'Researcher' }));
    expect(group).toHaveAttribute('data-state', 'open');
    expect(within(group).getByText('Reading policy.')).toBeVisible();
    expect(within(group).getByRole('group', { name: 'Citer Done' })).toBeVisible();
  });

  it('keeps every message in thread order with subagents="inline"', async () => {
    const { store } = await subagentThread();
    const { container } = renderList(store, { subagents: 'inline' });
    expect(screen.queryByRole('group')).toBeNull();
    expect([...container.querySelectorAll('article')].map((a) => a.getAttribute('data-subagent'))).toEqual([
      null,
      null,
      'res',
      'cite',
      null,
    ]);
  });
});

describe('MessageList: scrolling', () => {
  it('follows new content, stops when the reader scrolls up, and resumes at the end or with "Jump to latest"', async () => {
    let height = 1000;
    restoreLayout = fakeLayout({ viewport: 200, content: () => height });
    const user = userEvent.setup();
    const { store, push, start } = drivenStore(history(6));
    const { container } = renderList(store);
    const log = screen.getByRole('log');
    await act(tick);
    expect(log.scrollTop).toBe(800);
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'following');

    await start();
    height = 1100;
    await push(
      { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'a' },
    );
    expect(log.scrollTop).toBe(900);

    await act(async () => {
      log.scrollTop = 300;
      await tick();
    });
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'paused');
    const jump = screen.getByRole('button', { name: /Jump to latest/ });

    height = 1300;
    await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'more' });
    expect(log.scrollTop).toBe(300);

    await user.click(jump);
    await act(tick);
    expect(log.scrollTop).toBe(1100);
    expect(log).toHaveFocus();
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'following');
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull();

    await act(async () => {
      log.scrollTop = 200;
      await tick();
    });
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'paused');
    await act(async () => {
      log.scrollTop = 1100;
      await tick();
    });
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'following');
    height = 1400;
    await push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'live', delta: 'again' });
    expect(log.scrollTop).toBe(1200);
  });

  it('stops following on a wheel up even before the scroll lands', async () => {
    restoreLayout = fakeLayout({ viewport: 200 });
    const { store } = drivenStore(history(6));
    const { container } = renderList(store);
    await act(tick);
    await act(async () => {
      screen.getByRole('log').dispatchEvent(new WheelEvent('wheel', { deltaY: -40 }));
      await tick();
    });
    expect(container.firstElementChild).toHaveAttribute('data-scroll', 'paused');
  });
});

describe('MessageList: long threads', () => {
  it('renders every row up to the threshold', () => {
    restoreLayout = fakeLayout();
    const { store } = drivenStore(history(200));
    const { container } = renderList(store);
    expect(container.firstElementChild).toHaveAttribute('data-virtualization', 'off');
    expect(container.querySelectorAll('article')).toHaveLength(200);
  });

  it('virtualizes above it: a window of measured rows at the end, far fewer than the messages', async () => {
    restoreLayout = fakeLayout({ viewport: 400, row: 50 });
    const { store } = drivenStore(history(2000));
    const { container } = renderList(store, {
      virtualization: { estimateSize: 50, overscan: 4, initialRect: { width: 800, height: 400 } },
    });
    await act(tick);
    const root = container.firstElementChild;
    expect(root).toHaveAttribute('data-virtualization', 'on');
    const rendered = container.querySelectorAll('article');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(30);
    // Following: the window is at the end of the thread.
    expect(screen.getByText('reply 1999')).toBeInTheDocument();
    expect(screen.queryByText('question 0')).toBeNull();
    expect(screen.getByRole('log').querySelector('[data-virtual]')).toHaveStyle({ height: '100012px' });
  });
});
