import { statSync } from 'node:fs';
import { posix } from 'node:path';
import { tryReadHead } from './frontmatter.js';
import type { PackManifest } from './model.js';
import { resolvePackPath } from './paths.js';

/** A structured-layer JSON file larger than this is not used for context (it cannot be parsed in part). */
export const GRAPH_FILE_CAP_BYTES = 1024 * 1024;
/** Records taken from one file; the rest are ignored with a warning. */
export const GRAPH_RECORDS_PER_FILE = 5000;

export type GraphLayer = 'ontology' | 'answers';

/** One record of `ontology/*.json` or `answers/*.json`, as data (never interpreted as behaviour). */
export interface GraphRecord {
  /** The record's own id, or `<file>#<index>` when it has none (then nothing can refer to it). */
  id: string;
  /** From the file name: `concept`, `claim`, `evidence`, `question`, `answer-block`, … or `record`. */
  kind: string;
  layer: GraphLayer;
  /** Pack-relative file. */
  file: string;
  data: Record<string, unknown>;
  /** Short string values (ids, paths, enums) it mentions; edges are those naming another record. */
  mentions: string[];
}

export interface LoadedGraph {
  records: GraphRecord[];
  /** `status` of the ontology manifest (draft, reviewed, stale, disputed), when stated. */
  ontologyStatus: string | null;
  layers: GraphLayer[];
  warnings: string[];
  bytesRead: number;
}

const ONTOLOGY_FILES = [
  'concepts',
  'relations',
  'claims',
  'evidence',
  'constraints',
  'coverage',
  'signals',
  'objectives',
  'resources',
  'action-types',
  'decision-gates',
  'action-logs',
  'feedback',
];
const ANSWER_FILES = [
  'questions',
  'answer-blocks',
  'citation-targets',
  'source-surfaces',
  'structured-data',
  'monitoring-runs',
];

/** `concepts.json` → `concept`, `answer-blocks.json` → `answer-block`, `evidence.json` → `evidence`. */
export function kindOf(file: string): string {
  const base = posix.basename(file, '.json').toLowerCase();
  if (base === 'evidence' || base === 'feedback' || base === 'coverage' || base === 'structured-data') return base;
  if ([...ONTOLOGY_FILES, ...ANSWER_FILES].includes(base)) return base.replace(/s$/, '');
  return 'record';
}

/**
 * Loads the structured layers a pack declares: the ontology manifest (`metadata.primaryOntology`,
 * else `ontology/ontology.json`) and the files it lists (else the standard file names beside it),
 * and the answer map (`metadata.primaryAnswers`, else `answers/questions.json`) with the standard
 * answer files beside it. Only `.json` inside the pack is read (exports are interchange artifacts),
 * each at most 1 MB and within `budgetBytes` in all. Problems are warnings; nothing is executed.
 */
export function loadGraph(realRoot: string, m: PackManifest, budgetBytes: number): LoadedGraph {
  const out: LoadedGraph = { records: [], ontologyStatus: null, layers: [], warnings: [], bytesRead: 0 };
  const ontologyManifest =
    m.primaryOntology ?? (exists(realRoot, 'ontology/ontology.json') ? 'ontology/ontology.json' : null);
  if (ontologyManifest !== null) {
    const manifest = readJson(realRoot, ontologyManifest, out, budgetBytes);
    if (manifest !== undefined) {
      out.layers.push('ontology');
      const obj = isObject(manifest) ? manifest : {};
      if (typeof obj.status === 'string') out.ontologyStatus = obj.status;
      for (const file of layerFiles(ontologyManifest, obj.files, ONTOLOGY_FILES))
        addRecords(realRoot, file, 'ontology', out, budgetBytes);
    }
  }
  const answerMap = m.primaryAnswers ?? (exists(realRoot, 'answers/questions.json') ? 'answers/questions.json' : null);
  if (answerMap !== null) {
    const data = readJson(realRoot, answerMap, out, budgetBytes);
    if (data !== undefined) {
      out.layers.push('answers');
      const listed = isObject(data) && Array.isArray(data.files) ? data.files : undefined;
      if (!listed) pushRecords(data, answerMap, 'answers', out);
      for (const file of layerFiles(answerMap, listed, ANSWER_FILES))
        if (file !== answerMap) addRecords(realRoot, file, 'answers', out, budgetBytes);
    }
  }
  return out;
}

