/** Strings of the chat shell: the chat region, the composer, the run's status. */
export const en = {
  chatLabel: 'Agent chat',
  composer: {
    label: 'Message',
    placeholder: 'Message the agent',
    send: 'Send',
    stop: 'Stop',
    waiting: 'The agent is waiting for your answer above before it can take a new message.',
    inFlight: 'A run is in progress: you can keep typing, and send once it ends (or stop it).',
  },
};

export const zhCN: typeof en = {
  chatLabel: '智能体对话',
  composer: {
    label: '消息',
    placeholder: '给智能体发消息',
    send: '发送',
    stop: '停止',
    waiting: '智能体正在等待你回答上方的问题，回答后才能接收新消息。',
    inFlight: '正在运行：你可以继续输入，运行结束后再发送（或先停止它）。',
  },
};
