import {
  PACK_GROUNDINGS,
  PACK_PROFILES,
  PACK_STATUSES,
  PACK_TRUST_LEVELS,
  type PackGrounding,
  type PackIssue,
  type PackManifest,
  type PackProfile,
  type PackStatus,
  type PackTrust,
  type ProducedBy,
  RUNTIME_MODES,
  type RuntimeMode,
  STANDARD_TYPES,
} from './model.js';
import { checkPackPath, describePathProblem } from './paths.js';

const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'type',
  'status',
  'profile',
  'version',
  'language',
  'license',
  'maintainers',
  'scope',
  'trust',
  'updated',
  'grounding',
  'runtime',
  'metadata',
  'compatibility',
]);
const PRODUCED_BY_KINDS = new Set(['agent-skill', 'skill', 'tool', 'manual', 'import']);
const CUSTOM_TYPE = /^custom:[a-z0-9][a-z0-9._-]*$/;
const NAME_CHARS = /^[a-z0-9-]+$/;

export interface ManifestContext {
  /** Name used in findings, normally `KNOWLEDGE.md`. */
  file: string;
  /** The pack directory's own name, for the name/folder match. */
  dirName: string;
  /** The YAML text and its first file line, to point findings at lines. */
  yaml: string;
  startLine: number;
}

/**
 * Checks parsed frontmatter against the standard and returns the manifest plus every problem at
 * once. The manifest is null only when a required field is unusable; any `error` issue still
 * keeps the pack from being offered for activation.
 */
export function readManifest(
  data: Record<string, unknown>,
  ctx: ManifestContext,
): { manifest: PackManifest | null; issues: PackIssue[] } {
  const issues: PackIssue[] = [];
  const lines = ctx.yaml.split('\n');
  const lineOf = (field: string) => fieldLine(lines, ctx.startLine, field);
  const add = (severity: 'error' | 'warning', field: string, code: string, message: string, hint?: string) =>
    issues.push({ severity, code, field, message, file: ctx.file, line: lineOf(field), ...(hint ? { hint } : {}) });
  const str = (field: string, value: unknown): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    add('error', field, 'PACK_FIELD_TYPE', `Field '${field}' must be a string`);
    return null;
  };

  for (const key of Object.keys(data)) {
    if (!KNOWN_FIELDS.has(key)) {
      add(
        'warning',
        key,
        'PACK_UNEXPECTED_FIELD',
        `Unexpected field in frontmatter: ${key}`,
        'private keys belong under metadata',
      );
    }
  }
  const name = checkName(str('name', data.name), ctx, add);
  const description = checkDescription(str('description', data.description), add);
  const type = checkType(str('type', data.type), add);
  const status = checkEnum(str('status', data.status), 'status', PACK_STATUSES, add, true) as PackStatus | null;
  const profileRaw = str('profile', data.profile);
  let profile: PackProfile = 'wiki-first';
  if (profileRaw === null) {
    add(
      'warning',
      'profile',
      'PACK_PROFILE_MISSING',
      'No profile declared; read as wiki-first (v0.5 compatibility)',
      'add `profile: document-first|wiki-first|hybrid`',
    );
  } else if ((PACK_PROFILES as readonly string[]).includes(profileRaw)) profile = profileRaw as PackProfile;
  else
    add(
      'warning',
      'profile',
      'PACK_PROFILE_UNKNOWN',
      `Unknown profile: ${profileRaw}. Expected one of: ${PACK_PROFILES.join(', ')}; read as wiki-first`,
    );
  const trust = checkEnum(str('trust', data.trust), 'trust', PACK_TRUST_LEVELS, add, false) as PackTrust | null;
  const grounding = (checkEnum(str('grounding', data.grounding), 'grounding', PACK_GROUNDINGS, add, false) ??
    'none') as PackGrounding;
  const mode = readMode(data.runtime, add);
  const compatibility = str('compatibility', data.compatibility);
  if (compatibility !== null && [...compatibility].length > 500) {
    add(
      'error',
      'compatibility',
      'PACK_COMPATIBILITY_TOO_LONG',
      `Compatibility exceeds 500 character limit (${[...compatibility].length} chars)`,
    );
  }
  const updated = str('updated', data.updated);
  if (updated !== null && !/^\d{4}-\d{2}-\d{2}/.test(updated)) {
    add(
      'warning',
      'updated',
      'PACK_UPDATED_FORMAT',
      `Field 'updated' should be an ISO date (YYYY-MM-DD), got '${updated}'`,
    );
  }
  const meta = readMetadata(data.metadata, add);
  const manifest: PackManifest | null =
    name === null || description === null || type === null || status === null
      ? null
      : {
          name,
          description,
          type,
          status,
          profile,
          profileDeclared: profileRaw !== null,
          mode,
          trust,
          grounding,
          version: str('version', data.version),
          language: str('language', data.language),
          license: str('license', data.license),
          scope: str('scope', data.scope),
          updated,
          compatibility,
          maintainers: readMaintainers(data.maintainers, add),
          ...meta,
        };
  return { manifest, issues };
}

