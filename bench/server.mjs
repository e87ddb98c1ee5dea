#!/usr/bin/env node
/**
 * `pnpm bench:server [--quick] [--no-write]`: runs src/server/main.ts with
 * tsx, in a fresh Node process with the workspace packages resolved to their
 * sources (the `@aguikit/source` condition), as the agent server's own
 * `pnpm start` does. Unlike `pnpm bench` nothing is bundled: the server under
 * measurement loads native modules (better-sqlite3) and is measured as it
 * runs in development. tsx is the agent server's own dependency.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const tsx = pathToFileURL(createRequire(`${here}../apps/agent-server/package.json`).resolve('tsx')).href;

// `pnpm bench:server -- --quick` passes the `--` through: drop it.
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
const child = spawnSync(process.execPath, ['--conditions=@aguikit/source', '--import', tsx, `${here}src/server/main.ts`, ...args], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(child.status ?? 1);
