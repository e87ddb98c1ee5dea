/**
 * The playground's own words in English and Simplified Chinese (the
 * components' words come from `@aguikit/ui`'s locales). The language is kept
 * in the page URL (`?lang=zh-CN`), so a link or a screenshot pins it.
 */
import type { SessionLineProblem } from '@aguikit/core';
import { type AgentLocale, en as uiEn, zhCN as uiZhCN } from '@aguikit/ui';

export type Lang = 'en' | 'zh-CN';

export const LANGS: readonly { lang: Lang; name: string }[] = [
  { lang: 'en', name: 'English' },
  { lang: 'zh-CN', name: '简体中文' },
];

const en = {
  title: 'aguikit playground',
  scenario: 'Scenario',
  agent: 'Agent',
  modes: { browser: 'In the browser', server: 'Agent server', url: 'AG-UI URL' },
  endpoint: 'Endpoint',
  connect: 'Connect',
  speed: 'Speed',
  language: 'Language',
  newThread: 'New thread',
  /** Asked before another scenario or agent discards a conversation. */
  discardThread: 'Another scenario or agent starts a new thread: this conversation, and any answer it waits for, will be discarded. Go on?',
  downloadEvents: 'Download events',
  loadEvents: 'Load events…',
  darkTheme: 'Dark theme',
  devtools: 'Devtools',
  /** The first Tab stop: past the bar's controls, to the conversation. */
  skipToChat: 'Skip to the conversation',
  tabs: { state: 'Shared state', events: 'Events' },
  sendThis: 'Send this',
  tryPrompt: 'Try:',
  /** A scenario's title as the first sentence of its hint. */
  titled: (title: string) => `${title}.`,
  messageAgent: 'Message the agent',
  noEvents: 'The file holds no events.',
  /** Said while a picked file is read (its name comes isolated). */
  reading: (file: string) => `Loading ${file}…`,
  loadFailed: (file: string, why: string) => `Could not load ${file}: ${why}`,
  /** Closes the alert of a file that could not be loaded. */
  dismiss: 'Dismiss',
  /** Why a file is no saved session: the first line that could not be read. */
  notASession: (line: number) => `line ${line} is not an entry of a saved session`,
  /** Why a file that is one JSON object (and no conformance fixture) is no saved session. */
  oneObject: 'the file is one JSON object; a saved session has one entry a line, and a stream saved as JSON is an array of AG-UI events',
  url: {
    heading: 'Connect to an AG-UI agent',
    explain:
      'Enter the address of an AG-UI endpoint: it accepts a POST whose JSON body is a RunAgentInput and answers with a Server-Sent Events stream (text/event-stream) of AG-UI events. Another origin must allow this page through CORS.',
    local: 'The local agent server:',
    choose: 'Choose an endpoint…',
    loading: 'Looking for the local agent server…',
    noServer: 'The local agent server does not answer here (start it with pnpm dev); any other AG-UI endpoint works.',
    /** Said with an address that works from this page: the local server's refund endpoint on the page's origin. */
    invalid: (example: string) => `Enter a full address that starts with http:// or https://, for example ${example}.`,
    /** Why the request to the endpoint failed, by the failure's code: nothing answered, an HTTP error status, or an answer of the wrong kind. */
    failed: (url: string, code: string, status?: number) =>
      code === 'NETWORK'
        ? `Nothing answered at ${url}: check the address, that the agent is running, and that it allows this page (CORS).`
        : code === 'HTTP_STATUS' && status !== undefined
          ? `The agent at ${url} answered with HTTP status ${status}.`
          : `The agent at ${url} did not answer as an AG-UI endpoint.`,
    edit: 'Edit the URL',
    empty: 'No endpoint yet: enter one above, or pick one of the local agent server.',
  },
  replay: {
    region: 'Replay',
    replaying: 'Replaying',
    /** Between the file's name and where the scrubber stands. */
    separator: ': ',
    after: (at: number, total: number, type: string) => `after entry ${at} of ${total} (${type})`,
    /** The inspector's words for its newest state, which in a replay is the scrubber's entry, not anything live. */
    inspector: {
      liveTitle: (version: string) => `Document at this entry, version ${version}`,
      live: 'At this entry',
    },
    /** A log entry's kind in words; an agent event is named by its AG-UI type. */
    entry: {
      init: 'the thread starts',
      user_message: 'your message',
      stream_start: 'a stream opens',
      stream_end: 'the stream ends',
      state_edit: 'a state edit',
      state_set: 'the state replaced',
      tool_started: 'a tool starts',
      tool_result: "a tool's result",
      resume: 'your answers sent',
      resume_taken: 'the agent took your answers',
      stop: 'stopped',
      failed: 'the request failed',
      reset: 'a new thread',
    } as Record<string, string>,
    back: 'Back to live',
    skipped: (count: number) => (count === 1 ? '1 unreadable line skipped' : `${count} unreadable lines skipped`),
    /** Before a skipped line's reason. */
    line: (line: number) => `line ${line}: `,
    /**
     * Why a line was skipped, by the parser's code, with what separates it
     * from the parser's English detail that follows; empty in English, where
     * the detail says it.
     */
    problem: {
      NOT_JSON: '',
      NOT_AN_ENTRY: '',
      OUT_OF_ORDER: '',
      REPEATED: '',
      SECOND_SESSION: '',
      NOT_A_SESSION: '',
    } as Record<SessionLineProblem, string>,
    more: (count: number) => (count === 1 ? 'and 1 more' : `and ${count} more`),
  },
  scenarios: {} as Partial<Record<string, { title: string; description: string }>>,
};

