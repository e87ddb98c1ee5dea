/**
 * What a screen reader hears of an answer: "Answer sent" once the answer is
 * on its way (the store has recorded it and sends it, its question closed),
 * not once the resumed run has ended; and, when the question comes back (the
 * connection failed before the agent took the answer, or the agent refused
 * it), that it did, never "sent" as the last word.
 */
import type { AgentSource } from '@aguikit/core';
import { AgentProvider, createAgentStore } from '@aguikit/react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptDialog } from '../src/InterruptDialog.js';
import { type AgentLocale, AgentLocaleProvider, en, zhCN } from '../src/locale.js';
import { RunStatus } from '../src/RunStatus.js';
import { httpError } from '../src/storybook/failures.js';
import { runOf, STORY_THREAD, say, scriptedSource } from '../src/storybook/scripted.js';

afterEach(cleanup);

/** How the agent answers the resume once `release` is called (until then its request is under way). */
type Answer = 'run' | 'offline' | 'refuse' | 'answeredElsewhere';

const ALREADY_ANSWERED = JSON.stringify({
  error: { code: 'ALREADY_ANSWERED', message: 'The interrupt of resume[0] was already answered differently.' },
});

/** The playground's refund approval: Approve or Reject, with an optional comment. */
const refund = {
  id: 'int-refund',
  reason: 'tool_call',
  message: 'Refund $42 to the customer?',
  responseSchema: {
    type: 'object',
    required: ['approved'],
    properties: { approved: { type: 'boolean' }, comment: { type: 'string', title: 'Comment' } },
  },
};

/** A thread whose run asks to approve a refund; the resume goes as `answer` says once `release` is called. */
async function askedToApprove(answer: Answer, interrupts: Record<string, unknown>[] = [refund]) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inner = scriptedSource([runOf([], { outcome: { type: 'interrupt', interrupts } })]);
  const source: AgentSource = {
    run(input, options = {}) {
      if (!input.resume) return inner.run(input, options);
      return (async function* () {
        if (answer === 'run' || answer === 'refuse') options.onConnection?.('open');
        if (answer === 'run') yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
        await released;
        if (answer === 'offline') throw new TypeError('Failed to fetch');
        if (answer === 'answeredElsewhere') throw httpError(409, ALREADY_ANSWERED);
        if (answer === 'refuse') {
          yield { type: 'RUN_ERROR', message: 'The answer is not one this question takes.', code: 'RESUME_INVALID' };
          return;
        }
        yield* say('m-done', 'Refund issued.');
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
      })();
    },
  };
  const store = createAgentStore({ threadId: STORY_THREAD, source, now: () => Date.now() });
  await store.getState().run('Refund order A-1001');
  return { store, release };
}

/** Every change of the page's live regions, in order, as "dialog: text" or "status: text" (an empty region as ""). */
function recordLiveRegions() {
  const said: string[] = [];
  const last = new Map<Element, string>();
  const read = () => {
    for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')) {
      if (last.get(region) === region.innerHTML) continue;
      last.set(region, region.innerHTML);
      const name = region.matches('[data-agk-interrupt-announcer]') ? 'dialog' : 'status';
      said.push(`${name}: ${region.textContent?.trim() ?? ''}`);
    }
  };
  const observer = new MutationObserver(read);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    said,
    /** What the dialog's region said, empty changes left out. */
    dialog: () => said.filter((s) => s.startsWith('dialog: ') && s !== 'dialog: ').map((s) => s.slice('dialog: '.length)),
    stop: () => observer.disconnect(),
  };
}

async function approve(answer: Answer, { locale = en, withStatus = false }: { locale?: AgentLocale; withStatus?: boolean } = {}) {
  const { store, release } = await askedToApprove(answer);
  const view = render(
    <AgentLocaleProvider locale={locale}>
      <AgentProvider store={store}>
        {withStatus ? <RunStatus /> : null}
        <InterruptDialog />
      </AgentProvider>
    </AgentLocaleProvider>,
  );
  // The form's code loads on demand: its buttons are enabled once it is there.
  await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
  await act(async () => undefined);
  const log = recordLiveRegions();
  const button = await screen.findByRole('button', { name: locale.messages.interrupt.approve });
  await act(async () => button.click());
  // The answer is recorded and its request under way: the question is closed, the resume in flight.
  await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(0));
  expect(store.getState().inFlight).toBe('resume');
  return { store, release, log };
}

