import { MAX_JSON_DEPTH } from '../reducer/ownJson.js';
import { thrownText } from '../thrownText.js';
import type { Refusal } from './types.js';

/** Why an action did nothing, in words a person can act on. */
export const refusals = {
  destroyed: { code: 'DESTROYED', message: 'This controller was destroyed: create a new one.' },
  runInProgress: { code: 'RUN_IN_PROGRESS', message: 'A run is already in progress: stop it or wait for it to end.' },
  stillConnected: { code: 'RUN_IN_PROGRESS', message: 'The stream is still connected.' },
  requestInFlight: { code: 'RUN_IN_PROGRESS', message: 'A request is already in flight.' },
  nothingToReconnect: { code: 'NOTHING_TO_RECONNECT', message: 'No run was cut off: there is nothing to reconnect to.' },
  savedCutOff: {
    code: 'NO_RESUME_POINT',
    message: 'The run was cut off in an earlier session: this one has no stream of it to go on from; start a new run.',
  },
  noResumePoint: {
    code: 'NO_RESUME_POINT',
    message: 'The agent sent no event ids, so the run cannot be resumed where it stopped; start a new run.',
  },
  threadReset: {
    code: 'THREAD_RESET',
    message: 'The thread was reset before this edit could apply, so it was dropped: it was an edit of the old conversation.',
  },
  nothingToRetry: { code: 'NOTHING_TO_RETRY', message: 'No request failed in a way that sending it again could fix.' },
} as const satisfies Record<string, Refusal>;

/** A shared-state edit that would nest the document past the limit. */
export const tooDeep = (): Refusal => ({
  code: 'EDIT_REFUSED',
  message: `The edit was not applied: the document would be nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
});

export const interruptsOpen = (count: number): Refusal => ({
  code: 'INTERRUPTS_OPEN',
  message: `The agent is waiting for an answer to ${count} open interrupt(s): answer them (resume) or cancel them before sending a new message.`,
});

export const messageIdTaken = (id: string): Refusal => ({
  code: 'MESSAGE_ID_TAKEN',
  message: `The thread already holds a message with id ${JSON.stringify(id)}: give the new message an id of its own. Nothing was sent.`,
});

export const expiredSince = (interruptId: string): Refusal => ({
  code: 'RESUME_REFUSED',
  message: `Interrupt '${interruptId}' expired since it was answered, so the answer is not sent again: it can only be cancelled now.`,
  errors: [{ interruptId, code: 'EXPIRED', message: `Interrupt '${interruptId}' has expired: it can only be cancelled.` }],
});

export const messageInvalid = (problem: string): Refusal => ({
  code: 'MESSAGE_INVALID',
  message: `The message ${problem}: give it an id, the role user, and text or content parts. Nothing was sent.`,
});

/** What a plain-JavaScript app may pass to `run()` that is no request: named by what it is. */
export const requestInvalid = (given: unknown): Refusal => ({
  code: 'MESSAGE_INVALID',
  message: `run() takes text, or a request such as { message, context, forwardedProps }; it was given ${
    given === null ? 'null' : Array.isArray(given) ? 'an array (content parts go in the request: { message: parts })' : `a ${typeof given}`
  }. Nothing was sent.`,
});

/** What a plain-JavaScript app may pass to `resume()` that is no list of answers, or an answer that is no object. */
export const answersInvalid = (what: string): Refusal => ({
  code: 'RESUME_REFUSED',
  message: `resume() takes a list of answers, each { interruptId, status, payload }: ${what}. Nothing was sent.`,
});

export const followUpsExhausted = (max: number): Refusal => ({
  code: 'FOLLOW_UPS_EXHAUSTED',
  message: `aguikit started ${max} runs in a row by itself to send the agent its tools' results, and the agent asked for more: the last results go out with the next run (maxFollowUps allows more).`,
});

/** Code this action needed, loaded on demand, could not be loaded: nothing was done. */
export const unavailable = (error: unknown): Refusal => ({
  code: 'ENGINE_UNAVAILABLE',
  message: `aguikit could not load the code this needs, so nothing was done (${thrownText(error)}). The network may be offline, or the application was updated: try again, or reload the page.`,
});

/** Whether two refusals say the same. */
export const sameRefusal = (a: Refusal | undefined, b: Refusal): boolean => a?.code === b.code && a.message === b.message;