export type PlaygroundMessages = typeof en;

const zhCN: PlaygroundMessages = {
  title: 'aguikit playground 演练场',
  scenario: '场景',
  agent: '智能体',
  modes: { browser: '在浏览器中', server: '智能体服务器', url: 'AG-UI 地址' },
  endpoint: '端点',
  connect: '连接',
  speed: '速度',
  language: '语言',
  newThread: '新会话',
  discardThread: '切换场景或智能体会开始新会话：当前对话及其等待中的回答将被丢弃。继续吗？',
  downloadEvents: '下载事件',
  loadEvents: '载入事件…',
  darkTheme: '深色主题',
  devtools: '开发者工具',
  skipToChat: '跳到对话',
  tabs: { state: '共享状态', events: '事件' },
  sendThis: '发送这句',
  tryPrompt: '试试：',
  titled: (title) => `${title}。`,
  messageAgent: '给智能体发消息',
  noEvents: '文件中没有事件。',
  reading: (file) => `正在载入 ${file}…`,
  loadFailed: (file, why) => `无法载入 ${file}：${why}`,
  dismiss: '关闭',
  notASession: (line) => `第 ${line} 行不是已保存会话的记录`,
  oneObject: '该文件是单个 JSON 对象；已保存的会话每行一条记录，以 JSON 保存的事件流则是 AG-UI 事件的数组',
  url: {
    heading: '连接 AG-UI 智能体',
    explain:
      '输入一个 AG-UI 端点的地址：它接受 JSON 正文为 RunAgentInput 的 POST 请求，并以服务器发送事件流（text/event-stream）返回 AG-UI 事件。其他源的端点须通过 CORS 允许本页面访问。',
    local: '本地智能体服务器：',
    choose: '选择一个端点…',
    loading: '正在查找本地智能体服务器…',
    noServer: '本地智能体服务器没有应答（用 pnpm dev 启动它）；其他任何 AG-UI 端点都可以使用。',
    invalid: (example: string) => `请输入以 http:// 或 https:// 开头的完整地址，例如 ${example}。`,
    failed: (url, code, status) =>
      code === 'NETWORK'
        ? `${url} 没有任何应答：请检查地址、智能体是否在运行，以及它是否允许本页访问（CORS）。`
        : code === 'HTTP_STATUS' && status !== undefined
          ? `${url} 上的智能体返回了 HTTP 状态 ${status}。`
          : `${url} 上的智能体没有按 AG-UI 端点应答。`,
    edit: '修改地址',
    empty: '还没有端点：请在上方输入，或选择本地智能体服务器的一个端点。',
  },
  replay: {
    region: '回放',
    replaying: '正在回放',
    separator: '：',
    after: (at, total, type) => `第 ${at} 条，共 ${total} 条（${type}）`,
    inspector: {
      liveTitle: (version) => `此条目时的文档，版本 ${version}`,
      live: '此条目',
    },
    entry: {
      init: '线程开始',
      user_message: '你的消息',
      stream_start: '流开始',
      stream_end: '流结束',
      state_edit: '状态编辑',
      state_set: '状态被替换',
      tool_started: '工具开始运行',
      tool_result: '工具结果',
      resume: '你的回答已发送',
      resume_taken: '智能体已收到你的回答',
      stop: '已停止',
      failed: '请求失败',
      reset: '新线程',
    },
    back: '回到实时',
    skipped: (count) => `跳过了 ${count} 行无法读取的内容`,
    line: (line) => `第 ${line} 行：`,
    problem: {
      NOT_JSON: '不是 JSON：',
      NOT_AN_ENTRY: '不是会话记录的条目：',
      OUT_OF_ORDER: '事件的序号没有接着上一个（行重复或顺序错乱）：',
      REPEATED: '重复的一行：',
      SECOND_SESSION: '属于文件中的第二个会话：',
      NOT_A_SESSION: '文件不是保存的会话：',
    },
    more: (count) => `另有 ${count} 行`,
  },
  scenarios: {
    refund: { title: '需审批的退款', description: '先调用查询工具，再暂停退款等待审核人：批准、附理由拒绝，或任其过期。' },
    clarification: { title: '澄清', description: '智能体还需要一个细节：一个 input_required 中断，其模式是枚举。' },
    escalation: {
      title: '升级为人工审核',
      description: '一个扩展原因 risk:manual_review，元数据中带有队列和风险分。',
    },
    'two-interrupts': { title: '同时两个问题', description: '同一结果中的一个确认和一个 input_required；一次恢复必须回答两者。' },
    'run-error': { title: '运行出错', description: '智能体开始回答，然后报告带代码的 RUN_ERROR。' },
    'cut-off': { title: '流被切断', description: '连接在消息中途结束，没有 RUN_FINISHED 或 RUN_ERROR。' },
    'parallel-tools': { title: '并行工具调用', description: '三个调用交错流式传输参数，并以不同顺序完成。' },
    subagents: { title: '子智能体', description: '研究员和嵌套的写作者同时流式输出；每个事件都归属于其子智能体。' },
    reasoning: { title: '推理', description: '一段带一条消息的推理，然后是回答。' },
    activity: { title: '活动：一个计划', description: 'ACTIVITY_SNAPSHOT 创建计划；ACTIVITY_DELTA 逐项勾选步骤。' },
    dashboard: { title: '状态密集的仪表盘', description: '先是快照，然后是一长串小增量（每个四个操作），更新计数器、地区和序列。' },
    desync: {
      title: '失步与恢复',
      description: '一个增量替换了不存在的路径：状态被标为失步（而不是悄悄出错），直到快照到来。',
    },
    'long-thread': { title: '长会话', description: 'MESSAGES_SNAPSHOT 重述数千条消息；回答在最后流式输出。' },
    'fast-stream': { title: '快速流', description: '每秒数千个词元写入同一条消息（界面按帧批量更新）。' },
  },
};

const playgroundMessages: Record<Lang, PlaygroundMessages> = { en, 'zh-CN': zhCN };

/** The playground's words in `lang`. */
export const messagesFor = (lang: Lang): PlaygroundMessages => playgroundMessages[lang];

/** The components' locale for `lang`. */
export const uiLocaleFor = (lang: Lang): AgentLocale => (lang === 'zh-CN' ? uiZhCN : uiEn);

/** The language a URL's `?lang=` names; English when absent or unknown. */
export function langFromSearch(search: string): Lang {
  const lang = new URLSearchParams(search).get('lang');
  return lang === 'zh-CN' || lang?.toLowerCase() === 'zh-cn' || lang === 'zh' ? 'zh-CN' : 'en';
}
