// Module hooks that let Node 20 run the workspace's TypeScript sources as they are (no build):
// a relative `./x.js` from a .ts/.tsx file finds `./x.ts` or `./x.tsx`, and each .ts/.tsx file is
// transpiled on its own (types stripped, JSX to react/jsx-runtime), as `tsc` emits it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

const TS = /\.(ts|tsx)$/;

export async function resolve(specifier, context, next) {
  const parent = context.parentURL ?? '';
  if (TS.test(parent) && specifier.startsWith('.') && specifier.endsWith('.js')) {
    for (const ext of ['.ts', '.tsx']) {
      const url = new URL(specifier.slice(0, -3) + ext, parent);
      if (existsSync(url)) return { url: url.href, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !TS.test(url)) return next(url, context);
  const filename = fileURLToPath(url);
  const code = await readFile(filename, 'utf8');
  const out = await transformWithOxc(code, filename, {
    lang: filename.endsWith('.tsx') ? 'tsx' : 'ts',
    jsx: { runtime: 'automatic' },
    // As `verbatimModuleSyntax` emits: an import is kept unless it is marked `type`.
    typescript: { onlyRemoveTypeImports: true },
  });
  return { format: 'module', source: out.code, shortCircuit: true };
}
