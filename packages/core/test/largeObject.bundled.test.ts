import { describe, expect, it, onTestFinished } from 'vitest';
import { bundleApplication } from './support/bundle.js';

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
    const bundle = await bundleApplication(CONSUMER);
    onTestFinished(bundle.remove);
    const bundled = await bundle.load<{ run(): Promise<{ large: boolean; k7: unknown; keys: number }[]> }>();
    const expected = { large: true, k7: 'seven', keys: 100_000 };
    expect(await bundled.run()).toEqual([expected, expected]);
  }, 60_000);
});