/** The files a manifest lists (strings or `{path}`), else the standard names beside it. */
function layerFiles(manifest: string, listed: unknown, standard: readonly string[]): string[] {
  const dir = posix.dirname(manifest);
  if (Array.isArray(listed)) {
    return (
      listed
        .map((f) =>
          typeof f === 'string'
            ? f
            : isObject(f) && typeof (f.path ?? f.file) === 'string'
              ? String(f.path ?? f.file)
              : '',
        )
        .filter((f) => f.toLowerCase().endsWith('.json'))
        // Absolute paths stay absolute so the containment check refuses them (never re-rooted).
        .map((f) => (f.startsWith(`${dir}/`) || dir === '.' || /^([\\/]|[A-Za-z]:)/.test(f) ? f : posix.join(dir, f)))
        .filter((f) => f !== manifest)
    );
  }
  return standard.map((name) => posix.join(dir, `${name}.json`));
}

function addRecords(realRoot: string, file: string, layer: GraphLayer, out: LoadedGraph, budget: number): void {
  const data = readJson(realRoot, file, out, budget, true);
  if (data !== undefined) pushRecords(data, file, layer, out);
}

function pushRecords(data: unknown, file: string, layer: GraphLayer, out: LoadedGraph): void {
  const items = recordsOf(data);
  if (items.length > GRAPH_RECORDS_PER_FILE)
    out.warnings.push(`${file}: only the first ${GRAPH_RECORDS_PER_FILE} of ${items.length} records are used`);
  const kind = kindOf(file);
  items.slice(0, GRAPH_RECORDS_PER_FILE).forEach((item, i) => {
    const id = recordId(item) ?? `${file}#${i}`;
    out.records.push({ id, kind, layer, file, data: item, mentions: mentions(item, id) });
  });
}

/** An array of records, an object holding arrays of records (`{"claims": [...]}`), or one record. */
function recordsOf(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data.filter(isObject);
  if (!isObject(data)) return [];
  const arrays = Object.values(data).filter((v): v is unknown[] => Array.isArray(v) && v.some(isObject));
  if (arrays.length > 0) return arrays.flat().filter(isObject);
  return recordId(data) ? [data] : [];
}

const ID_KEYS = ['id', '@id', 'claim_id', 'claimId', 'key'];

function recordId(item: Record<string, unknown>): string | null {
  for (const k of ID_KEYS) if (typeof item[k] === 'string' && item[k] !== '') return item[k] as string;
  return null;
}

/** Short strings anywhere two levels deep: the candidates for references to other records. */
function mentions(item: Record<string, unknown>, self: string): string[] {
  const found = new Set<string>();
  const visit = (v: unknown, depth: number) => {
    if (typeof v === 'string') {
      if (v.length <= 200 && v !== self) found.add(v);
    } else if (Array.isArray(v)) {
      for (const x of v.slice(0, 200)) visit(x, depth);
    } else if (isObject(v) && depth < 2) {
      for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  for (const [k, v] of Object.entries(item)) if (!ID_KEYS.includes(k)) visit(v, 0);
  return [...found];
}

/** Reads one JSON file inside the pack within the caps; undefined (with a warning) otherwise. */
function readJson(realRoot: string, ref: string, out: LoadedGraph, budget: number, optional = false): unknown {
  const r = resolvePackPath(realRoot, ref);
  if (!r.ok) {
    out.warnings.push(`${ref}: ${r.message}; not read`);
    return undefined;
  }
  if (r.real === null) {
    if (!optional) out.warnings.push(`${ref} is declared but missing; its layer is not used`);
    return undefined;
  }
  const size = fileSize(r.real);
  if (size === null) return undefined;
  if (size > GRAPH_FILE_CAP_BYTES || out.bytesRead + size > budget) {
    out.warnings.push(`${r.rel} is ${size} bytes: over the read caps, not used (it is never loaded whole)`);
    return undefined;
  }
  const head = tryReadHead(r.real, GRAPH_FILE_CAP_BYTES);
  if (head === null) return undefined;
  out.bytesRead += size;
  try {
    return JSON.parse(head.text.replace(/^\uFEFF/, ''));
  } catch {
    out.warnings.push(`${r.rel} is not valid JSON; not used (run \`maestro pack validate\`)`);
    return undefined;
  }
}

function fileSize(real: string): number | null {
  try {
    const stat = statSync(real);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}

function exists(realRoot: string, rel: string): boolean {
  const r = resolvePackPath(realRoot, rel);
  return r.ok && r.real !== null;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
