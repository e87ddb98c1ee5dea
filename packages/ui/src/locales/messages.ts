/** Strings of the messages area: the conversation, its messages, reasoning, subagents, decisions and announcements. */
export const en = {
  list: {
    /** The accessible name of the conversation log. */
    label: 'Conversation',
    empty: 'No messages yet.',
    jumpToLatest: 'Jump to latest',
  },
  /** Who wrote a message. */
  roles: {
    user: 'You',
    assistant: 'Assistant',
    system: 'System',
    developer: 'Developer',
    tool: 'Tool result',
    reasoning: 'Reasoning',
    activity: 'Activity',
  },
  /** A role with the name the agent gave itself. */
  named: (role: string, name: string) => `${role} · ${name}`,
  /** Said (not shown) while a message streams; the dots show it. */
  writing: 'Writing…',
  /** The short mark of a reply its run's failure or lost connection may have cut short. */
  incomplete: 'This reply may be incomplete.',
  /** The badge of a tool message that reports an error. */
  toolError: 'Error',
  details: 'Details',
  /** A tool result whose call is not on screen. */
  resultFor: 'Result for',
  aToolCall: 'a tool call',
  /** An activity plan: the list's name without a title, and each step's state in words. */
  plan: {
    label: 'Plan',
    done: 'done',
    in_progress: 'in progress',
    pending: 'pending',
    failed: 'failed',
    skipped: 'skipped',
    step: (title: string, state: string) => `${title} (${state})`,
  },
  media: {
    image: 'Image',
    audio: 'Audio',
    video: 'Video',
    document: 'Document',
    /** The alt text of an image no one described. */
    imageFrom: (author: string) => `Image from ${author}`,
    authors: { user: 'the user', tool: 'the tool', agent: 'the agent' },
    /** "Image not shown: <url> is not an http(s) or data:image URL.", around the URL. */
    blockedUrlBefore: 'Image not shown: ',
    blockedUrlAfter: ' is not an http(s) or data:image URL.',
    blockedData: (mime: string) => `Image not shown: inline data of type ${mime} is not base64 image data.`,
    unknownType: 'unknown',
    attachment: (kind: string, details: string) => `${kind} attachment (${details})`,
    describedAttachment: (kind: string, description: string, details: string) => `${kind} attachment: ${description} (${details})`,
    origins: { url: 'link', data: 'inline data', file: 'provider file' },
  },
  markdown: {
    newTab: ' (opens in a new tab)',
    /** Said before the host a link really goes to, when its words name another place (shown without it). */
    goesTo: 'goes to ',
    image: (alt: string) => `Image: ${alt}`,
    imageUntitled: 'Image',
    table: 'Table',
    taskDone: 'done',
    taskNotDone: 'not done',
  },
  /** A text too long to lay out at once (`LongText`): counts already formatted for the language. */
  longText: {
    cut: (shown: string, total: string) => `Showing the first ${shown} of ${total} characters, as plain text.`,
    showAll: 'Show all',
  },
  reasoning: {
    thinking: 'Thinking…',
    encrypted: 'Reasoning (encrypted, not shown)',
    /** Done, with its length: `count` words, `formatted` through Intl. */
    words: (count: number, formatted: string) => `Reasoning, ${formatted} ${count === 1 ? 'word' : 'words'}`,
    /** Done, when its start and end are known: how long it took, in words ("12 seconds"). */
    took: (duration: string) => `Thought for ${duration}`,
  },
  subagent: {
    status: {
      running: 'Running',
      success: 'Done',
      suspended: 'Suspended',
      error: 'Failed',
      cancelled: 'Stopped',
      unknown: 'Not announced',
    },
    waitingOn: (count: number, formatted: string) => `Waiting on ${formatted} ${count === 1 ? 'answer' : 'answers'}.`,
    empty: 'Nothing yet.',
  },
  /** The line an answered interrupt leaves in the transcript. */
  decision: {
    approved: (subject: string) => `You approved ${subject}`,
    approvedPlain: 'You approved',
    rejected: (subject: string) => `You rejected ${subject}`,
    rejectedPlain: 'You rejected',
    /** A confirmation answered Yes; `subject`: its message (or the tool it held). */
    confirmed: (subject: string) => `You confirmed: ${subject}`,
    confirmedPlain: 'You confirmed',
    answered: (summary: string) => `You answered: ${summary}`,
    answeredPlain: 'You answered',
    cancelled: (subject: string) => `Cancelled: ${subject}`,
    cancelledPlain: 'Cancelled',
    comment: (text: string) => `, comment: “${text}”`,
    yes: 'yes',
    no: 'no',
  },
  /** What the polite live region says when a reply is complete. */
  announce: {
    said: (author: string, text: string) => `${author}: ${text}`,
    continues: (count: number, formatted: string) => `… (reply continues, ${formatted} more ${count === 1 ? 'word' : 'words'})`,
    incomplete: ' (This reply may be incomplete.)',
    becameIncomplete: (author: string) => `${author}: the last reply may be incomplete.`,
  },
};

