/**
 * The README's code blocks that name an example file on their first line
 * (`// examples/vite-app/src/App.tsx`) are that file, word for word: the file
 * is typechecked and built by `pnpm test:pack`, so the snippet compiles as
 * written.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const blocks = [...readme.matchAll(/```tsx?\n\/\/ (examples\/[^\n]+)\n([\s\S]*?)```/g)].map((m) => ({
  file: m[1] ?? '',
  code: m[2] ?? '',
}));

describe('README snippets', () => {
  it('the README shows the example apps’ code (In React, The components)', () => {
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(['examples/vite-app/src/Minimal.tsx', 'examples/vite-app/src/App.tsx']),
    );
  });

  it.each(blocks)('$file is shown as it is', ({ file, code }) => {
    expect(code).toBe(readFileSync(`${root}${file}`, 'utf8'));
  });
});
