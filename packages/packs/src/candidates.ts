import { statSync } from 'node:fs';
import { appendAll } from '@maestro/core';
import { readEvidence } from './evidence.js';
import { tryReadHead } from './frontmatter.js';
import { buildGraphUnits } from './graph.js';
import { loadGraph } from './graph-load.js';
import type { GraphUnit } from './graph-render.js';
import { type GuideCandidate, guideCandidate, readGuideBody } from './guide.js';
import { PACK_READ_BUDGET_BYTES, READ_CAP_BYTES } from './limits.js';
import { firstHeading, splitSections } from './markdown.js';
import type { PackManifest } from './model.js';
import { listPackFiles, type PackFile } from './pack-tree.js';
import { resolvePackPath } from './paths.js';
import { matchScore, type TermIndex, termIndex } from './tokens.js';
import { detectInjection } from './wrap.js';

export type CandidateKind = 'split' | 'view' | 'document' | 'page';

export interface SectionCandidate {
  id: string;
  title: string;
  text: string;
  /** Its matching terms (tokenised once, reused for rescoring and coverage). */
  index: TermIndex;
  score: number;
  injections: string[];
}

export interface FileCandidate {
  /** Path relative to the pack root. */
  file: string;
  kind: CandidateKind;
  /** 0: default runtime views; 1: escalation (document sections, wiki pages). */
  tier: 0 | 1;
  /** A general view (briefing, facts) worth including when nothing more specific matches. */
  baseline: boolean;
  title: string;
  /** Whole text, or the first 256 KB when `truncated`. */
  text: string;
  truncated: boolean;
  size: number;
  score: number;
  /** Its matching terms: the sections' terms plus the path's words. */
  index: TermIndex;
  sections: SectionCandidate[];
  injections: string[];
}

export interface EvidenceCandidate {
  /** `sources/x.md#L12`. */
  anchor: string;
  /** The anchored lines, or null when only the anchor can be given. */
  excerpt: string | null;
  /** Pack files this evidence backs (source map `compiled_into` and `document`). */
  supports: string[];
  score: number;
}

export interface PackCandidates {
  files: FileCandidate[];
  evidence: EvidenceCandidate[];
  /** The `KNOWLEDGE.md` body (guide tier), or null when it is empty or unreadable. */
  guide: GuideCandidate | null;
  /** Ontology and answer subgraphs around the records the request matches. */
  graph: GraphUnit[];
  /**
   * When ontology subgraphs are offered: `first` (before files, for `type: content-ontology`),
   * `always` (beside files: hybrid packs, or a request about claims, evidence or what may be
   * said), else `if-needed` (only when no file matched). Answer subgraphs are always offered
   * first: a matching reviewed answer is the smallest useful context.
   */
  ontology: 'first' | 'always' | 'if-needed';
  warnings: string[];
}

const PERSONA_HINT = /voice|persona|tone|style|boundar|taboo|profile|usage|语气|人设|禁忌|边界|风格/i;
const DATA_HINT = /facts?|playbook|sop|polic|boundar|faq|pricing|spec/i;
const BASELINE = /(^|\/)(briefing|facts|overview|index)\.md$/i;
const EVIDENCE_QUERY =
  /\b(cite|citations?|sources?|evidence|verify|verification|references?|provenance|quote)\b|引用|来源|出处|证据|核验|依据/i;

/** True when the request asks for citations or verification, the only time `sources/` is touched. */
export function wantsEvidence(query: string): boolean {
  return EVIDENCE_QUERY.test(query);
}

const CLAIMS_QUERY =
  /\b(claims?|claiming|evidence[- ]backed|proof|prove|allowed|forbidden|approved|compliance|compliant|substantiat\w*|may we|can we say|coverage)\b|宣称|声明|证据|合规|可以说|能否说|禁止|允许/i;

/** True when the request is about claims, evidence or what may be said: the ontology's questions. */
export function wantsClaims(query: string): boolean {
  return CLAIMS_QUERY.test(query) || wantsEvidence(query);
}

interface Listed {
  file: PackFile;
  kind: CandidateKind;
  tier: 0 | 1;
}

