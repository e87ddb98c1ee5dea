/**
 * The main entry holds what applications use, at most 30 runtime names;
 * what only aguikit's own packages need is in `@aguikit/core/internal`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import * as internal from '../src/internal.js';

const INTERNAL_ONLY = [
  'recordResume',
  'streamTruncated',
  'markToolCallExecuting',
  'idMap',
  'newId',
  'LARGE_OBJECT_KEYS',
  'appendMessages',
  'cancelRun',
  'setSharedDocument',
  'addToolResult',
  'UNDERSTOOD_PROTOCOL_VERSION',
] as const;

describe('the public API', () => {
  it('the main entry exports at most 30 runtime names, the run controller among them', () => {
    const names = Object.keys(core);
    expect(names.length).toBeLessThanOrEqual(30);
    expect(names).toContain('createRunController');
    // The README gives the count.
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`The main entry holds what applications use (${names.length} runtime names,`);
  });

  it.each(INTERNAL_ONLY)('%s is in @aguikit/core/internal, not the main entry', (name) => {
    expect(core).not.toHaveProperty(name);
    expect(internal).toHaveProperty(name);
  });
});

describe('the run controller', () => {
  it('is split by concern: no file of it is over 250 lines', () => {
    const dir = new URL('../src/controller/', import.meta.url);
    const long = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `${file}: ${readFileSync(new URL(file, dir), 'utf8').split('\n').length - 1} lines`)
      .filter((line) => Number(/(\d+) lines$/.exec(line)?.[1]) > 250);
    expect(long).toEqual([]);
  });
});
