'use client';

import type { ContentPart, MessageRecord } from '@aguikit/core';
import { LONG_TEXT, LongText } from './LongText.js';
import { useLocale } from './locale.js';
import { SafeMarkdown } from './Markdown.js';
import { safeImageSrc } from './safeUrl.js';
import { autoDir } from './textDirection.js';

/** How a message's text is shown: Markdown for agent text, verbatim for what a person or a system wrote. */
export type TextFormat = 'markdown' | 'plain';

type MediaPart = Exclude<ContentPart, { type: 'text' }>;

/** Who sent a part, for the alt text of an image no one described. */
export type PartAuthor = 'user' | 'tool' | 'agent';

const SHOWN_URL_LENGTH = 80;

/** The plain text of a message's content: its text parts, joined. */
export function contentText(content: MessageRecord['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as readonly ContentPart[])
    .filter((part): part is Extract<ContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n\n');
}

/** The text of a message, as Markdown or verbatim. */
export function MessageText({ text, format }: { text: string; format: TextFormat }) {
  if (text === '') return null;
  // Verbatim text too long to lay out at once is cut (Markdown decides in its renderer, where it knows whether the text grows).
  if (format === 'plain' && text.length > LONG_TEXT) return <LongText text={text} />;
  return format === 'markdown' ? (
    <SafeMarkdown>{text}</SafeMarkdown>
  ) : (
    <p className="agk-message__plain" dir={autoDir(text)}>
      {text}
    </p>
  );
}

/** Content parts in order: text, images that pass the URL policy, and a labelled placeholder for anything else. */
export function ContentParts({ parts, format, author }: { parts: readonly ContentPart[]; format: TextFormat; author: PartAuthor }) {
  return parts.map((part, i) =>
    part.type === 'text' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own and only ever append
      <MessageText key={i} text={part.text} format={format} />
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <MediaPartView key={i} part={part} author={author} />
    ),
  );
}

function MediaPartView({ part, author }: { part: MediaPart; author: PartAuthor }) {
  const strings = useLocale().messages.messages.media;
  const label = strings[part.type];
  const described = describedAs(part);
  if (part.type === 'image') {
    const src = safeImageSrc(part.source);
    if (src !== undefined) {
      return (
        <img
          className="agk-message__image"
          src={src}
          alt={described ?? strings.imageFrom(strings.authors[author])}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
        />
      );
    }
    if (part.source.type === 'url') {
      return (
        <p className="agk-message__attachment" data-part="image" data-blocked="true">
          {strings.blockedUrlBefore}
          <code>{shorten(part.source.value)}</code>
          {strings.blockedUrlAfter}
        </p>
      );
    }
    if (part.source.type === 'data') {
      return (
        <p className="agk-message__attachment" data-part="image" data-blocked="true">
          {strings.blockedData(part.source.mimeType || strings.unknownType)}
        </p>
      );
    }
  }
  const mime = part.source.mimeType;
  const origin = strings.origins[part.source.type];
  const details = [mime, origin].filter(Boolean).join(', ');
  return (
    <p className="agk-message__attachment" data-part={part.type}>
      {described ? strings.describedAttachment(label, described, details) : strings.attachment(label, details)}
    </p>
  );
}

/** The description an author gave a part (`metadata.alt`, `title` or `filename`), if any. */
function describedAs(part: MediaPart): string | undefined {
  const metadata: unknown = part.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  for (const key of ['alt', 'title', 'filename']) {
    const value: unknown = (metadata as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function shorten(value: string): string {
  return value.length > SHOWN_URL_LENGTH ? `${value.slice(0, SHOWN_URL_LENGTH)}…` : value;
}
