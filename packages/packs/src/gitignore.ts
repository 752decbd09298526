/**
 * A `.gitignore` reader for discovery: the pattern syntax of gitignore(5) (negation, anchoring,
 * directory-only patterns, `*`, `?`, `[…]`, `**`, backslash escapes), evaluated in-process.
 * Git is never run. Pure: the caller reads the files (bounded, regular files only).
 */

export interface IgnoreRule {
  /** 1-based line in the file, for diagnostics. */
  line: number;
  pattern: string;
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

export interface IgnoreFile {
  /** Absolute path of the `.gitignore`, for diagnostics. */
  file: string;
  /** Directory the patterns are relative to, as a `/`-separated path relative to the scan base ('' = base). */
  base: string;
  rules: IgnoreRule[];
}

/** Parses the text of one `.gitignore`. Lines that cannot be compiled are skipped (git ignores them too). */
export function parseGitignore(text: string, file: string, base: string): IgnoreFile {
  const rules: IgnoreRule[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const rule = parseLine(raw, i + 1);
    if (rule) rules.push(rule);
  });
  return { file, base, rules };
}

function parseLine(raw: string, line: number): IgnoreRule | null {
  let text = raw.replace(/(?<!\\)[ \t]+$/, ''); // trailing blanks unless escaped
  if (text === '' || text.startsWith('#')) return null;
  let negate = false;
  if (text.startsWith('!')) {
    negate = true;
    text = text.slice(1);
  } else if (text.startsWith('\\!') || text.startsWith('\\#')) text = text.slice(1);
  let dirOnly = false;
  if (text.endsWith('/') && !text.endsWith('\\/')) {
    dirOnly = true;
    text = text.replace(/\/+$/, '');
  }
  if (text === '') return null;
  const anchored = text.includes('/');
  const body = text.startsWith('/') ? text.slice(1) : text;
  try {
    const source = globToRegex(body);
    const re = new RegExp(anchored ? `^${source}$` : `^(?:.*/)?${source}$`, 'u');
    return { line, pattern: raw.trim(), negate, dirOnly, re };
  } catch {
    return null;
  }
}

/** Translates one gitignore glob (without its leading `/`) to a regular expression source. */
function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const before = i === 0 || glob[i - 1] === '/';
      const after = i + 2 === glob.length || glob[i + 2] === '/';
      if (before && after) {
        if (i + 2 === glob.length) out += '.*';
        else {
          out += '(?:.*/)?';
          i += 1; // the '/' after '**'
        }
        i += 1;
        continue;
      }
    }
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\' && i + 1 < glob.length) out += escapeChar(glob[++i]);
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let set = glob.slice(i + 1, end);
        if (set.startsWith('!')) set = `^${set.slice(1)}`;
        out += `[${set.replaceAll('\\', '\\\\').replace(/^\^?\]/, (m) => m.replace(']', '\\]'))}]`;
        i = end;
      }
    } else out += escapeChar(c);
  }
  return out;
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

export interface IgnoreMatch {
  file: string;
  line: number;
  pattern: string;
}

/**
 * Whether `path` (relative to the scan base, `/`-separated) is ignored by the layers, outermost
 * first: the last matching rule wins, and a negated rule re-includes. Returns the deciding rule,
 * or null when the path is not ignored. The caller never descends into an ignored directory, so
 * (as in git) nothing below it can be re-included.
 */
export function ignoredBy(layers: readonly IgnoreFile[], path: string, isDir: boolean): IgnoreMatch | null {
  let decided: { rule: IgnoreRule; file: string } | null = null;
  for (const layer of layers) {
    const prefix = layer.base === '' ? '' : `${layer.base}/`;
    if (prefix !== '' && !path.startsWith(prefix)) continue;
    const rel = path.slice(prefix.length);
    for (const rule of layer.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.re.test(rel)) decided = { rule, file: layer.file };
    }
  }
  if (decided === null || decided.rule.negate) return null;
  return { file: decided.file, line: decided.rule.line, pattern: decided.rule.pattern };
}
