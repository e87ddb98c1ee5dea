import { gzipSync } from 'node:zlib';
import type { Plugin, Rolldown } from 'vite';
import type { BenchCase, CaseContext, CaseRound } from '../case.js';
import { fmt } from '../stats.js';

const GZIP_LEVEL = 9;
/** 80 KB, read as 80,000 bytes (the stricter reading, as case 6 reads 25 KB). */
const BAR_BYTES = 80_000;
const REACT = /^(react|react-dom|scheduler)(\/.*)?$/;
/** Modules that belong to the interrupt form: none may load before an interrupt with a schema opens. */
const FORM_MODULES = /[/\\]node_modules[/\\](\.pnpm[/\\][^/\\]+[/\\]node_modules[/\\])?(@rjsf[/\\]|ajv[/\\]|ajv-formats[/\\])/;

interface FirstLoad {
  /** Gzipped JavaScript of the entry chunk and every chunk it imports statically. */
  readonly gzip: number;
  /** The same, of the chunks only a dynamic import() loads. */
  readonly lazyGzip: number;
  /** Modules of the interrupt form (@rjsf, ajv) in what loads up front. */
  readonly formModules: readonly string[];
  /** Whether the form modules are in the build at all (loaded on demand): the check above means nothing without them. */
  readonly formLazy: boolean;
  /** Gzipped bytes up front by package, each chunk's share by its modules' rendered length. */
  readonly byPackage: ReadonlyMap<string, number>;
}

function packageOf(id: string): string {
  const nm = id.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = id.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? id);
  }
  const workspace = /(?:^|\/)packages\/([^/]+)\//.exec(id);
  if (workspace) return `@aguikit/${workspace[1]}`;
  return '(the app)';
}

/**
 * The example resolves `@aguikit/*` as its npm install would; here they are
 * the workspace's packages, from source, resolved as bench/ (which depends on
 * all of them) resolves them.
 */
function workspacePackages(benchDir: string): Plugin {
  return {
    name: 'aguikit-workspace-packages',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (!id.startsWith('@aguikit/') || !importer?.includes('/examples/')) return null;
      return this.resolve(id, `${benchDir}src/cases/firstLoad.ts`, { skipSelf: true });
    },
  };
}

/**
 * Builds examples/vite-app for production as `vite build` does (minified,
 * tree-shaken, code-split), `external` left out, and reads what the browser
 * loads before anything happens: the entry chunk and the chunks it imports
 * statically.
 */
