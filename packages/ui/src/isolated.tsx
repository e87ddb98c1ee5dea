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
  const parts = sentence(SLOT).split(SLOT);
  if (parts.length === 1) return sentence(value);
  return parts.flatMap((part, i) => (i === 0 ? [part] : [<bdi key={i}>{value}</bdi>, part]));
}
