/**
 * The playground, built for production, in Debian's Chromium, against the
 * real agent server over HTTP + SSE (through the preview server's `/agents`
 * proxy): the refund flow approved, rejected and expired, a clarification,
 * two interrupts answered in one resume, and the server killed while a run
 * streams, then restarted on the same port and data directory.
 *
 * Each test starts its own agent server (fresh data directory, so its side
 * effects and journal are the test's alone) on the port the global setup
 * picked, and fails on any console error or page error it did not expect.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenarios } from '@aguikit/scenarios';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
// By path: the agent server is an app, not a dependency of the playground.
import type { AgentServer } from '../../agent-server/src/server.js';
import {
  confirmDialogs,
  launchChromium,
  type OpenOptions,
  type OpenPage,
  openPlayground,
  readChat,
  readEvents,
  readState,
  readStored,
  runStatus,
  startOnAgentPort,
  unexpected,
} from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const agentPort = inject('agentPort');

/** Fast enough that a scripted run takes a fraction of a second; one of the playground's own speed choices. */
const FAST = 20;
/** The speed of the resume that is cut: its reply streams for about a second, time enough to kill the server inside it. */
const SLOW = 0.5;

const REFUND_PROMPT = scenarios.refund.prompt;
const APPROVED_REPLY =
  /^Done: refund (RF-\w+) of \$42\.00 is on its way to the original card; it usually arrives within 5 business days\.$/;

let browser: Browser;
let server: AgentServer | undefined;
let dataDir: string;
const pages: { open: OpenPage; expected: RegExp[] }[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'aguikit-e2e-agent-'));
  server = await startServer(dataDir);
});

afterEach(async () => {
  const opened = pages.splice(0);
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
  await Promise.all(opened.map(({ open }) => open.close()));
  expect(
    opened.flatMap(({ open, expected }) => unexpected(open.problems, expected)),
    'console errors and page errors',
  ).toEqual([]);
});

// A fixed secret for interrupt ids: a cut run, resumed by a restarted server, is compared with an uncut run of another server.
const NONCE = 'e2e0'.repeat(8);

function startServer(dir: string): Promise<AgentServer> {
  return startOnAgentPort({ port: agentPort, dataDir: dir, nonce: () => NONCE });
}

function running(): AgentServer {
  if (!server) throw new Error('The agent server is not running.');
  return server;
}

/** Opens the playground; `expected` lists the console errors this test causes on purpose. */
async function open(params: OpenOptions['params'], extra: Omit<OpenOptions, 'params'> = {}, expected: RegExp[] = []) {
  const opened = await openPlayground(browser, playgroundUrl, { params, ...extra });
  pages.push({ open: opened, expected });
  return opened;
}

const resumesOf = (o: OpenPage) => o.requests.filter((r) => r.body.resume?.length);

/**
 * Files picked whose names start with `slow` give their bytes a second a chunk (a large file on a slow disk), and a
 * cancel does not stop the read under way.
 */
function slowFiles(page: OpenPage['page']) {
  return page.evaluate(() => {
    const bytes = Blob.prototype.stream;
    File.prototype.stream = function (this: File) {
      const source = bytes.call(this);
      if (!this.name.startsWith('slow')) return source;
      const reader = source.getReader();
      return new ReadableStream<Uint8Array<ArrayBuffer>>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
    };
  });
}

/** Asks for the refund by typing in the composer, and waits for the approval it pauses for. */
async function askForRefund(o: OpenPage) {
  const { page } = o;
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill(REFUND_PROMPT);
  await composer.press('Enter');
  await runStatus(page, 'interrupted').waitFor();
  const dialog = page.getByRole('dialog', { name: 'The agent is waiting for your answer' });
  await dialog.waitFor();
  return dialog;
}

