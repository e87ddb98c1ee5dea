// Checks the publishable packages as npm would receive them: builds them,
// packs each with `pnpm pack` (publishConfig applied, `workspace:` ranges
// rewritten, exactly what `pnpm publish` uploads), then checks every tarball
// with aguikit's own rules, publint and arethetypeswrong. Exits 1 and says
// what failed when anything does.
//
//   pnpm check:packages [--out DIR] [--no-build] [--list]
//
// --out DIR (or AGUIKIT_PACK_DIR): where the tarballs are left, for another
// script to reuse (install them in a fresh project, say); a new temporary
// directory by default. --no-build packs what dist/ holds. --list prints
// each tarball's files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const at = args.indexOf(name);
  if (at !== -1) return args[at + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
};

const out = resolve(option('--out') ?? process.env.AGUIKIT_PACK_DIR ?? mkdtempSync(join(tmpdir(), 'aguikit-packs-')));
mkdirSync(out, { recursive: true });

/** Runs a command (pnpm is a .cmd shim on Windows, hence the shell there); returns its status and output. */
function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.error) throw result.error;
  return result;
}

const packages = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

if (!flag('--no-build')) {
  console.log('Building the packages (pnpm build)...');
  const build = run('pnpm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('check:packages: the build failed.');
    process.exit(1);
  }
}

