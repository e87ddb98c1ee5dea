import * as chat from './chat.js';
import * as devtools from './devtools.js';
import type { AgentMessages } from './en.js';
import * as interrupt from './interrupt.js';
import * as messages from './messages.js';
import * as run from './run.js';
import * as tools from './tools.js';

/** Every user-facing string of `@aguikit/ui`, in Simplified Chinese. Typed against English, so a missing key fails to compile. */
export const zhCNMessages: AgentMessages = {
  chat: chat.zhCN,
  run: run.zhCN,
  messages: messages.zhCN,
  tools: tools.zhCN,
  interrupt: interrupt.zhCN,
  devtools: devtools.zhCN,
};
