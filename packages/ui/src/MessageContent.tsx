'use client';

import type { ContentPart, MessageRecord } from '@aguikit/core';
import { SafeMarkdown } from './Markdown.js';
import { safeImageSrc } from './safeUrl.js';

/** How a message's text is shown: Markdown for agent text, verbatim for what a person or a system wrote. */
export type TextFormat = 'markdown' | 'plain';

type MediaPart = Exclude<ContentPart, { type: 'text' }>;

const MEDIA_LABELS: Record<MediaPart['type'], string> = {
  image: 'Image',
  audio: 'Audio',
  video: 'Video',
  document: 'Document',
};

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
  return format === 'markdown' ? <SafeMarkdown>{text}</SafeMarkdown> : <p className="agk-message__plain">{text}</p>;
}

/** Content parts in order: text, images that pass the URL policy, and a labelled placeholder for anything else. */
export function ContentParts({ parts, format, author }: { parts: readonly ContentPart[]; format: TextFormat; author: string }) {
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

function MediaPartView({ part, author }: { part: MediaPart; author: string }) {
  const label = MEDIA_LABELS[part.type];
  const described = describedAs(part);
  if (part.type === 'image') {
    const src = safeImageSrc(part.source);
    if (src !== undefined) {
      return (
        <img
          className="agk-message__image"
          src={src}
          alt={described ?? `Image from ${author}`}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
        />
      );
    }
    if (part.source.type === 'url') {
      return (
        <p className="agk-message__attachment" data-part="image" data-blocked="true">
          Image not shown: <code>{shorten(part.source.value)}</code> is not an http(s) or data:image URL.
        </p>
      );
    }
    if (part.source.type === 'data') {
      return (
        <p className="agk-message__attachment" data-part="image" data-blocked="true">
          Image not shown: inline data of type {part.source.mimeType || 'unknown'} is not base64 image data.
        </p>
      );
    }
  }
  const mime = part.source.mimeType;
  const origin = part.source.type === 'url' ? 'link' : part.source.type === 'data' ? 'inline data' : 'provider file';
  return (
    <p className="agk-message__attachment" data-part={part.type}>
      {label} attachment{described ? `: ${described}` : ''} ({[mime, origin].filter(Boolean).join(', ')})
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