type Add = (severity: 'error' | 'warning', field: string, code: string, message: string, hint?: string) => void;

function checkName(name: string | null, ctx: ManifestContext, add: Add): string | null {
  if (name === null || name.trim() === '') {
    add('error', 'name', 'PACK_MISSING_FIELD', 'Missing required field in frontmatter: name');
    return null;
  }
  const length = [...name].length;
  let ok = true;
  if (length > 64) {
    add('error', 'name', 'PACK_NAME_TOO_LONG', `Pack name '${name}' exceeds 64 character limit (${length} chars)`);
    ok = false;
  }
  if (name !== name.toLowerCase()) {
    add('error', 'name', 'PACK_NAME_CASE', `Pack name '${name}' must be lowercase`);
    ok = false;
  } else if (!NAME_CHARS.test(name)) {
    add(
      'error',
      'name',
      'PACK_NAME_CHARS',
      `Pack name '${name}' contains invalid characters. Only lowercase letters, digits, and hyphens are allowed.`,
    );
    ok = false;
  }
  if (ok && (name.startsWith('-') || name.endsWith('-'))) {
    add('warning', 'name', 'PACK_NAME_HYPHEN', `Pack name '${name}' should not start or end with a hyphen`);
  }
  if (ok && name.includes('--'))
    add('warning', 'name', 'PACK_NAME_HYPHEN', `Pack name '${name}' should not contain consecutive hyphens`);
  if (ok && name !== ctx.dirName) {
    add(
      'warning',
      'name',
      'PACK_NAME_MISMATCH',
      `Directory name '${ctx.dirName}' does not match pack name '${name}'; selectable as '${name}'`,
    );
  }
  return ok ? name : null;
}

function checkDescription(description: string | null, add: Add): string | null {
  if (description === null || description.trim() === '') {
    add(
      'error',
      'description',
      'PACK_MISSING_FIELD',
      'Missing required field in frontmatter: description',
      'say what knowledge the pack holds and when to use it',
    );
    return null;
  }
  const length = [...description].length;
  if (length > 1024) {
    add(
      'error',
      'description',
      'PACK_DESCRIPTION_TOO_LONG',
      `Description exceeds 1024 character limit (${length} chars)`,
    );
  }
  return description;
}

function checkType(type: string | null, add: Add): string | null {
  if (type === null || type.trim() === '') {
    add('error', 'type', 'PACK_MISSING_FIELD', 'Missing required field in frontmatter: type');
    return null;
  }
  if ((STANDARD_TYPES as readonly string[]).includes(type) || CUSTOM_TYPE.test(type)) return type;
  add(
    'error',
    'type',
    'PACK_TYPE_UNKNOWN',
    `Unknown type '${type}'. Expected a standard type (${STANDARD_TYPES.join(', ')}) or custom:<namespace>`,
  );
  return type;
}

function checkEnum(value: string | null, field: string, allowed: readonly string[], add: Add, required: boolean) {
  if (value === null) {
    if (required) add('error', field, 'PACK_MISSING_FIELD', `Missing required field in frontmatter: ${field}`);
    return null;
  }
  if (allowed.includes(value)) return value;
  add(
    'error',
    field,
    `PACK_${field.toUpperCase()}_INVALID`,
    `Invalid ${field} '${value}'. Expected one of: ${allowed.join(', ')}`,
  );
  return null;
}

function readMode(runtime: unknown, add: Add): RuntimeMode {
  if (runtime === undefined || runtime === null || runtime === '') return 'data';
  if (typeof runtime !== 'object' || Array.isArray(runtime)) {
    add(
      'warning',
      'runtime',
      'PACK_RUNTIME_TYPE',
      "Field 'runtime' must be a mapping with key 'mode'; read as mode data",
    );
    return 'data';
  }
  const mode = (runtime as Record<string, unknown>).mode;
  if (mode === undefined) return 'data';
  if (typeof mode === 'string' && (RUNTIME_MODES as readonly string[]).includes(mode)) return mode as RuntimeMode;
  add(
    'warning',
    'runtime.mode',
    'PACK_MODE_UNKNOWN',
    `Unknown runtime.mode: ${String(mode)}. Expected one of: data, persona; read as data`,
  );
  return 'data';
}

function readMetadata(
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

function readMaintainers(value: unknown, add: Add): string[] {
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
