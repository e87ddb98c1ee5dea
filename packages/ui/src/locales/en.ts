import * as chat from './chat.js';
import * as devtools from './devtools.js';
import * as interrupt from './interrupt.js';
import * as messages from './messages.js';
import * as run from './run.js';
import * as tools from './tools.js';

/** Every user-facing string of `@aguikit/ui`, in English: the reference every other locale is checked against. */
export const enMessages = {
  chat: chat.en,
  run: run.en,
  messages: messages.en,
  tools: tools.en,
  interrupt: interrupt.en,
  devtools: devtools.en,
};

/** The shape of a complete set of strings. */
export type AgentMessages = typeof enMessages;
