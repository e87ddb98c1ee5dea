/**
 * Records the event stream grows: metadata merged per key, and the records a
 * thread keeps by id (runs, subagents, reasoning spans, step metadata). Past
 * `LARGE_OBJECT_KEYS` keys such a record is a large object (largeObject.ts),
 * so an agent that adds a key at each event (metadata named anew at each
 * chunk, thousands of subagents) grows it in O(log keys) an event rather
 * than copying every key it holds: 10,000 such events took 8-65 s, now
 * tens of milliseconds. Part of the engine: what the client does on its own
 * (local.ts) happens once per action and copies.
 */
import { withKeys } from '../largeObject.js';
import type { RecordMetadata } from '../model.js';

export type Meta = RecordMetadata | undefined;

/** Merges metadata per key, last write wins; arrays and objects are replaced, not merged. */
export function mergeMetadata(existing: Meta, incoming: Meta): Meta {
  if (incoming === undefined) return existing;
  if (existing === undefined) return incoming;
  return withKeys(existing, incoming);
}

/** `record` with `incoming` merged into its metadata (see mergeMetadata); `record` itself when there is none. */
export function withMeta<T extends { metadata?: RecordMetadata }>(record: T, incoming: Meta): T {
  return incoming === undefined ? record : { ...record, metadata: mergeMetadata(record.metadata, incoming) as RecordMetadata };
}

/** `record` with `key` set to `value`, leaving `record` as it was. */
export function withKey<V>(record: Readonly<Record<string, V>>, key: string, value: V): Readonly<Record<string, V>> {
  return withKeys(record, { [key]: value });
}
