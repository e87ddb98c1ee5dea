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
