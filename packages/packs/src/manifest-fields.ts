import type { PackManifest, ProducedBy } from './model.js';
import { checkPackPath, describePathProblem } from './paths.js';

/** Reports one finding on a frontmatter field. */
export type Add = (severity: 'error' | 'warning', field: string, code: string, message: string, hint?: string) => void;

const PRODUCED_BY_KINDS = new Set(['agent-skill', 'skill', 'tool', 'manual', 'import']);

export function readMetadata(
  metadata: unknown,
  add: Add,
): Pick<PackManifest, 'primaryDocument' | 'primaryOntology' | 'primaryAnswers' | 'producedBy'> {
  const none = { primaryDocument: null, primaryOntology: null, primaryAnswers: null, producedBy: null };
  if (metadata === undefined || metadata === null || metadata === '') return none;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    add('error', 'metadata', 'PACK_FIELD_TYPE', "Field 'metadata' must be a mapping");
    return none;
  }
  const m = metadata as Record<string, unknown>;
  const path = (key: string): string | null => {
    const v = m[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') {
      add('error', `metadata.${key}`, 'PACK_FIELD_TYPE', `Field 'metadata.${key}' must be a string`);
      return null;
    }
    const checked = checkPackPath(v);
    if ('problem' in checked) {
      add(
        'error',
        `metadata.${key}`,
        'PACK_PATH_OUTSIDE',
        `metadata.${key}: ${describePathProblem(checked.problem, v)}`,
        'use a path relative to the pack root, inside it',
      );
      return null;
    }
    return v;
  };
  return {
    primaryDocument: path('primaryDocument'),
    primaryOntology: path('primaryOntology'),
    primaryAnswers: path('primaryAnswers'),
    producedBy: readProducedBy(m.producedBy, add),
  };
}

function readProducedBy(value: unknown, add: Add): ProducedBy | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    add(
      'warning',
      'metadata.producedBy',
      'PACK_FIELD_TYPE',
      "Field 'metadata.producedBy' should be a mapping (kind, name, version, digest)",
    );
    return null;
  }
  const v = value as Record<string, unknown>;
  const s = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : null);
  const out: ProducedBy = { kind: s('kind'), name: s('name'), version: s('version'), digest: s('digest') };
  if (out.kind !== null && !PRODUCED_BY_KINDS.has(out.kind)) {
    add(
      'warning',
      'metadata.producedBy.kind',
      'PACK_PRODUCED_BY_KIND',
      `Unusual metadata.producedBy.kind '${out.kind}'. Expected one of: ${[...PRODUCED_BY_KINDS].join(', ')}`,
    );
  }
  return out;
}

export function readMaintainers(value: unknown, add: Add): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return value as string[];
  if (Array.isArray(value)) return value.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  add('warning', 'maintainers', 'PACK_FIELD_TYPE', "Field 'maintainers' should be a string or a list");
  return [];
}

/** 1-based file line of `field` (`a` or `a.b`) in frontmatter YAML, or the first line if not found. */
export function fieldLine(lines: string[], startLine: number, field: string): number {
  const [top, ...rest] = field.split('.');
  const topIndex = lines.findIndex((l) => new RegExp(`^${escapeRegex(top)}\\s*:`).test(l));
  if (topIndex === -1) return startLine;
  let index = topIndex;
  for (const key of rest) {
    const found = lines.findIndex((l, i) => i > index && new RegExp(`^\\s+${escapeRegex(key)}\\s*:`).test(l));
    if (found === -1) break;
    index = found;
  }
  return startLine + index;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
