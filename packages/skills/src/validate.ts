import { existsSync, statSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { appendAll } from '@maestro/core';
import { parseFrontmatterYaml, readHead, splitFrontmatter } from '@maestro/packs';
import { manifestHash, problem, SKILL_LIMITS, walkSkill } from './files.js';
import type { SkillIssue, SkillProperties, SkillValidation } from './model.js';

const SKILL_DOC = { name: 'SKILL.md', fields: 'name and description', code: 'SKILL' };
const KNOWN_FIELDS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
/** Lowercase letters of any script (or caseless ones such as CJK), digits, single inner hyphens. */
const NAME_CHARS = /^[\p{Ll}\p{Lo}\p{Nd}-]+$/u;
const BODY_LINES_ADVICE = 500;

/**
 * Checks a skill folder against the Agent Skills rules (frontmatter fields, the name matching
 * the folder, resource paths contained in the folder) and lists every file with its hash.
 * Returns every problem at once; nothing in the folder is executed, imported or evaluated.
 */
export function validateSkill(dir: string): SkillValidation {
  const issues: SkillIssue[] = [];
  const walk = walkSkill(dir);
  appendAll(issues, walk.issues);
  const files = walk.files.map(({ abs: _abs, ...f }) => f);
  const result = (properties: SkillProperties | null, body: string): SkillValidation => ({
    ok: !issues.some((i) => i.severity === 'error'),
    dir,
    properties,
    body,
    files,
    manifestHash: manifestHash(files),
    issues,
  });
  const skillMd = join(dir, 'SKILL.md');
  if (!existsSync(skillMd)) {
    issues.push(
      problem('SKILL.md', 'SKILL_MISSING', 'Missing required file: SKILL.md', {
        hint: 'a skill folder holds SKILL.md',
      }),
    );
    return result(null, '');
  }
  if (!statSync(skillMd).isFile()) {
    issues.push(problem('SKILL.md', 'SKILL_NOT_REGULAR_FILE', 'SKILL.md is not a regular file'));
    return result(null, '');
  }
  const head = readHead(skillMd, SKILL_LIMITS.maxSkillMdBytes + 1);
  if (head.truncated) {
    issues.push(
      problem(
        'SKILL.md',
        'SKILL_MD_TOO_LARGE',
        `SKILL.md is ${(head.size / 1048576).toFixed(1)} MiB; the limit is 1 MiB`,
        {
          hint: 'keep instructions short and move long material into references/ (loaded on demand)',
        },
      ),
    );
    return result(null, '');
  }
  const split = splitFrontmatter(head.text, 'SKILL.md', false, SKILL_DOC);
  if ('severity' in split) {
    issues.push(split);
    return result(null, '');
  }
  const parsed = parseFrontmatterYaml(split.yaml, split.startLine, 'SKILL.md');
  appendAll(
    issues,
    parsed.issues.map((i) => ({ ...i, code: i.code.replace(/^PACK_/, 'SKILL_') })),
  );
  if (!parsed.data) return result(null, split.body);
  const properties = checkFields(parsed.data, basename(dir), issues);
  checkBody(split.body, split.bodyLine, dir, issues);
  return result(properties, split.body);
}

function checkFields(data: Record<string, unknown>, folder: string, issues: SkillIssue[]): SkillProperties | null {
  const at = (field: string, code: string, message: string, hint?: string) =>
    issues.push(problem('SKILL.md', code, message, { field, ...(hint ? { hint } : {}) }));
  for (const key of Object.keys(data)) {
    if (!KNOWN_FIELDS.has(key)) {
      issues.push(
        problem(
          'SKILL.md',
          'SKILL_UNKNOWN_FIELD',
          `field "${key}" is not in the Agent Skills format; other clients may reject it`,
          {
            field: key,
            severity: 'warning',
            hint: 'move client-specific settings under metadata:',
          },
        ),
      );
    }
  }
  const name = typeof data.name === 'string' ? data.name.normalize('NFKC').trim() : '';
  if (typeof data.name !== 'string' || name === '')
    at('name', 'SKILL_NAME_MISSING', 'Missing required field in frontmatter: name');
  else checkName(name, folder, at);
  const description = typeof data.description === 'string' ? data.description.trim() : '';
  if (description === '') {
    at(
      'description',
      'SKILL_DESCRIPTION_MISSING',
      'Missing required field in frontmatter: description',
      'say what the skill does and when to use it',
    );
  } else if ([...description].length > 1024) {
    at(
      'description',
      'SKILL_DESCRIPTION_TOO_LONG',
      `Description exceeds 1024 character limit (${[...description].length} chars)`,
    );
  }
  if (data.license !== undefined && typeof data.license !== 'string')
    at('license', 'SKILL_FIELD_TYPE', 'license must be a string');
  const compatibility = data.compatibility;
  if (compatibility !== undefined) {
    if (typeof compatibility !== 'string' || compatibility.trim() === '')
      at('compatibility', 'SKILL_FIELD_TYPE', 'compatibility must be a non-empty string');
    else if ([...compatibility].length > 500)
      at(
        'compatibility',
        'SKILL_COMPATIBILITY_TOO_LONG',
        `Compatibility exceeds 500 character limit (${[...compatibility].length} chars)`,
      );
  }
  const metadata = checkMetadata(data.metadata, at);
  const allowedTools = checkTools(data['allowed-tools'], at);
  if (name === '' || description === '') return null;
  return {
    name,
    description,
    ...(typeof data.license === 'string' ? { license: data.license } : {}),
    ...(typeof compatibility === 'string' ? { compatibility } : {}),
    ...(metadata ? { metadata } : {}),
    ...(allowedTools ? { allowedTools } : {}),
  };
}

type At = (field: string, code: string, message: string, hint?: string) => void;

function checkName(name: string, folder: string, at: At): void {
  const length = [...name].length;
  if (length > 64)
    at('name', 'SKILL_NAME_TOO_LONG', `Skill name '${name}' exceeds 64 character limit (${length} chars)`);
  if (name !== name.toLowerCase()) at('name', 'SKILL_NAME_CASE', `Skill name '${name}' must be lowercase`);
  else if (!NAME_CHARS.test(name))
    at(
      'name',
      'SKILL_NAME_CHARS',
      `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
    );
  if (name.startsWith('-') || name.endsWith('-'))
    at('name', 'SKILL_NAME_HYPHEN', 'Skill name cannot start or end with a hyphen');
  if (name.includes('--')) at('name', 'SKILL_NAME_HYPHEN', 'Skill name cannot contain consecutive hyphens');
  if (folder.normalize('NFKC') !== name)
    at(
      'name',
      'SKILL_NAME_MISMATCH',
      `Directory name '${folder}' must match skill name '${name}'`,
      `rename the folder to ${name}`,
    );
}

function checkMetadata(value: unknown, at: At): Record<string, string> | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    at('metadata', 'SKILL_FIELD_TYPE', 'metadata must be a mapping of string keys to string values');
    return null;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string')
      at(`metadata.${k}`, 'SKILL_FIELD_TYPE', `metadata.${k} must be a string (quote it or flatten it)`);
    else out[k] = v;
  }
  return out;
}

function checkTools(value: unknown, at: At): string[] | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  at('allowed-tools', 'SKILL_FIELD_TYPE', 'allowed-tools must be a space-separated string of tool names');
  return null;
}

/** Markdown link and image targets that are local paths must stay inside the skill folder. */
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

function checkBody(body: string, bodyLine: number, dir: string, issues: SkillIssue[]): void {
  const lines = body.split(/\r\n|\r|\n/);
  if (lines.length > BODY_LINES_ADVICE) {
    issues.push(
      problem(
        'SKILL.md',
        'SKILL_BODY_LONG',
        `the body has ${lines.length} lines; Agent Skills advise under ${BODY_LINES_ADVICE}`,
        {
          severity: 'warning',
          hint: 'move detail into references/ files the agent loads on demand',
        },
      ),
    );
  }
  for (const [i, text] of lines.entries()) {
    for (const m of text.matchAll(LINK)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const path = decodeURIComponentSafe(target.split('#')[0]);
      const line = bodyLine + i;
      if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) {
        issues.push(
          problem('SKILL.md', 'SKILL_PATH_ABSOLUTE', `absolute resource path ${path}`, {
            line,
            hint: 'use a path relative to the skill folder',
          }),
        );
        continue;
      }
      const normal = posix.normalize(path.replaceAll('\\', '/'));
      if (normal === '..' || normal.startsWith('../')) {
        issues.push(
          problem('SKILL.md', 'SKILL_PATH_ESCAPE', `resource path ${path} leaves the skill folder`, {
            line,
            hint: 'keep resources inside the skill folder',
          }),
        );
      } else if (normal !== '.' && !existsSync(join(dir, normal))) {
        issues.push(
          problem('SKILL.md', 'SKILL_RESOURCE_MISSING', `resource ${path} does not exist`, {
            line,
            severity: 'warning',
          }),
        );
      }
    }
  }
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