/**
 * Gathers what the resolver may select from one pack, by profile: document-first splits and
 * compiled views, then sections of the primary document; wiki-first compiled views, then wiki
 * pages; hybrid whatever the guide's context map names. `indexes/`, `evals/`, `runs/`,
 * `scripts/` and `assets/` are never candidates; `sources/` only as anchored excerpts when the
 * query asks for evidence. Reads are capped per file and per pack; nothing is executed.
 */
export function collectCandidates(
  realRoot: string,
  manifest: PackManifest,
  queryTerms: readonly string[],
  query: string,
  fallbackTerms: readonly string[] = queryTerms,
): PackCandidates {
  const warnings: string[] = [];
  const guideBody = readGuideBody(realRoot);
  const listed = listCandidates(realRoot, manifest, guideBody?.body ?? '', warnings);
  const files: FileCandidate[] = [];
  let budget = PACK_READ_BUDGET_BYTES;
  const ranked = [...listed].sort((a, b) => a.tier - b.tier || pathScore(b, queryTerms) - pathScore(a, queryTerms));
  for (const item of ranked) {
    const cost = Math.min(item.file.size, READ_CAP_BYTES);
    if (cost > budget) {
      warnings.push(
        `read budget of ${PACK_READ_BUDGET_BYTES / 1048576} MB reached; ${item.file.rel} and later candidates were not considered`,
      );
      break;
    }
    budget -= cost;
    const read = readCandidate(item, manifest, queryTerms, warnings);
    if (read) files.push(read);
  }
  let terms = queryTerms;
  if (fallbackTerms !== queryTerms && !files.some((f) => f.score > 0 || f.sections.some((x) => x.score > 0))) {
    // Nothing matched the discriminating terms: score again with every query term.
    terms = fallbackTerms;
    for (const f of files) rescore(f, manifest, fallbackTerms);
  }
  files.sort((a, b) => a.tier - b.tier || (a.file < b.file ? -1 : 1));
  const evidence = wantsEvidence(query) ? readEvidence(realRoot, queryTerms, warnings) : [];
  const loaded = loadGraph(realRoot, manifest, budget);
  appendAll(warnings, loaded.warnings);
  let graph = buildGraphUnits(loaded, queryTerms);
  if (graph.length === 0 && terms !== queryTerms) graph = buildGraphUnits(loaded, terms);
  const ontology =
    manifest.type === 'content-ontology'
      ? 'first'
      : manifest.profile === 'hybrid' || wantsClaims(query)
        ? 'always'
        : 'if-needed';
  return {
    files,
    evidence,
    guide: guideBody ? guideCandidate(guideBody.body, guideBody.truncated, terms) : null,
    graph,
    ontology,
    warnings,
  };
}

function pathScore(item: Listed, queryTerms: readonly string[]): number {
  return matchScore(queryTerms, termIndex(pathWords(item.file.rel)));
}

function scorer(manifest: PackManifest, queryTerms: readonly string[]) {
  const hint = manifest.mode === 'persona' ? PERSONA_HINT : DATA_HINT;
  // Persona packs lean on voice and boundaries whatever the query; data hints only break ties.
  const bonus = (name: string, base: number) =>
    hint.test(name) && (manifest.mode === 'persona' || base > 0) ? 0.15 : 0;
  return (name: string, index: TermIndex) => {
    const base = matchScore(queryTerms, index);
    return base + bonus(name, base);
  };
}

const pathWords = (rel: string) => rel.replace(/[/_.-]+/g, ' ');

function rescore(f: FileCandidate, manifest: PackManifest, queryTerms: readonly string[]): void {
  const score = scorer(manifest, queryTerms);
  f.score = score(f.file, f.index);
  for (const s of f.sections) s.score = score(s.title, s.index);
}

