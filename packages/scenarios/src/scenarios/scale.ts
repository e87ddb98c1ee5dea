import type { Message } from '@aguikit/core';
import { forwardedNumber, type Scenario } from '../scenario.js';
import { Script } from '../script.js';

/** A thread restated with thousands of messages, then a streamed answer. */
export const longThread: Scenario = {
  id: 'long-thread',
  title: 'Long thread',
  description: 'MESSAGES_SNAPSHOT restates thousands of messages; the answer streams at the end.',
  prompt: 'Summarise our conversation.',
  run(input) {
    const s = new Script(input).start();
    const count = Math.floor(forwardedNumber(input, 'messages', 3000, 0, 20_000));
    // The history is made when its event is sent, not held while the run waits to send it. It is the conversation
    // before this run's input: the snapshot's order is the thread's, so the user's question comes last.
    s.lazy(1, () => {
      const history: Message[] = [];
      for (let i = 0; i < count; i++) {
        const pair = Math.floor(i / 2);
        history.push(
          i % 2
            ? { id: s.id(`h${i}`), role: 'assistant', content: `Answer ${pair + 1}: the order ${1000 + pair} is on its way.` }
            : { id: s.id(`h${i}`), role: 'user', content: `Question ${pair + 1}: where is order ${1000 + pair}?` },
        );
      }
      history.push(...input.messages);
      return { delayMs: 0, event: { type: 'MESSAGES_SNAPSHOT', messages: history } };
    });
    s.text('summary', `We talked about ${Math.ceil(count / 2)} orders; all of them are shipped.`);
    return s.finish().plan();
  },
};

/** Thousands of tokens per second into one message. */
export const fastStream: Scenario = {
  id: 'fast-stream',
  title: 'Fast stream',
  description: 'Thousands of tokens per second into one message (the UI batches per frame).',
  prompt: 'Count to a few thousand, fast.',
  run(input) {
    const s = new Script(input).start();
    const count = Math.floor(forwardedNumber(input, 'tokens', 5000, 1, 100_000));
    const perToken = forwardedNumber(input, 'tokenDelayMs', 0.2, 0, 1000);
    const messageId = s.id('count');
    s.emit({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
    s.lazy(count, (i) => ({ delayMs: perToken, event: { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: `${i + 1} ` } }));
    s.emit({ type: 'TEXT_MESSAGE_END', messageId });
    return s.finish().plan();
  },
};
