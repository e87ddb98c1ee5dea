/**
 * Global setup of `pnpm test:pack`: `scripts/check-packages.mjs` builds every
 * publishable package, packs it with `pnpm pack` (the published package.json:
 * workspace ranges resolved, `publishConfig` applied) into a temporary
 * directory, and checks the tarballs (aguikit's own rules, publint,
 * arethetypeswrong). The tests install from that directory; its verdict is a
 * test of its own (tarballs.pack.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const REPO = fileURLToPath(new URL('..', import.meta.url));

export default function setup(project: TestProject) {
  const out = mkdtempSync(join(tmpdir(), 'aguikit-tarballs-'));
  const checked = spawnSync('node', ['scripts/check-packages.mjs', '--out', out], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });
  project.provide('tarballs', out);
  project.provide('packageChecks', { status: checked.status ?? -1, output: `${checked.stdout}\n${checked.stderr}` });
  return () => rmSync(out, { recursive: true, force: true });
}
