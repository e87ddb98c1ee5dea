'use client';

import { type AgentStore, useAgentStore, useMessageIds } from '@aguikit/react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { markdownChunk } from './lazyChunks.js';
import { type LocaleValue, useLocale } from './locale.js';
import { contentText } from './MessageContent.js';
import { countWords } from './Reasoning.js';
import { textHead } from './textCut.js';

/** Told by each message once it has settled (complete, not streaming), and whether it may be incomplete; decides whether to announce it. */
export type SettledListener = (messageId: string, incomplete: boolean) => void;

export const AnnouncerContext = clientContext<SettledListener | null>(null);

/**
 * Reports a message to the list's announcer once it is settled, and again
 * if it later turns out incomplete (its run failed after it ended). Nothing
 * happens outside a `MessageList`.
 */
export function useAnnounceWhenSettled(messageId: string, settled: boolean, incomplete = false): void {
  const announce = React.useContext(AnnouncerContext);
  React.useEffect(() => {
    if (settled) announce?.(messageId, incomplete);
  }, [announce, messageId, settled, incomplete]);
}

/** How much of a reply is read out: about a screen reader's sentence or three; the rest is in the log. */
export const ANNOUNCEMENT_LENGTH = 300;

/**
 * What the live region says for a reply: "Author: text", the text capped at
 * about 300 characters (cut at a word) with how much more there is, and the
 * "may be incomplete" note for a reply its run's failure may have cut short.
 * `text` is plain text already (see `markdownToText`).
 *
 * @example
 * announcementText(localeValue(en), 'Assistant', 'Refund issued.', false); // 'Assistant: Refund issued.'
 */
export function announcementText(locale: LocaleValue, author: string, text: string, incomplete: boolean): string {
  const s = locale.messages.messages.announce;
  let said = s.said(author, text);
  if (text.length > ANNOUNCEMENT_LENGTH) {
    const space = text.lastIndexOf(' ', ANNOUNCEMENT_LENGTH);
    const cut = space > ANNOUNCEMENT_LENGTH / 2 ? space : textHead(text, ANNOUNCEMENT_LENGTH).length;
    const more = countWords(text.slice(cut), locale.lang);
    said = s.said(author, text.slice(0, cut).trimEnd()) + s.continues(more, locale.format.number(more));
  }
  return incomplete ? said + s.incomplete : said;
}

/** Past this, only a reply's head is parsed to be said: parsing all of a long reply again takes seconds. */
const PARSED_FOR_SPEECH = 4_000;

/**
 * A reply as it is said: its Markdown as plain text by `toText`, which for a
 * reply past 4,000 characters is given only its head (cut at a paragraph
 * where one ends late enough), the rest stripped roughly (`roughText`,
 * linear): only about 300 characters are read out, and the rest is counted
 * in words.
 */
export function spokenText(markdown: string, toText: (markdown: string) => string): string {
  if (markdown.length <= PARSED_FOR_SPEECH) return toText(markdown);
  const paragraph = markdown.lastIndexOf('\n\n', PARSED_FOR_SPEECH);
  const cut = paragraph > PARSED_FOR_SPEECH / 2 ? paragraph : textHead(markdown, PARSED_FOR_SPEECH).length;
  return `${toText(markdown.slice(0, cut))} ${roughText(markdown.slice(cut))}`.trim();
}

/**
 * Markdown stripped of its most common syntax: what is said when the renderer
 * could not be loaded. Each pattern has one way through a string, so a
 * hostile text (spaces without end, brackets never closed) costs linear time.
 */
