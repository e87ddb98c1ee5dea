'use client';

import type { ReactNode } from 'react';
import * as React from 'react';
import { clientContext } from './clientContext.js';
import { type AgentMessages, enMessages } from './locales/en.js';
import { zhCNMessages } from './locales/zh-CN.js';

export type { AgentMessages } from './locales/en.js';

/** Any part of a set of strings: what a partial locale or an override gives. */
export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/** A language: its BCP 47 tag (for `Intl` and `lang`) and its strings. */
export interface AgentLocale {
  lang: string;
  messages: AgentMessages;
}

/** English, the default: what every component says without a provider, and what a missing string falls back to. */
export const en: AgentLocale = { lang: 'en', messages: enMessages };

/** Simplified Chinese. */
export const zhCN: AgentLocale = { lang: 'zh-CN', messages: zhCNMessages };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` with every string `over` gives in its place; anything `over` lacks,
 * or gives with the wrong type, stays as in `base`: a partial or outdated
 * locale falls back to English, never to a key name or `undefined`.
 */
function merge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(base)) {
    if (!Object.hasOwn(over, key)) continue;
    const mine = base[key];
    const theirs = over[key];
    if (isPlainObject(mine)) out[key] = merge(mine, theirs);
    else if (typeof theirs === typeof mine) out[key] = theirs;
  }
  return out as T;
}

/**
 * A locale from a language tag and the strings translated so far: what is not
 * given is English.
 *
 * @example
 * const fr = defineLocale('fr', { chat: { composer: { send: 'Envoyer', stop: 'Arrêter' } } });
 * <AgentLocaleProvider locale={fr}>…</AgentLocaleProvider>
 */
export function defineLocale(lang: string, messages: DeepPartial<AgentMessages>): AgentLocale {
  return { lang, messages: merge(enMessages, messages) };
}

/** Numbers, times and durations in the locale's language, through `Intl`. */
export interface LocaleFormat {
  /** `1234.5` → "1,234.5" (en), "1,234.5" (zh-CN). */
  number(value: number): string;
  /** A count of bytes as "1.2 KB". */
  bytes(value: number): string;
  /** A wall-clock time, e.g. "14:03:07". */
  time(epochMs: number): string;
  /** A date and time, e.g. "Dec 1, 2026, 14:03". */
  dateTime(epochMs: number): string;
  /** A remaining time as a clock, "m:ss" (or "h:mm:ss"); from a day on, the days in words first: "30 days 00:00:00". */
  clock(seconds: number): string;
  /** A time in words, its two largest units, e.g. "2 minutes", "1 day and 6 hours" ("2分钟", "1天和6小时"). */
  duration(seconds: number): string;
  /** A list: "a, b, and c" ("a、b和c"). */
  list(items: readonly string[]): string;
}

/** What `useLocale()` gives: the language tag, the strings, and `Intl` formatters for that language. */
export interface LocaleValue extends AgentLocale {
  format: LocaleFormat;
}

/**
 * An `Intl` formatter made on first use and kept: the first formatter of a
 * page loads the locale data (50–150 ms in Chromium), which a first render
 * that formats nothing should not pay for. A tag `Intl` refuses formats as
 * English.
 */
function lazy<F>(make: (lang: string) => F, lang: string): () => F {
  let made: F | undefined;
  return () => {
    if (made === undefined) {
      try {
        made = make(lang);
      } catch {
        made = make('en');
      }
    }
    return made;
  };
}

function formatFor(lang: string): LocaleFormat {
  const number = lazy((l) => new Intl.NumberFormat(l), lang);
  const time = lazy((l) => new Intl.DateTimeFormat(l, { hour: '2-digit', minute: '2-digit', second: '2-digit' }), lang);
  const dateTime = lazy((l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short' }), lang);
  const units = (unit: 'day' | 'hour' | 'minute' | 'second') =>
    lazy((l) => new Intl.NumberFormat(l, { style: 'unit', unit, unitDisplay: 'long' }), lang);
  const days = units('day');
  const hours = units('hour');
  const minutes = units('minute');
  const seconds = units('second');
  const list = lazy((l) => new Intl.ListFormat(l, { type: 'conjunction' }), lang);
  const byteUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  const bytes = byteUnits.map((unit, i) =>
    // Bytes in words ("82 bytes": the short form is "82 byte"), larger units short ("1.2 kB").
    lazy(
      (l) =>
        new Intl.NumberFormat(l, { style: 'unit', unit, unitDisplay: i === 0 ? 'long' : 'short', maximumFractionDigits: i === 0 ? 0 : 1 }),
      lang,
    ),
  );
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    number: (value) => number().format(value),
    bytes: (value) => {
      let n = Math.max(0, value);
      let i = 0;
      while (n >= 1024 && i < byteUnits.length - 1) {
        n /= 1024;
        i += 1;
      }
      return (bytes[i] ?? number)().format(n);
    },
    time: (ms) => time().format(ms),
    dateTime: (ms) => dateTime().format(ms),
    clock: (total) => {
      const s = Math.max(0, Math.ceil(total));
      const d = Math.floor(s / 86_400);
      const h = Math.floor((s % 86_400) / 3600);
      const m = Math.floor((s % 3600) / 60);
      if (d > 0) return `${days().format(d)} ${pad(h)}:${pad(m)}:${pad(s % 60)}`;
      return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
    },
    duration: (total) => {
      const s = Math.max(0, Math.round(total));
      // Two units at most, the larger first, as the countdown's clock gives its days in words.
      if (s >= 86_400) {
        const d = Math.floor(s / 86_400);
        const h = Math.floor((s % 86_400) / 3600);
        return h ? list().format([days().format(d), hours().format(h)]) : days().format(d);
      }
      if (s >= 3600) {
        const h = Math.floor(s / 3600);
        const m = Math.floor((s % 3600) / 60);
        return m ? list().format([hours().format(h), minutes().format(m)]) : hours().format(h);
      }
      if (s >= 60) {
        const m = Math.floor(s / 60);
        return s % 60 ? list().format([minutes().format(m), seconds().format(s % 60)]) : minutes().format(m);
      }
      return seconds().format(s);
    },
    list: (items) => list().format(items),
  };
}

const values = new WeakMap<AgentLocale, LocaleValue>();

/** The value `useLocale()` gives for a locale (one per locale object, so components memoize on it). */
export function localeValue(locale: AgentLocale): LocaleValue {
  let value = values.get(locale);
  if (!value) {
    const format = formatFor(locale.lang);
    value = { lang: locale.lang, messages: locale.messages, format };
    values.set(locale, value);
  }
  return value;
}

const LocaleContext = clientContext<LocaleValue | null>(null);

export interface AgentLocaleProviderProps {
  /** The language: `en` (the default), `zhCN`, or one from `defineLocale`. */
  locale?: AgentLocale;
  /** Strings to replace for this part of the page, over the locale's own (e.g. a product's wording for Send). Keep it stable (module scope or `useMemo`). */
  messages?: DeepPartial<AgentMessages>;
  children?: ReactNode;
}

/**
 * Sets the language of every aguikit component inside it. Strings a locale
 * lacks are English; `messages` replaces single strings. Providers nest: an
 * inner one without `locale` keeps the outer language and adds its overrides.
 *
 * @example
 * import { AgentLocaleProvider, zhCN } from '@aguikit/ui';
 * <AgentLocaleProvider locale={zhCN} messages={{ chat: { composer: { send: '提交' } } }}>
 *   <AgentChat />
 * </AgentLocaleProvider>
 */
export function AgentLocaleProvider({ locale, messages, children }: AgentLocaleProviderProps) {
  const outer = React.useContext(LocaleContext);
  const value = React.useMemo(() => {
    const base: AgentLocale = locale ?? outer ?? en;
    // A locale built outside `defineLocale` (plain JSON, an older translation) is completed here too.
    const complete = base === en || base === outer ? base.messages : merge(enMessages, base.messages);
    const withOverrides = messages ? merge(complete, messages) : complete;
    if (withOverrides === base.messages) return base === outer ? outer : localeValue(base);
    return localeValue({ lang: base.lang, messages: withOverrides });
  }, [locale, outer, messages]);
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

/**
 * The strings and formatters of the nearest `AgentLocaleProvider` (English
 * without one).
 *
 * @example
 * const { messages, format } = useLocale();
 * <button>{messages.chat.composer.send}</button>
 */
export function useLocale(): LocaleValue {
  return React.useContext(LocaleContext) ?? localeValue(en);
}
