import { normalizeText } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { z } from 'zod';
import { discoverSkills } from './discover.js';
import { governedSkills, readState } from './store.js';

export const SKILL_VERDICTS = ['new_skill', 'new_version', 'identical', 'near_duplicate'] as const;

export const SkillMatchSchema = z.object({
  verdict: z.enum(SKILL_VERDICTS),
  review_required: z.boolean(),
  matches: z.array(
    z.object({
      name: z.string(),
      relation: z.enum(['same_name', 'identical_content', 'similar_description']),
      similarity: z.number(),
      version: z.number().int().nullable(),
    }),
  ),
  explanation: z.string(),
});
export type SkillMatch = z.infer<typeof SkillMatchSchema>;

export interface KnownSkill {
  name: string;
  description: string;
  /** The released version's manifest hash and number; null for a skill that was never released. */
  manifestHash: string | null;
  version: number | null;
}

/** At or above this description similarity, a differently named skill is probably the same skill. */
export const NEAR_DUPLICATE = 0.6;

/**
 * Pure: a candidate against the project's skills. Same name and same content → identical (nothing
 * to release); same name → a new version; another name with a near-identical description → review
 * as a possible duplicate (it may belong as a version of that skill); otherwise a new skill.
 */
export function matchSkill(
  known: readonly KnownSkill[],
  name: string,
  description: string,
  manifestHash: string,
): SkillMatch {
  const same = known.find((k) => k.name === name);
  const similar = known
    .filter((k) => k.name !== name)
    .map((k) => ({ k, similarity: similarity(description, k.description) }))
    .filter((x) => x.similarity >= NEAR_DUPLICATE)
    .sort((a, b) => b.similarity - a.similarity);
  const matches: SkillMatch['matches'] = [];
  if (same) {
    matches.push({
      name,
      relation: same.manifestHash === manifestHash ? 'identical_content' : 'same_name',
      similarity: round(similarity(description, same.description)),
      version: same.version,
    });
  }
  for (const { k, similarity: s } of similar)
    matches.push({ name: k.name, relation: 'similar_description', similarity: round(s), version: k.version });
  if (same && same.manifestHash === manifestHash)
    return {
      verdict: 'identical',
      review_required: false,
      matches,
      explanation: `identical to released version ${same.version} of ${name}`,
    };
  if (similar.length)
    return {
      verdict: 'near_duplicate',
      review_required: true,
      matches,
      explanation: `its description is ${Math.round(similar[0].similarity * 100)} % the same as skill "${similar[0].k.name}": a person decides whether it is a new skill or a version of that one`,
    };
  if (same)
    return {
      verdict: 'new_version',
      review_required: true,
      matches,
      explanation:
        same.version === null
          ? `a first governed version of ${name}`
          : `a new version of ${name} (current: ${same.version})`,
    };
  return { verdict: 'new_skill', review_required: true, matches, explanation: 'a skill the project does not have yet' };
}

/** Word tokens (Latin words, CJK character bigrams) of normalised text. */
export function tokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of normalizeText(text).matchAll(
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|[\p{L}\p{N}]+/gu,
  )) {
    const w = m[0];
    if (/^[\p{L}\p{N}]+$/u.test(w) && !/\p{Script=Han}/u.test(w)) {
      if (w.length > 1 && w.length <= 64) out.add(w);
      continue;
    }
    if (w.length === 1) out.add(w);
    for (let i = 0; i + 1 < w.length && i < 512; i++) out.add(w.slice(i, i + 2));
  }
  return out;
}

/** Dice coefficient over token sets: 1 for the same words, 0 for none shared. */
export function similarity(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return (2 * shared) / (ta.size + tb.size);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The project's skills: governed ones (with their released version) and unreleased working copies. */
export function knownSkills(layout: WorkflowLayout): KnownSkill[] {
  const out = new Map<string, KnownSkill>();
  for (const name of governedSkills(layout)) {
    const state = readState(layout, name);
    const v = state?.versions.find((x) => x.version === state.current);
    if (state)
      out.set(name, {
        name,
        description: v?.description ?? '',
        manifestHash: v?.manifest_hash ?? null,
        version: state.current,
      });
  }
  const ws = discoverSkills({ workspace: `${layout.root}/.agents/skills`, user: null });
  for (const s of ws.skills)
    if (!out.has(s.name))
      out.set(s.name, { name: s.name, description: s.description ?? '', manifestHash: null, version: null });
  return [...out.values()];
}

export function reconcileSkill(
  layout: WorkflowLayout,
  name: string,
  description: string,
  manifestHash: string,
): SkillMatch {
  return matchSkill(knownSkills(layout), name, description, manifestHash);
}
