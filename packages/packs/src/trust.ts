import { PACK_TRUST_LEVELS, type PackScope, type PackTrust } from './model.js';

export function trustRank(trust: PackTrust): number {
  return PACK_TRUST_LEVELS.indexOf(trust);
}

export interface TrustInputs {
  /** The scope whose root holds the pack (null: an explicit path outside every scope). */
  home: Exclude<PackScope, 'explicit'> | null;
  declared: PackTrust | null;
  /** `--trust-workspace`, or the workspace is listed in the user config. */
  workspaceTrusted: boolean;
  /** `--approve <name>` (or an interactive yes) for this pack. */
  approved: boolean;
}

export interface EffectiveTrust {
  declared: PackTrust | null;
  effective: PackTrust;
  /** Untrusted workspace pack not yet approved: metadata may be shown, content never. */
  metadataOnly: boolean;
}

/**
 * The client decides trust, the pack only claims it. Each home scope has a ceiling (user and an
 * approved or trusted workspace: user-confirmed; org and built-in: official; an explicit path
 * outside every scope: user-confirmed, the user chose it). Effective trust is the lower of the
 * claim (or the ceiling when nothing is claimed) and the ceiling, so a declared `official` in an
 * untrusted workspace never elevates anything.
 */
export function effectiveTrust(input: TrustInputs): EffectiveTrust {
  const untrusted = input.home === 'workspace' && !input.workspaceTrusted && !input.approved;
  if (untrusted) return { declared: input.declared, effective: 'unreviewed', metadataOnly: true };
  const ceiling: PackTrust = input.home === 'org' || input.home === 'builtin' ? 'official' : 'user-confirmed';
  const claimed = input.declared ?? ceiling;
  const effective = trustRank(claimed) < trustRank(ceiling) ? claimed : ceiling;
  return { declared: input.declared, effective, metadataOnly: false };
}
