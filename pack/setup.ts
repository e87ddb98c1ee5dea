/**
 * Global setup of `pnpm test:pack`: builds every publishable package and packs
 * it with `pnpm pack` (which writes the published package.json: workspace
 * ranges resolved, `publishConfig` applied), once, into a temporary directory
 * the tests install from.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const REPO = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGES = ['core', 'react', 'ui', 'scenarios'];

function sh(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
}

export default function setup(project: TestProject) {
  const out = mkdtempSync(join(tmpdir(), 'aguikit-tarballs-'));
  for (const name of PACKAGES) sh('pnpm', ['run', 'build'], join(REPO, 'packages', name));
  for (const name of PACKAGES) sh('pnpm', ['pack', '--pack-destination', out], join(REPO, 'packages', name));
  project.provide('tarballs', out);
  return () => rmSync(out, { recursive: true, force: true });
}
