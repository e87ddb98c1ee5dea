'use client';

import type * as React from 'react';

/** A private-use character no locale's sentence holds: it marks where the value goes in the sentence. */
const SLOT = '\uE000';

/**
 * The sentence a locale's function makes of `value`, with `value` in a
 * `<bdi>`: text the agent or the user wrote (a tool name, a comment) keeps
 * its direction to itself, so an override or a right-to-left name in it
 * cannot reorder the sentence around it. The text reads as the function
 * wrote it; a sentence that leaves the value out is taken as it is.
 */
export function isolated(sentence: (value: string) => string, value: string): React.ReactNode {
  const [first, ...rest] = sentence(SLOT).split(SLOT);
  if (rest.length === 0) return sentence(value);
  const nodes: React.ReactNode[] = [first];
  // The sentence's pieces never move: each slot is keyed by its place.
  for (let slot = 0; slot < rest.length; slot++) nodes.push(<bdi key={`slot-${slot}`}>{value}</bdi>, rest[slot]);
  return nodes;
}
