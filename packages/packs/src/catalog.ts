import { inputError } from '@maestro/core';
import { type DiscoveredPack, type DiscoveryDiagnostic, PACK_SCOPES, type PackIssue, type PackScope } from './model.js';
import { type EffectiveTrust, effectiveTrust, trustRank } from './trust.js';

export type PackState = 'active' | 'shadowed' | 'disabled' | 'invalid';

export interface DisableRule {
  name: string;
  scope: PackScope | null;
}

export interface CatalogEntry {
  pack: DiscoveredPack;
  name: string;
  state: PackState;
  /** True when selected explicitly (by path, or by name with `--pack`). */
  explicit: boolean;
  trust: EffectiveTrust;
  /** Location of the pack that wins this name, when this one is shadowed. */
  shadowedBy: string | null;
}

export interface Catalog {
  /** Every pack, in precedence order, whatever its state. */
  entries: CatalogEntry[];
  /** The winning, enabled, valid pack per name. */
  active: Map<string, CatalogEntry>;
  diagnostics: DiscoveryDiagnostic[];
}

export interface CatalogOptions {
  /** Packs loaded from `--pack <path>` (scope `explicit`). */
  explicitPacks?: DiscoveredPack[];
  /** Names given with `--pack <name>`. */
  explicitNames?: readonly string[];
  disabled?: readonly DisableRule[];
  workspaceTrusted: boolean;
  /** Names approved for use from an untrusted workspace. */
  approved?: ReadonlySet<string>;
}

/** Parses `--disable <name>[@scope]`; a scope outside the five is bad input. */
export function parseDisableRule(text: string): DisableRule {
  const at = text.lastIndexOf('@');
  if (at === -1) return { name: text, scope: null };
  const scope = text.slice(at + 1);
  if (!(PACK_SCOPES as readonly string[]).includes(scope)) {
    throw inputError('PACK_BAD_DISABLE', `--disable ${text}: unknown scope '${scope}'`, {
      hint: `use <name> or <name>@${PACK_SCOPES.join('|')}`,
    });
  }
  return { name: text.slice(0, at), scope: scope as PackScope };
}

const scopeRank = (scope: PackScope) => PACK_SCOPES.indexOf(scope);

/**
 * Resolves name collisions deterministically: explicit > workspace > user > org > built-in, and
 * inside one scope the first in path order. Every shadowed pack gets a diagnostic; it is a warning
 * when the winner's effective trust is lower than the shadowed pack's. Invalid (quarantined) and
 * disabled packs never take part. Pure: takes discovery output, touches no disk.
 */
export function buildCatalog(discovered: readonly DiscoveredPack[], options: CatalogOptions): Catalog {
  const diagnostics: DiscoveryDiagnostic[] = [];
  const explicitPacks = options.explicitPacks ?? [];
  const explicitReal = new Set(explicitPacks.map((p) => p.realRoot));
  const all = [...explicitPacks, ...discovered.filter((p) => !explicitReal.has(p.realRoot))];
  const explicitNames = new Set(options.explicitNames ?? []);
  const entries = all.map((pack): CatalogEntry => {
    const trust = effectiveTrust({
      home: pack.home,
      declared: pack.manifest?.trust ?? null,
      workspaceTrusted: options.workspaceTrusted,
      approved: options.approved?.has(pack.name) ?? false,
    });
    const valid = pack.manifest !== null && !pack.issues.some((i) => i.severity === 'error' && !servedWithout(i));
    for (const i of valid ? pack.issues.filter(servedWithout) : []) {
      diagnostics.push({
        severity: 'warning',
        code: 'PACK_FIELD_REFUSED',
        message: `${pack.location}:${i.line ?? 1}: refused ${i.field}: ${i.message.replace(`${i.field}: `, '')}; the pack's other files are served (\`maestro pack validate ${pack.root}\` reports it as an error)`,
        path: pack.location,
      });
    }
    const disabled = (options.disabled ?? []).some(
      (r) => r.name === pack.name && (r.scope === null || r.scope === pack.scope || r.scope === pack.home),
    );
    const state: PackState = !valid ? 'invalid' : disabled ? 'disabled' : 'active';
    for (const i of pack.issues.filter((x) => x.code.startsWith('PACK_YAML_'))) {
      // Recovered authoring slips are loaded, never silently: say where.
      const message = `${pack.location}:${i.line ?? 1}: ${i.message} (${i.hint ?? 'fix the frontmatter'})`;
      diagnostics.push({ severity: 'warning', code: i.code, message, path: pack.location });
    }
    if (state === 'invalid') {
      const first = pack.issues.find((i) => i.severity === 'error');
      diagnostics.push({
        severity: 'warning',
        code: 'PACK_QUARANTINED',
        message: `skipped invalid pack at ${pack.location}: ${first ? first.message : 'unusable frontmatter'} (run \`maestro pack validate ${pack.root}\`)`,
        path: pack.location,
      });
    }
    return { pack, name: pack.name, state, explicit: pack.scope === 'explicit', trust, shadowedBy: null };
  });
  const order = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => scopeRank(a.e.pack.scope) - scopeRank(b.e.pack.scope) || a.i - b.i)
    .map((x) => x.e);
  const active = new Map<string, CatalogEntry>();
  for (const entry of order) {
    if (entry.state !== 'active') continue;
    const winner = active.get(entry.name);
    if (!winner) {
      active.set(entry.name, entry);
      if (explicitNames.has(entry.name)) entry.explicit = true;
      continue;
    }
    entry.state = 'shadowed';
    entry.shadowedBy = winner.pack.location;
    diagnostics.push(shadowDiagnostic(winner, entry));
  }
  return { entries: order, active, diagnostics };
}

/**
 * An error the runtime survives: a `metadata.*` path that leaves the pack was dropped when the
 * frontmatter was read, so serving the pack never touches it. `pack validate` still fails on it.
 */
function servedWithout(i: PackIssue): boolean {
  return i.severity === 'error' && i.code === 'PACK_PATH_OUTSIDE' && (i.field ?? '').startsWith('metadata.');
}

function describe(e: CatalogEntry): string {
  return `${e.pack.location} (${e.pack.scope}${e.pack.home && e.pack.home !== e.pack.scope ? ` in ${e.pack.home}` : ''}, trust ${e.trust.effective}${e.trust.declared && e.trust.declared !== e.trust.effective ? `, declared ${e.trust.declared}` : ''})`;
}

function shadowDiagnostic(winner: CatalogEntry, loser: CatalogEntry): DiscoveryDiagnostic {
  const path = loser.pack.location;
  if (trustRank(winner.trust.effective) < trustRank(loser.trust.effective)) {
    return {
      severity: 'warning',
      code: 'PACK_SHADOW_LOWER_TRUST',
      message: `LOWER-TRUST PACK SHADOWS A HIGHER-TRUST ONE: '${winner.name}' from ${describe(winner)} hides ${describe(loser)}; use --disable ${winner.name}@${winner.pack.scope} or --pack ${loser.pack.root} to use the trusted copy`,
      path,
    };
  }
  if (winner.pack.scope === loser.pack.scope) {
    return {
      severity: 'warning',
      code: 'PACK_NAME_COLLISION',
      message: `two packs named '${winner.name}' in the ${winner.pack.scope} scope: ${describe(winner)} wins (first in path order) over ${describe(loser)}`,
      path,
    };
  }
  return {
    severity: 'info',
    code: 'PACK_SHADOWED',
    message: `pack '${winner.name}' at ${describe(loser)} is shadowed by ${describe(winner)}`,
    path,
  };
}
