import { join } from 'node:path';
import { inputError, refusedError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DiscoveredSkill, discoverSkills, type SkillDiagnostic, type SkillRoots } from './discover.js';
import { walkSkill } from './files.js';
import { tokens } from './reconcile.js';
import { readState } from './store.js';
import { validateSkill } from './validate.js';

export interface CatalogSkill {
  name: string;
  description: string | null;
  scope: DiscoveredSkill['scope'];
  location: string;
  /** The released version this working copy is, or null for a skill never released here. */
  version: number | null;
  governed: boolean;
  disabled: boolean;
}

export interface SkillCatalog {
  skills: CatalogSkill[];
  /** Disabled skills (listed only with `all`). */
  hidden: number;
  diagnostics: SkillDiagnostic[];
}

/**
 * The skills agents may use: discovered folders (workspace over user) joined with their governed
 * state. Disabled skills are left out unless `all`; shadowed ones are reported as diagnostics.
 */
export function skillCatalog(layout: WorkflowLayout, roots: SkillRoots, all = false): SkillCatalog {
  const found = discoverSkills(roots);
  const skills: CatalogSkill[] = [];
  let hidden = 0;
  for (const s of found.skills) {
    const state = s.scope === 'workspace' ? readStateSafe(layout, s.name) : null;
    const disabled = state?.disabled ?? false;
    if (disabled && !all) {
      hidden++;
      continue;
    }
    skills.push({
      name: s.name,
      description: s.description,
      scope: s.scope,
      location: join(s.dir, 'SKILL.md'),
      version: state?.current ?? null,
      governed: state !== null,
      disabled,
    });
  }
  return { skills, hidden, diagnostics: found.diagnostics };
}

function readStateSafe(layout: WorkflowLayout, name: string) {
  try {
    return readState(layout, name);
  } catch {
    return null;
  }
}

/** Pure ranking: the share of the query's words found in the skill's name and description. */
export function searchSkills(
  catalog: readonly CatalogSkill[],
  query: string,
  limit = 10,
): (CatalogSkill & { score: number })[] {
  const q = tokens(query);
  if (q.size === 0)
    throw inputError('EMPTY_QUERY', 'the query has no words to search for', {
      hint: 'maestro skill search "deploy a preview"',
    });
  return catalog
    .map((s) => {
      const d = tokens(`${s.name.replaceAll('-', ' ')} ${s.description ?? ''}`);
      let shared = 0;
      for (const t of q) if (d.has(t)) shared++;
      return { ...s, score: Math.round((shared / q.size) * 1000) / 1000 };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
    .slice(0, limit);
}

export interface LoadedSkill {
  name: string;
  version: number | null;
  scope: DiscoveredSkill['scope'];
  location: string;
  instructions: string;
  resources: { path: string; kind: string; size: number }[];
  /** The `<skill_content>` block handed to the agent: a skill, never a knowledge wrapper. */
  rendered: string;
}

/** `maestro skill load <name>`: the body on demand, resources listed (not read). */
export function loadSkill(layout: WorkflowLayout, roots: SkillRoots, name: string): LoadedSkill {
  const catalog = skillCatalog(layout, roots, true);
  const skill = catalog.skills.find((s) => s.name === name);
  if (!skill) {
    throw inputError('SKILL_UNKNOWN', `no skill named ${name}`, {
      hint: `skills: ${catalog.skills.map((s) => s.name).join(', ') || 'none'} (\`maestro skill list\`)`,
    });
  }
  if (skill.disabled) {
    throw refusedError('SKILL_DISABLED', `skill ${name} is disabled`, {
      hint: `enable it with \`maestro skill enable ${name}\``,
    });
  }
  const dir = join(skill.location, '..');
  const v = validateSkill(dir);
  if (!v.ok) {
    throw refusedError(
      'SKILL_INVALID',
      `skill ${name} does not validate: ${v.issues.find((i) => i.severity === 'error')?.message}`,
      {
        hint: `run \`maestro skill validate ${dir}\``,
      },
    );
  }
  const resources = walkSkill(dir)
    .files.filter((f) => f.path !== 'SKILL.md')
    .map((f) => ({ path: f.path, kind: f.kind, size: f.size }));
  const instructions = v.body.trim();
  return {
    name,
    version: skill.version,
    scope: skill.scope,
    location: skill.location,
    instructions,
    resources,
    rendered: render(skill, instructions, resources),
  };
}

function render(skill: CatalogSkill, body: string, resources: LoadedSkill['resources']): string {
  const attrs = [
    `name="${attr(skill.name)}"`,
    skill.version === null ? '' : `version="${skill.version}"`,
    `scope="${skill.scope}"`,
    `location="${attr(skill.location)}"`,
  ]
    .filter(Boolean)
    .join(' ');
  const list = resources.map((r) => `  <file kind="${r.kind}">${attr(r.path)}</file>`).join('\n');
  return [
    `<skill_content ${attrs}>`,
    neutralizeClosers(body),
    resources.length ? `<skill_resources>\n${list}\n</skill_resources>` : '<skill_resources/>',
    '</skill_content>',
  ].join('\n');
}

function attr(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * A body cannot close the skill wrapper: any `<` that, after NFKC folding, starts a
 * `skill_content` or `skill_resources` tag becomes `&lt;`. The match runs on the folded text, so
 * full-width and other compatibility forms are caught too.
 */
export function neutralizeClosers(text: string): string {
  const chars = [...text];
  let folded = '';
  const origin: number[] = [];
  for (const [i, c] of chars.entries()) {
    const f = c.normalize('NFKC');
    for (let k = 0; k < f.length; k++) origin.push(i);
    folded += f;
  }
  const hits = new Set<number>();
  for (const m of folded.matchAll(/<\s*\/?\s*skill_(content|resources)/giu)) hits.add(origin[m.index]);
  return hits.size ? chars.map((c, i) => (hits.has(i) ? '&lt;' : c)).join('') : text;
}
