import { type Add, fieldLine, readMaintainers, readMetadata } from './manifest-fields.js';
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
  RUNTIME_MODES,
  type RuntimeMode,
  STANDARD_TYPES,
} from './model.js';

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
  const add: Add = (severity, field, code, message, hint) =>
    issues.push({
      severity,
      code,
      field,
      message,
      file: ctx.file,
      line: fieldLine(lines, ctx.startLine, field),
      ...(hint ? { hint } : {}),
    });
  const str = stringReader(add);
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
  const profile = readProfile(str('profile', data.profile), add);
  const optional = readOptional(data, str, add);
  if (name === null || description === null || type === null || status === null) return { manifest: null, issues };
  return { manifest: { name, description, type, status, ...profile, ...optional }, issues };
}

function stringReader(add: Add) {
  return (field: string, value: unknown): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    add('error', field, 'PACK_FIELD_TYPE', `Field '${field}' must be a string`);
    return null;
  };
}

function readProfile(raw: string | null, add: Add): Pick<PackManifest, 'profile' | 'profileDeclared'> {
  if (raw === null) {
    add(
      'warning',
      'profile',
      'PACK_PROFILE_MISSING',
      'No profile declared; read as wiki-first (v0.5 compatibility)',
      'add `profile: document-first|wiki-first|hybrid`',
    );
    return { profile: 'wiki-first', profileDeclared: false };
  }
  if ((PACK_PROFILES as readonly string[]).includes(raw)) return { profile: raw as PackProfile, profileDeclared: true };
  add(
    'warning',
    'profile',
    'PACK_PROFILE_UNKNOWN',
    `Unknown profile: ${raw}. Expected one of: ${PACK_PROFILES.join(', ')}; read as wiki-first`,
  );
  return { profile: 'wiki-first', profileDeclared: true };
}

type Optional = Omit<PackManifest, 'name' | 'description' | 'type' | 'status' | 'profile' | 'profileDeclared'>;

function readOptional(data: Record<string, unknown>, str: ReturnType<typeof stringReader>, add: Add): Optional {
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
  return {
    mode: readMode(data.runtime, add),
    trust: checkEnum(str('trust', data.trust), 'trust', PACK_TRUST_LEVELS, add, false) as PackTrust | null,
    grounding: (checkEnum(str('grounding', data.grounding), 'grounding', PACK_GROUNDINGS, add, false) ??
      'none') as PackGrounding,
    version: str('version', data.version),
    language: str('language', data.language),
    license: str('license', data.license),
    scope: str('scope', data.scope),
    updated,
    compatibility,
    maintainers: readMaintainers(data.maintainers, add),
    ...readMetadata(data.metadata, add),
  };
}

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
