import type { RunAgentInput } from '@aguikit/core';
import type { EventPlan } from '@aguikit/scenarios';
import { RequestError } from '../request.js';

/** The slowest playback a request may ask for: a 2 s run takes at most 20 s. */
export const MIN_SPEED = 0.1;
/** The fastest playback short of `0`, which sends every event as soon as the client takes it. */
export const MAX_SPEED = 100;

/**
 * The playback speed of a request: `?speed=`, else `forwardedProps.speed`,
 * else the server's. `0` sends everything at once; anything else must lie in
 * `[MIN_SPEED, MAX_SPEED]` and is refused with 400 otherwise (never clamped
 * silently: a client asking for 1e-9 has a bug worth seeing).
 */
export function speedOf(query: string | undefined, input: RunAgentInput, fallback: number): number {
  const raw = query ?? (input.forwardedProps as { speed?: unknown } | undefined)?.speed ?? fallback;
  // Decimal notation only: Number() would also read '0x10', ' 1' and ''.
  const speed =
    typeof raw === 'string' && DECIMAL.test(raw)
      ? Number(raw) === 0 && !ZERO.test(raw)
        ? Number.NaN
        : Number(raw)
      : typeof raw === 'number'
        ? raw
        : Number.NaN;
  if (!isSpeed(speed))
    throw new RequestError(400, 'BAD_SPEED', `speed must be 0 (no pauses) or a number from ${MIN_SPEED} to ${MAX_SPEED}.`);
  return speed;
}

// One way through each string (no backtracking): a hostile 1 MB speed is refused in linear time.
const DECIMAL = /^(?:\d+|\d*\.\d+)(?:e[+-]?\d+)?$/iu;

/** 0, or a finite number in `[MIN_SPEED, MAX_SPEED]`. */
export function isSpeed(speed: number): boolean {
  return speed === 0 || (Number.isFinite(speed) && speed >= MIN_SPEED && speed <= MAX_SPEED);
}

/** A decimal that says 0 (`0`, `0.000`, `0e5`), as opposed to one so small that Number() rounds it to 0 (`1e-99999`). */
const ZERO = /^0*\.?0*(?:e[+-]?\d+)?$/iu;

/**
 * The most a request may make a scenario generate, per `forwardedProps` knob
 * (`fast-stream`'s tokens, `long-thread`'s messages, `dashboard`'s deltas).
 * The scenarios clamp them higher; the server asks for less, so one small
 * request cannot make it build and hold tens of megabytes.
 */
export const KNOB_LIMITS: Readonly<Record<string, number>> = { tokens: 20_000, messages: 5_000, deltas: 5_000 };

/** Refuses a request whose `forwardedProps` ask a scenario for more than `limits` (by default `KNOB_LIMITS`) allow. */
export function checkKnobs(input: RunAgentInput, limits: Readonly<Record<string, number>> = KNOB_LIMITS): void {
  const props = input.forwardedProps;
  if (typeof props !== 'object' || props === null) return;
  for (const [knob, max] of Object.entries(limits)) {
    const value = (props as Record<string, unknown>)[knob];
    if (typeof value === 'number' && value > max)
      throw new RequestError(400, 'LIMIT_EXCEEDED', `forwardedProps.${knob} may be at most ${max} on this server.`);
  }
}

/** The longest a run may take to play by default: the largest dashboard at the slowest speed takes 17 minutes. */
export const MAX_PLAYBACK_MS = 30 * 60_000;

/**
 * Refuses a run whose events from `from` on would take longer than `maxMs` to
 * play at `speed`. A run is paced for as long as a client reads it, and
 * retention never prunes a run being produced: one request for 20,000
 * tokens a second apart, read slowly, would hold both for hours.
 */
export function checkPlayback(events: EventPlan, from: number, speed: number, maxMs: number): void {
  if (speed === 0) return;
  let ms = 0;
  for (let i = from; i < events.length; i++) {
    ms += (events.at(i)?.delayMs ?? 0) / speed;
    if (ms > maxMs)
      throw new RequestError(
        400,
        'LIMIT_EXCEEDED',
        `This run would take more than ${minutes(maxMs)} to play at speed ${speed}, the most this server allows: ask for fewer events, shorter pauses or a higher speed.`,
      );
  }
}

const minutes = (ms: number): string => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);

