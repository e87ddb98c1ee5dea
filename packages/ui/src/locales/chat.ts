/** Strings of the chat shell: the chat region, the composer, the run's status. */
export const en = {
  chatLabel: 'Agent chat',
  /** A read-only chat (a replayed recording): the open interrupts' questions, listed since there is no form to answer them. */
  waitingOn: 'Waiting for an answer',
  composer: {
    label: 'Message',
    placeholder: 'Message the agent',
    send: 'Send',
    stop: 'Stop',
    waiting: 'The agent is waiting for your answer above before it can take a new message.',
    inFlight: 'A run is in progress: you can keep typing, and send once it ends (or stop it).',
    /** A send refused because a run had just started (a second Enter, another tab). */
    refusedInFlight: 'Not sent: a run is already in progress. Your text is kept; send it once the run ends, or stop it.',
    /** A send refused because the chat's store was closed (the component outlived it). */
    refusedClosed: 'Not sent: this chat is closed. Reload the page to start again.',
    /** Any other refusal. */
    refused: 'Not sent: the agent cannot take a new message right now. Your text is kept.',
    /** Answers to the questions above given and on their way to the agent (the store is still checking them). */
    sending: 'Sending your answer: you can keep typing, and send once the agent replies.',
  },
};

export const zhCN: typeof en = {
  chatLabel: '智能体对话',
  waitingOn: '等待回答',
  composer: {
    label: '消息',
    placeholder: '给智能体发消息',
    send: '发送',
    stop: '停止',
    waiting: '智能体正在等待你回答上方的问题，回答后才能接收新消息。',
    inFlight: '正在运行：你可以继续输入，运行结束后再发送（或先停止它）。',
    refusedInFlight: '未发送：已有运行正在进行。你的文字已保留，请在运行结束后发送，或先停止它。',
    refusedClosed: '未发送：此对话已关闭。请刷新页面重新开始。',
    refused: '未发送：智能体现在无法接收新消息。你的文字已保留。',
    sending: '正在发送你的回答：你可以继续输入，智能体回复后再发送。',
  },
};
