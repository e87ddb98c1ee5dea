/**
 * How an event's values enter the state: copied, and measured as they are
 * copied (largeObject.ts), so that a snapshot is walked once as it enters.
 * Part of the engine, apart from ownJson.ts: the controller copies values
 * before the engine has loaded.
 */
import { noteCopy } from '../largeObject.js';
import { ownJson } from './ownJson.js';

/** ownJson, with the copy's large objects measured as it makes them. */
function ownMeasured<T>(value: T): T {
  const large: object[] = [];
  const out = ownJson(value, undefined, large);
  if (out !== value && typeof out === 'object' && out !== null) noteCopy(out, large);
  return out;
}

/**
 * The event with every object-valued field copied (`rawEvent` aside, which
 * no record keeps): what the reducer applies. An event of strings and
 * numbers, a token, is returned as it is.
 */
export function ownEvent<E extends object>(event: E): E {
  const fields = event as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value === 'object' && value !== null && key !== 'rawEvent') {
      out ??= { ...fields };
      out[key] = ownMeasured(value);
    }
  }
  return (out ?? event) as E;
}
