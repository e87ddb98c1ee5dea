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

const formats = new Map<string, Intl.DateTimeFormat>();

/** An `Intl` date format of `lang` (English where `Intl` refuses the tag), made once per kind and language. */
function dateFormat(kind: 'utc' | 'second', lang: string): Intl.DateTimeFormat {
  const key = `${kind} ${lang}`;
  let format = formats.get(key);
  if (!format) {
    const options =
      kind === 'utc'
        ? ({ dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' } as const)
        : ({ year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const);
    try {
      format = new Intl.DateTimeFormat(lang, options);
    } catch {
      format = new Intl.DateTimeFormat('en', options);
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * Renders again as the day of `now` ends (the reader's midnight), once
 * hydrated: a moment of today said as its time gains its date then, though
 * nothing else renders it again; or as the page is seen again past it, when
 * the computer slept through it.
 */
function useDayEnd(hydrated: boolean, now: () => number): void {
  const [, rerender] = React.useReducer((n: number) => n + 1, 0);
  React.useEffect(() => {
    if (!hydrated) return;
    let timer: ReturnType<typeof setTimeout>;
    let midnight = Number.NaN;
    // Armed again as it fires: a timer that fired early (a clock that moved) waits out the rest of the day.
    const arm = () => {
      const at = now();
      midnight = new Date(at).setHours(24, 0, 0, 0);
      // A clock past Date's range has no midnight.
      if (!Number.isFinite(midnight)) return;
      timer = setTimeout(() => {
        const then = now();
        // A clock that stands still (a replay's, at its entry's time) never reaches midnight: nothing to wait for.
        if (then === at) return;
        if (then >= midnight) rerender();
        arm();
      }, midnight - at);
    };
    // A sleeping computer's timers sleep with it, so the day's fires late; the page seen again after midnight is not.
    const seen = () => {
      if (!(now() >= midnight)) return;
      clearTimeout(timer);
      rerender();
      arm();
    };
    arm();
    document.addEventListener('visibilitychange', seen);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', seen);
    };
  }, [hydrated, now]);
}

/**
 * A moment in the reader's time zone once hydrated: its time of day
 * (`format.time`) where it falls on the day of `now`, and with its date on
 * any other (`format.dateTime`; with `precision: 'second'`, to the second,
 * as the time of today's): an expiry three days ago was not "at 12:00:00".
 * Before hydration (a server does not know the reader's zone, nor a
 * prerender the day), always with its date, in UTC, saying so.
 */
export function useMomentText(
  format: { time(epochMs: number): string; dateTime(epochMs: number): string },
  lang: string,
  now: () => number,
  precision: 'minute' | 'second' = 'minute',
): (epochMs: number) => string {
  const hydrated = useHydrated();
  useDayEnd(hydrated, now);
  if (!hydrated) return (ms) => dateFormat('utc', lang).format(ms);
  const dated = precision === 'second' ? (ms: number) => dateFormat('second', lang).format(ms) : (ms: number) => format.dateTime(ms);
  return (ms) => (sameDay(ms, now()) ? format.time(ms) : dated(ms));
}
