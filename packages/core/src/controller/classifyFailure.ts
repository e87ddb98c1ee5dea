/**
 * What a thrown transport error means for the person using the app: part of
 * the engine's chunk (`engineParts.ts`), since a request is sent, and so can
 * fail, only once the engine has loaded. A failure before that (the engine
 * itself could not load) is `engineUnavailable` in `failure.ts`.
 */
import { textHead } from '../textHead.js';
import { thrownText } from '../thrownText.js';
import { AgentTransportError, redirectNote } from '../transports/source.js';
import { answerWords, errorCode, waitWords } from './answerWords.js';
import type { RunFailure, RunFailureCode } from './failure.js';

/**
 * HTTP statuses that say the request was not handled: 408 (the server gave
 * up waiting for it), 425 (too early), 429 (rate limited), 502, 503 and 504
 * (a gateway or the server could not take it).
 */
const NOT_HANDLED = new Set([408, 425, 429, 502, 503, 504]);

/**
 * Whether `retry()` may send the same input again: only when no event of the
 * run arrived and the failure says the agent cannot have started it — no
 * answer at all (NETWORK: refused, offline, blocked before it was sent), or
 * a status that means "not handled" (see NOT_HANDLED). A 4xx or 500 is an
 * answer about this input (sending it again gives the same answer), an
 * invalid URL or stream needs a change first, and once events arrived the
 * run exists: `reconnect()` is the way on. The same `runId` goes out again, so
 * a server that did start the run behind a failed gateway can tell.
 */
export function isRetryable(code: RunFailureCode, status: number | undefined, eventsReceived: number): boolean {
  if (eventsReceived > 0) return false;
  return code === 'NETWORK' || code === 'ENGINE_UNAVAILABLE' || (code === 'HTTP_STATUS' && status !== undefined && NOT_HANDLED.has(status));
}

const describeStatus = (status: number, said: string | undefined, retryAfterMs: number | undefined) => {
  const quoted = said ? ` It said: ${said}` : '';
  const wait = retryAfterMs ? ` in ${waitWords(retryAfterMs)}` : '';
  if (status === 404) return `The agent's URL was not found (HTTP 404): check the URL.${quoted}`;
  if (status === 401 || status === 403)
    return `The agent refused the request (HTTP ${status}): check the credentials sent with it.${quoted}`;
  if (NOT_HANDLED.has(status)) return `The agent could not take the request (HTTP ${status}); try again${wait}.${quoted}`;
  return `The agent answered HTTP ${status}.${quoted}`;
};

/**
 * What a thrown transport error means for the person using the app, as a
 * typed failure. `kind`: the request's (`'resume'` when it answered
 * interrupts): only a resume's refusal before any event can say its answers
 * came too late. `resent`: how many times the source sent the request again
 * on its own (its reconnect policy) before it gave up.
 */
export function classifyFailure(error: unknown, eventsReceived: number, kind?: string, resent = 0): RunFailure {
  const make = (code: RunFailureCode, message: string, extra: Partial<RunFailure> = {}): RunFailure => ({
    code,
    message,
    ...extra,
    retryable: isRetryable(code, extra.status, eventsReceived),
    eventsReceived,
  });
  // Whether the request went out again is the source's to say: once it did, it is the source that stopped sending it.
  const notAgain = resent
    ? `may have started; the request was sent again ${resent === 1 ? 'once' : `${resent} times`} (the same run id) with no event either, and is sent no more.`
    : 'may have started, so it is not sent again on its own.';
  if (error instanceof AgentTransportError) {
    const { status, body, redirectedTo, retryAfterMs } = error;
    const note = redirectNote(redirectedTo);
    const known = { ...(status !== undefined ? { status } : {}), ...(redirectedTo ? { redirectedTo } : {}) };
    switch (error.code) {
      case 'HTTP_STATUS': {
        const said = answerWords(body);
        // When to try again, as the agent said (Retry-After): only where trying again can help.
        const wait = retryAfterMs !== undefined && NOT_HANDLED.has(status ?? 0) ? { retryAfterMs } : {};
        // Interrupts answered first by another client (a second tab) or closed by the agent: settled there, never asked again.
        // A run or a reconnect answered none: its 409 is said as the agent said it.
        const answeredElsewhere =
          kind === 'resume' &&
          eventsReceived === 0 &&
          status === 409 &&
          body !== undefined &&
          errorCode(body.trim()) === 'ALREADY_ANSWERED';
        return make(
          'HTTP_STATUS',
          (answeredElsewhere
            ? 'These questions were already answered (in another tab or window, say, or closed by the agent): the agent keeps that answer, and did not take this one.'
            : describeStatus(status ?? 0, said, wait.retryAfterMs)) + note,
          {
            ...known,
            ...(body !== undefined ? { body: textHead(body, 2000) } : {}),
            ...(said ? { said } : {}),
            ...wait,
            ...(answeredElsewhere ? { cause: 'ALREADY_ANSWERED' as const } : {}),
          },
        );
      }
      case 'NOT_EVENT_STREAM': {
        // A 200 of JSON or HTML is most often a gateway's error or a proxy's sign-in page: what it said is what helps.
        const said = answerWords(body);
        return make(
          'INVALID_STREAM',
          `The agent's answer is not an AG-UI event stream: ${error.message}${said ? `. It said: ${said}` : ''}`,
          { ...known, ...(said ? { said } : {}) },
        );
      }
      case 'NO_BODY':
      case 'FRAME_TOO_LARGE':
        return make('INVALID_STREAM', `The agent's answer is not an AG-UI event stream: ${error.message}`, known);
      case 'CONNECTION_LOST':
        return make(
          'CONNECTION_LOST',
          eventsReceived === 0
            ? `The connection to the agent dropped after it answered, before its first event: the run ${notAgain}`
            : 'The connection to the agent was lost before the run ended.',
        );
      case 'UNFINISHED_EVENT':
        // The run's end may be the event dropped: whether it finished is not known, as for a connection lost.
        return { ...make('CONNECTION_LOST', error.message), cause: 'UNFINISHED_EVENT' };
      case 'INVALID_URL':
        return make('INVALID_URL', `${error.message} Check the agent's URL.`);
      case 'READER_UNAVAILABLE':
        return make('ENGINE_UNAVAILABLE', error.message);
      case 'INVALID_REQUEST':
        return make('INVALID_REQUEST', `${error.message} Nothing was sent: check the headers and the input the app gives the agent.`);
    }
  }
  const name = (error as { name?: unknown } | null)?.name;
  const message = thrownText(error);
  // fetch rejects with a TypeError when no answer came: refused, offline, DNS, CORS (the browser says no more).
  // What it said is kept: it may be no fetch's at all, but a bug of the app's own source.
  if (name === 'TypeError') {
    if (eventsReceived > 0) return make('CONNECTION_LOST', `The connection to the agent was lost before the run ended (${message}).`);
    return make(
      'NETWORK',
      `The agent could not be reached: the server is down, the network is offline, or the browser blocked the request (CORS). The error: ${message}`,
    );
  }
  // No answer, or no more of the stream, within the source's idle timeout: the request went out, and the run may have started.
  if (name === 'StreamSilent' && eventsReceived === 0) return make('CONNECTION_LOST', `${message} The run ${notAgain}`);
  if (eventsReceived > 0) return make('CONNECTION_LOST', `The stream failed before the run ended: ${message}`);
  return make('SOURCE_ERROR', `The agent's source failed: ${message}`);
}
