/** Strings of the tools area: tool-call cards and their status badges. */
export const en = {
  /** A call's status, in words (never color alone). */
  status: {
    declared: 'Declared',
    args_streaming: 'Receiving arguments',
    ready: 'Ready',
    executing: 'Running',
    succeeded: 'Succeeded',
    failed: 'Failed',
    denied: 'Rejected',
    cancelled: 'Cancelled',
    awaiting_decision: 'Waiting for your decision',
    expired: 'Expired',
    approved: 'Approved',
  },
  /** The name of a call whose tool has no name. */
  unnamed: 'tool',
  /** The name of the n-th call of a tool the thread calls more than once. */
  nth: (name: string, n: string) => `${name} (${n})`,
  arguments: 'Arguments',
  argumentsStreaming: 'Arguments (streaming)',
  /** Arguments the call stopped receiving before they were whole (its run ended): what arrived, parsed leniently. */
  argumentsIncomplete: 'Arguments (incomplete: the call ended before they all arrived)',
  /** Arguments that are not JSON; the parser's own words follow in English. */
  argumentsNotJson: 'The arguments are not valid JSON.',
  /** Arguments nested deeper than the state keeps (512 levels of objects and arrays), kept as text. */
  argumentsTooDeep: 'The arguments are nested too deep to be read.',
  noArguments: 'No arguments.',
  result: 'Result',
  error: 'Error',
  /** Why a call has no result, when its run ended first (the run's own error is shown by the run status). */
  endedWithRun: {
    error: 'The run failed before this tool returned.',
    cancelled: 'The run was stopped before this tool returned.',
    unknown: 'The connection was lost before this tool returned.',
  },
  /** Why a call failed when its run finished before the call's arguments were complete. */
  argsIncomplete: "The run finished before this call's arguments were complete: the tool was not called.",
  /** A call that failed for a reason this version does not know. */
  failedPlain: 'This tool call failed.',
  /** Arguments that are still streaming or not JSON, said as such. */
  contentPart: (type: string) => `[${type}]`,
};

export const zhCN: typeof en = {
  status: {
    declared: '已声明',
    args_streaming: '正在接收参数',
    ready: '就绪',
    executing: '运行中',
    succeeded: '成功',
    failed: '失败',
    denied: '已拒绝',
    cancelled: '已取消',
    awaiting_decision: '等待你的决定',
    expired: '已过期',
    approved: '已批准',
  },
  unnamed: '工具',
  nth: (name: string, n: string) => `${name}（第 ${n} 次）`,
  arguments: '参数',
  argumentsStreaming: '参数（接收中）',
  argumentsIncomplete: '参数（不完整：调用在参数全部到达前结束）',
  argumentsNotJson: '参数不是有效的 JSON。',
  argumentsTooDeep: '参数嵌套过深，无法读取。',
  noArguments: '没有参数。',
  result: '结果',
  error: '错误',
  endedWithRun: {
    error: '运行在此工具返回前失败。',
    cancelled: '运行在此工具返回前被停止。',
    unknown: '连接在此工具返回前中断。',
  },
  argsIncomplete: '此调用的参数尚未完整，运行就已结束：工具没有被调用。',
  failedPlain: '此工具调用失败。',
  contentPart: (type: string) => `[${type} 内容]`,
};
