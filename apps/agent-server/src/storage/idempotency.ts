import { createHash } from 'node:crypto';
import type { SideEffect } from '@aguikit/scenarios';

/** What identifies a side effect in the world: the same action asked for twice is one effect. */
export interface EffectAction {
  threadId: string;
  /** The business action the effect belongs to (for a refund, the approval interrupt it answers). */
  businessActionId: string;
  toolName: string;
  /** The tool's arguments: an object, or the JSON string a tool call carries. */
  arguments: unknown;
}

/**
 * JSON with object keys sorted at every depth and `undefined` members left
 * out, so equal values give equal text whatever order their keys were built
 * in. Throws a `TypeError` for what JSON cannot say (a cycle, a BigInt, a
 * function), rather than hashing something lossy.
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown): string | undefined => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
    // -0 and 0, and every non-finite number (written null by JSON), are one value each.
    if (typeof v === 'number') return JSON.stringify(Object.is(v, -0) ? 0 : v);
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      if (typeof v === 'function') throw new TypeError('A function has no JSON form.');
      return undefined;
    }
    if (typeof v === 'bigint') throw new TypeError('A BigInt has no JSON form.');
    const o = v as object;
    if (seen.has(o)) throw new TypeError('A cyclic value has no JSON form.');
    seen.add(o);
    try {
      const withJson = o as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return walk(withJson.toJSON());
      if (Array.isArray(o)) return `[${o.map((item) => walk(item) ?? 'null').join(',')}]`;
      const members: string[] = [];
      for (const key of Object.keys(o).sort()) {
        const text = walk((o as Record<string, unknown>)[key]);
        if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${members.join(',')}}`;
    } finally {
      seen.delete(o);
    }
  };
  return walk(value) ?? 'null';
}

/** Tool arguments in one form: a JSON string is read as the value it holds, so `'{"a":1}'` and `{ a: 1 }` are the same call. */
export function normalizeArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? null;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * The idempotency key of a side effect: the SHA-256 (hex) of the canonical
 * JSON of `{ threadId, businessActionId, toolName, normalizedArguments }`.
 * The same action on the same thread with the same arguments is one key,
 * however often it is asked for; any difference is another key.
 *
 * @example
 * idempotencyKey({ threadId: 't1', businessActionId: 'r1-refund-approval', toolName: 'refund', arguments: { amount: 42 } });
 * // '5f1c…' (64 hex digits)
 */
export function idempotencyKey(action: EffectAction): string {
  const text = canonicalJson({
    threadId: action.threadId,
    businessActionId: action.businessActionId,
    toolName: action.toolName,
    normalizedArguments: normalizeArguments(action.arguments),
  });
  return createHash('sha256').update(text).digest('hex');
}

/** The key of a scenario's side effect on a thread: its `key` is the business action, its `kind` the tool, its `detail` the arguments. */
export function effectIdempotencyKey(threadId: string, effect: SideEffect): string {
  return idempotencyKey({ threadId, businessActionId: effect.key, toolName: effect.kind, arguments: effect.detail });
}
