/**
 * The components rendered on a server (no window, as in Next.js), then
 * hydrated in the browser (jsdom): the server's modules are loaded fresh
 * with `window` and `document` hidden, the browser's fresh with them back,
 * as two bundles would be. The browser's first render must give the
 * server's HTML: no hydration error, no warning.
 */
import type * as React from 'react';
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';

type Ui = typeof import('../src/index.js');
type ReactPkg = typeof import('@aguikit/react');
type Core = typeof import('@aguikit/core');
interface Mods {
  ui: Ui;
  rx: ReactPkg;
  core: Core;
}

/** `engine: false`: as a fresh server process or page, where no controller has loaded the engine yet. */
async function serverMods({ engine = true } = {}): Promise<Mods> {
  vi.resetModules();
  vi.stubGlobal('window', undefined);
  vi.stubGlobal('document', undefined);
  const [ui, rx, core] = await Promise.all([import('../src/index.js'), import('@aguikit/react'), import('@aguikit/core')]);
  if (engine) await core.loadEngine();
  return { ui, rx, core };
}

async function clientMods({ engine = true } = {}): Promise<Mods> {
  vi.unstubAllGlobals();
  vi.resetModules();
  const [ui, rx, core] = await Promise.all([import('../src/index.js'), import('@aguikit/react'), import('@aguikit/core')]);
  if (engine) await core.loadEngine();
  return { ui, rx, core };
}

async function serverHtml(node: React.ReactNode): Promise<string> {
  const { renderToString } = await import('react-dom/server');
  const html = renderToString(node);
  vi.unstubAllGlobals();
  return html;
}

