import type { TextFeatures } from './analyze.js';

/**
 * How two rules' scopes relate: environments, layers, named services, paths. Rules that differ
 * only in scope apply to different places (related, never a conflict).
 */
export type ScopeRelation = 'same' | 'disjoint' | 'narrower' | 'broader' | 'overlap';

const kindOf = (key: string) => key.slice(0, key.indexOf(':'));
const within = (a: string, b: string) => a === b || (a.startsWith('path:') && a.startsWith(`${b}/`));

/**
 * How the candidate's scope relates to the entry's. Scope keys of one kind (environment, layer,
 * named service, path) that share nothing make the two rules apply to different places.
 */
export function compareScopes(c: ReadonlySet<string>, d: ReadonlySet<string>): ScopeRelation {
  const kinds = new Set([...c, ...d].map(kindOf));
  let cExtra = false;
  let dExtra = false;
  for (const kind of kinds) {
    const ck = [...c].filter((k) => kindOf(k) === kind);
    const dk = [...d].filter((k) => kindOf(k) === kind);
    if (ck.length === 0) dExtra = true;
    else if (dk.length === 0) cExtra = true;
    else if (!ck.some((x) => dk.some((y) => within(x, y) || within(y, x)))) return 'disjoint';
    else if (ck.some((x) => dk.some((y) => x !== y && within(x, y)))) cExtra = true;
    else if (dk.some((y) => ck.some((x) => x !== y && within(y, x)))) dExtra = true;
  }
  if (cExtra && dExtra) return 'overlap';
  if (cExtra) return 'narrower';
  if (dExtra) return 'broader';
  return 'same';
}

/**
 * A named scope of one side that the other side mentions as a plain word is not a different
 * place: "the MathView component loads KaTeX" and "MathView 挂载时加载 KaTeX" are about the same one.
 */
function scopeMentioned(a: TextFeatures, b: TextFeatures): boolean {
  for (const s of a.scopes) {
    if (!s.startsWith('named:')) continue;
    if (
      s
        .slice(6)
        .split('+')
        .some((t) => b.terms.has(t))
    )
      return true;
  }
  return false;
}

const withoutPaths = (s: ReadonlySet<string>) => new Set([...s].filter((k) => !k.startsWith('path:')));

export function scopeOf(c: TextFeatures, d: TextFeatures): ScopeRelation {
  const scope = compareScopes(c.scopes, d.scopes);
  if (scope === 'disjoint') return scopeMentioned(c, d) || scopeMentioned(d, c) ? 'overlap' : scope;
  // Files one side merely cites (evidence, examples) do not make the other side broader.
  if (scope === 'broader' || scope === 'narrower') {
    if (compareScopes(withoutPaths(c.scopes), withoutPaths(d.scopes)) === 'same') return 'same';
  }
  return scope;
}
