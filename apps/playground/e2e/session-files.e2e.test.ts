/**
 * Session files as a reader and an attacker hand them to the playground (its in-browser agent): a refund session
 * downloaded at phone size and loaded back; the same file torn mid-line, empty, a picture, hostile (markup and
 * script in a message, a 1 MB id, `__proto__` keys and prototype names, events out of order); and a file loaded
 * while a run streams.
 */
import { readFile } from 'node:fs/promises';
import { scenarios } from '@aguikit/scenarios';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, type OpenPage, openPlayground, readChat, readState, runStatus, unexpected } from './harness.js';

const playgroundUrl = inject('playgroundUrl');
const FAST = 20;
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

let browser: Browser;
const pages: OpenPage[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  const opened = pages.splice(0);
  await Promise.all(opened.map((open) => open.close()));
  expect(
    opened.flatMap((open) => unexpected(open.problems)),
    'console errors and page errors',
  ).toEqual([]);
});

async function open(viewport: { width: number; height: number }, speed = FAST) {
  const opened = await openPlayground(browser, playgroundUrl, { params: { mode: 'browser', scenario: 'refund', speed }, viewport });
  pages.push(opened);
  return opened.page;
}

const ask = async (page: Page) => {
  const composer = page.getByRole('textbox', { name: 'Message', exact: true });
  await composer.fill(scenarios.refund.prompt);
  await composer.press('Enter');
};

/** The refund asked for and approved, and the session downloaded: its lines. */
async function approvedSession(page: Page): Promise<string> {
  await ask(page);
  await runStatus(page, 'interrupted').waitFor();
  const approve = page.locator('.agk-interrupt').getByRole('button', { name: 'Approve' });
  await approve.and(page.locator(':enabled')).waitFor();
  await approve.click();
  await runStatus(page, 'success').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download events' }).click()]);
  return readFile(await download.path(), 'utf8');
}

const load = (page: Page, name: string, text: string | Buffer, mimeType = 'application/x-ndjson') =>
  page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(text) ? text : Buffer.from(text) });

const scrubberLabel = (page: Page) => page.locator('.pg__scrubber label').textContent();
const alertText = (page: Page) => page.locator('.pg__bar ~ * [role="alert"], [role="alert"]').first().textContent();
/** What script in a file would have set, and what a prototype it reached would hold. */
const tampered = (page: Page) =>
  page.evaluate(() => ({
    pwned: (window as unknown as { pwned?: unknown }).pwned,
    polluted: ({} as Record<string, unknown>).polluted,
    scripts: document.querySelectorAll('.pg__replay script, .pg__replay img[src="x"]').length,
  }));

