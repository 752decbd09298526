import type { Issue } from '@maestro/core';

/**
 * The vocabulary of the Agent Knowledge standard (v0.7.2) as this client reads it. Enumerations
 * are the standard's; the policy choices where the standard is silent are in the package README.
 */
export const PACK_STATUSES = ['draft', 'ready', 'needs-review', 'stale', 'disputed', 'archived'] as const;
export type PackStatus = (typeof PACK_STATUSES)[number];

export const PACK_PROFILES = ['document-first', 'wiki-first', 'hybrid'] as const;
export type PackProfile = (typeof PACK_PROFILES)[number];

/** Ordered from least to most trusted; effective trust is the minimum of a claim and a cap. */
export const PACK_TRUST_LEVELS = ['unreviewed', 'external', 'user-confirmed', 'official'] as const;
export type PackTrust = (typeof PACK_TRUST_LEVELS)[number];

export const PACK_GROUNDINGS = ['none', 'recommended', 'required'] as const;
export type PackGrounding = (typeof PACK_GROUNDINGS)[number];

export const RUNTIME_MODES = ['data', 'persona'] as const;
export type RuntimeMode = (typeof RUNTIME_MODES)[number];

export const STANDARD_TYPES = [
  'personal-profile',
  'brand-persona',
  'brand-product',
  'organization-knowhow',
  'content-operations',
  'private-domain-operations',
  'live-commerce-operations',
  'campaign-operations',
  'growth-strategy',
  'content-ontology',
  'domain-reference',
  'research-wiki',
] as const;

/** Discovery scopes in precedence order: an explicit selection beats everything. */
export const PACK_SCOPES = ['explicit', 'workspace', 'user', 'org', 'builtin'] as const;
export type PackScope = (typeof PACK_SCOPES)[number];

export const ACTIVATIONS = ['explicit', 'implicit', 'resolver-driven'] as const;
export type Activation = (typeof ACTIVATIONS)[number];

export interface ProducedBy {
  kind: string | null;
  name: string | null;
  version: string | null;
  digest: string | null;
}

/** The parsed `KNOWLEDGE.md` frontmatter, every value a string (dates and versions included). */
export interface PackManifest {
  name: string;
  description: string;
  type: string;
  status: PackStatus;
  /** `wiki-first` when absent or unknown (v0.5 compatibility); see `profileDeclared`. */
  profile: PackProfile;
  profileDeclared: boolean;
  /** `data` when absent or unknown: never anything more privileged. */
  mode: RuntimeMode;
  /** The pack's own claim; a claim, never proof (see `effectiveTrust`). */
  trust: PackTrust | null;
  /** `none` when absent. */
  grounding: PackGrounding;
  version: string | null;
  language: string | null;
  license: string | null;
  scope: string | null;
  updated: string | null;
  compatibility: string | null;
  maintainers: string[];
  primaryDocument: string | null;
  primaryOntology: string | null;
  primaryAnswers: string | null;
  producedBy: ProducedBy | null;
}

/**
 * A validation or discovery finding. `file` is relative to the pack root (`KNOWLEDGE.md`,
 * `indexes/source-map.json`) or absolute for scope-level diagnostics; `field` names the
 * frontmatter key or JSON path (`metadata.primaryDocument`, `claims[0].source.path`).
 */
export interface PackIssue extends Issue {
  field?: string;
}

/** A directory holding `KNOWLEDGE.md`, as discovery found it (frontmatter only). */
export interface DiscoveredPack {
  /** The frontmatter name, or the directory name when the frontmatter has none. */
  name: string;
  scope: PackScope;
  /**
   * The scope whose root contains the pack; for an explicit path it is the scope the path lies in
   * (its trust still applies), or null when it lies outside every scope root.
   */
  home: Exclude<PackScope, 'explicit'> | null;
  /** The scope root it was found under (absolute), or null for an explicit path outside every scope. */
  scopeRoot: string | null;
  /** Absolute pack directory as reached (may contain symlinks). */
  root: string;
  /** `realpath(root)`, the identity used for de-duplication and containment. */
  realRoot: string;
  /** Absolute path of `KNOWLEDGE.md`. */
  location: string;
  /** Null when the frontmatter is unusable (the pack is quarantined, never activated). */
  manifest: PackManifest | null;
  issues: PackIssue[];
}

export interface DiscoveryDiagnostic {
  severity: 'info' | 'warning' | 'error';
  code: string;
  message: string;
  path?: string;
}
