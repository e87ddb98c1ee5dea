/**
 * Story and test support for the whole chat: a customer-support thread in
 * every state a person meets (idle, streaming, a tool at work, decisions
 * open or expired, failures, a reconnect, a long history), with ids as real
 * agents send them (UUIDs) and text of realistic length, in English and
 * Simplified Chinese (and, for a right-to-left page, the open decision in
 * Arabic). Not part of the package's API.
 */
import type { AgentStore } from '@aguikit/react';
import { openRunStore } from './conversations.js';
import { failedStore, httpError, noAnswer } from './failures.js';
import { call, playedStore, runOf, type ScriptEvent, STORY_THREAD, say } from './scripted.js';

/** A deterministic UUID (version 4 layout) for index `n` of a kind `seed`, so stories and tests show stable ids. */
export function uuid(seed: number, n = 0): string {
  let x = (seed * 2654435761 + n * 40503 + 12345) >>> 0;
  const hex = (length: number) => {
    let out = '';
    while (out.length < length) {
      x = (x * 1103515245 + 12345) >>> 0;
      out += (x >>> 8).toString(16).padStart(6, '0');
    }
    return out.slice(0, length);
  };
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

/** Ids of the thread's parts. */
export const IDS = {
  reply: uuid(1),
  lookup: uuid(2),
  refund: uuid(3),
  refundInterrupt: uuid(4),
  notifyInterrupt: uuid(5),
  followUp: uuid(6),
  run: uuid(7),
} as const;

/** The stories' languages. */
export type Lang = 'en' | 'zh' | 'ar';

/** What the customer asks, in the stories' languages. */
export const ASK = {
  en: 'Order A-1001 arrived broken (the lid of the espresso machine is cracked). Can I get my money back?',
  zh: '订单 A-1001 的咖啡机到货时已损坏（盖子裂了），可以退款吗？',
  ar: 'وصل الطلب A-1001 مكسورًا (غطاء ماكينة الإسبريسو متشقق). هل يمكنني استرداد أموالي؟',
} as const;

const REPLY = {
  en: 'I found order A-1001 (one Bellarossa espresso machine, 249.00 EUR, delivered on 27 November). A refund of the full amount needs your approval because it is over the 200 EUR limit I may refund on my own.',
  zh: '我找到了订单 A-1001（一台 Bellarossa 咖啡机，249.00 欧元，11 月 27 日送达）。全额退款超过了我可以自行处理的 200 欧元上限，需要你批准。',
  ar: 'وجدت الطلب A-1001 (ماكينة إسبريسو واحدة من Bellarossa بسعر 249.00 يورو، سُلِّمت في 27 نوفمبر). استرداد المبلغ كاملًا يحتاج إلى موافقتك لأنه يتجاوز حد 200 يورو الذي يمكنني ردّه بنفسي.',
} as const;

const ORDER = { orderId: 'A-1001', customerId: uuid(9), amount: 249, currency: 'EUR', reason: 'Arrived broken: cracked lid' };

const approvalSchema = (lang: Lang) => ({
  type: 'object',
  required: ['approved'],
  properties: {
    approved: { type: 'boolean' },
    comment:
      lang === 'ar'
        ? { type: 'string', title: 'تعليق', description: 'يُرسَل إلى الوكيل مع قرارك.' }
        : { type: 'string', title: 'Comment', description: 'Sent to the agent with your decision.' },
  },
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** The agent's lookup and its proposal, before it asks for the approval. */
function lookup(lang: Lang): ScriptEvent[] {
  return [
    ...call(IDS.lookup, 'lookup_order', { orderId: 'A-1001' }, { result: { status: 'delivered', deliveredAt: '2026-11-27', total: 249 } }),
    ...say(IDS.reply, REPLY[lang], 3),
    ...call(IDS.refund, 'refund_order', ORDER),
  ];
}

/** The refund approval (a tool call held for a decision). */
function refundInterrupt(lang: Lang, extra: Record<string, unknown> = {}) {
  return {
    id: IDS.refundInterrupt,
    reason: 'tool_call',
    toolCallId: IDS.refund,
    message: {
      en: 'Refund 249.00 EUR to the customer for order A-1001 (over the 200 EUR limit)?',
      zh: '是否为订单 A-1001 向客户退款 249.00 欧元（超过 200 欧元上限）？',
      ar: 'هل تُردّ 249.00 يورو إلى العميل عن الطلب A-1001 (أكثر من حد 200 يورو)؟',
    }[lang],
    responseSchema: approvalSchema(lang),
    expiresAt: inMinutes(10),
    ...extra,
  };
}

const notifyInterrupt = (lang: 'en' | 'zh') => ({
  id: IDS.notifyInterrupt,
  reason: 'input_required',
  message: lang === 'en' ? 'How should the customer hear about the refund?' : '应如何通知客户退款结果？',
  responseSchema: {
    type: 'object',
    required: ['channel'],
    properties: { channel: { type: 'string', title: lang === 'en' ? 'Channel' : '渠道', enum: ['email', 'sms', 'none'] } },
  },
});

/** The run the stories answer a sent message or a resume with. */
const thanks = (lang: Lang) =>
  runOf(
    say(
      IDS.followUp,
      {
        en: 'Done: the refund of 249.00 EUR is on its way (3 to 5 business days).',
        zh: '已完成：249.00 欧元的退款正在处理中（3 至 5 个工作日）。',
        ar: 'تم: استرداد 249.00 يورو في طريقه إليك (من 3 إلى 5 أيام عمل).',
      }[lang],
    ),
  );

/** Nothing said yet; the first message is answered. */
export const idleChat = (lang: 'en' | 'zh' = 'en') => playedStore([], { pending: [thanks(lang)] });

/** The reply streams, word by word, and the run stays open. */
export const streamingChat = (lang: 'en' | 'zh' = 'en') =>
  openRunStore(
    [
      { type: 'TEXT_MESSAGE_START', messageId: IDS.reply, role: 'assistant' },
      ...REPLY[lang]
        .split(lang === 'en' ? /(?<= )/ : /(?<=[，。（）])/)
        .slice(0, 12)
        .map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: IDS.reply, delta })),
    ],
    { say: ASK[lang] },
  );