export const zhCN: typeof en = {
  list: {
    label: '对话',
    empty: '还没有消息。',
    jumpToLatest: '跳到最新',
  },
  roles: {
    user: '你',
    assistant: '助手',
    system: '系统',
    developer: '开发者',
    tool: '工具结果',
    reasoning: '推理',
    activity: '活动',
  },
  named: (role: string, name: string) => `${role} · ${name}`,
  writing: '正在输入…',
  incomplete: '这条回复可能不完整。',
  toolError: '错误',
  details: '详情',
  resultFor: '结果对应',
  aToolCall: '某个工具调用',
  plan: {
    label: '计划',
    done: '已完成',
    in_progress: '进行中',
    pending: '待办',
    failed: '失败',
    skipped: '已跳过',
    // The same form as English: a title and its state in words.
    step: (title: string, state: string) => `${title} (${state})`,
  },
  media: {
    image: '图片',
    audio: '音频',
    video: '视频',
    document: '文档',
    imageFrom: (author: string) => `来自${author}的图片`,
    authors: { user: '用户', tool: '工具', agent: '智能体' },
    blockedUrlBefore: '图片未显示：',
    blockedUrlAfter: ' 不是 http(s) 或 data:image 地址。',
    blockedData: (mime: string) => `图片未显示：类型为 ${mime} 的内联数据不是 base64 图片数据。`,
    unknownType: '未知',
    attachment: (kind: string, details: string) => `${kind}附件（${details}）`,
    describedAttachment: (kind: string, description: string, details: string) => `${kind}附件：${description}（${details}）`,
    origins: { url: '链接', data: '内联数据', file: '服务商文件' },
  },
  markdown: {
    newTab: '（在新标签页中打开）',
    goesTo: '前往 ',
    image: (alt: string) => `图片：${alt}`,
    imageUntitled: '图片',
    table: '表格',
    taskDone: '已完成',
    taskNotDone: '未完成',
  },
  longText: {
    cut: (shown: string, total: string) => `仅以纯文本显示前 ${shown} 个字符，共 ${total} 个。`,
    showAll: '全部显示',
  },
  reasoning: {
    thinking: '思考中…',
    encrypted: '推理（已加密，不显示）',
    words: (_count: number, formatted: string) => `推理，${formatted} 个词`,
    took: (duration: string) => `思考了 ${duration}`,
  },
  subagent: {
    status: { running: '运行中', success: '已完成', suspended: '已暂停', error: '失败', cancelled: '已停止', unknown: '未声明' },
    waitingOn: (_count: number, formatted: string) => `正在等待 ${formatted} 个回答。`,
    empty: '暂无内容。',
  },
  decision: {
    approved: (subject: string) => `你批准了 ${subject}`,
    approvedPlain: '你批准了',
    rejected: (subject: string) => `你拒绝了 ${subject}`,
    rejectedPlain: '你拒绝了',
    confirmed: (subject: string) => `你确认了：${subject}`,
    confirmedPlain: '你已确认',
    answered: (summary: string) => `你的回答：${summary}`,
    answeredPlain: '你已回答',
    cancelled: (subject: string) => `已取消：${subject}`,
    cancelledPlain: '已取消',
    comment: (text: string) => `，备注：“${text}”`,
    yes: '是',
    no: '否',
  },
  announce: {
    said: (author: string, text: string) => `${author}：${text}`,
    continues: (_count: number, formatted: string) => `……（回复还有 ${formatted} 个词）`,
    incomplete: '（这条回复可能不完整。）',
    becameIncomplete: (author: string) => `${author}：上一条回复可能不完整。`,
  },
};
