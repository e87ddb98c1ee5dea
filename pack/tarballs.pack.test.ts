/**
 * The tarballs themselves, as a registry would serve them: what each ships,
 * what its package.json says, and what importing it does under the
 * `react-server` condition (Next.js App Router and every RSC bundler resolve
 * with it) and on the Node versions aguikit supports.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPO, run, tarballs } from './harness.js';

let dir: string;
let packed: Record<string, string>;

beforeAll(async () => {
  packed = await tarballs();
  dir = await mkdtemp(join(tmpdir(), 'aguikit-pack-bare-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
  // --engine-strict: any dependency that refuses this Node version fails the install.
  await run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict', ...Object.values(packed), 'react@^19', 'react-dom@^19'], {
    cwd: dir,
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const manifest = async (pkg: string) =>
  JSON.parse(await readFile(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('the packed packages', () => {
  it('pass publint, arethetypeswrong (node10, node16, bundler) and aguikit’s own package rules', () => {
    const checks = inject('packageChecks');
    expect(checks.status, checks.output.slice(-4000)).toBe(0);
    expect(checks.output).toContain('publint');
  });

  it('install on this Node with --engine-strict and print no EBADENGINE warning', async () => {
    const again = await run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict', ...Object.values(packed)], { cwd: dir });
    expect(again.output).not.toContain('EBADENGINE');
  });

  it.each(['@aguikit/core', '@aguikit/react', '@aguikit/ui', '@aguikit/scenarios'])(
    '%s ships a LICENSE and a README, says MIT, and names no private condition or unshipped file',
    async (pkg) => {
      const m = await manifest(pkg);
      expect(m.license).toBe('MIT');
      const root = join(dir, 'node_modules', pkg);
      expect(await readFile(join(root, 'LICENSE'), 'utf8')).toContain('MIT License');
      expect((await readFile(join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(200);
      expect(JSON.stringify(m)).not.toContain('@aguikit/source');
      expect(JSON.stringify(m)).not.toContain('workspace:');
      const targets: string[] = [];
      const walk = (v: unknown) => {
        if (typeof v === 'string' && v.startsWith('./') && !v.includes('*')) targets.push(v);
        else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
      };
      walk(m.exports);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) await expect(readFile(join(root, target)), `${pkg} exports ${target}`).resolves.toBeDefined();
    },
  );

  it('@aguikit/ui ships one styles.css holding every rule, with no @import left', async () => {
    const css = await readFile(join(dir, 'node_modules/@aguikit/ui/dist/styles.css'), 'utf8');
    expect(css).not.toMatch(/@import/);
    // One rule from each of the files styles.css gathers.
    for (const selector of ['.agk-runstatus', '.agk-message', '.agk-interrupt', '.agk-inspector']) expect(css).toContain(selector);
  });

  it("type-checks the README's stylesheet import where side-effect imports are checked (TypeScript 7's default)", async () => {
    await writeFile(
      join(dir, 'styles-import.ts'),
      "import '@aguikit/ui/styles.css';\nimport { AgentChat } from '@aguikit/ui';\nexport { AgentChat };\n",
    );
    await writeFile(
      join(dir, 'tsconfig.styles.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          types: [],
          noUncheckedSideEffectImports: true,
        },
        files: ['styles-import.ts'],
      }),
    );
    const r = await run('node', [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.styles.json'], {
      cwd: dir,
      allowFailure: true,
    });
    expect(r.output).not.toMatch(/error TS/);
  });

  it('imports @aguikit/react and @aguikit/ui under the react-server condition without throwing', async () => {
    const r = await run(
      'node',
      [
        '--conditions=react-server',
        '--input-type=module',
        '-e',
        "await import('@aguikit/react'); await import('@aguikit/ui'); console.log('ok');",
      ],
      { cwd: dir, allowFailure: true },
    );
    expect(r.output.trim()).toBe('ok');
  });

  it('every module of @aguikit/react and @aguikit/ui that uses React on the client starts with "use client"', async () => {
    const r = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        `import { readdirSync, readFileSync } from 'node:fs';
         const out = [];
         for (const pkg of ['react', 'ui']) {
           const d = 'node_modules/@aguikit/' + pkg + '/dist/';
           for (const f of readdirSync(d).filter((f) => f.endsWith('.js'))) {
             // Code only: the doc comments name hooks in their examples.
             const src = readFileSync(d + f, 'utf8').replace(/\\/\\*[\\s\\S]*?\\*\\//g, '').replace(/^\\s*\\/\\/.*$/gm, '');
             // clientContext.js is meant to load on the server too: it calls createContext only where React has it.
             if (f === 'clientContext.js') continue;
             const usesClient = /\\b(useState|useEffect|useLayoutEffect|useRef|useContext|createContext|useSyncExternalStore|useReducer)\\(/.test(src);
             const marked = /^(['"])use client\\1;?/.test(src.trimStart());
             if (usesClient && !marked) out.push(pkg + '/' + f);
           }
         }
         console.log(JSON.stringify(out));`,
      ],
      { cwd: dir },
    );
    expect(JSON.parse(r.output)).toEqual([]);
  });
});
