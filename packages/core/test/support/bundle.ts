import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const coreDir = fileURLToPath(new URL('../..', import.meta.url));

/** The chunks of a bundle, as Vite reports them. */
export interface BundledChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  moduleIds: string[];
}

export interface Bundled {
  /** Every chunk of the bundle (assets left out). */
  readonly chunks: readonly BundledChunk[];
  /** The path of the entry's module, to run it in a process of its own. */
  readonly entry: string;
  /** Imports the entry's module. */
  load<T>(): Promise<T>;
  /** Removes the bundle's directory. */
  remove(): void;
}

/**
 * Bundles `source` as an application bundles what it imports: Vite (Rolldown)
 * for production, the workspace packages from source, tree-shaking that
 * honours `sideEffects`, not minified, runnable in Node (no modulepreload
 * helper, which needs a document).
 */
export async function bundleApplication(source: string): Promise<Bundled> {
  const outDir = mkdtempSync(join(tmpdir(), 'aguikit-bundled-'));
  const { build } = await import('vite');
  const result = await build({
    root: coreDir,
    logLevel: 'silent',
    configFile: false,
    resolve: { conditions: ['@aguikit/source', 'module', 'browser', 'production', 'default'] },
    plugins: [
      {
        name: 'consumer',
        resolveId: (id) => (id === 'virtual:consumer' ? '\0consumer.js' : undefined),
        load: (id) => (id === '\0consumer.js' ? source : undefined),
      },
    ],
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      modulePreload: false,
      rollupOptions: {
        input: 'virtual:consumer',
        output: { format: 'es', entryFileNames: 'consumer.js' },
        preserveEntrySignatures: 'exports-only',
      },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as { output: (BundledChunk | { type: 'asset' })[] };
  return {
    chunks: output.output.filter((c): c is BundledChunk => c.type === 'chunk'),
    entry: join(outDir, 'consumer.js'),
    load: async <T>() => (await import(pathToFileURL(join(outDir, 'consumer.js')).href)) as T,
    remove: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
