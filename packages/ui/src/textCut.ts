/** The first `limit` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair: whole characters only. */
export function textHead(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/** `text` in at most `max` characters: cut between whole characters, with `…` for what was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${textHead(text, max - 1)}…` : text;
}
