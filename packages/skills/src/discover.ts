import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontmatterYaml, splitFrontmatter, tryReadHead } from '@maestro/packs';
import type { SkillScope } from './model.js';

export interface SkillRoots {
  /** `<project>/.agents/skills` (null: no workspace scope). */
  workspace: string | null;
  /** `~/.agents/skills` (null: none). */
  user: string | null;
}

export interface DiscoveredSkill {
  name: string;
  description: string | null;
  scope: SkillScope;
  /** Absolute skill folder. */
  dir: string;
  /** True when SKILL.md's frontmatter could not be read (listed so the problem is visible). */
  unreadable: boolean;
}

export interface SkillDiagnostic {
  severity: 'info' | 'warning';
  code: string;
  message: string;
  path: string;
}

export interface SkillDiscovery {
  skills: DiscoveredSkill[];
  /** Skills hidden by a same-named skill of a higher-precedence scope. */
  shadowed: DiscoveredSkill[];
  diagnostics: SkillDiagnostic[];
}

const HEAD_CAP = 64 * 1024;
const SKILL_DOC = { name: 'SKILL.md', fields: 'name and description', code: 'SKILL' };

/**
 * Finds `<root>/<name>/SKILL.md` in each scope (workspace first). Only frontmatter is read. A
 * workspace skill shadows a user skill of the same name, with a diagnostic naming both folders;
 * the same folder reached twice (symlinks) counts once.
 */
export function discoverSkills(roots: SkillRoots): SkillDiscovery {
  const out: SkillDiscovery = { skills: [], shadowed: [], diagnostics: [] };
  const seenReal = new Set<string>();
  const byName = new Map<string, DiscoveredSkill>();
  const scopes: [SkillScope, string | null][] = [
    ['workspace', roots.workspace],
    ['user', roots.user],
  ];
  for (const [scope, root] of scopes) {
    if (!root || !existsSync(root)) continue;
    for (const entry of safeList(root)) {
      const dir = join(root, entry);
      const real = realOrNull(dir);
      if (!real || !isDir(real) || !existsSync(join(real, 'SKILL.md')) || seenReal.has(real)) continue;
      seenReal.add(real);
      const skill = readSkillHead(dir, scope, entry);
      const winner = byName.get(skill.name);
      if (winner) {
        out.shadowed.push(skill);
        out.diagnostics.push({
          severity: 'warning',
          code: 'SKILL_SHADOWED',
          message: `${winner.scope} skill "${skill.name}" (${winner.dir}) shadows the ${scope} skill of the same name (${dir})`,
          path: dir,
        });
        continue;
      }
      if (skill.unreadable)
        out.diagnostics.push({
          severity: 'warning',
          code: 'SKILL_UNREADABLE',
          message: `cannot read ${dir}/SKILL.md frontmatter; run \`maestro skill validate ${dir}\``,
          path: dir,
        });
      byName.set(skill.name, skill);
      out.skills.push(skill);
    }
  }
  out.skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

function readSkillHead(dir: string, scope: SkillScope, folder: string): DiscoveredSkill {
  const head = tryReadHead(join(dir, 'SKILL.md'), HEAD_CAP);
  const split = head ? splitFrontmatter(head.text, 'SKILL.md', head.truncated, SKILL_DOC) : null;
  const data =
    split && !('severity' in split) ? parseFrontmatterYaml(split.yaml, split.startLine, 'SKILL.md').data : null;
  const name = typeof data?.name === 'string' && data.name.trim() ? data.name.normalize('NFKC').trim() : folder;
  const description = typeof data?.description === 'string' ? data.description.trim() : null;
  return { name, description, scope, dir, unreadable: data === null || description === null };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
