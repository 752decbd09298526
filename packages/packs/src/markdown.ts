export interface MarkdownSection {
  /** GitHub-style heading slug (`## Offline mode` → `offline-mode`), unique within the file. */
  id: string;
  title: string;
  level: number;
  /** The heading line and everything up to the next heading of level ≤ 3. */
  text: string;
}

/** Heading slug: lower case, punctuation dropped, spaces to dashes; letters of any script kept. */
export function headingSlug(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
}

/**
 * Splits Markdown into sections at headings of level 1–3 outside code fences. Text before the
 * first heading becomes a section titled "(preamble)" when it is not blank.
 */
export function splitSections(text: string): MarkdownSection[] {
  const lines = text.split(/\r?\n/);
  const sections: MarkdownSection[] = [];
  const used = new Map<string, number>();
  let current: { title: string; level: number; lines: string[] } = { title: '(preamble)', level: 0, lines: [] };
  let fence: string | null = null;
  const flush = () => {
    const body = current.lines.join('\n');
    if (current.level === 0 && body.trim() === '') return;
    const base = current.level === 0 ? 'preamble' : headingSlug(current.title) || 'section';
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    sections.push({
      id: n === 0 ? base : `${base}-${n}`,
      title: current.title,
      level: current.level,
      text: `${body.trimEnd()}\n`,
    });
  };
  for (const line of lines) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
    const h = fence === null ? /^(#{1,3})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (h) {
      flush();
      current = { title: h[2], level: h[1].length, lines: [line] };
    } else current.lines.push(line);
  }
  flush();
  return sections;
}

/** The first heading of a Markdown text, or null. */
export function firstHeading(text: string): string | null {
  const m = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text);
  return m ? m[1] : null;
}
