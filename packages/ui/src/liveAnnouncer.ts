'use client';

import { useAgentStore, useMessageIds } from '@aguikit/react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { contentText } from './MessageContent.js';

/** Told by each message once it has settled (complete, not streaming); decides whether to announce it. */
export type SettledListener = (messageId: string) => void;

export const AnnouncerContext = clientContext<SettledListener | null>(null);

/**
 * Reports a message to the list's announcer once it is settled. Nothing
 * happens outside a `MessageList`.
 */
export function useAnnounceWhenSettled(messageId: string, settled: boolean): void {
  const announce = React.useContext(AnnouncerContext);
  React.useEffect(() => {
    if (settled) announce?.(messageId);
  }, [announce, messageId, settled]);
}

/**
 * What a list's polite live region says: each assistant reply once it is
 * complete, as "Assistant: text". Only replies that arrived after the list
 * mounted, once each, so neither history nor a row the virtualizer remounts
 * is read out again; tokens are never announced one by one.
 */
export function useLiveAnnouncer(): { announcement: string; onSettled: SettledListener } {
  const store = useAgentStore();
  const ids = useMessageIds();
  const [before] = React.useState(() => new Set(ids));
  const [announcement, setAnnouncement] = React.useState('');
  const onSettled = React.useMemo(() => {
    const done = new Set<string>();
    return (id: string) => {
      if (before.has(id) || done.has(id)) return;
      done.add(id);
      const message = store.getState().thread.messages.byId.get(id);
      if (message?.role !== 'assistant') return;
      const text = contentText(message.content).trim();
      if (text) setAnnouncement(`${message.name ?? 'Assistant'}: ${text}`);
    };
  }, [before, store]);
  return { announcement, onSettled };
}
