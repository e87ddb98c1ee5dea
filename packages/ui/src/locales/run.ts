/**
 * Strings of the run area: the run's status (one word a state), what failed
 * and what helps, and how a reconnect goes. None speaks of a server: an
 * agent may run in the browser, where there is none.
 */
export const en = {
  /** The badge, one word or two per state. */
  status: {
    idle: 'Idle',
    running: 'Running',
    success: 'Done',
    interrupted: 'Waiting for you',
    cancelled: 'Stopped',
    error: 'Failed',
    unknown: 'Connection lost',
  },
  /** The current step of a running run. */
  step: (name: string) => `Step: ${name}`,
  /**
   * The transport's own retry, after the connection dropped; `attempt`/`of`
   * when known, as numbers and as the text to show (formatted through `Intl`).
   */
  reconnecting: (attempt?: number, of?: number, shownAttempt?: string, shownOf?: string) =>
    attempt !== undefined && of !== undefined ? `Reconnecting… (attempt ${shownAttempt ?? attempt} of ${shownOf ?? of})` : 'Reconnecting…',
  /** A run that was cut off: its stream ended inside the run. `reason` when something more is known. */
  lost: (reason?: string) =>
    reason ? `The stream ended before the run finished: ${lowerFirst(reason)}` : 'The stream ended before the run finished.',
  /** The reconnect the user asked for worked. */
  reconnected: 'Reconnected: the run went on from where it stopped.',
  /** The reconnect the user asked for did not work. */
  reconnectFailed: (reason: string) => `Could not reconnect: ${lowerFirst(reason)} Try again.`,
  /** The reconnect was refused for good: `reason` says what to do instead. */
  reconnectRefused: (reason: string) => `Could not reconnect: ${lowerFirst(reason)}`,
  /** Why a request failed, by its typed code. */
  failure: {
    notFound: "The agent's URL was not found (HTTP 404).",
    refused: (status: number) => `The agent refused the request (HTTP ${status}).`,
    /** `wait`: when the agent asked to be tried again (its Retry-After), in seconds, if it said. */
    notHandled: (status: number, wait?: number) =>
      `The agent could not take the request (HTTP ${status})${wait ? `: try again in ${inTime(wait, 's', 'min')}` : ''}.`,
    httpStatus: (status: number) => `The agent answered with an error (HTTP ${status}).`,
    network: 'The agent could not be reached: the network may be offline, the agent not running, or the request blocked by the browser.',
    invalidUrl: "The agent's URL is not a valid address.",
    invalidRequest: 'The request could not be built (a header or the input the app gives the agent is not valid), so nothing was sent.',
    invalidStream: 'The answer is not an AG-UI event stream.',
    connectionLost: 'The connection to the agent was lost before the run ended.',
    /** The stream ended inside an event: its last frame had no blank line after it. */
    unfinishedEvent: "The agent's stream ended inside an event (its last event had no blank line after it), so that event was not read.",
    sourceError: (detail: string) => `The agent failed before it answered (${detail}).`,
    engineUnavailable:
      "The chat could not load the code that reads the agent's answers, so nothing was sent. The network may be offline, or the app was updated: try again, or reload the page.",
    /** What the agent said along with an HTTP error, quoted. */
    said: (body: string) => `It said: “${body}”`,
    /** Where the request was redirected to before the answer that failed: a redirect sends it on without the run. */
    redirected: (url: string) =>
      `The request was redirected to ${url}, and a 301, 302 or 303 redirect sends it on as a GET, without the run: use the agent's own URL.`,
    /** A resume refused as answered already (409 ALREADY_ANSWERED): another tab or device answered first, and the agent keeps that. */
    alreadyAnswered: 'Already answered in another tab or window: the agent keeps that answer.',
  },
  /** What helps, after the failure. */
  hint: {
    checkUrl: "Check the agent's URL.",
    checkCredentials: 'Check the credentials sent with the request.',
    /** aguikit's agent server refused the page's origin (ORIGIN_NOT_ALLOWED). */
    allowOrigin:
      "The agent does not take requests from this page's address: add it to the agent's allowed origins (AGENT_ALLOWED_ORIGINS).",
    checkEndpoint: "Check that the URL is the agent's AG-UI endpoint.",
    noResumePoint: 'This agent cannot resume a stream where it stopped: send your message again.',
    /** A run cut off in a session saved earlier and opened again: this session has no stream of it to go on from. */
    cutOffEarlier: 'The run was cut off in an earlier session: send your message again.',
    nothingToReconnect: 'There is nothing to reconnect to.',
    /** The controller started as many runs by itself to send tool results as it may (FOLLOW_UPS_EXHAUSTED). */
    followUpsExhausted: 'The agent asked for its tools run after run: the last results go out with your next message.',
  },
  actions: {
    retry: 'Retry',
    reconnect: 'Reconnect',
    /** The accessible name of the group of actions beside the status. */
    label: 'Run actions',
  },
};

