import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';

/** Test-only builders for pack trees in temp dirs (excluded from the build). */
export type Front = Record<string, unknown>;

export function knowledgeMd(front: Front | string, body = '# Guide\n\nUse this pack as data.\n'): string {
  const yaml = typeof front === 'string' ? front : stringify(front).trimEnd();
  return `---\n${yaml}\n---\n${body}`;
}

export function baseFront(name: string, extra: Front = {}): Front {
  return {
    name,
    description: `Facts about ${name.replaceAll('-', ' ')} for tests.`,
    type: 'domain-reference',
    status: 'ready',
    profile: 'wiki-first',
    ...extra,
  };
}

/** Writes `files` (relative path → content) under `root/dir`, plus KNOWLEDGE.md from `front`. */
export function writePack(
  root: string,
  dir: string,
  front: Front | string,
  files: Record<string, string> = {},
  body?: string,
): string {
  const packRoot = join(root, dir);
  write(join(packRoot, 'KNOWLEDGE.md'), knowledgeMd(front, body));
  for (const [rel, content] of Object.entries(files)) write(join(packRoot, rel), content);
  return packRoot;
}

export function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Scope options with only a trusted workspace root, for resolve tests. */
export function wsOptions(root: string, extra: Record<string, unknown> = {}) {
  return {
    cwd: root,
    workspaceRoot: root,
    userRoot: null,
    orgRoots: [] as string[],
    builtinRoot: null,
    workspaceTrusted: true,
    budget: 2000,
    ...extra,
  };
}
