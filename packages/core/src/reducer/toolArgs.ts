/**
 * A tool call's arguments, parsed as its record keeps them: what a run's
 * input (messages.ts, in the first load) shares with the streaming reducers
 * of toolCalls.ts.
 */
import type { ToolCallRecord } from '../model.js';
import { thrownText } from '../thrownText.js';
import { JsonTooDeep, MAX_JSON_DEPTH, nestsWithin } from './ownJson.js';

export function parseArgs(text: string): Pick<ToolCallRecord, 'args' | 'argsError' | 'argsErrorCode'> {
  if (text.trim() === '') return { args: {} };
  try {
    const args = JSON.parse(text) as unknown;
    // Parsed as deep as it is written; the state keeps no value deeper than it copies (ownJson.ts).
    if (!nestsWithin(args, MAX_JSON_DEPTH)) return { argsError: new JsonTooDeep().message, argsErrorCode: 'TOO_DEEP' };
    return { args };
  } catch (e) {
    return { argsError: thrownText(e), argsErrorCode: 'NOT_JSON' };
  }
}