describe('the answer to an interrupt, as a screen reader hears it', () => {
  it('says "Answer sent" once the answer is on its way, before the resumed run ends and RunStatus says Done', async () => {
    const { store, release, log } = await approve('run', { withStatus: true });
    await waitFor(() => expect(log.dialog()).toEqual(['Answer sent: Approved.']), { timeout: 1000 });
    expect(store.getState().inFlight).toBe('resume');
    release();
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await waitFor(() => expect(log.said.at(-1)).toBe(`status: ${en.messages.run.status.success}`));
    log.stop();
    const sent = log.said.indexOf('dialog: Answer sent: Approved.');
    const done = log.said.indexOf(`status: ${en.messages.run.status.success}`);
    expect(sent, `said: ${JSON.stringify(log.said)}`).toBeGreaterThanOrEqual(0);
    expect(sent, `said: ${JSON.stringify(log.said)}`).toBeLessThan(done);
    // Said once: the run's end does not say it again.
    expect(log.dialog()).toEqual(['Answer sent: Approved.']);
  });

  it('says in Chinese that the answer was sent once it is on its way (zh-CN)', async () => {
    const { store, release, log } = await approve('run', { locale: zhCN });
    await waitFor(() => expect(log.dialog()).toEqual(['回答已发送：已批准。']), { timeout: 1000 });
    release();
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    log.stop();
    expect(log.dialog()).toEqual(['回答已发送：已批准。']);
  });

  it.each([
    ['en', en],
    ['zh-CN', zhCN],
  ] as const)('says the answer did not reach the agent when the connection fails before the agent took it (%s)', async (_name, locale) => {
    const t = locale.messages.interrupt;
    const { store, release, log } = await approve('offline', { locale });
    await waitFor(() => expect(log.dialog()).toEqual([t.announce.sent(t.answer.approved)]), { timeout: 1000 });
    release();
    await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(1));
    await waitFor(() => expect(log.dialog()).toEqual([t.announce.sent(t.answer.approved), t.announce.notSent]));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    log.stop();
    expect(log.dialog().at(-1)).toBe(t.announce.notSent);
  });

  it.each([
    ['en', en],
    ['zh-CN', zhCN],
  ] as const)('says the agent did not accept the answer when it refuses it, the question open again (%s)', async (_name, locale) => {
    const t = locale.messages.interrupt;
    const { store, release, log } = await approve('refuse', { locale });
    await waitFor(() => expect(log.dialog()).toEqual([t.announce.sent(t.answer.approved)]), { timeout: 1000 });
    release();
    await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(1));
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    log.stop();
    // Never "sent" again once the question is back: what is said last is that the agent refused it.
    expect(log.dialog(), `said: ${JSON.stringify(log.said)}`).toEqual([t.announce.sent(t.answer.approved), t.announce.refused]);
  });

  it.each([
    ['en', en],
    ['zh-CN', zhCN],
  ] as const)(
    'says the question was answered elsewhere when the agent refuses the answer as already answered (%s)',
    async (_name, locale) => {
      const t = locale.messages.interrupt;
      const { store, release, log } = await approve('answeredElsewhere', { locale });
      await waitFor(() => expect(log.dialog()).toEqual([t.announce.sent(t.answer.approved)]), { timeout: 1000 });
      release();
      await waitFor(() => expect(store.getState().failure?.cause).toBe('ALREADY_ANSWERED'));
      await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
      await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
      log.stop();
      expect(log.dialog(), `said: ${JSON.stringify(log.said)}`).toEqual([t.announce.sent(t.answer.approved), t.announce.answeredElsewhere]);
    },
  );

  it('leaves the failure to a RunStatus on the page, its own region emptied of "sent" once the question is back', async () => {
    const { store, release, log } = await approve('offline', { withStatus: true });
    await waitFor(() => expect(log.dialog()).toEqual(['Answer sent: Approved.']), { timeout: 1000 });
    release();
    await waitFor(() => expect(store.getState().failure?.code).toBe('NETWORK'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    log.stop();
    expect(document.querySelector('[data-agk-interrupt-announcer]')).toHaveTextContent('');
    expect(log.said.filter((s) => s.startsWith('dialog: ')).at(-1), `said: ${JSON.stringify(log.said)}`).toBe('dialog: ');
    expect(log.dialog()).toEqual(['Answer sent: Approved.']);
  });

  it('says "2 answers sent" once answers sent together are on their way, before the resumed run ends', async () => {
    const { store, release } = await askedToApprove('run', [
      { id: 'int-a', reason: 'confirmation', message: 'Refund $42?' },
      { id: 'int-b', reason: 'confirmation', message: 'Email the customer?' },
    ]);
    render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    const log = recordLiveRegions();
    for (const name of ['Refund $42?', 'Email the customer?']) {
      const card = screen.getByRole('article', { name: new RegExp(name.replace(/[$?]/g, '\\$&')) });
      await act(async () => within(card).getByRole('button', { name: 'Yes' }).click());
    }
    await act(async () => screen.getByRole('button', { name: 'Send answers' }).click());
    await waitFor(() => expect(store.getState().thread.interrupts).toHaveLength(0));
    await waitFor(() => expect(log.dialog().at(-1)).toBe('2 answers sent.'), { timeout: 1000 });
    expect(store.getState().inFlight).toBe('resume');
    release();
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    log.stop();
    expect(log.dialog().filter((s) => s.endsWith('sent.'))).toEqual(['2 answers sent.']);
  });

  it('never says "sent" of an answer a stop kept from going, the question still open', async () => {
    const { store } = await askedToApprove('run');
    const view = render(
      <AgentProvider store={store}>
        <InterruptDialog />
      </AgentProvider>,
    );
    await waitFor(() => expect(view.container.querySelector('.agk-interrupt__form-placeholder')).toBeNull(), { timeout: 10_000 });
    await act(async () => undefined);
    const log = recordLiveRegions();
    // Stopped as soon as the resume claims the thread, while the store still checks the answer: it is never recorded, never sent.
    const stopFirst = store.subscribe((s) => {
      if (s.inFlight !== 'resume' || s.thread.interrupts.length === 0) return;
      stopFirst();
      queueMicrotask(() => store.getState().stop());
    });
    await act(async () => screen.getByRole('button', { name: 'Approve' }).click());
    await waitFor(() => expect(store.getState().inFlight).toBeUndefined());
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    log.stop();
    expect(store.getState().thread.interrupts.map((it) => it.id)).toEqual(['int-refund']);
    expect(store.getState().decisions).toHaveLength(0);
    expect(log.dialog(), `said: ${JSON.stringify(log.said)}`).toEqual([]);
  });
});
