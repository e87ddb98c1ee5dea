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
 * Groups nest this deep at most. A subagent's group that would sit deeper
 * sits beside its parent's, at that depth, in thread order: an agent that
 * delegates to itself thousands of times over is shown as a list a reader can
 * follow (and React can commit: each level of nesting is a level of its stack).
 */
export const MAX_GROUP_DEPTH = 6;

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
  /** Where each group sits: the list that holds it, and its depth (1: in the conversation's own rows). */
  const sits = new Map<string, { list: OutlineItem[]; depth: number }>();
  const parentOf = (sub: string) => {
    const parent = Object.hasOwn(subagents, sub) ? subagents[sub]?.parentSubagentRunId : undefined;
    return parent === sub ? undefined : parent;
  };
  /** Where a group placed already puts a group of its child's: inside it, or beside it once it is as deep as groups go. */
  const inside = (group: string) => {
    const at = sits.get(group) as { list: OutlineItem[]; depth: number };
    return at.depth < MAX_GROUP_DEPTH ? { list: children.get(group) as OutlineItem[], depth: at.depth + 1 } : at;
  };
  const place = (sub: string): OutlineItem[] => {
    const existing = children.get(sub);
    if (existing) return existing;
    // The subagent and its ancestors not placed yet, nearest first, up to one placed, none, or one met again (a loop).
    const chain = [sub];
    const met = new Set(chain);
    let up = parentOf(sub);
    while (up !== undefined && !children.has(up) && !met.has(up)) {
      chain.push(up);
      met.add(up);
      up = parentOf(up);
    }
    // Placed from the farthest down, each in the one before; the farthest in the conversation's rows when its parent is
    // none, or one of the chain (the loop is cut there).
    let parent = up !== undefined && children.has(up) ? up : undefined;
    for (let i = chain.length - 1; i >= 0; i--) {
      const id = chain[i] as string;
      const at = parent === undefined ? { list: rows, depth: 1 } : inside(parent);
      at.list.push({ kind: 'subagent', id });
      children.set(id, []);
      sits.set(id, at);
      parent = id;
    }
    return children.get(sub) as OutlineItem[];
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