async function buildExample(ctx: CaseContext, external: RegExp | undefined): Promise<FirstLoad> {
  const { build, defaultClientConditions } = await import('vite');
  const root = `${ctx.rootDir}examples/vite-app`;
  const result = await build({
    root,
    configFile: false,
    logLevel: 'error',
    mode: 'production',
    plugins: [workspacePackages(ctx.benchDir)],
    resolve: { conditions: ['@aguikit/source', ...defaultClientConditions], dedupe: ['react', 'react-dom'] },
    oxc: { jsx: { runtime: 'automatic' } },
    build: {
      write: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 10_000,
      rolldownOptions: external ? { external: (id) => external.test(id) } : {},
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initial = new Set<string>();
  const visit = (name: string) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const imported of byName.get(name)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  let js = '';
  let lazy = '';
  const formModules: string[] = [];
  let formAnywhere = false;
  const byPackage = new Map<string, number>();
  for (const chunk of chunks) {
    const up = initial.has(chunk.fileName);
    if (up) js += chunk.code;
    else lazy += chunk.code;
    const gz = gzipSync(chunk.code, { level: GZIP_LEVEL }).length;
    const total = Object.values(chunk.modules).reduce((sum, m) => sum + m.renderedLength, 0) || 1;
    for (const [id, m] of Object.entries(chunk.modules)) {
      if (FORM_MODULES.test(id)) {
        formAnywhere = true;
        if (up) formModules.push(id);
      }
      if (up && m.renderedLength > 0) byPackage.set(packageOf(id), (byPackage.get(packageOf(id)) ?? 0) + (gz * m.renderedLength) / total);
    }
  }
  return {
    gzip: gzipSync(js, { level: GZIP_LEVEL }).length,
    lazyGzip: lazy ? gzipSync(lazy, { level: GZIP_LEVEL }).length : 0,
    formModules,
    formLazy: formAnywhere && formModules.length === 0,
    byPackage: new Map([...byPackage].sort((a, b) => b[1] - a[1])),
  };
}

const kb = (bytes: number) => `${fmt(bytes / 1000)} KB`;

/** The last build, for the report: deterministic, so the last round is every round. */
let last: { withoutReact: FirstLoad; withReact: FirstLoad } | undefined;

export const firstLoadCase: BenchCase = {
  number: 7,
  id: 'first-load',
  title: 'First load of an application (examples/vite-app)',
  method: [
    '`examples/vite-app` (the README\'s "The components": `AgentChat`, `StateInspectorPanel` and a custom tool card) built by Vite for production as its own `vite build` does: minified, tree-shaken, split into chunks at every dynamic `import()`. The `@aguikit/*` packages are the workspace\'s, from source. What loads up front is the entry chunk and every chunk it imports statically; what only a dynamic `import()` loads (the interrupt form with @rjsf and ajv, the Markdown renderer, the resume builder) is counted apart. Sizes are of the JavaScript, gzipped at level 9; 1 KB = 1,000 bytes.',
    'The bar is checked on the build with React, ReactDOM and scheduler left external ("minus React and ReactDOM"); the build with them is reported beside it.',
  ].join('\n\n'),
  deterministic: true,
  loadsTools: true,
  figures: {
    firstLoad: { label: 'first-load JavaScript without React and ReactDOM, gzipped', unit: 'B' },
    firstLoadWithReact: { label: 'first-load JavaScript with React and ReactDOM, gzipped', unit: 'B' },
    lazy: { label: 'loaded on demand (interrupt form, Markdown, resume builder, ...), gzipped', unit: 'B' },
    formModulesUpFront: { label: '@rjsf and ajv modules in the first load', unit: 'modules' },
  },
  ratios: {},
  bars: [
    {
      id: 'first-load-80kb',
      text: 'The first-load JavaScript of examples/vite-app, minus React and ReactDOM, is at most 80 KB gzipped',
      on: { figure: 'firstLoad' },
      op: '<=',
      limit: BAR_BYTES,
    },
    {
      id: 'first-load-no-form',
      text: 'No @rjsf or ajv module is in the first load of examples/vite-app',
      on: { figure: 'formModulesUpFront' },
      op: '<=',
      limit: 0,
      unit: 'modules',
    },
  ],

  async run(ctx: CaseContext): Promise<CaseRound> {
    const withoutReact = await buildExample(ctx, REACT);
    const withReact = await buildExample(ctx, undefined);
    if (!withoutReact.formLazy && withoutReact.formModules.length === 0) {
      throw new Error('examples/vite-app has no @rjsf module at all: the interrupt form is missing from the build.');
    }
    last = { withoutReact, withReact };
    ctx.log(`  examples/vite-app first load ${kb(withoutReact.gzip)} gzipped without React, ${kb(withReact.gzip)} with it`);
    return {
      figures: {
        firstLoad: withoutReact.gzip,
        firstLoadWithReact: withReact.gzip,
        lazy: withoutReact.lazyGzip,
        formModulesUpFront: withoutReact.formModules.length,
      },
      ratios: {},
    };
  },

  obstacles() {
    if (!last) return undefined;
    const top = [...last.withoutReact.byPackage]
      .slice(0, 5)
      .map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)
      .join(', ');
    const form = last.withoutReact.formModules.length
      ? ` The form's modules load up front: ${last.withoutReact.formModules.slice(0, 3).join(', ')}.`
      : '';
    return `Largest up front: ${top}.${form}`;
  },

  extras() {
    if (!last) return {};
    const rows = [...last.withoutReact.byPackage].map(([pkg, bytes]) => `| ${pkg} | ${kb(bytes)} |`);
    return {
      markdown: [
        "What loads up front, by package (gzipped, each chunk shared out by its modules' rendered size):",
        '',
        '| package | up front |',
        '|---|---|',
        ...rows,
      ].join('\n'),
    };
  },
};
