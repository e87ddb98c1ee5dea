/**
 * docs/BENCHMARKS.md has two writers: `pnpm bench` writes the client's
 * cases, `pnpm bench:server` its agent server section. Each keeps what the
 * other wrote.
 */
import { describe, expect, it } from 'vitest';
import { serverSectionOf, withServerSection } from '../src/serverSection.js';

const CLIENT = '# Benchmarks\n\nCase 1 ...\n';
const SECTION = '## Agent server\n\n| bar | measured | verdict |\n|---|---|---|\n| 0 errors | 0 | met |\n';

describe('the agent server section of docs/BENCHMARKS.md', () => {
  it('is appended to the client report, between markers, and read back exactly', () => {
    const doc = withServerSection(CLIENT, SECTION);
    expect(doc.startsWith(CLIENT)).toBe(true);
    expect(serverSectionOf(doc)).toBe(SECTION);
  });

  it('replaces the section a previous server run wrote, leaving the rest as it was', () => {
    const first = withServerSection(CLIENT, SECTION);
    const again = withServerSection(first, SECTION.replace('met', 'MISSED'));
    expect(again.startsWith(CLIENT)).toBe(true);
    expect(serverSectionOf(again)).toContain('MISSED');
    expect(again.match(/## Agent server/g)).toHaveLength(1);
  });

  it('survives a rewrite of the client report: the new report gets the old section', () => {
    const old = withServerSection(CLIENT, SECTION);
    const rewritten = withServerSection('# Benchmarks\n\nCase 1, new figures\n', serverSectionOf(old));
    expect(rewritten).toContain('new figures');
    expect(serverSectionOf(rewritten)).toBe(SECTION);
  });

  it('leaves a report without a section as it is, and finds nothing in it', () => {
    expect(serverSectionOf(CLIENT)).toBeUndefined();
    expect(withServerSection(CLIENT, undefined)).toBe(CLIENT);
  });

  it('reads a section whose end marker was lost as absent, never as the rest of the file', () => {
    const doc = withServerSection(CLIENT, SECTION);
    const torn = doc.slice(0, doc.lastIndexOf('<!--'));
    expect(serverSectionOf(torn)).toBeUndefined();
    // A new section replaces the torn one rather than stacking a second.
    expect(withServerSection(torn, SECTION).match(/## Agent server/g)).toHaveLength(1);
  });
});
