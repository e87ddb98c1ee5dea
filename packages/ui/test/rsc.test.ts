import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The packages as a React Server Components environment loads them: Node
 * with the `react-server` condition, where React exports only what a server
 * component may use (no createContext, no useState...) and Node refuses to
 * link a named import of anything else. Importing the entries must not throw,
 * so a server component can import the client components (marked
 * 'use client') and the hooks' types from them. The sources are run as they
 * are (test/support/rsc transpiles each file on its own, as tsc does), so no
 * build is needed.
 */
const uiDir = join(import.meta.dirname, '..');
const script = join(import.meta.dirname, 'support/rsc/importEntries.mjs');

function importUnder(conditions: string[], specifiers: string[]) {
  const run = spawnSync(process.execPath, [...conditions.map((c) => `--conditions=${c}`), script, ...specifiers], {
    cwd: uiDir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const exported = run.status === 0 ? (JSON.parse(run.stdout) as Record<string, string[]>) : undefined;
  return { status: run.status, stderr: run.stderr, exported };
}

const SERVER = ['react-server', '@aguikit/source'];
const CLIENT = ['@aguikit/source'];

describe('under the react-server condition', () => {
  it('refuses a named import of a client-only React API (the check is real)', () => {
    const run = importUnder(SERVER, ['./namedClientImport.ts']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/does not provide an export named 'createContext'/);
    expect(importUnder(CLIENT, ['./namedClientImport.ts']).status).toBe(0);
  });

  it('imports @aguikit/react and @aguikit/ui without throwing, with every export of the client build', () => {
    const entries = ['@aguikit/react', '@aguikit/ui'];
    const server = importUnder(SERVER, entries);
    expect(server.stderr).toBe('');
    expect(server.status).toBe(0);
    const client = importUnder(CLIENT, entries);
    expect(client.status).toBe(0);
    expect(server.exported).toEqual(client.exported);
    expect(server.exported?.['@aguikit/ui']).toEqual(expect.arrayContaining(['AgentChat', 'preloadInterruptForm', 'preloadMarkdown']));
  });
});
