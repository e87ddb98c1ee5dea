import { readFileSync } from 'node:fs';
import type { Interrupt, RunAgentInput } from '@aguikit/core';
import { findScenario, type SideEffect, scenarioEvents } from '@aguikit/scenarios';
import { effectIdempotencyKey } from './storage/idempotency.js';
import type { EffectRecord, RunRecord, ThreadRecord } from './storage/types.js';

/** The file the earlier versions of this server kept everything in, one JSON record a line. */
export const JOURNAL_FILE = 'journal.jsonl';

/** A record of the journal, as the earlier server wrote it. */
type JournalRecord =
  | { type: 'run'; scenarioId: string; input: RunAgentInput; now: number }
  | { type: 'effect'; effect: SideEffect; at: number; runId: string };

export interface ImportedJournal {
  runs: RunRecord[];
  /** Each thread's state after its last run, and how many runs it had (its version). */
  threads: { record: ThreadRecord; version: number }[];
  effects: EffectRecord[];
  /** Lines that could not be read (a line cut by a crash, JSON of another shape, a run of an unknown scenario). */
  skipped: { where: string; reason: string }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isJournalRecord(v: unknown): v is JournalRecord {
  if (!isObject(v)) return false;
  if (v.type === 'effect') {
    const e = v.effect;
    return (
      isObject(e) && typeof e.kind === 'string' && typeof e.key === 'string' && typeof v.at === 'number' && typeof v.runId === 'string'
    );
  }
  const input = v.input;
  return (
    v.type === 'run' &&
    typeof v.scenarioId === 'string' &&
    typeof v.now === 'number' &&
    isObject(input) &&
    typeof input.threadId === 'string' &&
    typeof input.runId === 'string' &&
    Array.isArray(input.messages) &&
    Array.isArray(input.tools) &&
    Array.isArray(input.context)
  );
}

/**
 * Reads the journal of the earlier file-based server into storage records:
 * its runs (with an empty nonce: their interrupt ids are the ones they were
 * given then), each thread's open interrupts and answers after its runs
 * (recomputed from the scenarios, which are pure functions of a run's input
 * and clock), and its side effects under their idempotency keys, so none is
 * done again. A line that cannot be read is skipped and listed, and the rest
 * is read on.
 */
export function importJournal(file: string): ImportedJournal {
  const out: ImportedJournal = { runs: [], threads: [], effects: [], skipped: [] };
  const threads = new Map<string, { record: ThreadRecord; version: number }>();
  const threadOfRun = new Map<string, string>();
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const where = `${file}:${i + 1}`;
    const skip = (reason: string) => out.skipped.push({ where, reason });
    try {
      readLine(line, i === lines.length - 1, skip);
    } catch (e) {
      // A line of a shape no check above foresaw (a field of another type, a value nested too deep): skipped like the others.
      skip(`a record that could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  out.threads = [...threads.values()];
  return out;

  function readLine(line: string, lastLine: boolean, skip: (reason: string) => void): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // The earlier server appended after a torn end without repairing it: a whole record may follow the torn one on its line.
      const next = lastLine ? undefined : appendedRecord(line);
      if (next === undefined) {
        skip(lastLine ? 'a last line cut off mid-write' : 'not JSON');
        return;
      }
      skip('a record cut off mid-write, with the next record written after it on its line: the next one was read');
      value = next;
    }
    if (!isJournalRecord(value)) {
      skip('not a run or effect record');
      return;
    }
    if (value.type === 'effect') {
      const threadId = threadOfRun.get(value.runId);
      if (threadId === undefined) {
        skip(`an effect of the unknown run '${value.runId}'`);
        return;
      }
      out.effects.push({ ...value.effect, idempotencyKey: effectIdempotencyKey(threadId, value.effect), runId: value.runId, at: value.at });
      return;
    }
    const { input, scenarioId, now } = value;
    const scenario = findScenario(scenarioId);
    if (!scenario) {
      skip(`a run of the unknown scenario '${scenarioId}'`);
      return;
    }
    if (threadOfRun.has(input.runId)) {
      skip(`the run '${input.runId}' again`);
      return;
    }
    let events: ReturnType<typeof scenarioEvents>;
    try {
      events = scenarioEvents(scenario, input, now);
    } catch (e) {
      skip(`the scenario failed on it: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const before = threads.get(input.threadId) ?? { record: { threadId: input.threadId, open: [], answered: {} }, version: 0 };
    // Worked out on a copy, and kept only once the whole line was read: a line that throws half-way changes nothing.
    const thread = structuredClone(before);
    // As the earlier server did: answers close interrupts, an interrupting finish opens new ones.
    for (const r of input.resume ?? []) {
      const at = thread.record.open.findIndex((it) => it.id === r.interruptId);
      if (at < 0) continue;
      thread.record.open.splice(at, 1);
      thread.record.answered[r.interruptId] = { status: r.status, payload: JSON.stringify(r.payload ?? null) };
    }
    const last = events.at(-1)?.event as { type?: string; outcome?: { type?: string; interrupts?: Interrupt[] } } | undefined;
    if (last?.type === 'RUN_FINISHED' && last.outcome?.type === 'interrupt') thread.record.open.push(...(last.outcome.interrupts ?? []));
    thread.version++;
    threadOfRun.set(input.runId, input.threadId);
    out.runs.push({ runId: input.runId, threadId: input.threadId, scenarioId, input, startedAt: now, nonce: '' });
    threads.set(input.threadId, thread);
  }
}

/** The record written after a torn one on the same line: JSON from the last `{"type":` on that parses whole, if any. */
function appendedRecord(line: string): unknown {
  for (let at = line.lastIndexOf('{"type":'); at > 0; at = line.lastIndexOf('{"type":', at - 1)) {
    try {
      return JSON.parse(line.slice(at));
    } catch {
      // An earlier start: the record may hold `{"type":` inside it.
    }
  }
  return undefined;
}
