#!/usr/bin/env node
/**
 * `pnpm bench` (`pnpm bench --quick` in CI): bundles src/main.ts with esbuild
 * and runs the bundle in a fresh Node process.
 *
 * Why a bundle: Node 20 cannot run TypeScript itself, and the workspace
 * packages are consumed from source (their `@aguikit/source` export
 * condition), exactly as the tests and the bundle-size case consume them.
 * esbuild (already in the workspace) strips the types and follows that
 * condition; nothing else (no tsx, no loader hooks) sits between Node and the
 * measured code. The bundle goes to results/build.tmp/ (git-ignored), inside
 * bench/ so that its external imports resolve from bench/node_modules:
 * esbuild (the bundle-size case), Vite and playwright-core (the rendering
 * case builds a page with Vite and drives Chromium; both are tools, not
 * measured code, and load native binaries of their own).
 *
 * The child process runs with NODE_ENV=production: what an application
 * ships (@ag-ui/client clones and freezes extra state in development).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const outfile = `${here}results/build.tmp/main.mjs`;

await build({
  entryPoints: [`${here}src/main.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@aguikit/source'],
  external: ['esbuild', 'vite', 'playwright-core'],
  // CommonJS dependencies bundled into an ES module still call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: 'inline',
  logLevel: 'warning',
});

// `pnpm bench -- --quick` passes the `--` through: drop it.
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
const child = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', AGUIKIT_BENCH_DIR: here },
});
process.exit(child.status ?? 1);
