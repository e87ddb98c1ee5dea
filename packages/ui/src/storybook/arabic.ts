/**
 * The strings a right-to-left story shows, in Arabic, through `defineLocale`
 * as an application would write its own locale: what is not given stays
 * English. Not part of the package's API.
 */
import { defineLocale } from '../locale.js';

export const arabic = defineLocale('ar', {
  chat: {
    chatLabel: 'محادثة الوكيل',
    composer: {
      label: 'رسالة',
      placeholder: 'اكتب رسالة إلى الوكيل',
      send: 'إرسال',
      stop: 'إيقاف',
      waiting: 'الوكيل ينتظر إجابتك أعلاه قبل أن يستقبل رسالة جديدة.',
    },
  },
  run: {
    status: {
      idle: 'خامل',
      running: 'قيد التشغيل',
      success: 'تم',
      interrupted: 'بانتظارك',
      cancelled: 'متوقف',
      error: 'فشل',
      unknown: 'انقطع الاتصال',
    },
  },
  messages: {
    list: { label: 'المحادثة', empty: 'لا توجد رسائل بعد.', jumpToLatest: 'الانتقال إلى الأحدث' },
    roles: { user: 'أنت', assistant: 'المساعد', tool: 'نتيجة الأداة', reasoning: 'التفكير' },
  },
  tools: {
    status: {
      executing: 'قيد التشغيل',
      succeeded: 'نجح',
      failed: 'فشل',
      denied: 'مرفوض',
      cancelled: 'أُلغي',
      awaiting_decision: 'بانتظار قرارك',
      expired: 'انتهت المهلة',
      approved: 'تمت الموافقة',
    },
    arguments: 'المعطيات',
    result: 'النتيجة',
  },
  interrupt: {
    waitingOne: 'الوكيل ينتظر إجابتك',
    titles: { tool_call: 'مطلوب موافقة', input_required: 'مطلوب إدخال', confirmation: 'مطلوب تأكيد', custom: 'مطلوب إجراء' },
    tool: 'الأداة',
    arguments: 'المعطيات',
    details: 'التفاصيل',
    approve: 'موافقة',
    reject: 'رفض',
    dismiss: 'إغلاق دون إجابة',
    expiresIn: (clock: string) => `ينتهي خلال ${clock}`,
    nth: (name: string, position: string, total: string) => `${name} (${position} من ${total})`,
    messageStart: (start: string) => `${start} (الرسالة كاملة في الطلب.)`,
    yourAnswerField: 'إجابتك',
  },
});