/** "The agent…" → "the agent…", to follow a colon. */
/** A wait of `seconds` (at most a day), in seconds up to two minutes, else in minutes (rounded up): `30 s`, `5 min`. */
const inTime = (seconds: number, s: string, min: string) =>
  seconds < 120 ? `${Math.ceil(seconds)} ${s}` : `${Math.ceil(seconds / 60)} ${min}`;

function lowerFirst(text: string) {
  const value = String(text);
  return value.charAt(0).toLowerCase() + value.slice(1);
}

export const zhCN: typeof en = {
  status: {
    idle: '空闲',
    running: '运行中',
    success: '已完成',
    interrupted: '等待你的回答',
    cancelled: '已停止',
    error: '失败',
    unknown: '连接已断开',
  },
  step: (name) => `步骤：${name}`,
  reconnecting: (attempt, of, shownAttempt, shownOf) =>
    attempt !== undefined && of !== undefined
      ? `正在重新连接…（第 ${shownAttempt ?? attempt} 次，共 ${shownOf ?? of} 次）`
      : '正在重新连接…',
  lost: (reason) => (reason ? `运行结束前数据流已中断：${reason}` : '运行结束前数据流已中断。'),
  reconnected: '已重新连接：运行已从中断处继续。',
  reconnectFailed: (reason) => `无法重新连接：${reason}请重试。`,
  reconnectRefused: (reason) => `无法重新连接：${reason}`,
  failure: {
    notFound: '找不到智能体的 URL（HTTP 404）。',
    refused: (status) => `智能体拒绝了请求（HTTP ${status}）。`,
    notHandled: (status, wait) => `智能体暂时无法处理请求（HTTP ${status}）${wait ? `，请在 ${inTime(wait, '秒', '分钟')}后重试` : ''}。`,
    httpStatus: (status) => `智能体返回了错误（HTTP ${status}）。`,
    network: '无法连接到智能体：可能网络已断开、智能体未运行，或请求被浏览器拦截。',
    invalidUrl: '智能体的 URL 不是有效的地址。',
    invalidRequest: '无法构建请求（某个请求头或应用交给智能体的输入无效），因此什么都没有发送。',
    invalidStream: '返回的内容不是 AG-UI 事件流。',
    connectionLost: '运行结束前与智能体的连接已断开。',
    unfinishedEvent: '智能体的数据流在一个事件中途结束（最后一个事件之后没有空行），因此该事件未被读取。',
    sourceError: (detail) => `智能体在回答前出错（${detail}）。`,
    engineUnavailable: '无法加载读取智能体回答的代码，因此什么都没有发送。可能网络已断开，或应用已更新：请重试，或刷新页面。',
    said: (body) => `它的回复：“${body}”`,
    redirected: (url) => `请求被重定向到 ${url}，而 301、302 或 303 重定向会把它改为不带运行内容的 GET 请求：请使用智能体自己的 URL。`,
    alreadyAnswered: '已在另一个标签页或窗口中回答：智能体保留那次的回答。',
  },
  hint: {
    checkUrl: '请检查智能体的 URL。',
    checkCredentials: '请检查随请求发送的凭据。',
    allowOrigin: '智能体不接受来自此页面地址的请求：请把它加入智能体允许的来源（AGENT_ALLOWED_ORIGINS）。',
    checkEndpoint: '请确认该 URL 是智能体的 AG-UI 端点。',
    noResumePoint: '该智能体无法从中断处恢复数据流：请重新发送你的消息。',
    cutOffEarlier: '此运行在之前的会话中已中断：请重新发送你的消息。',
    nothingToReconnect: '没有可以重新连接的运行。',
    followUpsExhausted: '智能体一次又一次地请求调用工具：最后的结果将随你的下一条消息发送。',
  },
  actions: {
    retry: '重试',
    reconnect: '重新连接',
    label: '运行操作',
  },
};
