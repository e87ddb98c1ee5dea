'use client';

import type { SubagentRecord } from '@aguikit/core';
import { useMessageAttribution, useMessageIds, useSubagents } from '@aguikit/react';
import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';

/** Where the messages of a subagent go: inside a group of their own, or in the main flow. */
export type SubagentLayout = 'grouped' | 'inline';

/** One row of a conversation: a message, or a subagent's group. */
export type OutlineItem = { kind: 'message' | 'subagent'; id: string };

export interface MessageOutline {
  /** The top-level rows, in thread order. */
  rows: readonly OutlineItem[];
  /** What each subagent's group holds (its messages and nested groups), in thread order. */
  children: ReadonlyMap<string, readonly OutlineItem[]>;
}

const EMPTY: readonly OutlineItem[] = [];

/**
 * Groups messages by the subagent they came from. A group sits where its
 * first message is, inside the group of its `parentSubagentRunId`; a
 * subagent without messages yet goes last in its parent. A parent chain that
 * loops is cut where it loops (the loop is the agent's bug, not a reason to hang).
 */
function buildOutline(
  ids: readonly string[],
  attribution: ReadonlyMap<string, string>,
  subagents: Readonly<Record<string, SubagentRecord>>,
  layout: SubagentLayout,
): MessageOutline {
  if (layout === 'inline' || (attribution.size === 0 && Object.keys(subagents).length === 0)) {
    return { rows: ids.map((id) => ({ kind: 'message', id })), children: new Map() };
  }
  const rows: OutlineItem[] = [];
  const children = new Map<string, OutlineItem[]>();
  const placing = new Set<string>();
  const place = (sub: string): OutlineItem[] => {
    const existing = children.get(sub);
    if (existing) return existing;
    const own: OutlineItem[] = [];
    children.set(sub, own);
    placing.add(sub);
    const parent = Object.hasOwn(subagents, sub) ? subagents[sub]?.parentSubagentRunId : undefined;
    const into = parent !== undefined && parent !== sub && !placing.has(parent) ? place(parent) : rows;
    into.push({ kind: 'subagent', id: sub });
    placing.delete(sub);
    return own;
  };
  for (const id of ids) {
    const sub = attribution.get(id);
    (sub === undefined ? rows : place(sub)).push({ kind: 'message', id });
  }
  for (const sub of Object.keys(subagents)) place(sub);
  return { rows, children };
}

/**
 * The conversation as rows: messages, and subagent groups nested by parent.
 * Stable while a message streams (the ids, the attribution and the subagents
 * all keep their identity), so a list built on it does not re-render per token.
 */
export function useMessageOutline(layout: SubagentLayout): MessageOutline {
  const ids = useMessageIds();
  const attribution = useMessageAttribution();
  const subagents = useSubagents();
  return React.useMemo(() => buildOutline(ids, attribution, subagents, layout), [ids, attribution, subagents, layout]);
}

/** The items of one group in an outline. */
export function groupItems(outline: MessageOutline, subagentRunId: string): readonly OutlineItem[] {
  return outline.children.get(subagentRunId) ?? EMPTY;
}

/** What the rows of a list share: the outline, and how one message is drawn. */
export interface ThreadView {
  outline: MessageOutline;
  renderMessage: (id: string) => ReactNode;
}

export const ThreadViewContext = clientContext<ThreadView | null>(null);