export function roughText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\][]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .split('\n')
    .filter((line) => !(line.includes('-') && /^[ \t:|-]+\r?$/.test(line)))
    .join('\n')
    .replace(/(\*\*|__|~~|`+|\*|_)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?\| ?/g, ', ')
    .trim();
}

/**
 * The messages a list finds when it meets its thread that are history, never
 * announced: all but a reply still streaming, which is announced when it
 * completes (a chat panel opened mid-reply still tells its reader).
 */
function history(store: AgentStore, ids: readonly string[]): Set<string> {
  const { byId } = store.getState().thread.messages;
  return new Set(ids.filter((id) => byId.get(id)?.streaming !== true));
}

/**
 * Whether `id` is the thread's newest assistant message with words to say
 * that is not streaming: an older one that settles now (history a
 * MESSAGES_SNAPSHOT restated, whose rows the list mounts as it lays them out,
 * after the answer that followed it) is no news. A message of tool calls
 * alone (no text) says nothing, so the reply before it is still the news.
 */
function newestSettled(store: AgentStore, id: string): boolean {
  const { ids, byId } = store.getState().thread.messages;
  for (let i = ids.length - 1; i >= 0; i--) {
    const message = byId.get(ids[i] as string);
    if (message?.role === 'assistant' && !message.streaming && contentText(message.content).trim() !== '') return message.id === id;
  }
  return false;
}

/** What the live region says, numbered: the region keys its node on `n`. */
export interface Announcement {
  text: string;
  n: number;
  /** The message it speaks of: once the thread no longer has it (a new thread), the region is silent again. */
  messageId?: string;
}

const SILENCE: Announcement = { text: '', n: 0 };

/**
 * What a list's polite live region says: each assistant reply once it is
 * complete, as "Assistant: text" in plain text (Markdown rendered to text, by
 * the renderer loaded on demand for the reply itself), capped for a long
 * reply, with the "may be incomplete" note for a reply cut short. Only
 * replies that arrived after the list mounted, once each, and each only while
 * it is the newest, so neither history (there at mount, or restated by a
 * snapshot) nor a row the virtualizer remounts is read out again; tokens are
 * never announced one by one.
 */
export function useLiveAnnouncer(thread: string): { announcement: Announcement; onSettled: SettledListener } {
  const store = useAgentStore();
  const ids = useMessageIds();
  const locale = useLocale();
  const localeRef = React.useRef(locale);
  localeRef.current = locale;
  const shown = React.useRef({ store, thread });
  shown.current = { store, thread };
  // The messages there when the list met its thread (history, never announced): taken again for a thread the provider
  // switches to or a reset starts, with what was announced of the last one forgotten and its announcement cleared.
  const [seen, setSeen] = React.useState(() => ({ store, thread, before: history(store, ids) }));
  // Numbered: the region renders each announcement as a node of its own, so a reply the same as the last one is heard again.
  const [announcement, setAnnouncementState] = React.useState<Announcement>(SILENCE);
  const setAnnouncement = React.useCallback(
    (text: string, messageId?: string) =>
      setAnnouncementState((last) => (text === '' ? SILENCE : { text, n: last.n + 1, ...(messageId === undefined ? {} : { messageId }) })),
    [],
  );
  // Per message announced: whether it was announced as incomplete.
  const announced = React.useRef(new Map<string, boolean>());
  let before = seen.before;
  if (seen.store !== store || seen.thread !== thread) {
    before = history(store, ids);
    setSeen({ store, thread, before });
    setAnnouncement('');
    announced.current = new Map();
  }
  const onSettled = React.useCallback<SettledListener>(
    (id, incomplete) => {
      if (before.has(id)) return;
      const previous = announced.current.get(id);
      if (previous === true || (previous === false && !incomplete)) return;
      const message = store.getState().thread.messages.byId.get(id);
      if (message?.role !== 'assistant' || (previous === undefined && !newestSettled(store, id))) return;
      const { messages } = localeRef.current;
      const author = message.name ?? messages.messages.roles.assistant;
      announced.current.set(id, incomplete);
      if (previous === false) {
        setAnnouncement(messages.messages.announce.becameIncomplete(author), id);
        return;
      }
      const text = contentText(message.content).trim();
      if (!text) return;
      // Said only while the list still shows the thread the reply is of: the provider may switch to another thread, or
      // the thread be reset (either may use the same ids), while the speech waits for its task or for the Markdown renderer.
      const say = (plain: string) => {
        if (shown.current.store === store && shown.current.thread === thread)
          setAnnouncement(announcementText(localeRef.current, author, plain, incomplete), id);
      };
      const chunk = markdownChunk.state();
      // In a task of its own: turning a long reply into speech parses all of it again, and in the
      // commit that completed the reply (which has just rendered it) that made one task of both:
      // 60-90 ms for 5,000 words in Chromium (bench case 5), where each alone stays under 50.
      if (chunk.status === 'ready') setTimeout(() => say(spokenText(text, chunk.module.markdownToText)), 0);
      else
        markdownChunk.load().then(
          (module) => say(spokenText(text, module.markdownToText)),
          () => say(roughText(text)),
        );
    },
    [before, store, thread, setAnnouncement],
  );
  // The thread no longer has the message last said (New thread): what was said of the old thread is not left in the
  // region for a screen reader to find, and what it announced is forgotten, so a new message under a reused id is said.
  if (announcement.messageId !== undefined && !ids.includes(announcement.messageId)) {
    const kept = new Set(ids);
    announced.current = new Map([...announced.current].filter(([id]) => kept.has(id)));
    setAnnouncementState(SILENCE);
  }
  return { announcement: announcement.messageId === undefined || ids.includes(announcement.messageId) ? announcement : SILENCE, onSettled };
}
