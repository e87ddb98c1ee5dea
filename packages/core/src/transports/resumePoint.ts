/**
 * Where a dropped stream can be resumed (`reconnect`, `Last-Event-ID`): the
 * last SSE id, whether it named one event, and the events handed over after
 * it that carried none, which a server resuming after it sends again. Loaded
 * with the body reader (sseRequest.ts), before any frame is read.
 */
import { thrownText } from '../thrownText.js';
import { AgentTransportError } from './source.js';

/** How many SSE ids a stream remembers to skip a replay by, and how many characters of them: the newest are kept. */
const SEEN_IDS = 4_096;
const SEEN_CHARS = 1 << 20;

/** How many events without an id, and how many characters of them, a stream holds after its last id to resume after it. */
const SINCE_EVENTS = 4_096;
const SINCE_CHARS = 1 << 20;

/** What `take` says of a frame a resumed stream sends again, which was handed over already. */
export const SENT_BEFORE = null;

export interface ResumePoint {
  /** The last SSE id (undefined once an empty or unsendable one reset it), whether or not it is a point to resume after. */
  readonly last: string | undefined;
  /**
   * Takes a frame's id (an unsendable one already made empty) and data: SENT_BEFORE when a resumed stream sends again
   * an event handed over, else the id to tell the consumer (`''` when there is no point to resume after it). Throws
   * CONNECTION_LOST when a resumed stream sends other events in their place: whether they are new is unknown.
   */
  take(id: string | undefined, data: string, heartbeat: boolean): string | undefined | typeof SENT_BEFORE;
  /** A reconnect starts: what it sends first is compared with what was handed over. */
  resumed(): void;
  /** The id to resume after: none once an empty id reset it, when it named several events, or too much came since. */
  point(): string | undefined;
  /** The failure of a drop after an id that is no point to resume after. */
  lost(cause: unknown): AgentTransportError;
}

/**
 * The resume point of one run's stream; `lastEventId` is the one it was
 * asked to resume after, if any (a server may replay from it, inclusive:
 * the caller already has that event).
 */
export function resumePoint(lastEventId: string | undefined): ResumePoint {
  const seen = seenIds();
  let last = lastEventId;
  if (last !== undefined) seen.add(last);
  // Ids are compared only once the stream was resumed: a server may give several events one id, which on a first
  // connection drops nothing, and then its ids identify no event to skip.
  let resumed = last !== undefined;
  // Whether the last id named more than one event (then which of them a server resumes after is unknown).
  let repeated = false;
  const since = eventsSince();
  // While a resumed stream sends again what was handed over: the events since the last id matched so far.
  let matched: number | undefined;
  /** Whether a resumed stream's event was handed over already. */
  const sentBefore = (id: string | undefined, data: string): boolean => {
    if (matched === undefined) return false;
    if (id) {
      if ((id === last && !repeated) || seen.skips(id)) return true;
      // A new id: what followed the last id without one was not sent again.
      matched = undefined;
      return false;
    }
    if (matched < since.count()) {
      if (since.at(matched) === data) {
        matched++;
        return true;
      }
      throw new AgentTransportError(
        'CONNECTION_LOST',
        `After the reconnect, the agent sent other events after the SSE id ${JSON.stringify(last)} than before: whether they are new or were applied already is unknown, so the stream was stopped.`,
      );
    }
    matched = undefined;
    return false;
  };
  return {
    get last() {
      return last;
    },
    take(id, data, heartbeat) {
      if (!heartbeat && sentBefore(id, data)) return SENT_BEFORE;
      // An empty `id:` is no id: it resets the last event ID (the SSE standard), and identifies nothing.
      if (id === '') last = undefined;
      else if (id !== undefined) {
        if (resumed && seen.skips(id)) return SENT_BEFORE;
        repeated = seen.has(id);
        seen.add(id);
        last = id;
        since.clear();
        return repeated ? '' : id;
      } else if (last !== undefined && !heartbeat) {
        // An event without an id after one with an id: a server resuming after that id sends it again, which only
        // this stream can tell by what it holds; the consumer, which holds the id alone, has no point to resume after.
        since.add(data);
        if (since.count() <= 1) return '';
      }
      return id;
    },
    resumed() {
      resumed = true;
      matched = 0;
    },
    point: () => (repeated || since.over() ? undefined : last),
    lost: (cause) =>
      new AgentTransportError(
        'CONNECTION_LOST',
        `The connection dropped inside the run, and it cannot be resumed: ${repeated ? `the agent gave its last SSE id, ${JSON.stringify(last)}, to more than one event` : `over ${SINCE_EVENTS} events, or ${SINCE_CHARS} characters, came after its last SSE id without one`}, so which events it would send again is unknown (${thrownText(cause)}).`,
      ),
  };
}

/**
 * The SSE ids of a run's events handed over, to skip what a resumed stream
 * replays, and to tell an id given to several events. Only the newest are
 * remembered (a server replays what follows the id it is given). Ids that
 * came twice before any resume identify no single event: nothing is skipped
 * by them.
 */
function seenIds() {
  const ids = new Set<string>();
  let chars = 0;
  let unique = true;
  return {
    add(id: string) {
      if (ids.has(id)) {
        unique = false;
        return;
      }
      ids.add(id);
      chars += id.length;
      for (const oldest of ids) {
        if (ids.size <= SEEN_IDS && chars <= SEEN_CHARS) break;
        ids.delete(oldest);
        chars -= oldest.length;
      }
    },
    has: (id: string) => ids.has(id),
    /** Whether a resumed stream's event of this id was handed over already. */
    skips: (id: string) => unique && ids.has(id),
  };
}

/**
 * The data of the events handed over after the last SSE id that carried
 * none: a server resuming after that id sends them again first, and a
 * resumed stream skips them by their data. Past SINCE_EVENTS events or
 * SINCE_CHARS characters the id is no longer a point to resume after.
 */
function eventsSince() {
  let data: string[] = [];
  let chars = 0;
  let over = false;
  return {
    add(text: string) {
      if (over) return;
      chars += text.length;
      if (data.length >= SINCE_EVENTS || chars > SINCE_CHARS) {
        over = true;
        data = [];
      } else data.push(text);
    },
    clear() {
      data = [];
      chars = 0;
      over = false;
    },
    count: () => data.length,
    at: (i: number) => data[i],
    over: () => over,
  };
}
