'use client';

import * as React from 'react';
import { sameDay } from './dates.js';

const subscribe = () => () => {};

/**
 * False in a server render and while the browser hydrates that render's
 * HTML; true once hydrated, and in every render that hydrates nothing. What
 * a server cannot know as the browser does (the time now, the reader's time
 * zone) is drawn once this is true, so the browser's first render gives the
 * server's HTML.
 */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

const utcFormats = new Map<string, Intl.DateTimeFormat>();

/** A time of day (`time`), or a date and time (`dateTime`), in UTC, saying so. */
function utcFormat(lang: string, kind: 'time' | 'dateTime'): Intl.DateTimeFormat {
  const key = `${kind} ${lang}`;
  let format = utcFormats.get(key);
  if (!format) {
    const options =
      kind === 'time'
        ? ({ hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC', timeZoneName: 'short' } as const)
        : ({ dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' } as const);
    try {
      format = new Intl.DateTimeFormat(lang, options);
    } catch {
      format = new Intl.DateTimeFormat('en', options);
    }
    utcFormats.set(key, format);
  }
  return format;
}

/**
 * The locale's `format.time`, which reads the reader's time zone, once
 * hydrated; before (on a server, which does not know the reader's zone, and
 * as the browser hydrates its HTML), the time in UTC, saying so.
 */
export function useTimeText(format: { time(epochMs: number): string }, lang: string): (epochMs: number) => string {
  const hydrated = useHydrated();
  return hydrated ? (ms) => format.time(ms) : (ms) => utcFormat(lang, 'time').format(ms);
}

/**
 * A moment as `useTimeText` says it where it falls on the day of `now`, and
 * with its date (`format.dateTime`) on any other: an expiry three days ago
 * was not "at 12:00:00". Before hydration, which reads no clock, always
 * with its date, in UTC.
 */
export function useMomentText(
  format: { time(epochMs: number): string; dateTime(epochMs: number): string },
  lang: string,
  now: () => number,
): (epochMs: number) => string {
  const hydrated = useHydrated();
  if (!hydrated) return (ms) => utcFormat(lang, 'dateTime').format(ms);
  return (ms) => (sameDay(ms, now()) ? format.time(ms) : format.dateTime(ms));
}