/** A tool is at work: its arguments arrived in part, no result yet. */
export const toolRunningChat = () =>
  openRunStore(
    [
      ...say(uuid(11), 'Let me look up the order and its delivery first.'),
      ...call(
        IDS.lookup,
        'lookup_order',
        { orderId: 'A-1001', include: ['items', 'delivery', 'payments'] },
        { parts: 3, end: false },
      ).slice(0, 3),
    ],
    {
      say: ASK.en,
    },
  );

/** The run ended on the refund approval. */
export const interruptChat = (lang: Lang = 'en', extra: Record<string, unknown> = {}) =>
  playedStore(
    [{ say: ASK[lang], events: runOf(lookup(lang), { outcome: { type: 'interrupt', interrupts: [refundInterrupt(lang, extra)] } }) }],
    {
      now: () => Date.now(),
      pending: [thanks(lang)],
    },
  );

/** Two decisions at once: the approval and how to tell the customer. */
export const twoInterruptsChat = (lang: 'en' | 'zh' = 'en') =>
  playedStore(
    [
      {
        say: ASK[lang],
        events: runOf(lookup(lang), { outcome: { type: 'interrupt', interrupts: [refundInterrupt(lang), notifyInterrupt(lang)] } }),
      },
    ],
    { now: () => Date.now(), pending: [thanks(lang)] },
  );

/** The approval's time ran out two minutes ago. */
export const expiredChat = () => interruptChat('en', { expiresAt: inMinutes(-2) });

/** The first request failed: the agent's URL answered 404. */
export const notFoundChat = (lang: 'en' | 'zh' = 'en') =>
  failedStore(ASK[lang], [{ fail: httpError(404, 'Cannot POST /agents/refnd') }, thanksTurn(lang)]);

/** The agent could not be reached at all: sending it again can help. */
export const unreachableChat = () => failedStore(ASK.en, [{ fail: noAnswer() }, thanksTurn('en')]);

/** The agent's own error (RUN_ERROR), with its code. */
export const agentErrorChat = () =>
  playedStore([
    {
      say: ASK.en,
      events: [
        ...runOf(say(IDS.reply, 'Looking up order A-1001…'), null),
        { type: 'RUN_ERROR', message: 'The payment provider did not answer within 30 seconds.', code: 'UPSTREAM_TIMEOUT' },
      ],
    },
  ]);

const RUN_STARTED = { type: 'RUN_STARTED', threadId: STORY_THREAD, runId: IDS.run };
const HALF: ScriptEvent[] = [
  RUN_STARTED,
  { type: 'TEXT_MESSAGE_START', messageId: IDS.reply, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: IDS.reply, delta: REPLY.en.slice(0, 96) },
];
const REST: ScriptEvent[] = [
  { type: 'TEXT_MESSAGE_CONTENT', messageId: IDS.reply, delta: REPLY.en.slice(96) },
  { type: 'TEXT_MESSAGE_END', messageId: IDS.reply },
  { type: 'RUN_FINISHED', threadId: STORY_THREAD, runId: IDS.run },
];
const thanksTurn = (lang: 'en' | 'zh') => ({ events: thanks(lang) });

/** The stream dropped inside the run (event ids given): Reconnect resumes it, after `delayMs`. */
export const connectionLostChat = (lang: 'en' | 'zh' = 'en', { delayMs = 400 }: { delayMs?: number } = {}) =>
  failedStore(ASK[lang], [
    { events: HALF, ids: true },
    { events: REST, ids: true, delayMs },
  ]);

/** The stream dropped and the transport is trying again by itself. */
export const reconnectingChat = () => failedStore(ASK.en, [{ events: HALF, reconnecting: { attempt: 2, of: 3 } }]);

/** The person stopped the reply halfway: it is cut off, and says it may be incomplete. */
export async function cutOffChat(): Promise<AgentStore> {
  const store = await openRunStore(HALF.slice(1), { say: ASK.en });
  store.getState().stop();
  return store;
}

/** A long thread: `count` earlier messages (a history restated by MESSAGES_SNAPSHOT), then a new answer. */
export function longThreadChat(count = 400) {
  const messages = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? {
          id: uuid(100, i),
          role: 'user',
          content: `Question ${i / 2 + 1}: where is order A-${1000 + i} (placed with customer id ${uuid(9)})?`,
        }
      : {
          id: uuid(100, i),
          role: 'assistant',
          content:
            i % 6 === 1
              ? `Order **A-${999 + i}** shipped with Parcelo.\n\n- tracking: \`PX-${uuid(200, i).slice(0, 8).toUpperCase()}\`\n- expected: within ${1 + (i % 3)} business days`
              : `Order A-${999 + i} is being packed at the Rotterdam warehouse; it ships within ${1 + (i % 3)} days.`,
        },
  );
  return playedStore([
    { events: runOf([{ type: 'MESSAGES_SNAPSHOT', messages }]) },
    { say: 'And order A-1400?', events: runOf(say(uuid(300), 'Order A-1400 was delivered this morning, at 08:42, to the parcel locker.')) },
  ]);
}