/** The runs whose playback bound `playbackChecks` keeps at once: enough for every run being produced and some. */
const PLAYBACK_BOUNDS_KEPT = 1_024;

/** `checkPlayback` for the runs of a server, each run's bound kept once the run is begun (see `playbackChecks`). */
export interface PlaybackChecks {
  /** Checks the rest of run `key` from `from`, keeping its bound. */
  (key: string, events: EventPlan, from: number, speed: number): void;
  /**
   * Checks a run not begun yet, from its start, keeping nothing: its bound is kept by calling what this answers, once
   * the run is begun. A request refused after its check (no room, a run id taken meanwhile) leaves nothing behind
   * to push the bounds of the runs being produced out.
   */
  ahead(key: string, events: EventPlan, speed: number): () => void;
}

/**
 * `checkPlayback` for the runs of a server, each run's events made once: a reconnect to a run of 100,000 events
 * would otherwise make them all again (about 8 ms of the event loop each time) to find what is left too long. For
 * each run (`key`) it keeps the sum of its pauses, which no rest of it exceeds: a rest that plays within `maxMs` by
 * that bound is taken at once, and only one that may not is checked event by event.
 */
export function playbackChecks(maxMs: number): PlaybackChecks {
  const bounds = new Map<string, number>();
  const keep = (key: string, bound: number) => {
    if (!bounds.has(key) && bounds.size >= PLAYBACK_BOUNDS_KEPT) bounds.delete(bounds.keys().next().value as string);
    bounds.set(key, bound);
  };
  const boundOf = (events: EventPlan) => {
    let bound = 0;
    for (let i = 0; i < events.length; i++) bound += Math.max(0, events.at(i)?.delayMs ?? 0);
    return bound;
  };
  /** Within `maxMs` by the bound; else checked event by event. A margin for rounding: a sum of quotients may differ from the quotient of the sum in its last bits. */
  const check = (bound: number, events: EventPlan, from: number, speed: number) => {
    if (bound / speed > maxMs * (1 - 1e-9)) checkPlayback(events, from, speed, maxMs);
  };
  return Object.assign(
    (key: string, events: EventPlan, from: number, speed: number) => {
      if (speed === 0) return;
      let bound = bounds.get(key);
      if (bound === undefined) {
        bound = boundOf(events);
        keep(key, bound);
      }
      check(bound, events, from, speed);
    },
    {
      ahead(key: string, events: EventPlan, speed: number) {
        if (speed === 0) return () => {};
        const bound = boundOf(events);
        check(bound, events, 0, speed);
        return () => keep(key, bound);
      },
    },
  );
}

/** The effects a page of `GET /effects` holds unless its query asks for fewer or more. */
export const EFFECTS_PAGE = 100;
/** The most effects a page of `GET /effects` holds. */
export const MAX_EFFECTS_PAGE = 1_000;

/**
 * The page `GET /effects` asks for: `after`, the cursor a page answered as `next` (0, or none: from the first), and
 * `limit`, 1 to `MAX_EFFECTS_PAGE` (`EFFECTS_PAGE` by default); undefined when it names neither (every effect, in one
 * array). A value that is not a whole number in range, or a parameter given twice, is refused with 400: a client
 * that sends `limit=-1` or `after=1e3` has a bug worth seeing. Other parameters are ignored.
 */
export function effectsQuery(query: Readonly<Record<string, unknown>>): { after: number; limit: number } | undefined {
  if (query.after === undefined && query.limit === undefined) return undefined;
  return {
    after: query.after === undefined ? 0 : wholeParam(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, 'a cursor a page answered as next'),
    limit:
      query.limit === undefined
        ? EFFECTS_PAGE
        : wholeParam(query.limit, 'limit', 1, MAX_EFFECTS_PAGE, `a whole number from 1 to ${MAX_EFFECTS_PAGE}`),
  };
}

/** Digits alone (no sign, point, exponent or space), at most 16 of them: read in linear time, whatever their length. */
const DIGITS = /^\d{1,16}$/u;

function wholeParam(raw: unknown, name: string, min: number, max: number, what: string): number {
  if (Array.isArray(raw)) throw new RequestError(400, 'BAD_QUERY', `${name} is given more than once: give it once, ${what}.`);
  const value = typeof raw === 'string' && DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!(Number.isSafeInteger(value) && value >= min && value <= max)) throw new RequestError(400, 'BAD_QUERY', `${name} must be ${what}.`);
  return value;
}
