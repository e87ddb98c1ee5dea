import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import type { BenchCase, CaseContext, CaseRound, CaseSummary } from '../case.js';
import { fmt } from '../stats.js';

/** What an application using aguikit imports: the store, the run hook, the hooks that select, the SSE transport. */
const CORE_REACT_ENTRY = `export {
  AgentProvider, createAgentStore, useAgentRun, useAgentState, useDiagnostics, useInterrupts,
  useMessage, useMessageIds, useRunStatus, useToolCall,
} from '@aguikit/react';
export { httpSseSource } from '@aguikit/core';
`;
const UI_ENTRY = `export * from '@aguikit/ui';\n`;
const CLIENT_ENTRY = `export { HttpAgent } from '@ag-ui/client';\n`;

const REACT = ['react', 'react/*', 'react-dom', 'react-dom/*'];
const RJSF = ['@rjsf/*'];
const AGUIKIT = ['@aguikit/core', '@aguikit/react'];
/** The runtime dependencies core and react import; each is left out in turn to see what it costs. */
const CORE_REACT_DEPENDENCIES = ['ajv', 'fast-json-patch', 'eventsource-parser', 'zustand'];
const GZIP_LEVEL = 9;
/** The application entry's file name, to tell it from the chunks dynamic imports start. */
const ENTRY_NAME = 'app-entry.ts';
/** 25 KB, read as 25,000 bytes (the stricter reading). */
const BAR_BYTES = 25_000;

interface Built {
  /** Minified JavaScript an application loads up front (the entry and what it imports statically), bytes. */
  readonly bytes: number;
  readonly gzip: number;
  /** Chunks loaded on demand (dynamic `import()`, e.g. ajv when an interrupt's answer has a schema), gzipped. */
  readonly lazyGzip: number;
  readonly css: number;
  /** Minified bytes by package in what loads up front. */
  readonly byPackage: ReadonlyMap<string, number>;
  /** Minified bytes by package in the chunks loaded on demand. */
  readonly lazyByPackage: ReadonlyMap<string, number>;
}

/** The package a bundled file belongs to, from its path in the metafile. */
function packageOf(path: string): string {
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? path);
  }
  const workspace = /(?:^|\/)packages\/([^/]+)\//.exec(path);
  if (workspace) return `@aguikit/${workspace[1]}`;
  return '(entry)';
}