describe('the playground against the agent server, in Chromium', () => {
  it("on a machine whose clock runs 5 minutes fast: the approval has its two minutes (the server's time, from its stamps), and Approve refunds", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST }, { clockSkewMs: 5 * 60_000 });
    const { page } = o;
    expect(await page.evaluate(() => Date.now() - performance.timeOrigin - performance.now())).toBeGreaterThan(4 * 60_000);
    const dialog = await askForRefund(o);
    const approval = dialog.locator('.agk-interrupt');
    expect(await approval.getAttribute('data-state')).toBe('open');
    expect(await approval.getByRole('timer').textContent()).toMatch(/^Expires in (2:00|1:5\d)$/);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await runStatus(page, 'success').waitFor();
    expect(resumesOf(o).map((r) => r.body.resume?.[0]?.status)).toEqual(['resolved']);
    expect(await page.locator('.agk-toolcall[data-tool="refund_order"]').getAttribute('data-status')).toBe('succeeded');
  });

  it('runs the refund flow: the call and its arguments, approval in the generated form, the result, state refunded, one refund', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const dialog = await askForRefund(o);

    const waiting = await readChat(page);
    expect(waiting.statusText).toContain('Waiting for you');
    expect(waiting.messages[0]).toMatchObject({ role: 'user', text: expect.stringContaining(REFUND_PROMPT) });
    expect(waiting.messages.map((m) => m.text).join('\n')).toContain('Let me look up order A-1001 first.');
    // The scenario's Send this is unavailable while the agent waits for an answer, as the composer's Send is.
    const sendThis = page.getByRole('button', { name: 'Send this' });
    expect(await sendThis.getAttribute('aria-disabled')).toBe('true');

    const lookup = page.locator('.agk-toolcall[data-tool="lookup_order"]');
    expect(await lookup.getAttribute('data-status')).toBe('succeeded');
    const card = page.locator('.agk-toolcall[data-tool="refund_order"]');
    expect(await card.getAttribute('data-status')).toBe('awaiting_decision');
    expect(await card.locator('.agk-badge').textContent()).toBe('Waiting for your decision');
    const args = JSON.parse((await card.locator('pre.agk-code').first().textContent()) ?? '');
    expect(args).toEqual({ orderId: 'A-1001', amount: 42, currency: 'USD', reason: 'Arrived broken' });

    const approval = dialog.locator('.agk-interrupt');
    expect(await approval.evaluate((e) => ({ ...e.dataset }))).toMatchObject({
      state: 'open',
      reason: 'tool_call',
      shape: 'approval',
      answer: 'none',
    });
    expect(await approval.locator('.agk-interrupt__title').textContent()).toBe('Approval needed');
    expect(await approval.locator('.agk-interrupt__message').textContent()).toBe("Refund $42.00 to the customer's card for order A-1001?");
    expect(await approval.locator('.agk-interrupt__tool').textContent()).toBe('refund_order');
    expect(JSON.parse((await approval.locator('pre.agk-code').textContent()) ?? '')).toEqual(args);
    expect(await approval.getByRole('timer').textContent()).toMatch(/^Expires in (2:00|1:5\d)$/);
    expect((await readState(page)).document).toMatchObject({ refund: { status: 'awaiting_approval', amount: 42 } });

    await approval.getByLabel('Comment for the customer record').fill('Photo of the broken teapot is on file.');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await runStatus(page, 'success').waitFor();

    await dialog.waitFor({ state: 'detached' });
    const done = await readChat(page);
    expect(done.statusText).toBe('Done');
    expect(await sendThis.getAttribute('aria-disabled')).toBeNull();
    const reply = done.messages.at(-1);
    expect(reply).toMatchObject({ role: 'assistant', status: 'complete' });
    const refundId = APPROVED_REPLY.exec(reply?.text.replace(/^Assistant/, '') ?? '')?.[1];
    expect(refundId, `the last reply: ${reply?.text}`).toBeDefined();
    expect(await card.getAttribute('data-status')).toBe('succeeded');
    expect(JSON.parse((await card.locator('pre.agk-code').nth(1).textContent()) ?? '')).toEqual({
      refundId,
      status: 'refunded',
      amount: 42,
      currency: 'USD',
    });

    const state = await readState(page);
    expect(state.sync).toBe('in-sync');
    expect(state.document).toEqual({
      order: { id: 'A-1001', item: 'Ceramic teapot', amount: 42, currency: 'USD', status: 'refunded', deliveredOn: '2026-11-26' },
      refund: { status: 'refunded', amount: 42, refundId },
    });

    const resumes = resumesOf(o);
    expect(resumes).toHaveLength(1);
    const [approvalId] = (resumes[0]?.body.resume ?? []).map((r) => r.interruptId);
    expect(resumes[0]?.body.resume).toEqual([
      { interruptId: approvalId, status: 'resolved', payload: { approved: true, comment: 'Photo of the broken teapot is on file.' } },
    ]);
    const effects = running().effects();
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ kind: 'refund', key: approvalId, detail: { refundId, orderId: 'A-1001', amount: 42 } });
  });

  it("downloads the session and loads it back: the replayed screen is the live one, the user's message first", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const dialog = await askForRefund(o);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await runStatus(page, 'success').waitFor();
    const live = { chat: await readChat(page), state: await readState(page) };
    expect(live.chat.messages[0]).toMatchObject({ role: 'user' });
    // A draft the user has not sent waits through the replay.
    await page.getByRole('textbox', { name: 'Message' }).fill('还有一个问题：运费也退吗？');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download events' }).click()]);
    const file = await download.path();
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('region', { name: 'Replay' }).waitFor();
    await page.locator('.pg__replay .agk-chat .agk-runstatus[data-status="success"]').waitFor();
    const replayed = { chat: await readChat(page), state: await readState(page) };
    // The same screen, but for what the inspector calls its newest state: in a replay that is the scrubber's entry.
    expect(live.state.title).toMatch(/^Live document, version \d+$/);
    const atEntry = (text: string) => text.replace(/^Live document/, 'Document at this entry').replace(/^Live/, 'At this entry');
    expect(replayed).toEqual({
      ...live,
      state: { ...live.state, title: atEntry(live.state.title), history: live.state.history.map(atEntry) },
    });
    // Where the scrubber stands, in words: a client entry is named, never by its field value (`stream_end`).
    const where = await page.locator('.pg__scrubber label').textContent();
    expect(where).toMatch(/: after entry \d+ of \d+ \(/);
    expect(where).not.toMatch(
      /\((init|user_message|stream_start|stream_end|state_edit|state_set|tool_started|tool_result|resume|stop|failed|reset)\)/,
    );
    // The live thread is hidden while the recording plays: what acts on it is not offered.
    for (const control of [
      page.locator('.pg__bar select').first(),
      page.getByRole('button', { name: 'New thread' }),
      page.getByRole('button', { name: 'Download events' }),
    ])
      expect(await control.isDisabled()).toBe(true);
    // The scrubber moves the devtools with the chat: the timeline lists the agent events up to the picked entry, no later one.
    const entries = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { type: string; event?: { type: string } });
    const firstEvent = entries.findIndex((e) => e.type === 'event');
    const replay = page.locator('.pg__replay');
    const rows = replay.locator('.agk-timeline [role="option"]');
    const events = entries.filter((e) => e.type === 'event').length;
    expect(await rows.count()).toBe(events);
    const scrubber = replay.getByRole('slider');
    // The slider stays where it is while the label above it names each entry: it never moves under the pointer.
    const box = async () => JSON.stringify(await scrubber.boundingBox());
    const first = await box();
    for (const at of [0, firstEvent, entries.length - 1]) {
      await scrubber.fill(String(at));
      expect(await box()).toBe(first);
    }
    await scrubber.fill(String(firstEvent + 2));
    await expect.poll(() => rows.count()).toBe(3);
    // A screen reader hears the entry as the label counts it (from 1, with its kind), not the slider's index from 0.
    expect(await scrubber.getAttribute('aria-valuetext')).toBe(
      `after entry ${firstEvent + 3} of ${entries.length} (${entries[firstEvent + 2]?.event?.type ?? ''})`,
    );
    // Mid-run, the run is shown as it was then: running, not cut off.
    expect(await replay.locator('.agk-runstatus').getAttribute('data-status')).toBe('running');
    expect(await replay.locator('.agk-timeline').textContent()).not.toContain('STREAM_TRUNCATED');
    // Before the agent's first event: the user's message alone, and no event.
    await scrubber.fill(String(firstEvent - 1));
    await expect.poll(() => rows.count()).toBe(0);
    expect((await readChat(page)).messages.map((m) => m.role)).toEqual(['user']);
    await scrubber.fill(String(entries.length - 1));
    await expect.poll(() => rows.count()).toBe(events);
    expect({ chat: await readChat(page), state: await readState(page) }).toEqual(replayed);
    // A recording is read, not continued: nothing in the replay takes a message.
    expect(await page.locator('.pg__replay').getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    // The skip link leads to the conversation on screen: the replay's, not the hidden live one.
    await page.getByRole('link', { name: 'Skip to the conversation' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('.pg__replay') !== null && document.activeElement?.tagName))
      .toBe('MAIN');
    // Back to live puts focus where the replay came from, and the same file loads again.
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.getByRole('region', { name: 'Replay' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('还有一个问题：运费也退吗？');
    expect(await readChat(page)).toEqual(live.chat);
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole('region', { name: 'Replay' }).waitFor();
  });

  it('a replay judges an approval by the time of the entry shown: it does not expire as the real clock passes its deadline', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST, approvalWindowMs: 4000 });
    const { page } = o;
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'interrupted').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download events' }).click()]);
    const lines = (await readFile(await download.path(), 'utf8')).split('\n').filter((line) => line.trim());
    type Entry = { type: string; at: number; event?: { type: string; outcome?: { interrupts?: { expiresAt?: string }[] } } };
    const entries = lines.map((line) => JSON.parse(line) as Entry);
    const finished = entries.findIndex((e) => e.event?.type === 'RUN_FINISHED');
    const deadline = Date.parse(entries[finished]?.event?.outcome?.interrupts?.[0]?.expiresAt ?? '');
    expect(entries.at(-1)?.at).toBeLessThan(deadline);
    const load = (name: string, all: string[]) =>
      page
        .locator('input[type="file"]')
        .setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(`${all.join('\n')}\n`) });
    const replay = page.locator('.pg__replay');
    const card = replay.locator('.agk-toolcall[data-tool="refund_order"]');
    await load('refund.jsonl', lines);
    await replay.getByRole('slider', { name: 'Replaying refund.jsonl' }).waitFor();
    // The real clock passes the deadline, and a second more (the card looks at the clock once a second).
    await page.waitForFunction((end) => Date.now() > end + 1500, deadline, { timeout: 10_000 });
    expect(await card.getAttribute('data-state')).toBe('awaiting_decision');
    expect(await replay.locator('.agk-runstatus').getAttribute('data-status')).toBe('interrupted');
    // The same session whose last entry came a minute after the deadline: expired there, and waiting at the entry before.
    const late = [...lines.slice(0, -1), JSON.stringify({ ...entries.at(-1), at: deadline + 60_000 })];
    await load('late.jsonl', late);
    await expect.poll(() => replay.locator('.pg__scrubber label bdi').textContent()).toBe('late.jsonl');
    await expect.poll(() => card.getAttribute('data-state')).toBe('expired');
    const scrubber = replay.getByRole('slider');
    await scrubber.fill(String(late.length - 2));
    await expect
      .poll(() => scrubber.getAttribute('aria-valuetext'))
      .toBe(`after entry ${late.length - 1} of ${late.length} (RUN_FINISHED)`);
    await expect.poll(() => card.getAttribute('data-state')).toBe('awaiting_decision');
    await scrubber.fill(String(late.length - 1));
    await expect.poll(() => card.getAttribute('data-state')).toBe('expired');
  });

  it("a replay's main landmark is one of the page's top-level landmarks, inside no other (axe: landmark-main-is-top-level)", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const stream = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'stream.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stream)) });
    await page.locator('.pg__replay .agk-runstatus[data-status="success"]').waitFor();
    const main = page.getByRole('main');
    expect(await main.getAttribute('id')).toBe('pg-replay');
    // No landmark (the roles axe counts as such) holds it.
    for (const role of ['banner', 'complementary', 'contentinfo', 'form', 'navigation', 'region', 'search'] as const)
      expect(await page.getByRole(role).filter({ has: main }).count(), role).toBe(0);
    // The scrubber is in a landmark of its own, named for what it is.
    expect(await page.getByRole('region', { name: 'Replay' }).getByRole('slider', { name: 'Replaying stream.json' }).count()).toBe(1);
  });

  it('a file that is no session: its alert goes with the next thing done, or when dismissed', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const bad = { name: 'bad.jsonl', mimeType: 'application/json', buffer: Buffer.from('{"not":"a session"}\n') };
    const alert = page.locator('.pg__error');
    await page.locator('input[type="file"]').setInputFiles(bad);
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not load \u2068bad.jsonl\u2069');
    await page.getByRole('button', { name: 'New thread' }).click();
    await alert.waitFor({ state: 'detached' });
    await page.locator('input[type="file"]').setInputFiles([]);
    await page.locator('input[type="file"]').setInputFiles(bad);
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    // Focus is not lost with the alert: it goes back to the file control.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
  });

  it('a recording of 200,000 entries scrubs without a long task per step: a step starts from a checkpoint, not a replay', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
    const runId = 'b7e6d5c4-b3a2-4190-8f7e-6d5c4b3a2910';
    let index = 0;
    const lines = [
      JSON.stringify({ type: 'init', threadId, at: 1 }),
      JSON.stringify({ type: 'user_message', message: { id: 'u-1', role: 'user', content: '写一份很长的报告。' }, at: 1 }),
      JSON.stringify({ type: 'stream_start', kind: 'run', runId, at: 1 }),
    ];
    const event = (e: Record<string, unknown>) => lines.push(JSON.stringify({ type: 'event', event: e, index: index++, at: 1 }));
    event({ type: 'RUN_STARTED', threadId, runId });
    for (let m = 0; m < 2000; m++) {
      event({ type: 'TEXT_MESSAGE_START', messageId: `m-${m}`, role: 'assistant' });
      for (let d = 0; d < 98; d++) event({ type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${m}`, delta: '报告 ' });
      event({ type: 'TEXT_MESSAGE_END', messageId: `m-${m}` });
    }
    event({ type: 'RUN_FINISHED', threadId, runId });
    lines.push(JSON.stringify({ type: 'stream_end', open: false, at: 1 }));
    // While the file is read through: the progress shown, with when, and the page's tasks of 50 ms or more.
    await page.evaluate(() => {
      const w = window as unknown as { reading: { at: number; value: number; max: number }[]; readTasks: { at: number; ms: number }[] };
      w.reading = [];
      w.readTasks = [];
      new MutationObserver(() => {
        const bar = document.querySelector<HTMLProgressElement>('progress.pg__progress');
        if (bar) w.reading.push({ at: performance.now(), value: bar.value, max: bar.max });
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.readTasks.push({ at: e.startTime, ms: Math.round(e.duration) });
      }).observe({ type: 'longtask' });
    });
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'long.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(`${lines.join('\n')}\n`) });
    const replay = page.locator('.pg__replay');
    await replay.locator('.agk-runstatus[data-status="success"]').waitFor({ timeout: 30_000 });
    // The read through showed its progress, growing to the whole file, and left the page free as it went (it made one
    // task of 250-450 ms before): no task that began while it read took 100 ms or more.
    const { reading, readTasks } = await page.evaluate(() => {
      const w = window as unknown as { reading: { at: number; value: number; max: number }[]; readTasks: { at: number; ms: number }[] };
      return { reading: w.reading, readTasks: w.readTasks };
    });
    const partial = reading.filter(({ value, max }) => value < max);
    expect(partial.length).toBeGreaterThan(2);
    expect(partial.every(({ max }) => max === lines.length)).toBe(true);
    const [from, to] = [(partial[0] as { at: number }).at, (partial.at(-1) as { at: number }).at];
    expect(readTasks.filter(({ at, ms }) => at >= from && at <= to && ms >= 100)).toEqual([]);
    const scrubber = replay.getByRole('slider');
    // The tasks of 100 ms or more from here on (a step replayed from the start took 120-270 ms): the file's one read through is over.
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.duration >= 100) w.longTasks.push(Math.round(e.duration));
      }).observe({ type: 'longtask' });
    });
    for (const at of [100_000, 150_000, 12_345, 199_999, 77_777]) {
      await scrubber.fill(String(at));
      // Entry i is event i - 3; the timeline shows the events up to it, the last of them the one at entry i.
      await expect.poll(() => replay.locator('.pg__scrubber label').textContent()).toContain(`after entry ${at + 1} of ${lines.length}`);
      await replay.locator(`.agk-timeline [role="option"]`).last().waitFor();
      await expect
        .poll(() => page.evaluate(() => document.querySelector('.pg__replay .agk-runstatus')?.getAttribute('data-status')))
        .toBe('running');
    }
    await page.waitForTimeout(300);
    // A step replayed from the start made such a task at every step; at most one of the five here (a collection of the
    // page's large heap may land in any step on a busy machine).
    expect((await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)).length).toBeLessThanOrEqual(1);
  }, 120_000);

  it("a file name's right-to-left override stays in the name: the sentence around it reads as written", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const name = '退款\u202Egpj.jsonl';
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const stream = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stream)) });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    expect(await replay.locator('.pg__scrubber label bdi').textContent()).toBe(name);
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from('{"not":"a session"}\n') });
    const alert = page.locator('.pg__error');
    await alert.waitFor();
    // Isolated (FSI ... PDI): the reason after the name is not reversed.
    expect(await alert.textContent()).toContain(`Could not load \u2068${name}\u2069: `);
  });

  it('loads a stream another tool saved as one JSON array of AG-UI events, as the file picker offers .json', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const stream = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg-1', delta: '订单 A-1001 已退款。' },
      { type: 'STATE_SNAPSHOT', snapshot: { order: { id: 'A-1001', status: 'refunded' } } },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ];
    const file = { name: 'stream.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stream, null, 2)) };
    await page.locator('input[type="file"]').setInputFiles(file);
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    await expect
      .poll(async () => (await readChat(page)).messages.map((m) => [m.role, m.text.endsWith('订单 A-1001 已退款。')]))
      .toEqual([['assistant', true]]);
    expect(await replay.locator('.agk-timeline [role="option"]').count()).toBe(stream.length);
    expect(await page.locator('.pg__error').count()).toBe(0);
  });

  it('loads a session an editor saved again as UTF-16 with a byte order mark (Windows Notepad\'s "Unicode"), Chinese intact', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const lines = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg-1', delta: '订单 A-1001 已退款。' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ].map((event) => JSON.stringify(event));
    const buffer = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf16le')]);
    await page.locator('input[type="file"]').setInputFiles({ name: 'saved-again.jsonl', mimeType: 'application/x-ndjson', buffer });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    await expect
      .poll(async () => (await readChat(page)).messages.map((m) => [m.role, m.text.endsWith('订单 A-1001 已退款。')]))
      .toEqual([['assistant', true]]);
    expect(await replay.locator('.agk-timeline [role="option"]').count()).toBe(lines.length);
    expect(await replay.locator('details.pg__skipped').count()).toBe(0);
  });

  it('a file loaded while another replays starts its own replay at its last entry, even the same file again', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const long = [
      { type: 'RUN_STARTED', threadId, runId: 'run-1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg-1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: '订单 A-1001 ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-1', delta: '已退款。' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg-1' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-1' },
    ];
    const short = [
      { type: 'RUN_STARTED', threadId, runId: 'run-2' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-2' },
    ];
    const file = (name: string, events: unknown[]) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(events)) });
    const input = page.locator('input[type="file"]');
    const scrubber = page.getByRole('slider');
    await input.setInputFiles(file('long.json', long));
    await page.getByRole('region', { name: 'Replay' }).waitFor();
    // Named by the file alone: where it stands is its value text, said once, not again in its name.
    expect(await page.getByRole('slider', { name: 'Replaying long.json', exact: true }).count()).toBe(1);
    await scrubber.fill('0');
    await expect.poll(() => scrubber.getAttribute('aria-valuetext')).toBe('after entry 1 of 6 (RUN_STARTED)');
    await input.setInputFiles(file('short.json', short));
    await expect.poll(() => page.locator('.pg__scrubber label bdi').textContent()).toBe('short.json');
    expect(await scrubber.getAttribute('aria-valuetext')).toBe('after entry 2 of 2 (RUN_FINISHED)');
    expect(await scrubber.inputValue()).toBe('1');
    // The same file again is a new replay too: from its end, not where the scrubber was left.
    await input.setInputFiles(file('long.json', long));
    await expect.poll(() => scrubber.getAttribute('aria-valuetext')).toBe('after entry 6 of 6 (RUN_FINISHED)');
    await scrubber.fill('2');
    await input.setInputFiles([]);
    await input.setInputFiles(file('long.json', long));
    await expect.poll(() => scrubber.getAttribute('aria-valuetext')).toBe('after entry 6 of 6 (RUN_FINISHED)');
    await expect.poll(async () => (await readChat(page)).messages.map((m) => m.text.endsWith('订单 A-1001 已退款。'))).toEqual([true]);
  });

  it('a file being read says so; the file picked last is the one replayed, whichever is read first', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const stream = (runId: string) => [
      { type: 'RUN_STARTED', threadId, runId },
      { type: 'RUN_FINISHED', threadId, runId },
    ];
    // The first file's bytes take a second to come (a large file on a slow disk), and its read is not stopped by a cancel.
    await slowFiles(page);
    const input = page.locator('input[type="file"]');
    const file = (name: string, runId: string) => ({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(stream(runId))),
    });
    const status = page.locator('.pg__reading[role="status"]');
    await input.setInputFiles(file('slow-会话.json', 'run-slow'));
    await expect.poll(() => status.textContent()).toBe('Loading \u2068slow-会话.json\u2069…');
    await input.setInputFiles(file('fast.json', 'run-fast'));
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    expect(await replay.locator('.pg__scrubber label bdi').textContent()).toBe('fast.json');
    // The slow file, read after, does not replace the one picked after it.
    await page.waitForTimeout(1500);
    expect(await replay.locator('.pg__scrubber label bdi').textContent()).toBe('fast.json');
    expect(await status.textContent()).toBe('');
  });

  it('back to live while another file is being read: the read stops, and no replay opens after it', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const file = (name: string, runId: string) => ({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify([
          { type: 'RUN_STARTED', threadId, runId },
          { type: 'RUN_FINISHED', threadId, runId },
        ]),
      ),
    });
    // A file whose bytes take a second to come.
    await slowFiles(page);
    const input = page.locator('input[type="file"]');
    await input.setInputFiles(file('first.json', 'run-1'));
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    const status = page.locator('.pg__reading[role="status"]');
    await input.setInputFiles(file('slow.json', 'run-2'));
    await expect.poll(() => status.textContent()).toBe('Loading \u2068slow.json\u2069…');
    await page.getByRole('button', { name: 'Back to live' }).click();
    await replay.waitFor({ state: 'detached' });
    expect(await status.textContent()).toBe('');
    await page.waitForTimeout(2500);
    expect(await replay.count()).toBe(0);
    expect(await page.locator('.pg__error').count()).toBe(0);
  });

  it('a large file being read stops being read when another file is picked: no more of it is pulled, and the other replays', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    // A file named large* reads as hundreds of megabytes of JSON lines coming off a slow disk: 64 KB each 20 ms.
    await page.evaluate(() => {
      const stream = File.prototype.stream;
      const seen = { pulls: 0, cancelled: '' };
      Object.assign(window, { largeRead: seen });
      File.prototype.stream = function (this: File) {
        if (!this.name.startsWith('large')) return stream.call(this);
        const line = `${JSON.stringify({ type: 'CUSTOM', name: 'n', value: 'x'.repeat(200) })}\n`;
        const chunk = new TextEncoder().encode(line.repeat(Math.floor(65536 / line.length)));
        return new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              seen.pulls++;
              await new Promise((resolve) => setTimeout(resolve, 20));
              if (seen.pulls > 5000) controller.close();
              else controller.enqueue(chunk);
            },
            cancel(reason) {
              seen.cancelled = reason instanceof Error ? reason.name : String(reason);
            },
          },
          { highWaterMark: 0 },
        ) as ReadableStream<Uint8Array<ArrayBuffer>>;
      };
    });
    const pulls = () => page.evaluate(() => (window as unknown as { largeRead: { pulls: number } }).largeRead.pulls);
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: 'large.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('\n') });
    await expect.poll(pulls).toBeGreaterThan(3);
    const events = [
      { type: 'RUN_STARTED', threadId, runId: 'run-fast' },
      { type: 'RUN_FINISHED', threadId, runId: 'run-fast' },
    ];
    await input.setInputFiles({ name: 'fast.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(events)) });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    expect(await replay.locator('.pg__scrubber label bdi').textContent()).toBe('fast.json');
    const at = await pulls();
    await page.waitForTimeout(500);
    expect(await pulls()).toBe(at);
    expect(await page.evaluate(() => (window as unknown as { largeRead: { cancelled: string } }).largeRead.cancelled)).toBe('AbortError');
  });

  it('replays a conformance fixture as its stream; another JSON object is refused as one object, not by its first line', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const name = 'conformant-run-is-quiet.json';
    const fixture = await readFile(new URL(`../../../../shared/agui-conformance/streams/${name}`, import.meta.url));
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name, mimeType: 'application/json', buffer: fixture });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    const stream = (JSON.parse(fixture.toString()) as { stream: unknown[] }).stream;
    expect(await replay.locator('.agk-timeline [role="option"]').count()).toBe(stream.length);
    await page.getByRole('button', { name: 'Back to live' }).click();
    const thread = { threadId: '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f', messages: [{ id: 'm1', role: 'user', content: '退款' }] };
    await input.setInputFiles({ name: 'thread.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(thread, null, 2)) });
    const alert = page.locator('.pg__error [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Could not load \u2068thread.json\u2069: the file is one JSON object; a saved session has one entry a line, and a stream saved as JSON is an array of AG-UI events',
    );
  });

  it('a file with lines it cannot use is replayed without them, and says which lines and why', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const lines = [
      JSON.stringify({ type: 'RUN_STARTED', threadId, runId: 'run-1' }),
      '{"type":"TEXT_MESSAGE_CHUNK","messageId":"msg-1","delta":"订单',
      JSON.stringify({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg-1', delta: '已退款。' }),
      JSON.stringify({ type: 'run_finished', at: 0 }),
      JSON.stringify({ type: 'RUN_FINISHED', threadId, runId: 'run-1' }),
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'torn.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('\n')) });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    const skipped = replay.locator('details.pg__skipped');
    expect(await skipped.locator('summary').textContent()).toBe('2 unreadable lines skipped');
    await skipped.locator('summary').click();
    const reasons = await skipped.locator('li').allTextContents();
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^line 2: not JSON: /);
    expect(reasons[1]).toBe('line 4: not a log entry: unknown type "run_finished"');
  });

  it('a file of thousands of lines it cannot use says how many, names the first hundred and counts the rest', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const threadId = '5e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';
    // The wrong .jsonl: rows of another program's export, between the two events of a run.
    const rows = Array.from({ length: 2_500 }, (_, i) => JSON.stringify({ sku: `SKU-${i}`, 名称: '茶壶', qty: i }));
    const lines = [
      JSON.stringify({ type: 'RUN_STARTED', threadId, runId: 'run-1' }),
      ...rows,
      JSON.stringify({ type: 'RUN_FINISHED', threadId, runId: 'run-1' }),
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'export.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('\n')) });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    const skipped = replay.locator('details.pg__skipped');
    expect(await skipped.locator('summary').textContent()).toBe('2500 unreadable lines skipped');
    await skipped.locator('summary').click();
    const reasons = await skipped.locator('li').allTextContents();
    expect(reasons).toHaveLength(101);
    expect(reasons[0]).toMatch(/^line 2: not a log entry: /);
    expect(reasons[99]).toMatch(/^line 101: /);
    expect(reasons[100]).toBe('and 2400 more');
  });

  it("in Chinese, says why each line was skipped in Chinese, with the parser's English detail marked as English", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST, lang: 'zh-CN' });
    const { page } = o;
    const threadId = '0d9c4f1e-7a2b-4c3d-8e5f-6a7b8c9d0e1f';
    const lines = [
      JSON.stringify({ type: 'RUN_STARTED', threadId, runId: 'run-1' }),
      '{"type":"TEXT_MESSAGE_CHUNK","messageId":"msg-1","delta":"订单',
      JSON.stringify({ type: 'run_finished', at: 0 }),
      JSON.stringify({ type: 'RUN_FINISHED', threadId, runId: 'run-1' }),
    ];
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: '退款.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('\n')) });
    const replay = page.locator('.pg__replay');
    await replay.waitFor();
    const skipped = replay.locator('details.pg__skipped');
    await skipped.locator('summary').click();
    const reasons = skipped.locator('li');
    expect(await reasons.count()).toBe(2);
    expect(await reasons.nth(0).textContent()).toMatch(/^第 2 行：不是 JSON/);
    expect(await reasons.nth(1).textContent()).toMatch(/^第 3 行：不是会话记录的条目/);
    // The detail is the parser's, in English: marked so, for a screen reader to read it in English.
    expect(await reasons.nth(1).locator('[lang="en"]').textContent()).toBe('not a log entry: unknown type "run_finished"');
  });

  it('changing the speed keeps the thread: the next run of the same conversation goes at the new speed', async () => {
    const o = await open({ mode: 'server', scenario: 'parallel-tools', speed: FAST });
    const { page, requests } = o;
    const sendThis = page.getByRole('button', { name: 'Send this' });
    await sendThis.click();
    await runStatus(page, 'success').waitFor();
    const first = await readChat(page);
    await page.getByLabel('Speed').selectOption('5');
    expect(await readChat(page)).toEqual(first);
    await sendThis.click();
    await expect.poll(() => requests.length).toBe(2);
    await runStatus(page, 'success').waitFor();
    const second = await readChat(page);
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.messages.length).toBeGreaterThan(first.messages.length);
    expect(requests.map((r) => new URL(r.url).searchParams.get('speed'))).toEqual([String(FAST), '5']);
    // One conversation: the second run carries the first one's messages.
    expect(requests[1]?.body.threadId).toBe(requests[0]?.body.threadId);
  });

  it('rejects with a comment: the agent explains, the state is rejected, nothing is refunded', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const dialog = await askForRefund(o);
    const comment = 'The customer already accepted a replacement.';
    await dialog.getByLabel('Comment for the customer record').fill(comment);
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await runStatus(page, 'success').waitFor();

    const reply = (await readChat(page)).messages.at(-1);
    expect(reply?.role).toBe('assistant');
    expect(reply?.text).toContain(
      `The reviewer did not approve the refund: "${comment}" Nothing was charged back. I can open a replacement order instead, if you like.`,
    );
    const card = page.locator('.agk-toolcall[data-tool="refund_order"]');
    expect(JSON.parse((await card.locator('pre.agk-code').nth(1).textContent()) ?? '')).toEqual({ status: 'rejected', reason: comment });
    expect((await readState(page)).document).toMatchObject({ order: { status: 'delivered' }, refund: { status: 'rejected' } });
    expect(resumesOf(o).map((r) => r.body.resume?.map(({ status, payload }) => ({ status, payload })))).toEqual([
      [{ status: 'resolved', payload: { approved: false, comment } }],
    ]);
    expect(running().effects()).toEqual([]);
  });

  it('expires: the countdown runs out, only Close without answering is left, and it sends a cancelled answer', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST, approvalWindowMs: 2500 });
    const { page } = o;
    const dialog = await askForRefund(o);
    expect(o.requests[0]?.body.forwardedProps).toEqual({ approvalWindowMs: 2500 });
    const approval = dialog.locator('.agk-interrupt');
    const timer = approval.getByRole('timer');
    expect(await timer.textContent()).toMatch(/^Expires in 0:0[1-3]$/);
    expect(await approval.getByRole('button', { name: 'Approve' }).isEnabled()).toBe(true);

    await dialog.locator('.agk-interrupt[data-state="expired"]').waitFor({ timeout: 5000 });
    expect(await timer.textContent()).toBe('Expired');
    expect(await timer.getAttribute('data-state')).toBe('expired');
    // That it expired, held in short with the one action left; what that means and why, under the heading.
    expect(await approval.locator('.agk-interrupt__status').textContent()).toMatch(/^Expired at .+$/);
    expect(await approval.locator('.agk-interrupt__why').textContent()).toBe(
      'It can no longer be answered, only closed. The deadline is set by the agent; ask it again to start over.',
    );
    expect(await approval.getByRole('button').allTextContents()).toEqual(['Close without answering']);
    expect(await approval.getByLabel('Comment for the customer record').isDisabled()).toBe(true);

    await approval.getByRole('button', { name: 'Close without answering' }).click();
    await runStatus(page, 'success').waitFor();
    expect((await readChat(page)).messages.at(-1)?.text).toContain(
      'No approval came in time, so no refund was made. Ask again whenever you like.',
    );
    expect((await readState(page)).document).toMatchObject({ refund: { status: 'cancelled' } });
    expect(resumesOf(o).map((r) => r.body.resume)).toEqual([
      [{ interruptId: expect.stringMatching(/-refund-approval$/), status: 'cancelled' }],
    ]);
    expect(running().effects()).toEqual([]);
  });

  it('asks for a clarification: pick a value of the enum and submit it', async () => {
    const o = await open({ mode: 'server', scenario: 'clarification', speed: FAST });
    const { page } = o;
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'interrupted').waitFor();
    const question = page.getByRole('dialog', { name: 'The agent is waiting for your answer' }).locator('.agk-interrupt');
    expect(await question.getAttribute('data-reason')).toBe('input_required');
    expect(await question.getAttribute('data-shape')).toBe('form');
    expect(await question.locator('.agk-interrupt__message').textContent()).toBe('How should we contact you about the shipment?');
    const channel = question.getByLabel('Contact channel');
    expect(await channel.locator('option').allTextContents()).toEqual(expect.arrayContaining(['email', 'sms', 'phone call']));
    await channel.selectOption('sms');
    await question.getByRole('button', { name: 'Submit' }).click();
    await runStatus(page, 'success').waitFor();

    const chat = await readChat(page);
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(chat.messages.at(-1)?.text).toContain('Great: we will contact you by sms as soon as it ships.');
    expect(resumesOf(o).map((r) => r.body.resume?.map(({ status, payload }) => ({ status, payload })))).toEqual([
      [{ status: 'resolved', payload: 'sms' }],
    ]);
  });

  it('answers two interrupts in one resume: nothing is sent until both have an answer', async () => {
    const o = await open({ mode: 'server', scenario: 'two-interrupts', speed: FAST });
    const { page } = o;
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'interrupted').waitFor();
    const dialog = page.getByRole('dialog', { name: 'The agent is waiting for 2 answers' });
    const send = dialog.getByRole('button', { name: 'Send answers' });
    const progress = dialog.locator('.agk-interrupts__progress');
    expect(await progress.textContent()).toBe('0 of 2 answered. All answers are sent together.');
    expect(await send.isDisabled()).toBe(true);

    await dialog.locator('.agk-interrupt[data-reason="confirmation"]').getByRole('button', { name: 'Yes' }).click();
    await dialog.locator('.agk-interrupt[data-reason="confirmation"][data-answer="resolved"]').waitFor();
    expect(await progress.textContent()).toBe('1 of 2 answered. All answers are sent together.');
    expect(await send.isDisabled()).toBe(true);
    const reason = dialog.locator('.agk-interrupt[data-reason="input_required"]');
    await reason.getByLabel('Reason').selectOption('missing features');
    await reason.getByRole('button', { name: 'Save answer' }).click();
    await reason.and(page.locator('[data-answer="resolved"]')).waitFor();
    expect(await progress.textContent()).toBe('2 of 2 answered. All answers are sent together.');
    expect(resumesOf(o)).toEqual([]);

    await send.click();
    await runStatus(page, 'success').waitFor();
    expect((await readChat(page)).messages.at(-1)?.text).toContain('Your subscription ends on the 31st and last month is refunded.');

    const resumes = resumesOf(o);
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.body.resume).toEqual([
      { interruptId: expect.stringMatching(/-confirm$/), status: 'resolved' },
      { interruptId: expect.stringMatching(/-reason$/), status: 'resolved', payload: { reason: 'missing features' } },
    ]);
    // The server's own record: the first run and one resume, nothing else.
    const runs = readStored(dataDir).runs.map((r) => r.input.resume?.length ?? 0);
    expect(runs).toEqual([0, 2]);
  });

  it('survives the server killed mid-stream: unknown, then Reconnect ends exactly as an uncut run, with one refund', async () => {
    // The uncut run, for reference: same ids (pinned), its own server and data directory.
    const reference = await open({ mode: 'server', scenario: 'refund', speed: FAST }, { pinIds: true });
    await (await askForRefund(reference)).getByRole('button', { name: 'Approve' }).click();
    await runStatus(reference.page, 'success').waitFor();
    const uncut = {
      chat: await readChat(reference.page),
      state: await readState(reference.page),
      events: await readEvents(reference.page),
    };
    expect(uncut.state.document).toMatchObject({ refund: { status: 'refunded' } });
    await running().close();
    await rm(dataDir, { recursive: true, force: true });

    dataDir = await mkdtemp(join(tmpdir(), 'aguikit-e2e-agent-'));
    server = await startServer(dataDir);
    // While the server is down the page's automatic retry meets the proxy's 502.
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST }, { pinIds: true }, [
      /^console: Failed to load resource: the server responded with a status of 502 \(Bad Gateway\) \(http:\/\/127\.0\.0\.1:\d+\/agents\/refund\?speed=20\)$/,
    ]);
    const { page } = o;
    // Only the approving resume is slowed, so there is time to kill the server while its reply streams.
    let slowed = false;
    await page.route('**/agents/refund?*', (route) => {
      const request = route.request();
      const body = JSON.parse(request.postData() ?? '{}') as { resume?: unknown[] };
      if (slowed || !body.resume?.length || request.headers()['last-event-id']) return route.continue();
      slowed = true;
      const url = new URL(request.url());
      url.searchParams.set('speed', String(SLOW));
      return route.continue({ url: url.href });
    });
    await (await askForRefund(o)).getByRole('button', { name: 'Approve' }).click();
    await page.locator('.agk-message[data-role="assistant"][data-status="streaming"]', { hasText: 'Done: refund' }).waitFor();
    await running().close();
    server = undefined;

    await page.locator('.agk-chat .agk-runstatus[data-status="unknown"][data-connection="failed"]').waitFor();
    const cut = await readChat(page);
    expect(cut.statusText).toMatch(/^Connection lost.*The stream ended before the run finished: .*502.*Reconnect$/);
    expect(cut.messages.at(-1)?.text, 'the reply was cut before its end').not.toContain('5 business days');
    expect(cut.messages.length).toBe(uncut.chat.messages.length);

    server = await startServer(dataDir);
    const restarted = server;
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await runStatus(page, 'success').waitFor();

    const after = await readChat(page);
    // The same screen as an uncut run, and the status says the reconnect worked.
    expect({ ...after, statusText: uncut.chat.statusText }).toEqual(uncut.chat);
    expect(after.statusText).toBe(`${uncut.chat.statusText} Reconnected: the run went on from where it stopped.`);
    expect(await readState(page)).toEqual(uncut.state);
    expect(await readEvents(page)).toEqual(uncut.events);

    const reconnects = o.requests.filter((r) => r.lastEventId !== undefined);
    expect(reconnects.length, 'the automatic retry and the Reconnect click').toBe(2);
    expect(new Set(reconnects.map((r) => r.lastEventId)).size).toBe(1);
    expect(restarted.effects()).toHaveLength(1);
    const stored = readStored(dataDir);
    expect(stored.effects).toHaveLength(1);
    expect(stored.runs).toHaveLength(2);
  });
});

describe('the playground’s own controls', () => {
  it('an arrow key on the scenario or the agent asks before it discards a conversation; declined, the thread and its approval stay', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    const dialog = await askForRefund(o);
    const before = await readChat(page);
    const dialogs = confirmDialogs(page);
    const asked = dialogs.asked;
    const scenario = page.getByRole('combobox', { name: 'Scenario' });
    await scenario.focus();
    await scenario.press('ArrowDown');
    await page.getByRole('radio', { name: 'Agent server' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('discarded');
    expect(await scenario.inputValue()).toBe('refund');
    expect(await page.getByRole('radio', { name: 'Agent server' }).isChecked()).toBe(true);
    expect(await readChat(page)).toEqual(before);
    expect(await dialog.isVisible()).toBe(true);
    // Accepted: a new thread of the next scenario.
    dialogs.accept = true;
    await scenario.focus();
    await scenario.press('ArrowDown');
    await expect.poll(() => scenario.inputValue()).not.toBe('refund');
    await expect.poll(async () => (await readChat(page)).messages.length).toBe(0);
    // An empty thread has nothing to lose: no question.
    await scenario.press('ArrowUp');
    await expect.poll(() => scenario.inputValue()).toBe('refund');
    expect(asked).toHaveLength(3);
  });

  it('declined from an arrow key on the agent radios, focus goes back with the check to the agent in use', async () => {
    const o = await open({ mode: 'browser', scenario: 'refund', speed: FAST });
    const { page } = o;
    await page.getByRole('button', { name: 'Send this' }).click();
    await runStatus(page, 'interrupted').waitFor();
    const { asked } = confirmDialogs(page);
    const inUse = page.getByRole('radio', { name: 'In the browser' });
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent);
    await inUse.focus();
    // Right to "Agent server", then left, which wraps round to the last radio ("AG-UI URL"): each declined.
    for (const [i, key] of ['ArrowRight', 'ArrowLeft'].entries()) {
      await page.keyboard.press(key);
      expect(asked).toHaveLength(i + 1);
      expect(await inUse.isChecked()).toBe(true);
      await expect.poll(focused).toBe('In the browser');
    }
    expect(await runStatus(page, 'interrupted').count()).toBe(1);
  });

  it('devtools tabs: arrow keys, Home and End move and select (one tab in the Tab order), every aria-controls exists', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    await askForRefund(o);
    const tabs = page.getByRole('tablist', { name: 'Devtools' }).getByRole('tab');
    const read = () =>
      tabs.evaluateAll((all) =>
        all.map((t) => ({
          name: t.textContent,
          selected: t.getAttribute('aria-selected'),
          tabIndex: (t as HTMLElement).tabIndex,
          focused: t === document.activeElement,
          panelShown: !(document.getElementById(t.getAttribute('aria-controls') ?? '') as HTMLElement | null)?.hidden,
        })),
      );
    const state = page.getByRole('tab', { name: 'Shared state' });
    await state.focus();
    expect((await read()).map((t) => [t.name, t.selected, t.tabIndex])).toEqual([
      ['Shared state', 'true', 0],
      ['Events', 'false', -1],
    ]);
    const where = async () => (await read()).filter((t) => t.focused && t.selected === 'true' && t.tabIndex === 0 && t.panelShown);
    await page.keyboard.press('ArrowRight');
    expect((await where()).map((t) => t.name)).toEqual(['Events']);
    await page.locator('.agk-timeline').waitFor();
    await page.keyboard.press('ArrowRight');
    expect((await where()).map((t) => t.name)).toEqual(['Shared state']);
    await page.keyboard.press('End');
    expect((await where()).map((t) => t.name)).toEqual(['Events']);
    await page.keyboard.press('Home');
    expect((await where()).map((t) => t.name)).toEqual(['Shared state']);
    await page.keyboard.press('ArrowLeft');
    expect((await where()).map((t) => t.name)).toEqual(['Events']);
    // Tab leaves the tab list for the panel's content: only one tab is in the Tab order.
    expect((await read()).filter((t) => t.tabIndex === 0)).toHaveLength(1);
    // The selected tab's panel is labelled by it; every aria-controls on the page names an element that exists.
    const panel = page.getByRole('tabpanel', { name: 'Events' });
    await panel.waitFor();
    const missing = await page.evaluate(() =>
      [...document.querySelectorAll('[aria-controls]')]
        .flatMap((el) => (el.getAttribute('aria-controls') ?? '').split(/\s+/).filter(Boolean))
        .filter((id) => !document.getElementById(id)),
    );
    expect(missing).toEqual([]);
  });

  it("devtools tabs: a look at the other tab keeps the timeline's filter and picked row, and the inspector's picked entry", async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST });
    const { page } = o;
    await askForRefund(o);
    await page.getByRole('tab', { name: 'Events' }).click();
    const filter = page.getByRole('searchbox');
    await filter.fill('refund');
    // The filter is a deferred render too: pick a row once the list is the filtered one.
    await page.locator('.agk-timeline__count', { hasText: / of / }).waitFor();
    const options = page.getByRole('listbox', { name: /events/i }).getByRole('option');
    await options.first().click();
    const picked = await options.first().getAttribute('id');
    const count = await page.locator('.agk-timeline__count').textContent();
    await page.getByRole('tab', { name: 'Shared state' }).click();
    await page.getByRole('listbox', { name: 'State history' }).getByRole('option').nth(1).click();
    // The picked document is a deferred render (the keyboard never waits for a replay): wait for it to be shown.
    const inspector = page.locator('.agk-inspector');
    await inspector.and(page.locator('[data-state="past"]')).waitFor({ timeout: 5_000 });
    await page.getByRole('tab', { name: 'Events' }).click();
    expect(await filter.inputValue()).toBe('refund');
    expect(await page.locator('.agk-timeline__count').textContent()).toBe(count);
    expect(
      await page
        .getByRole('listbox', { name: /events/i })
        .locator('[aria-selected="true"]')
        .getAttribute('id'),
    ).toBe(picked);
    await page.getByRole('tab', { name: 'Shared state' }).click();
    await inspector.waitFor();
    expect(await inspector.getAttribute('data-state')).toBe('past');
  });

  it('language: ?lang=zh-CN shows the playground and the components in Simplified Chinese; the switch keeps it in the URL', async () => {
    const o = await open({ mode: 'server', scenario: 'refund', speed: FAST, lang: 'zh-CN' });
    const { page } = o;
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    const language = page.getByRole('combobox', { name: '语言' });
    expect(await language.inputValue()).toBe('zh-CN');
    const header = page.locator('header.pg__bar');
    for (const name of ['新会话', '下载事件', '深色主题']) await header.getByRole('button', { name, exact: true }).waitFor();
    expect(await page.getByRole('tablist').getByRole('tab').allTextContents()).toEqual(['共享状态', '事件']);
    // The components' own words come from zh-CN too: the chat region and the composer.
    await page.getByRole('region', { name: '智能体对话' }).waitFor();
    await page.getByRole('textbox', { name: '消息', exact: true }).waitFor();
    // The hint line is Chinese around the prompt (which stays the scenario's own).
    expect(await page.locator('.pg__hint').textContent()).toContain('需审批的退款');

    await language.selectOption('en');
    await page.getByRole('heading', { name: 'aguikit playground', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('lang')).toBeNull();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-CN');
    expect(new URL(page.url()).searchParams.get('scenario')).toBe('refund');
  });
});
