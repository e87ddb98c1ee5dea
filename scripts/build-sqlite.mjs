// Run after `pnpm install`: makes sure the agent server's SQLite storage has its native addon.
//
// better-sqlite3 comes with prebuilt binaries, downloaded from GitHub when it installs; where GitHub cannot be
// reached, its install falls back to node-gyp, which wants Node's headers from nodejs.org and fails offline, and
// pnpm then leaves the optional dependency unbuilt. Debian's nodejs has the headers under /usr/include/node: this
// builds the addon against them. Anything else (no headers, no compiler) leaves it unbuilt with a warning, and the
// agent server keeps its runs in memory, saying so.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(new URL('../apps/agent-server/package.json', import.meta.url));
let dir;
try {
  dir = dirname(require.resolve('better-sqlite3/package.json'));
} catch {
  process.exit(0); // Not installed (an install that skipped optional dependencies): nothing to build.
}
if (existsSync(join(dir, 'build', 'Release', 'better_sqlite3.node'))) process.exit(0);

const nodedir = process.env.npm_config_nodedir || (existsSync('/usr/include/node/node.h') ? '/usr' : undefined);
if (!nodedir) {
  console.warn("better-sqlite3 has no binary and Node's headers were not found: the agent server will keep its runs in memory.");
  process.exit(0);
}
console.log(`Building better-sqlite3 against the Node headers in ${nodedir} (a minute or two, once)...`);
const built = spawnSync('npm', ['run', 'build-release'], {
  cwd: dir,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env: { ...process.env, npm_config_nodedir: nodedir },
});
if (built.status !== 0) {
  console.warn(`${built.stdout ?? ''}${built.stderr ?? ''}`.slice(-4000));
  console.warn('better-sqlite3 could not be built (above): the agent server will keep its runs in memory.');
}
