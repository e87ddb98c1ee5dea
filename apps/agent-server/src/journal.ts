import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunAgentInput } from '@aguikit/core';
import type { SideEffect } from '@aguikit/scenarios';

export type JournalRecord =
  | { type: 'run'; scenarioId: string; input: RunAgentInput; now: number }
  | { type: 'effect'; effect: SideEffect; at: number; runId: string };

/**
 * The server's memory: every accepted run (its input and clock, from which a
 * scenario's events follow deterministically) and every side effect. Kept in
 * a JSON-lines file when a directory is given, so a restarted server can
 * continue a run a client reconnects to, and never repeats a side effect.
 */
export class Journal {
  private readonly file: string | undefined;
  readonly records: JournalRecord[] = [];

  constructor(dir?: string) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'journal.jsonl');
    if (!existsSync(this.file)) return;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        this.records.push(JSON.parse(line) as JournalRecord);
      } catch {
        // A line cut by a crash mid-write: what came before it is intact.
      }
    }
  }

  append(record: JournalRecord): void {
    this.records.push(record);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }
}
