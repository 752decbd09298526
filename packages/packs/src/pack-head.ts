import { basename, join } from 'node:path';
import { FRONTMATTER_CAP_BYTES, parseFrontmatterYaml, readHead, splitFrontmatter } from './frontmatter.js';
import { readManifest } from './manifest.js';
import type { PackIssue, PackManifest } from './model.js';
import { isInside, safeRealpath } from './paths.js';

export const ENTRY_FILE = 'KNOWLEDGE.md';

export interface PackHead {
  manifest: PackManifest | null;
  issues: PackIssue[];
  /** The frontmatter YAML (for line lookups by validators). */
  yaml: string;
}

/**
 * Reads only the frontmatter region of `<dir>/KNOWLEDGE.md` (at most 64 KB) and checks it.
 * `realRoot` is the pack's realpath; an entry file that is a symlink leaving it is refused.
 */
export function readPackHead(dir: string, realRoot: string): PackHead {
  const location = join(dir, ENTRY_FILE);
  const real = safeRealpath(location);
  if (real === null) {
    return fail('PACK_ENTRY_UNREADABLE', `cannot read ${ENTRY_FILE} (broken symlink or permission denied)`);
  }
  if (!isInside(realRoot, real)) {
    return fail('PACK_SYMLINK_ESCAPE', `${ENTRY_FILE} is a symlink that escapes the pack root (-> ${real}); not read`);
  }
  let head: { text: string; truncated: boolean };
  try {
    head = readHead(real, FRONTMATTER_CAP_BYTES);
  } catch (err) {
    return fail('PACK_ENTRY_UNREADABLE', `cannot read ${ENTRY_FILE}: ${(err as Error).message}`);
  }
  const split = splitFrontmatter(head.text, ENTRY_FILE, head.truncated);
  if ('code' in split) return { manifest: null, issues: [split], yaml: '' };
  const parsed = parseFrontmatterYaml(split.yaml, split.startLine, ENTRY_FILE);
  if (parsed.data === null) return { manifest: null, issues: parsed.issues, yaml: split.yaml };
  const checked = readManifest(parsed.data, {
    file: ENTRY_FILE,
    dirName: basename(dir),
    yaml: split.yaml,
    startLine: split.startLine,
  });
  return { manifest: checked.manifest, issues: [...parsed.issues, ...checked.issues], yaml: split.yaml };
}

function fail(code: string, message: string): PackHead {
  return { manifest: null, issues: [{ severity: 'error', code, message, file: ENTRY_FILE }], yaml: '' };
}
