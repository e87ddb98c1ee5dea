import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const coreDir = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'aguikit-bundled-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/**
 * What an application does, bundled as an application bundles it: Vite (Rollup)
 * with tree-shaking that honours `sideEffects` in core's package.json: the
 * large-object code must be in the bundle, and the same events must give the
 * same representation whether `loadLargeObjects()` (a no-op kept for earlier
 * applications) ran or not.
 */
const CONSUMER = `
import { isLargeObject } from '@aguikit/core';
import { createEventPipeline, loadLargeObjects } from '@aguikit/core/engine';
function firstDelta() {
  const doc = {};
  for (let i = 0; i < 100000; i++) doc['k' + i] = i;
  const p = createEventPipeline();
  p.push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
  p.push({ type: 'STATE_SNAPSHOT', snapshot: doc });
  const state = p.push({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/k7', value: 'seven' }] });
  const document = state.sharedState.document;
  return { large: isLargeObject(document), k7: document.k7, keys: Object.keys(document).length };
}
export async function run() {
  const before = firstDelta();
  await loadLargeObjects();
  return [before, firstDelta()];
}
`;

describe('large objects in a bundled application', () => {
  it('the first delta after a 100,000-key snapshot makes it a large object, with or without loadLargeObjects()', async () => {
    const { build } = await import('vite');
    await build({
      root: coreDir,
      logLevel: 'silent',
      configFile: false,
      resolve: { conditions: ['@aguikit/source', 'module', 'browser', 'production', 'default'] },
      plugins: [
        {
          name: 'consumer',
          resolveId: (id) => (id === 'virtual:consumer' ? '\0consumer.js' : undefined),
          load: (id) => (id === '\0consumer.js' ? CONSUMER : undefined),
        },
      ],
      build: {
        outDir,
        emptyOutDir: true,
        minify: false,
        rollupOptions: {
          input: 'virtual:consumer',
          output: { format: 'es', entryFileNames: 'consumer.js' },
          preserveEntrySignatures: 'exports-only',
        },
      },
    });
    const bundled = (await import(pathToFileURL(join(outDir, 'consumer.js')).href)) as {
      run(): Promise<{ large: boolean; k7: unknown; keys: number }[]>;
    };
    const expected = { large: true, k7: 'seven', keys: 100_000 };
    expect(await bundled.run()).toEqual([expected, expected]);
  }, 60_000);
});