async function hydrate(html: string, node: React.ReactNode) {
  const { hydrateRoot } = await import('react-dom/client');
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const errors: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  });
  const recoverable: string[] = [];
  const root = await act(async () =>
    hydrateRoot(container, node, {
      onRecoverableError: (e) => {
        recoverable.push(String(e instanceof Error ? e.message : e));
      },
    }),
  );
  spy.mockRestore();
  return {
    container,
    errors,
    recoverable,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const messages = [
  { id: 'u0', role: 'user' as const, content: 'Hello there' },
  { id: 'a0', role: 'assistant' as const, content: 'Hi! **How** can I help?' },
];

function app(m: Mods) {
  const { rx, ui } = m;
  function Chat() {
    const agent = rx.useAgentRun({ url: '/api/agent', initialMessages: messages });
    return (
      <rx.AgentProvider store={agent.store}>
        <ui.AgentChat placeholder="Ask" />
        <ui.StateInspectorPanel />
        <ui.EventTimelinePanel />
      </rx.AgentProvider>
    );
  }
  return <Chat />;
}

it('a chat of useAgentRun with a URL, the inspector and the timeline hydrates cleanly, and the server fetches nothing', async () => {
  const s = await serverMods();
  const fetched = vi.spyOn(globalThis, 'fetch');
  const html = await serverHtml(app(s));
  expect(fetched).not.toHaveBeenCalled();
  const c = await clientMods();
  const h = await hydrate(html, app(c));
  expect(h.recoverable).toEqual([]);
  expect(h.errors).toEqual([]);
  h.unmount();
});

/** A saved session (what an app loads from its database on the server): one run ended in an interrupt with a deadline. */
async function savedLog(expiresInMs: number) {
  const m = await clientMods();
  const { call, runOf, say, scriptedSource } = await import('../src/storybook/scripted.js');
  const expiresAt = new Date(Date.now() + expiresInMs).toISOString();
  const source = scriptedSource([
    runOf([...say('a1', 'Checking the order'), ...call('call-1', 'refund_order', { orderId: 'A-1' })], {
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Refund?', expiresAt }] },
    }),
  ]);
  const store = m.rx.createAgentStore({
    threadId: 't-saved',
    source,
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1');
  const entries = store.session.entries;
  store.destroy();
  return entries;
}

function restored(m: Mods, log: readonly import('@aguikit/core').SessionEntry[]) {
  const { rx, ui } = m;
  function Chat() {
    return (
      <rx.AgentProvider options={{ source: { async *run() {} }, log }}>
        <ui.AgentChat placeholder="Ask" />
        <ui.EventTimelinePanel />
      </rx.AgentProvider>
    );
  }
  return <Chat />;
}

it('a saved session with an interrupt counting down hydrates cleanly: the time left is drawn once the browser has a clock', async () => {
  const log = await savedLog(10 * 60_000);
  const s = await serverMods();
  const html = await serverHtml(restored(s, log));
  expect(html).not.toMatch(/Expires in/);
  const c = await clientMods();
  const h = await hydrate(html, restored(c, log));
  expect(h.recoverable).toEqual([]);
  expect(h.errors).toEqual([]);
  expect(h.container.querySelector('[role="timer"]')?.textContent).toMatch(/^Expires in (10:00|9:5\d)$/);
  h.unmount();
});

/** A saved session where the user answered the interrupt: the conversation shows a decision line with its time. */
async function answeredLog() {
  const m = await clientMods();
  const { runOf, say, scriptedSource } = await import('../src/storybook/scripted.js');
  const source = scriptedSource([
    runOf(say('a1', 'Checking the order'), {
      outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Refund?' }] },
    }),
    runOf(say('a2', 'Refunded')),
  ]);
  const store = m.rx.createAgentStore({
    threadId: 't-saved',
    source,
    // 2026-01-01T23:30:00Z: 23:30 in UTC, 08:30 the next day in Tokyo.
    now: () => Date.UTC(2026, 0, 1, 23, 30, 0),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1');
  await store.getState().resume([{ interruptId: 'int-1', status: 'resolved', payload: { confirmed: true } }]);
  const entries = store.session.entries;
  store.destroy();
  return entries;
}

function transcript(m: Mods, log: readonly import('@aguikit/core').SessionEntry[]) {
  const { rx, ui } = m;
  // Read a quarter of an hour after the decision: the same day in Tokyo (08:45 on 2 January).
  const now = () => Date.UTC(2026, 0, 1, 23, 45, 0);
  return (
    <rx.AgentProvider options={{ source: { async *run() {} }, log, now }}>
      <ui.MessageList />
    </rx.AgentProvider>
  );
}

it("a decision's time is given in UTC, with its date, by a server and in the reader's zone once hydrated: a UTC server and a Tokyo browser agree", async () => {
  const log = await answeredLog();
  const tz = process.env.TZ;
  try {
    process.env.TZ = 'UTC';
    const s = await serverMods();
    const html = await serverHtml(transcript(s, log));
    expect(html).toContain('agk-decision');
    process.env.TZ = 'Asia/Tokyo';
    const c = await clientMods();
    const h = await hydrate(html, transcript(c, log));
    expect(h.recoverable).toEqual([]);
    expect(h.errors).toEqual([]);
    // A server knows neither the reader's zone nor their day: the date is given, which in UTC is the day before Tokyo's.
    expect(html).toMatch(/<time[^>]*>Jan 1, 2026, 11:30:00\sPM UTC</);
    // The browser knows both: a decision of the reader's today is its time.
    expect(h.container.querySelector('.agk-decision time')?.textContent).toMatch(/^08:30:00\sAM$/);
    h.unmount();
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});

it('a saved session whose interrupt has expired never shows it answerable with a time left on the server; the browser shows it expired', async () => {
  const log = await savedLog(-60_000);
  const s = await serverMods();
  const html = await serverHtml(restored(s, log));
  // A server render has no clock (a prerender must give the same HTML every time): it says no time left, it waits.
  expect(html).not.toMatch(/Expires in/);
  expect(html).not.toMatch(/data-state="running"/);
  const c = await clientMods();
  const h = await hydrate(html, restored(c, log));
  expect(h.container.querySelector('.agk-interrupt__countdown')?.getAttribute('data-state')).toBe('expired');
  expect(h.container.querySelector('.agk-interrupt')?.getAttribute('data-state')).toBe('expired');
  expect(h.recoverable).toEqual([]);
  expect(h.errors).toEqual([]);
  h.unmount();
});

it('a prerender (react-dom/static, as Next.js cacheComponents) gives the same HTML twice, which hydrates cleanly', async () => {
  const s = await serverMods();
  const { prerender } = await import('react-dom/static');
  const read = async () => {
    const { prelude } = await prerender(app(s));
    return new Response(prelude).text();
  };
  const first = await read();
  const second = await read();
  vi.unstubAllGlobals();
  expect(second).toBe(first);
  const c = await clientMods();
  const h = await hydrate(first, app(c));
  expect(h.recoverable).toEqual([]);
  expect(h.errors).toEqual([]);
  h.unmount();
});

it('a saved session renders on a server and hydrates where nothing has loaded the engine yet: a streaming render waits for it', async () => {
  const log = await answeredLog();
  const s = await serverMods({ engine: false });
  const { renderToReadableStream } = await import('react-dom/server');
  const stream = await renderToReadableStream(transcript(s, log));
  await stream.allReady;
  const html = await new Response(stream).text();
  vi.unstubAllGlobals();
  expect(html).toContain('Refunded');
  expect(html).toContain('agk-decision');
  const c = await clientMods({ engine: false });
  const h = await hydrate(html, transcript(c, log));
  await vi.waitFor(() => expect(h.container.querySelector('.agk-decision')).not.toBeNull());
  expect(h.container.textContent).toContain('Refunded');
  expect(h.recoverable).toEqual([]);
  expect(h.errors).toEqual([]);
  h.unmount();
});

/** A saved session of every tool-call status (succeeded, ready, still streaming its arguments, held by an interrupt), shared state, and an open interrupt with a form. */
async function devtoolsLog() {
  const m = await clientMods();
  const { call, runOf, say, scriptedSource } = await import('../src/storybook/scripted.js');
  const approval = {
    type: 'object',
    required: ['approved'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
  };
  const source = scriptedSource([
    runOf(
      [
        ...say('a1', 'Looking at **order** A-1'),
        { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1', total: 42.5, items: ['a', 'b'] } } },
        ...call('c-done', 'lookup_order', { orderId: 'A-1' }, { result: { ok: true } }),
        ...call('c-ready', 'notify', { to: 'x' }),
        ...call('c-stream', 'draft', { text: 'hel' }, { end: false }),
        ...call('c-refund', 'refund_order', { orderId: 'A-1', amount: 42 }),
      ],
      {
        outcome: {
          type: 'interrupt',
          interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c-refund', message: 'Refund $42?', responseSchema: approval }],
        },
      },
    ),
  ]);
  const store = m.rx.createAgentStore({
    threadId: 't-saved',
    source,
    initialMessages: messages,
    now: () => Date.UTC(2026, 0, 1, 23, 30, 0),
    scheduler: (flush) => {
      queueMicrotask(flush);
      return () => undefined;
    },
  });
  await store.getState().run('Refund order A-1');
  const entries = store.session.entries;
  store.destroy();
  return entries;
}

function devtools(m: Mods, log: readonly import('@aguikit/core').SessionEntry[]) {
  const { rx, ui } = m;
  const now = () => Date.UTC(2026, 0, 1, 23, 45, 0);
  return (
    <rx.AgentProvider options={{ source: { async *run() {} }, log, now }}>
      <ui.AgentChat placeholder="Ask" />
      <ui.StateInspectorPanel />
      <ui.EventTimelinePanel />
    </rx.AgentProvider>
  );
}

// Two fresh module graphs, the engine, then the form's and the renderer's chunks: seconds on a busy machine.
it('the chat and the devtools of a saved session (every tool-call status, an interrupt with a form) render with no style attribute and hydrate cleanly in another time zone, then show the form', {
  timeout: 30_000,
}, async () => {
  const log = await devtoolsLog();
  const tz = process.env.TZ;
  try {
    process.env.TZ = 'UTC';
    const s = await serverMods();
    const html = await serverHtml(devtools(s, log));
    expect([...html.matchAll(/agk-toolcall agk-root" data-status="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'succeeded',
      'ready',
      'failed',
      'awaiting_decision',
    ]);
    expect(html).toContain('Loading the form…');
    // Nothing a page whose Content Security Policy has `style-src 'self'` refuses: no style attribute (the README's promise).
    expect(html.match(/<[^>]* style="[^"]*"/g) ?? []).toEqual([]);
    process.env.TZ = 'America/Los_Angeles';
    const c = await clientMods();
    const h = await hydrate(html, devtools(c, log));
    expect(h.recoverable).toEqual([]);
    expect(h.errors).toEqual([]);
    await act(() => Promise.all([c.ui.preloadInterruptForm(), c.ui.preloadMarkdown()]));
    expect(h.container.querySelector('.agk-interrupt textarea')).not.toBeNull();
    expect(h.container.querySelector('[data-markdown="ready"] strong')?.textContent).toBe('How');
    h.unmount();
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});
