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
   * Takes a frame's id (an unsendable one already made empty), data, and the value parsed from it: SENT_BEFORE when a
   * resumed stream sends again an event handed over (the same data, or data written otherwise that is the same JSON
   * value), else the id to tell the consumer (`''` when there is no point to resume after it). Throws CONNECTION_LOST
   * when a resumed stream sends other events in their place: whether they are new is unknown.
   */
  take(id: string | undefined, data: string, heartbeat: boolean, value?: unknown): string | undefined | typeof SENT_BEFORE;
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
 * the caller already has that event). The events without an id after the
 * last one are held only when the stream `resumes` itself (`reconnect`):
 * nothing else compares them. `kept` is the caller's state of the run's
 * stream (`SourceRunOptions.streamState`): a request that resumes after the
 * point the stream kept there ended at (the controller's `reconnect()`) goes
 * on with that point, so what a server resuming from an earlier place sends
 * again is skipped by its id, as within one stream. Nothing is kept beyond
 * the caller's object: two callers (two controllers) share no point.
 */
export function resumePoint(lastEventId: string | undefined, resumes: boolean, kept?: object): ResumePoint {
  const state = kept as { resumePoint?: ResumePoint } | undefined;
  const before = state?.resumePoint;
  if (before && lastEventId !== undefined && before.point() === lastEventId) {
    before.resumed();
    return before;
  }
  const made = newPoint(lastEventId, resumes);
  if (state) state.resumePoint = made;
  return made;
}

function newPoint(lastEventId: string | undefined, resumes: boolean): ResumePoint {
  const seen = seenIds();
  let last = lastEventId;
  if (last !== undefined) seen.add(last);
  // Ids are compared only once the stream was resumed: a server may give several events one id, which on a first
  // connection drops nothing, and then its ids identify no event to skip.
  let resumed = last !== undefined;
  // Whether the last id named more than one event (then which of them a server resumes after is unknown).
  let repeated = false;
  const since = eventsSince(resumes);
  // While a resumed stream sends again what was handed over: the events since the last id matched so far.
  let matched: number | undefined;
  /** Whether a resumed stream's event was handed over already. */
  const sentBefore = (id: string | undefined, data: string, value: unknown): boolean => {
    if (matched === undefined) return false;
    if (id) {
      if ((id === last && !repeated) || seen.skips(id)) return true;
      // A new id: what followed the last id without one was not sent again.
      matched = undefined;
      return false;
    }
    if (matched < since.held()) {
      const held = since.at(matched) as string;
      if (held === data || sameJson(held, value)) {
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
    take(id, data, heartbeat, value) {
      if (!heartbeat && sentBefore(id, data, value)) return SENT_BEFORE;
      // A heartbeat that carries the last id again (a server stamping its pings with where the stream is) names no
      // second event of it, and moves the point to resume after nowhere: the events since stay the ones sent again.
      if (heartbeat && id && id === last) return id;
      // An empty `id:` is no id: it resets the last event ID (the SSE standard), and identifies nothing.
      if (id === '') last = undefined;
      else if (id !== undefined) {
        if (resumed && seen.skips(id)) return SENT_BEFORE;
        repeated = seen.has(id);
        last = own(id);
        seen.add(last);
        since.clear();
        return repeated ? '' : id;
      } else if (last !== undefined && !heartbeat) {
        // An event without an id after one with an id: a server resuming after that id sends it again, which only
        // this stream can tell by what it holds; the consumer, which holds the id alone, has no point to resume after.
        if (since.add(data) === 1) return '';
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
 * Whether `held` (an event's data) is JSON of the same value as `value`, an
 * object or array parsed from data written otherwise: a server may write an
 * event it sends again with other spaces or another order of keys (its
 * store keeps values, not text), which is the same event. Compared without
 * recursion: an event may nest as deep as the frame reader parses.
 */
function sameJson(held: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(held);
  } catch {
    return false;
  }
  const pairs: [unknown, unknown][] = [[parsed, value]];
  for (let pair = pairs.pop(); pair !== undefined; pair = pairs.pop()) {
    const [a, b] = pair;
    if (a === b) continue;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(b, key)) return false;
      pairs.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

/**
 * A string of its own, as long as `text`: the parser's strings (a frame's
 * data, its id) may be slices of the network chunk they came in, which a
 * slice held keeps whole (a small event a server padded with a comment held
 * 60 KB).
 */
const own = (text: string): string => ` ${text}`.slice(1);

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
 * none (held when `holding`): a server resuming after that id sends them
 * again first, and a resumed stream skips them by their data. Past
 * SINCE_EVENTS events or SINCE_CHARS characters the id is no longer a point
 * to resume after. `add` says how many came since the id.
 */
function eventsSince(holding: boolean) {
  let data: string[] = [];
  let count = 0;
  let chars = 0;
  let over = false;
  return {
    add(text: string): number {
      count++;
      if (over || !holding) return count;
      chars += text.length;
      if (data.length >= SINCE_EVENTS || chars > SINCE_CHARS) {
        over = true;
        data = [];
      } else data.push(own(text));
      return count;
    },
    clear() {
      data = [];
      count = 0;
      chars = 0;
      over = false;
    },
    held: () => data.length,
    at: (i: number) => data[i],
    over: () => over,
  };
}
