/**
 * docs/BENCHMARKS.md has two writers: `pnpm bench` (the client's cases) and
 * `pnpm bench:server` (the agent server's section, between the markers
 * below). Each rewrites its own part and keeps the other's as it found it.
 */
const BEGIN = '<!-- agent server: written by `pnpm bench:server`, kept by `pnpm bench` -->';
const END = '<!-- end of the agent server section -->';

/** The agent server section of a report, or undefined when it has none (or only its start: a torn write). */
export function serverSectionOf(doc: string): string | undefined {
  const begin = doc.indexOf(BEGIN);
  if (begin < 0) return undefined;
  const end = doc.indexOf(END, begin);
  if (end < 0) return undefined;
  return doc.slice(begin + BEGIN.length + 1, end);
}

/** The report with `section` as its agent server section (replacing one it had, torn or whole); unchanged when there is none. */
export function withServerSection(doc: string, section: string | undefined): string {
  if (section === undefined) return doc;
  const begin = doc.indexOf(BEGIN);
  const rest = begin < 0 ? doc : doc.slice(0, begin);
  const after = begin < 0 ? '' : doc.slice(doc.indexOf(END, begin) < 0 ? doc.length : doc.indexOf(END, begin) + END.length);
  const head = rest.endsWith('\n\n') ? rest : rest.endsWith('\n') ? `${rest}\n` : `${rest}\n\n`;
  return `${head}${BEGIN}\n${section}${END}\n${after.replace(/^\n+/, '')}`;
}
