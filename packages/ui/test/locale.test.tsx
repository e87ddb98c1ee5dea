import { AgentProvider, createAgentStore } from '@aguikit/react';
import { TranslatableString } from '@rjsf/utils';
import { act, render, screen } from '@testing-library/react';
import type * as React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../src/Composer.js';
import { EventTimelinePanel } from '../src/EventTimeline.js';
import { InterruptDialog } from '../src/InterruptDialog.js';
import {
  type AgentLocale,
  AgentLocaleProvider,
  type AgentMessages,
  defineLocale,
  en,
  localeValue,
  useLocale,
  zhCN,
} from '../src/locale.js';
import { MessageList } from '../src/Messages.js';
import { RunStatus } from '../src/RunStatus.js';
import { StateInspectorPanel } from '../src/StateInspector.js';
import { failedStore } from '../src/storybook/failures.js';
import { call, playedStore, runOf, STORY_THREAD, say } from '../src/storybook/scripted.js';

/** Every string of a set, by its path ("chat.composer.send"); functions are called with sample arguments. */
function leaves(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, callWithSamples(value as (...args: unknown[]) => unknown)]];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [[path, String(value)]];
}

/**
 * A parameterised string called with sample arguments: numbers, then text,
 * then an object whose every field reads as text (and as 2 where a number is
 * wanted), so any parameter shape gives a string.
 */
function callWithSamples(fn: (...args: unknown[]) => unknown): string {
  const anything: unknown = new Proxy(
    {},
    {
      get: (_t, key) =>
        key === Symbol.toPrimitive
          ? (hint: string) => (hint === 'number' ? 2 : 'x')
          : key === 'length'
            ? 2
            : typeof key === 'string'
              ? 'x'
              : undefined,
    },
  );
  const tries: unknown[][] = [
    [2, 'x', 3, 'y'],
    [2, 2, 2, 2],
    ['x', 'x', 'x', 'x'],
    [anything, anything, anything, anything],
  ];
  for (const args of tries) {
    try {
      const out = fn(...args);
      if (typeof out === 'string') return out;
    } catch {
      // The next shape.
    }
  }
  throw new Error(`no sample arguments make ${fn.toString().slice(0, 80)} return a string`);
}

const store = () => createAgentStore({ threadId: STORY_THREAD, source: { async *run() {} } });

function Probe({ at }: { at: (m: AgentMessages) => string }) {
  return <span data-testid="probe">{at(useLocale().messages)}</span>;
}

