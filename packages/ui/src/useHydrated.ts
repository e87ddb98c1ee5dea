'use client';

import * as React from 'react';

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

const utcTimes = new Map<string, Intl.DateTimeFormat>();

function utcTime(lang: string): Intl.DateTimeFormat {
  let format = utcTimes.get(lang);
  if (!format) {
    const options = { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC', timeZoneName: 'short' } as const;
    try {
      format = new Intl.DateTimeFormat(lang, options);
    } catch {
      format = new Intl.DateTimeFormat('en', options);
    }
    utcTimes.set(lang, format);
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
  return hydrated ? (ms) => format.time(ms) : (ms) => utcTime(lang).format(ms);
}
