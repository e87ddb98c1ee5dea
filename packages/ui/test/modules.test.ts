import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * How the package's modules may be loaded: by a React Server Components
 * bundler (the 'use client' directive marks where the client begins), and by
 * an application's first load (what is heavy is imported dynamically).
 */
const src = join(import.meta.dirname, '../src');
const modules = readdirSync(src)
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.stories.tsx'))
  .map((file) => ({ file, text: readFileSync(join(src, file), 'utf8') }));

/** Plain functions, data and types: nothing in them runs React, so they need no directive. */
const PURE = new Set([
  'index.ts',
  'clientContext.ts',
  'dates.ts',
  'eventSummary.ts',
  'formSchema.ts',
  'interruptFocus.ts',
  'interruptForm.ts',
  'jsonHighlights.ts',
  'lazyChunks.ts',
  'lazyModule.ts',
  'markdownLinks.ts',
  'markdownPieces.ts',
  'safeUrl.ts',
  'textCut.ts',
  'textDirection.ts',
  'timeTravel.ts',
]);

const USE_CLIENT = /^'use client';\n/;
/** Static imports (not `import type`, not `import()`), with their specifiers and source. */
const staticImports = (text: string) =>
  [...text.matchAll(/^import (?!type )([\s\S]*?) from '([^']+)';/gm)].map((m) => ({ clause: m[1] ?? '', from: m[2] ?? '' }));

describe("'use client'", () => {
  it('starts every module that uses React on the client, and no other', () => {
    const missing = modules.filter((m) => !PURE.has(m.file) && !USE_CLIENT.test(m.text)).map((m) => m.file);
    expect(missing).toEqual([]);
    // The barrel re-exports names: Next.js refuses `export *` from a client boundary, and a pure module has no client code.
    const marked = modules.filter((m) => PURE.has(m.file) && m.text.includes("'use client'")).map((m) => m.file);
    expect(marked).toEqual([]);
  });

  it('keeps the pure modules pure: no React value imported', () => {
    const impure = modules.filter(
      (m) => PURE.has(m.file) && m.file !== 'clientContext.ts' && /^import (?!type ).* from 'react(-dom)?';/m.test(m.text),
    );
    expect(impure.map((m) => m.file)).toEqual([]);
  });

  it('imports React and react-dom as namespaces: no named import a server environment cannot link', () => {
    const named = modules.flatMap((m) =>
      staticImports(m.text)
        .filter(
          (i) => (i.from === 'react' || i.from === 'react-dom') && i.clause.trim() !== '* as React' && i.clause.trim() !== '* as ReactDOM',
        )
        .map((i) => `${m.file}: ${i.clause} from '${i.from}'`),
    );
    expect(named).toEqual([]);
  });
});

describe('the first load', () => {
  it('imports rjsf, react-markdown and remark-gfm only in the modules loaded on demand', () => {
    const heavy = /^(@rjsf\/core|@rjsf\/validator-ajv8|react-markdown|remark-gfm)$/;
    const where = modules.filter((m) => staticImports(m.text).some((i) => heavy.test(i.from))).map((m) => m.file);
    expect(where.sort()).toEqual(['MarkdownRenderer.tsx', 'ResponseForm.tsx']);
    const loaders = modules.filter((m) => /import\('\.\/(MarkdownRenderer|ResponseForm)\.js'\)/.test(m.text)).map((m) => m.file);
    expect(loaders).toEqual(['lazyChunks.ts']);
    const importers = modules.filter((m) => staticImports(m.text).some((i) => /^\.\/(MarkdownRenderer|ResponseForm)\.js$/.test(i.from)));
    expect(importers.map((m) => m.file)).toEqual([]);
  });

  it('never imports @aguikit/core/schema (ajv): answers are validated through core’s lazy loadResumeBuilder', () => {
    expect(modules.filter((m) => staticImports(m.text).some((i) => i.from === '@aguikit/core/schema')).map((m) => m.file)).toEqual([]);
  });

  it('keeps the state inspector off the event timeline: an application with the inspector alone loads none of its modules', () => {
    const byFile = new Map(modules.map((m) => [m.file, m]));
    /** A relative specifier's module: `./X.js` is X.tsx or X.ts. */
    const fileOf = (from: string) =>
      [from.slice(2).replace(/\.js$/, '.tsx'), from.slice(2).replace(/\.js$/, '.ts')].find((f) => byFile.has(f));
    const reached = new Set<string>();
    const visit = (file: string | undefined) => {
      const module = file === undefined ? undefined : byFile.get(file);
      if (!module || reached.has(module.file)) return;
      reached.add(module.file);
      for (const { from } of staticImports(module.text)) if (from.startsWith('./')) visit(fileOf(from));
    };
    visit('StateInspector.tsx');
    expect(reached.has('JsonTree.tsx')).toBe(true);
    expect([...reached].filter((file) => /^(EventTimeline|TimelineDetail|timelineContext)\./.test(file))).toEqual([]);
  });

  it('has no import of @tanstack/react-virtual (its flushSync import cannot link under react-server)', () => {
    expect(modules.filter((m) => m.text.includes('@tanstack/react-virtual')).map((m) => m.file)).toEqual([]);
  });
});