describe('locales', () => {
  it('zh-CN has every string of English, and each one is translated (holds Chinese)', () => {
    const english = new Map(leaves(en.messages));
    const chinese = new Map(leaves(zhCN.messages));
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    // Strings that are the same in both languages on purpose (symbols, protocol words); Chinese holds a Han character or full-width punctuation.
    const same = /^[\s\d.:…/()%+\-–—#×✓✕→←↑↓▸▾·•"'A-Za-z_]*$/;
    const untranslated = [...chinese].filter(
      ([key, text]) => !/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/.test(text) && !(same.test(text) && text === english.get(key)),
    );
    expect(untranslated).toEqual([]);
  });

  it("every string rjsf can show in a form has the locale's words, in English and in Chinese", () => {
    const rjsfKeys = Object.keys(TranslatableString);
    expect(rjsfKeys.filter((key) => !Object.hasOwn(en.messages.interrupt.rjsf, key))).toEqual([]);
    expect(rjsfKeys.filter((key) => !Object.hasOwn(zhCN.messages.interrupt.rjsf, key))).toEqual([]);
    // None is Markdown: rjsf renders some of them through its Markdown component, and the words are the locale's alone.
    const strings = Object.values(zhCN.messages.interrupt.rjsf).concat(Object.values(en.messages.interrupt.rjsf));
    expect(strings.filter((text) => /[*_`[\]]/.test(text))).toEqual([]);
  });

  it('every code a resume can be refused with has its sentence in the locale', () => {
    const codes = [
      'NO_THREAD',
      'NO_OPEN_INTERRUPTS',
      'UNKNOWN_INTERRUPT',
      'DUPLICATE_RESPONSE',
      'MISSING_RESPONSE',
      'INVALID_STATUS',
      'EXPIRED',
      'SCHEMA_INVALID',
      'PAYLOAD_INVALID',
    ] as const;
    for (const code of codes) {
      expect(zhCN.messages.interrupt.refusals[code]).toMatch(/[\u3400-\u9fff]/);
      expect(en.messages.interrupt.refusals[code]).toMatch(/\w/);
    }
  });

  it('English, with no provider', () => {
    render(
      <AgentProvider store={store()}>
        <Composer />
      </AgentProvider>,
    );
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
  });

  it('zh-CN through the provider, and a prop still wins over the locale', () => {
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={store()}>
          <Composer label="问题" />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('button', { name: '发送' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: '问题' })).toBeInTheDocument();
  });

  it('a missing or mistyped string falls back to English, never to a key name', () => {
    const partial = defineLocale('fr', { chat: { composer: { send: 'Envoyer' } } });
    // A locale from plain JSON, as a JS app might pass it: a string missing, one of the wrong type, an area missing.
    const broken = { lang: 'de', messages: { chat: { composer: { send: 42, stop: 'Anhalten' } } } } as unknown as AgentLocale;
    const { rerender } = render(
      <AgentLocaleProvider locale={partial}>
        <AgentProvider store={store()}>
          <Composer />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('button', { name: 'Envoyer' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
    rerender(
      <AgentLocaleProvider locale={broken}>
        <Probe at={(m) => `${m.chat.composer.send}|${m.chat.composer.stop}|${m.chat.chatLabel}`} />
      </AgentLocaleProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('Send|Anhalten|Agent chat');
  });

  it('overrides replace single strings and nest over an outer language', () => {
    render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentLocaleProvider messages={{ chat: { composer: { send: '提交' } } }}>
          <Probe at={(m) => `${m.chat.composer.send}|${m.chat.composer.stop}`} />
        </AgentLocaleProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('提交|停止');
  });

  it('formats numbers, durations and lists through Intl in the locale language', () => {
    let zh: ReturnType<typeof useLocale> | undefined;
    let english: ReturnType<typeof useLocale> | undefined;
    const Grab = ({ into }: { into: (v: ReturnType<typeof useLocale>) => void }) => {
      into(useLocale());
      return null;
    };
    render(
      <>
        <Grab into={(v) => (english = v)} />
        <AgentLocaleProvider locale={zhCN}>
          <Grab into={(v) => (zh = v)} />
        </AgentLocaleProvider>
      </>,
    );
    expect(english?.format.duration(120)).toBe('2 minutes');
    expect(english?.format.duration(90)).toBe('1 minute and 30 seconds');
    expect(zh?.format.duration(30)).toBe('30秒钟');
    expect(english?.format.clock(65)).toBe('1:05');
    expect(english?.format.clock(3 * 3600 + 65)).toBe('3:01:05');
    // From a day on, the days in words: a 30-day deadline is not 720 hours.
    expect(english?.format.clock(30 * 86_400)).toBe('30 days 00:00:00');
    expect(english?.format.clock(86_400 + 3 * 3600 + 65)).toBe('1 day 03:01:05');
    expect(zh?.format.clock(30 * 86_400)).toBe('30天 00:00:00');
    expect(english?.format.number(12345)).toBe('12,345');
    expect(english?.format.bytes(82)).toBe('82 bytes');
    expect(english?.format.bytes(1)).toBe('1 byte');
    expect(english?.format.bytes(2048)).toBe('2 kB');
    expect(zh?.format.list(['甲', '乙', '丙'])).toBe('甲、乙和丙');
  });

  it('says a duration of a day or more in days and hours, as the countdown says its days, in English and Chinese', () => {
    const english = localeValue(en).format;
    const zh = localeValue(zhCN).format;
    // 30 hours is not "30 hours": a day and the hours past it, the minutes dropped as an hour's seconds are.
    expect(english.duration(30 * 3600)).toBe('1 day and 6 hours');
    expect(zh.duration(30 * 3600)).toBe('1天和6小时');
    expect(english.duration(30 * 86_400)).toBe('30 days');
    expect(zh.duration(30 * 86_400)).toBe('30天');
    expect(english.duration(2 * 86_400 + 59 * 60)).toBe('2 days');
    // Under a day, as before.
    expect(english.duration(23 * 3600 + 5 * 60)).toBe('23 hours and 5 minutes');
    expect(zh.duration(2 * 3600 + 30 * 60)).toBe('2小时和30分钟');
  });

  describe('formatters are made when first used', () => {
    // The first Intl formatter of a page loads the locale data (50–150 ms in Chromium): a first render that formats nothing must not pay for it.
    const made: string[] = [];
    const kinds = ['NumberFormat', 'DateTimeFormat', 'ListFormat'] as const;
    const real = Object.fromEntries(kinds.map((kind) => [kind, Intl[kind]])) as Record<(typeof kinds)[number], unknown>;
    const spy = () => {
      for (const kind of kinds) {
        const counted = new Proxy(Intl[kind], {
          construct(target, args, newTarget) {
            made.push(kind);
            return Reflect.construct(target, args, newTarget);
          },
        });
        Object.defineProperty(Intl, kind, { value: counted, configurable: true, writable: true });
      }
    };
    afterEach(() => {
      for (const kind of kinds) Object.defineProperty(Intl, kind, { value: real[kind], configurable: true, writable: true });
      made.length = 0;
    });

    it('a locale makes no formatter until something is formatted, then one per kind, once', () => {
      spy();
      const value = localeValue(defineLocale('fr', {}));
      expect(made).toEqual([]);
      expect(value.format.number(1234.5)).toBe(new Intl.NumberFormat('fr').format(1234.5));
      made.length = 0;
      value.format.number(2);
      value.format.number(3);
      expect(made).toEqual([]);
      value.format.duration(90);
      expect(made.filter((k) => k === 'ListFormat')).toHaveLength(1);
      made.length = 0;
      value.format.duration(95);
      expect(made).toEqual([]);
    });

    it('a malformed language tag still formats, as English', () => {
      const value = localeValue({ lang: 'not a tag!', messages: en.messages });
      expect(value.format.number(12345)).toBe('12,345');
      expect(value.format.list(['a', 'b', 'c'])).toBe('a, b, and c');
      expect(value.format.duration(60)).toBe('1 minute');
    });

    it('a conversation renders its first screen without making a formatter', async () => {
      const store = await playedStore([
        {
          say: '退款 A-1001',
          events: runOf([
            ...say('m-1', 'Refunded **42 USD** to the card ending 4242.'),
            ...call('c1', 'lookup_order', { orderId: 'A-1001' }),
          ]),
        },
      ]);
      spy();
      render(
        <AgentProvider store={store}>
          <AgentLocaleProvider locale={defineLocale('de', {})}>
            <MessageList />
            <Composer />
          </AgentLocaleProvider>
        </AgentProvider>,
      );
      expect(screen.getByText('退款 A-1001')).toBeTruthy();
      expect(made).toEqual([]);
    });
  });
});

describe('the language of each part on its own', () => {
  // A page in English around a Chinese chat: each surface says its language, or a screen reader reads Chinese with an English voice.
  const surfaces: Array<[string, string, React.ReactNode]> = [
    ['MessageList', '.agk-messages', <MessageList key="part" />],
    ['Composer', '.agk-composer', <Composer key="part" />],
    ['RunStatus', '.agk-runstatus', <RunStatus key="part" />],
    ['StateInspectorPanel', '.agk-inspector', <StateInspectorPanel key="part" />],
    ['EventTimelinePanel', '.agk-timeline', <EventTimelinePanel key="part" />],
    ['InterruptDialog', '.agk-interrupts', <InterruptDialog key="part" />],
  ];
  const asked = async () =>
    playedStore([
      {
        say: '退款',
        events: runOf(say('m-1', '请确认。'), {
          outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: '退款吗？' }] },
        }),
      },
    ]);
  for (const [name, selector, part] of surfaces) {
    it(`${name} marks its root lang="zh-CN" under zhCN, as AgentChat does`, async () => {
      const { container } = render(
        <div lang="en">
          <AgentLocaleProvider locale={zhCN}>
            <AgentProvider store={await asked()}>{part}</AgentProvider>
          </AgentLocaleProvider>
        </div>,
      );
      await act(async () => undefined);
      expect(container.querySelector(selector)).toHaveAttribute('lang', 'zh-CN');
    });
  }

  it("InterruptDialog's announcements, said outside its region, are marked too", async () => {
    const { container } = render(
      <div lang="en">
        <AgentLocaleProvider locale={zhCN}>
          <AgentProvider store={await asked()}>
            <InterruptDialog />
          </AgentProvider>
        </AgentLocaleProvider>
      </div>,
    );
    await act(async () => undefined);
    expect(container.querySelector('[data-agk-interrupt-announcer]')?.closest('[lang]')).toHaveAttribute('lang', 'zh-CN');
  });

  it("a lang the app gives a part wins over the locale's", async () => {
    const { container } = render(
      <AgentLocaleProvider locale={zhCN}>
        <AgentProvider store={await asked()}>
          <Composer lang="zh-Hans-CN" />
          <MessageList lang="zh-Hans-CN" />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    await act(async () => undefined);
    expect(container.querySelector('.agk-composer')).toHaveAttribute('lang', 'zh-Hans-CN');
    expect(container.querySelector('.agk-messages')).toHaveAttribute('lang', 'zh-Hans-CN');
  });
});

describe("counts in the locale's digits", () => {
  it('RunStatus says the reconnect attempt and how many there are through the number format', async () => {
    const store = await failedStore('x', [
      { events: [{ type: 'RUN_STARTED', threadId: STORY_THREAD, runId: 'r' }], reconnecting: { attempt: 2, of: 3 } },
    ]);
    render(
      <AgentLocaleProvider locale={defineLocale('ar-EG', {})}>
        <AgentProvider store={store}>
          <RunStatus />
        </AgentProvider>
      </AgentLocaleProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting… (attempt ٢ of ٣)');
    store.getState().stop();
  });
});