describe('session files, loaded as a reader and an attacker would', () => {
  it('at phone size, a refund approved is downloaded and loaded back to the same chat and state', async () => {
    const page = await open(PHONE);
    const text = await approvedSession(page);
    const live = { chat: await readChat(page), state: await readState(page) };
    await load(page, 'refund.jsonl', text);
    await page.locator('.pg__replay .agk-chat .agk-runstatus[data-status="success"]').waitFor();
    const replayed = { chat: await readChat(page), state: await readState(page) };
    expect(replayed.chat).toEqual(live.chat);
    expect(replayed.state.document).toEqual(live.state.document);
    // Nothing sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('a torn file replays up to the cut, naming the cut line; an empty file or a picture is refused and the replay stays', async () => {
    const page = await open(LAPTOP);
    const text = await approvedSession(page);
    const whole = text.split('\n').filter(Boolean).length;
    // Cut in the middle of a line.
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    expect(cut.endsWith('\n')).toBe(false);
    const kept = cut.split('\n').length - 1;
    await load(page, 'torn.jsonl', cut);
    await expect.poll(() => scrubberLabel(page)).toMatch(new RegExp(`^Replaying torn\\.jsonl: after entry ${kept} of ${kept} `));
    expect(kept).toBeLessThan(whole);
    expect(await page.locator('.pg__skipped').textContent()).toContain(`line ${kept + 1}: not JSON`);

    await load(page, 'empty.jsonl', Buffer.alloc(0));
    await expect.poll(() => alertText(page)).toBe('Could not load \u2068empty.jsonl\u2069: The file holds no events.');
    expect(await scrubberLabel(page)).toMatch(/^Replaying torn\.jsonl/);

    const picture = await page.screenshot();
    await load(page, 'picture.jsonl', picture, 'image/png');
    await expect.poll(() => alertText(page)).toMatch(/^Could not load \u2068picture\.jsonl\u2069: /);
    expect(await scrubberLabel(page)).toMatch(/^Replaying torn\.jsonl/);
  });

  it('markup and script in a file are shown as text, a 1 MB id streams, and no path or key reaches a prototype', async () => {
    const page = await open(LAPTOP);
    const lines = (await approvedSession(page))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; message?: { content: string } });
    const markup = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>[x](javascript:window.pwned=3)';
    const userAt = lines.findIndex((l) => l.type === 'user_message');
    const user = lines[userAt]?.message;
    if (!user) throw new Error('The session holds no user message.');
    user.content = markup;
    const id = 'i'.repeat(1_000_000);
    let index = 10_000;
    const event = (e: Record<string, unknown>) => JSON.stringify({ type: 'event', event: e, index: index++, at: 1 });
    const hostile = [
      ...lines.map((l) => JSON.stringify(l)),
      event({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/__proto__/polluted', value: 1 }] }),
      `{"__proto__":{"polluted":2},"type":"event","event":{"type":"CUSTOM","name":"constructor","value":{"__proto__":{"polluted":3}}},"index":${index++},"at":1}`,
      event({ type: 'constructor' }),
      event({ type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' }),
      event({ type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: '<b>late</b><img src=x onerror="window.pwned=4">' }),
      event({ type: 'TOOL_CALL_START', toolCallId: 'constructor', toolCallName: '__proto__' }),
      event({ type: 'TOOL_CALL_ARGS', toolCallId: 'constructor', delta: '{"__proto__":{"polluted":5}}' }),
    ];
    await load(page, 'hostile.jsonl', `${hostile.join('\n')}\n`);
    await expect.poll(() => scrubberLabel(page)).toMatch(/^Replaying hostile\.jsonl: after entry \d+ of \d+ \(TOOL_CALL_ARGS\)$/);
    const chat = await readChat(page);
    // The agent's markdown leaves raw HTML out: its text stays, no element of it is made.
    expect(chat.messages.at(-2)?.text).toMatch(/^Assistant(Writing…)?late$/);
    expect(chat.messages.at(-1)?.text).toContain('__proto__');
    // The delta into a prototype is refused, and said so.
    expect(await page.locator('.pg__replay').textContent()).toContain('/__proto__/polluted');
    // The message as sent (the agent's later snapshot of the messages replaces it with its own copy).
    const slider = page.locator('.pg__replay').getByRole('slider');
    await slider.fill(String(userAt));
    await expect.poll(async () => (await readChat(page)).messages[0]?.text).toContain(markup);
    // Every step of the file, back to the first.
    for (const at of [0, 1, hostile.length - 3, hostile.length - 2, hostile.length - 1]) await slider.fill(String(at));
    expect(await tampered(page)).toEqual({ pwned: undefined, polluted: undefined, scripts: 0 });
  });

  it('events out of order are skipped, each line said; the other entries replay', async () => {
    const page = await open(PHONE);
    const lines = (await approvedSession(page)).split('\n').filter(Boolean);
    const isEvent = (line: string) => (JSON.parse(line) as { type: string }).type === 'event';
    const events = lines.filter(isEvent);
    const firstEvent = lines.findIndex(isEvent);
    const reversed = [...lines.slice(0, firstEvent), ...events.reverse(), ...lines.slice(firstEvent).filter((l) => !isEvent(l))];
    await load(page, 'reversed.jsonl', `${reversed.join('\n')}\n`);
    await expect.poll(() => page.locator('.pg__skipped summary').textContent()).toBe(`${events.length - 1} unreadable lines skipped`);
    // The client entries and the one event read first are kept.
    const kept = lines.length - events.length + 1;
    expect(await scrubberLabel(page)).toMatch(new RegExp(`^Replaying reversed\\.jsonl: after entry ${kept} of ${kept} `));
    await page.locator('.pg__skipped summary').click();
    expect(await page.locator('.pg__skipped li').first().textContent()).toMatch(/does not follow the one before it/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('a file loaded while a run streams: back to live, the run has gone on to its approval', async () => {
    const page = await open(LAPTOP, 0.5);
    const other = await open(LAPTOP);
    const text = await approvedSession(other);
    await ask(page);
    await runStatus(page, 'running').waitFor();
    // Time travel in the live timeline while the run streams: the thread after its second event.
    await page.getByRole('tab', { name: 'Events' }).click();
    const rows = page.locator('.pg__main .agk-timeline [role="option"]');
    await rows.nth(2).waitFor();
    await rows.nth(1).click();
    await expect.poll(() => page.locator('.pg__main .agk-timeline').textContent()).toContain('After event #1');
    await load(page, 'refund.jsonl', text);
    await page.locator('.pg__replay .agk-chat .agk-runstatus[data-status="success"]').waitFor();
    await page.getByRole('button', { name: 'Back to live' }).click();
    await runStatus(page, 'interrupted').waitFor({ timeout: 30_000 });
    expect((await readChat(page)).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(await page.locator('.agk-interrupt').getByRole('button', { name: 'Approve' }).count()).toBe(1);
  }, 60_000);
});
