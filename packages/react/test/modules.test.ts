import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * How a React Server Components bundler meets the package: the 'use client'
 * directive marks the modules that run React on the client; the rest (the
 * store, its helpers, the types) and the barrel stay unmarked. Importing the
 * entry under the react-server condition is tested in the ui project
 * (test/rsc.test.ts there imports @aguikit/react too).
 */
const src = join(import.meta.dirname, '../src');
const modules = readdirSync(src)
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({ file, text: readFileSync(join(src, file), 'utf8') }));

/** The barrel, the store, its option layers and its types, and the context helper: nothing in them runs React on the client. */
const PURE = new Set(['index.ts', 'clientContext.ts', 'layers.ts', 'store.ts', 'types.ts']);

describe("'use client'", () => {
  it('starts every hook and component module, and no other', () => {
    expect(modules.filter((m) => !PURE.has(m.file) && !m.text.startsWith("'use client';\n")).map((m) => m.file)).toEqual([]);
    expect(modules.filter((m) => PURE.has(m.file) && m.text.includes("'use client'")).map((m) => m.file)).toEqual([]);
  });

  it('imports React as a namespace, never a named client API', () => {
    const named = modules.filter((m) => /^import (?!type |\* as React )[^;]* from 'react';/m.test(m.text)).map((m) => m.file);
    expect(named).toEqual([]);
  });

  it('never imports @aguikit/core/schema (ajv): the store loads what answers need through loadResumeBuilder', () => {
    expect(modules.filter((m) => m.text.includes("'@aguikit/core/schema'")).map((m) => m.file)).toEqual([]);
  });

  it('never imports @aguikit/core/internal: a bundler that splits by file would load the engine it reaches up front', () => {
    // esbuild with splitting puts a file every entry reaches in a chunk loaded up front, whichever export is used:
    // internal reaches the JSON Patch applier and the session log, which the controller loads on demand.
    expect(modules.filter((m) => m.text.includes("'@aguikit/core/internal'")).map((m) => m.file)).toEqual([]);
  });
});