/** The files of a .tgz (paths without the leading `package/`): a ustar reader, with pax and prefix names. */
function tarFiles(tarball) {
  const data = gunzipSync(readFileSync(tarball));
  const files = new Map();
  const text = (from, length) => data.toString('utf8', from, from + length).replace(/\0.*$/s, '');
  let paxPath;
  for (let at = 0; at + 512 <= data.length; ) {
    if (data[at] === 0) break;
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(data[at + 156] || 48);
    const body = data.subarray(at + 512, at + 512 + size);
    if (type === 'x') {
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    } else {
      const prefix = text(at + 345, 155);
      const name = paxPath ?? (prefix ? `${prefix}/${text(at, 100)}` : text(at, 100));
      paxPath = undefined;
      if (type === '0' || type === '\0') files.set(name.replace(/^package\//, ''), body);
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** Every string leaf of an exports map (or of typesVersions' path lists). */
function targets(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targets);
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

const normal = (path) => posix.normalize(path).replace(/^\.\//, '');

/** aguikit's own rules for a packed package: what publint and attw do not look at. */
function ownProblems(files) {
  const problems = [];
  const manifestText = files.get('package.json')?.toString('utf8');
  if (!manifestText) return ['package.json is missing'];
  const pkg = JSON.parse(manifestText);
  if (manifestText.includes('@aguikit/source')) problems.push('package.json names the private "@aguikit/source" condition');
  if (manifestText.includes('workspace:')) problems.push('package.json keeps a "workspace:" range');
  for (const file of ['README.md', 'LICENSE']) if (!files.has(file)) problems.push(`${file} is not in the tarball`);
  if (pkg.license !== 'MIT') problems.push(`license is ${JSON.stringify(pkg.license)}, not "MIT"`);
  if (!pkg.engines?.node) problems.push('engines.node is missing');
  if (!pkg.exports?.['./package.json']) problems.push('exports has no "./package.json"');
  if (!pkg.main || !pkg.types) problems.push('top-level "main" and "types" (for moduleResolution node10) are missing');
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (!range.startsWith('^')) problems.push(`dependency ${name} is "${range}", not a caret range`);
    // @aguikit/react holds the React context AgentProvider fills: a second copy of it (which a plain dependency
    // gets when the versions drift apart) is a provider the components never see.
    if (name === '@aguikit/react' || name === 'react' || name === 'react-dom')
      problems.push(`${name} is a dependency: it must be a peer dependency, so that the application has one copy of it`);
  }
  const named = [pkg.main, pkg.types, pkg.typings, pkg.module, ...targets(pkg.exports), ...targets(pkg.typesVersions)];
  for (const path of named.filter((p) => typeof p === 'string' && !p.includes('*'))) {
    if (!files.has(normal(path))) problems.push(`package.json names ${path}, which is not in the tarball`);
  }
  for (const [path, body] of files) {
    if (/(^|\/)(test|storybook)\//.test(path) || /\.(test|stories)\.[cm]?[jt]sx?$/.test(path)) {
      problems.push(`${path} is a test or a story: it should not be published`);
    }
    if (path.endsWith('.map')) {
      const map = JSON.parse(body.toString('utf8'));
      for (const source of map.sources ?? []) {
        const target = normal(posix.join(posix.dirname(path), map.sourceRoot ?? '', source));
        if (!map.sourcesContent && !files.has(target)) problems.push(`${path} maps to ${target}, which is not in the tarball`);
      }
    }
  }
  const sideEffects = pkg.sideEffects;
  const keepsCss = sideEffects !== false && (!Array.isArray(sideEffects) || sideEffects.some((glob) => glob.endsWith('*.css')));
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    for (const css of targets(target).filter((p) => p.endsWith('.css'))) {
      const body = files.get(normal(css))?.toString('utf8') ?? '';
      if (/@import\b/.test(body)) problems.push(`${css} still @imports other files: it should be one bundled stylesheet`);
      const specifier = posix.join(pkg.name, subpath);
      if (!keepsCss) problems.push(`sideEffects does not keep ${css}: a bundler would drop \`import '${specifier}'\``);
    }
  }
  return problems;
}

const failures = [];
for (const { dir, manifest } of packages) {
  const base = `${manifest.name.replace(/^@/, '').replace('/', '-')}-`;
  for (const stale of readdirSync(out).filter((f) => f.startsWith(base) && f.endsWith('.tgz'))) rmSync(join(out, stale));
  console.log(`\n=== ${manifest.name}`);
  const pack = run('pnpm', ['pack', '--pack-destination', out], { cwd: dir });
  const tarball = join(out, `${base}${manifest.version}.tgz`);
  if (pack.status !== 0 || !existsSync(tarball)) {
    console.error(pack.stdout, pack.stderr);
    failures.push(`${manifest.name}: pnpm pack failed`);
    continue;
  }
  const files = tarFiles(tarball);
  console.log(`${tarball}: ${files.size} files, ${(statSync(tarball).size / 1024).toFixed(1)} KiB`);
  if (flag('--list')) for (const path of [...files.keys()].sort()) console.log(`  ${path}`);

  const own = ownProblems(files);
  for (const problem of own) console.error(`  aguikit: ${problem}`);
  if (own.length) failures.push(`${manifest.name}: ${own.length} problem(s) with aguikit's own rules`);
  else console.log('aguikit rules: ok');

  // strict: publint's warnings count as errors; its suggestions are printed only.
  const bytes = readFileSync(tarball);
  const lint = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  const errors = lint.messages.filter((m) => m.type === 'error');
  for (const m of lint.messages) console.log(`  publint ${m.type}: ${formatMessage(m, lint.pkg, { color: false })}`);
  if (errors.length) failures.push(`${manifest.name}: publint found ${errors.length} error(s)`);
  else console.log(`publint: ok${lint.messages.length ? ` (${lint.messages.length} suggestion(s))` : ''}`);

  // The packages are ESM only ("type": "module", no "require" condition), on
  // purpose, so attw's cjs-resolves-to-esm ("a require() of them gets an ES
  // module") is true and expected: Node 20.19+, the engines floor, loads ES
  // modules without top-level await from require() (and bundlers always
  // could); older CommonJS code uses import(). attw's TypeScript 5.6 does not
  // model require(esm). That one rule is ignored by name rather than with
  // `--profile esm-only`, because that profile also skips the node10
  // resolution, and node10 types must resolve (main, types, typesVersions).
  // --no-definitely-typed: no @types package exists for these, and the check
  // must not ask the registry. A stylesheet is no module for TypeScript to
  // resolve: its subpaths are left out (aguikit's rules above check them).
  const pkg = JSON.parse(files.get('package.json')?.toString('utf8') ?? '{}');
  const stylesheets = Object.keys(pkg.exports ?? {}).filter((subpath) => subpath.endsWith('.css'));
  const attw = run('pnpm', [
    'exec',
    'attw',
    tarball,
    '--profile',
    'strict',
    '--ignore-rules',
    'cjs-resolves-to-esm',
    '--no-definitely-typed',
    '--format',
    'table',
    '--no-color',
    '--no-emoji',
    ...(stylesheets.length ? ['--exclude-entrypoints', ...stylesheets] : []),
  ]);
  process.stdout.write(attw.stdout);
  process.stderr.write(attw.stderr);
  if (attw.status !== 0) failures.push(`${manifest.name}: arethetypeswrong found problems`);
}

console.log(`\nTarballs: ${out}`);
if (failures.length) {
  console.error(`\ncheck:packages failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log(`check:packages: ${packages.length} packages ok`);