function readCandidate(
  item: Listed,
  manifest: PackManifest,
  queryTerms: readonly string[],
  warnings: string[],
): FileCandidate | null {
  const head = tryReadHead(item.file.real, READ_CAP_BYTES);
  if (head === null) {
    warnings.push(`${item.file.rel} is not a readable regular file; skipped`);
    return null;
  }
  const text = head.text.charCodeAt(0) === 0xfeff ? head.text.slice(1) : head.text;
  if (head.truncated) {
    warnings.push(
      `${item.file.rel} is ${item.file.size} bytes: only its first ${READ_CAP_BYTES / 1024} KB were considered, and it is never loaded whole`,
    );
  }
  const score = scorer(manifest, queryTerms);
  const title = firstHeading(text) ?? item.file.rel;
  const sections = splitSections(text).map((s) => {
    const index = termIndex(s.text);
    return {
      id: s.id,
      title: s.title,
      text: s.text,
      index,
      score: score(s.title, index),
      injections: detectInjection(s.text),
    };
  });
  // Each text is tokenised once: the file's terms are its sections' terms plus its path words.
  const index: TermIndex = {
    words: new Set([...termIndex(pathWords(item.file.rel)).words, ...sections.flatMap((x) => [...x.index.words])]),
  };
  return {
    file: item.file.rel,
    kind: item.kind,
    tier: item.tier,
    baseline: item.tier === 0 && BASELINE.test(item.file.rel),
    title,
    text,
    truncated: head.truncated,
    size: item.file.size,
    score: score(item.file.rel, index),
    index,
    sections,
    injections: detectInjection(text),
  };
}

const md = (f: PackFile) => f.rel.toLowerCase().endsWith('.md');

function listDir(realRoot: string, under: string, maxDepth: number, warnings: string[]): PackFile[] {
  const listed = listPackFiles(realRoot, { under, maxDepth, maxEntries: 2000 });
  for (const i of listed.issues) warnings.push(i.message);
  return listed.files.filter(md);
}

function listCandidates(realRoot: string, m: PackManifest, guide: string, warnings: string[]): Listed[] {
  const compiled = () =>
    listDir(realRoot, 'compiled', 3, warnings).map(
      (file): Listed => ({ file, kind: file.rel.startsWith('compiled/splits/') ? 'split' : 'view', tier: 0 }),
    );
  const docs = (): Listed[] => {
    const primary = m.primaryDocument ? single(realRoot, m.primaryDocument, warnings) : null;
    const files = primary ? [primary] : listDir(realRoot, 'documents', 2, warnings);
    return files.map((file) => ({ file, kind: 'document', tier: 1 }));
  };
  const wiki = () => listDir(realRoot, 'wiki', 4, warnings).map((file): Listed => ({ file, kind: 'page', tier: 1 }));
  if (m.profile === 'document-first') return [...compiled(), ...docs()];
  if (m.profile === 'wiki-first') return [...compiled(), ...wiki()];
  const mapped = contextMap(realRoot, guide, warnings);
  if (mapped.length > 0) return mapped;
  return [...compiled(), ...docs(), ...wiki()];
}

function single(realRoot: string, ref: string, warnings: string[]): PackFile | null {
  const r = resolvePackPath(realRoot, ref);
  if (!r.ok) {
    warnings.push(`${ref}: ${r.message}; not read`);
    return null;
  }
  if (r.real === null) return null;
  try {
    const stat = statSync(r.real);
    return stat.isFile() ? { rel: r.rel, real: r.real, size: stat.size } : null;
  } catch {
    return null;
  }
}

const MAP_REF = /(?:`|\]\()((?:documents|compiled|wiki)\/[^`)\s#]+)(?:#[^`)\s]*)?(?:`|\))/g;

/**
 * The hybrid context map: paths under documents/, compiled/ or wiki/ that the guide names (in
 * backticks or Markdown links), in the order it names them. A named directory lists its pages.
 */
function contextMap(realRoot: string, body: string, warnings: string[]): Listed[] {
  const out: Listed[] = [];
  const seen = new Set<string>();
  for (const m of body.matchAll(MAP_REF)) {
    const ref = m[1].replace(/\/$/, '');
    const r = resolvePackPath(realRoot, ref);
    if (!r.ok) {
      warnings.push(`context map: ${r.message}; not read`);
      continue;
    }
    if (r.real === null) continue;
    const files = r.rel.endsWith('.md') ? [single(realRoot, r.rel, warnings)] : listDir(realRoot, r.rel, 3, warnings);
    for (const file of files) {
      if (!file || seen.has(file.rel)) continue;
      seen.add(file.rel);
      const tier = file.rel.startsWith('compiled/') ? 0 : 1;
      const kind: CandidateKind = file.rel.startsWith('compiled/splits/')
        ? 'split'
        : tier === 0
          ? 'view'
          : file.rel.startsWith('wiki/')
            ? 'page'
            : 'document';
      out.push({ file, kind, tier });
    }
  }
  return out;
}