function byPackage(metafile: Metafile, include: (file: string) => boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.js') || !include(file)) continue;
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      out.set(name, (out.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return new Map([...out].sort((a, b) => b[1] - a[1]));
}

/**
 * Bundles `contents` as an application would ship it: ESM, minified,
 * tree-shaken, for browsers, production mode, workspace packages from
 * source (the `@aguikit/source` condition), `external` left out.
 */
async function bundle(contents: string, external: readonly string[], ctx: CaseContext): Promise<Built> {
  const result = await build({
    stdin: { contents, resolveDir: ctx.benchDir, sourcefile: ENTRY_NAME, loader: 'ts' },
    bundle: true,
    write: false,
    outdir: `${ctx.benchDir}results/bundle.tmp`,
    format: 'esm',
    // Chunks loaded with import() stay out of what an application loads up front.
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    conditions: ['@aguikit/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: [...external],
    metafile: true,
    logLevel: 'silent',
  });
  // What loads up front: the entry chunk and, transitively, the chunks it imports statically.
  const outputs = result.metafile.outputs;
  const initial = new Set<string>();
  const visit = (file: string) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
  };
  // Only the application's entry: a chunk that a dynamic import() starts has an entryPoint of its own too.
  for (const [file, output] of Object.entries(outputs)) if (output.entryPoint?.endsWith(ENTRY_NAME)) visit(file);
  let js = '';
  let lazy = '';
  let css = 0;
  for (const file of result.outputFiles) {
    const relative = Object.keys(outputs).find((name) => file.path.endsWith(name));
    if (file.path.endsWith('.js')) {
      if (relative !== undefined && !initial.has(relative)) lazy += file.text;
      else js += file.text;
    } else if (file.path.endsWith('.css')) css += file.contents.length;
  }
  return {
    bytes: Buffer.byteLength(js),
    gzip: gzipSync(js, { level: GZIP_LEVEL }).length,
    lazyGzip: lazy ? gzipSync(lazy, { level: GZIP_LEVEL }).length : 0,
    css,
    byPackage: byPackage(result.metafile, (file) => initial.has(file)),
    lazyByPackage: byPackage(result.metafile, (file) => !initial.has(file)),
  };
}

/** The last build's breakdowns, for the report: deterministic, so the last round is every round. */
let breakdown: { coreReact: Built; ui: Built; client: Built; saved: Map<string, number>; own: Built } | undefined;

const kb = (bytes: number) => `${fmt(bytes / 1000)} KB`;

export const bundleSizeCase: BenchCase = {
  number: 6,
  id: 'bundle-size',
  title: 'Bundle size',
  method: [
    `Each entry is bundled by esbuild as an application ships it: ESM, minified, tree-shaken, for browsers, \`process.env.NODE_ENV\` = production, the workspace packages from their \`src/index.ts\` (the \`@aguikit/source\` condition); sizes are of the JavaScript, gzipped at level ${GZIP_LEVEL}. 1 KB = 1,000 bytes.`,
    `**@aguikit/core + @aguikit/react**: an entry importing what an application uses (\`createAgentStore\`, \`useAgentRun\`, \`AgentProvider\`, the selecting hooks, \`httpSseSource\`); React external. Every runtime dependency is bundled. **@aguikit/ui**: \`export * from '@aguikit/ui'\` with React and \`@rjsf/*\` external — its own code and dependencies on top of core + react (those external too), and the total with them. **@ag-ui/client**: an entry importing \`HttpAgent\`, bundled the same way.`,
    "The breakdown lists the minified bytes each package contributes (esbuild's metafile), and what leaving each runtime dependency of core and react out of the bundle saves, gzipped (the bundle rebuilt with that dependency external, its own dependencies included).",
  ].join('\n\n'),
  deterministic: true,
  figures: {
    coreReact: { label: '@aguikit/core + @aguikit/react, gzipped', unit: 'B' },
    coreReactMin: { label: '@aguikit/core + @aguikit/react, minified', unit: 'B' },
    coreReactLazy: {
      label: '@aguikit/core + @aguikit/react, loaded on demand (resume builder, ajv, immer), gzipped',
      unit: 'B',
    },
    ownCode: { label: 'aguikit own code only (every dependency external), gzipped', unit: 'B' },
    ui: { label: '@aguikit/ui on top of core + react, without @rjsf, gzipped', unit: 'B' },
    uiTotal: { label: '@aguikit/ui + core + react, without @rjsf, gzipped', unit: 'B' },
    client: { label: '@ag-ui/client HttpAgent, gzipped', unit: 'B' },
    clientMin: { label: '@ag-ui/client HttpAgent, minified', unit: 'B' },
  },
  ratios: {
    coreReactOverClient: { label: '(core + react) / @ag-ui/client HttpAgent, gzipped' },
    uiTotalOverClient: { label: '(ui + core + react) / @ag-ui/client HttpAgent, gzipped' },
  },
  bars: [
    {
      id: 'core-react-25kb',
      text: '@aguikit/core + @aguikit/react at most 25 KB gzipped',
      on: { figure: 'coreReact' },
      op: '<=',
      limit: BAR_BYTES,
    },
  ],

  async run(ctx: CaseContext): Promise<CaseRound> {
    const coreReact = await bundle(CORE_REACT_ENTRY, REACT, ctx);
    const saved = new Map<string, number>();
    for (const dep of CORE_REACT_DEPENDENCIES) {
      const without = await bundle(CORE_REACT_ENTRY, [...REACT, dep, `${dep}/*`], ctx);
      saved.set(dep, coreReact.gzip - without.gzip);
    }
    const own = await bundle(CORE_REACT_ENTRY, [...REACT, ...CORE_REACT_DEPENDENCIES.flatMap((d) => [d, `${d}/*`])], ctx);
    const ui = await bundle(UI_ENTRY, [...REACT, ...RJSF, ...AGUIKIT], ctx);
    const uiTotal = await bundle(UI_ENTRY, [...REACT, ...RJSF], ctx);
    const client = await bundle(CLIENT_ENTRY, REACT, ctx);
    breakdown = { coreReact, ui, client, saved, own };
    ctx.log(`  core + react ${kb(coreReact.gzip)} gzipped, ui ${kb(ui.gzip)}, @ag-ui/client HttpAgent ${kb(client.gzip)}`);
    return {
      figures: {
        coreReact: coreReact.gzip,
        coreReactMin: coreReact.bytes,
        coreReactLazy: coreReact.lazyGzip,
        ownCode: own.gzip,
        ui: ui.gzip,
        uiTotal: uiTotal.gzip,
        client: client.gzip,
        clientMin: client.bytes,
      },
      ratios: { coreReactOverClient: coreReact.gzip / client.gzip, uiTotalOverClient: uiTotal.gzip / client.gzip },
    };
  },

  obstacles() {
    if (!breakdown) return undefined;
    const { coreReact, saved, own } = breakdown;
    const patching = saved.get('fast-json-patch') ?? 0;
    return [
      `Up front, aguikit's own code is ${kb(own.gzip)}, fast-json-patch ${kb(patching)} and eventsource-parser ${kb(saved.get('eventsource-parser') ?? 0)} (each figure: what leaving it out saves); ${kb(coreReact.lazyGzip)} (the resume builder, ajv, immer) loads on demand.`,
      'A chunk that was on demand now loads up front, or the code each event needs grew: the package table below shows which.',
    ].join(' ');
  },

  extras(_summary: CaseSummary) {
    if (!breakdown) return {};
    const { coreReact, ui, client, saved, own } = breakdown;
    const TOP = 12;
    const table = (built: Built) => {
      const rows = [...built.byPackage].filter(([, bytes]) => bytes > 0);
      const row = (name: string, bytes: number) =>
        `| ${name} | ${bytes.toLocaleString('en-US')} | ${((bytes / built.bytes) * 100).toFixed(1)}% |`;
      const rest = rows.slice(TOP);
      return [
        ...rows.slice(0, TOP).map(([name, bytes]) => row(name, bytes)),
        ...(rest.length
          ? [
              row(
                `${rest.length} more packages`,
                rest.reduce((n, [, bytes]) => n + bytes, 0),
              ),
            ]
          : []),
      ];
    };
    const markdown = [
      '**@aguikit/core + @aguikit/react: what each runtime dependency costs** (gzipped bytes saved when it is left out; its own dependencies go with it)',
      '',
      '| dependency | gzipped bytes it adds | why it is there |',
      '|---|---|---|',
      ...CORE_REACT_DEPENDENCIES.map((d) => `| ${d} | ${(saved.get(d) ?? 0).toLocaleString('en-US')} | ${WHY[d] ?? ''} |`),
      `| aguikit's own code (every dependency external) | ${own.gzip.toLocaleString('en-US')} | |`,
      '',
      `**@aguikit/core + @aguikit/react by package** (minified bytes loaded up front; ${coreReact.bytes.toLocaleString('en-US')} in all)`,
      '',
      '| package | minified bytes | share |',
      '|---|---|---|',
      ...table(coreReact),
      '',
      `Loaded on demand (${kb(coreReact.lazyGzip)} gzipped): the resume builder when an interrupt opens, ajv when it has a \`responseSchema\`, immer at the first shared-state edit: ${[
        ...coreReact.lazyByPackage,
      ]
        .map(([name, bytes]) => `${name} ${bytes.toLocaleString('en-US')}`)
        .join(', ')} minified bytes.`,
      '',
      `**@aguikit/ui on top of core + react, without @rjsf, by package** (${ui.bytes.toLocaleString('en-US')} minified bytes${ui.css ? `, plus ${ui.css.toLocaleString('en-US')} bytes of CSS` : ''})`,
      '',
      '| package | minified bytes | share |',
      '|---|---|---|',
      ...table(ui),
      '',
      `**@ag-ui/client HttpAgent by package** (${client.bytes.toLocaleString('en-US')} minified bytes)`,
      '',
      '| package | minified bytes | share |',
      '|---|---|---|',
      ...table(client),
    ].join('\n');
    const lines = [
      'core + react, gzipped bytes each runtime dependency adds:',
      ...CORE_REACT_DEPENDENCIES.map((d) => `  ${d.padEnd(20)} ${String(saved.get(d) ?? 0).padStart(7)}`),
      `  ${"aguikit's own code".padEnd(20)} ${String(own.gzip).padStart(7)}  (every dependency external)`,
      'core + react, minified bytes by package, up front:',
      ...[...coreReact.byPackage]
        .filter(([, bytes]) => bytes > 0)
        .map(([name, bytes]) => `  ${name.padEnd(28)} ${String(bytes).padStart(7)}`),
      'core + react, minified bytes by package, on demand:',
      ...[...coreReact.lazyByPackage].map(([name, bytes]) => `  ${name.padEnd(28)} ${String(bytes).padStart(7)}`),
    ];
    return { markdown, console: lines.join('\n') };
  },
};

const WHY: Record<string, string> = {
  ajv: 'validates interrupt answers against `responseSchema` (core, `schema.ts`); the store loads it on demand when an interrupt with a schema opens, so up front it is nothing',
  'fast-json-patch': 'RFC 6902 operations (core, `jsonPatch.ts`)',
  'eventsource-parser': 'SSE framing in `httpSseSource`',
  zustand: 'the store and its selector hooks (react)',
};
