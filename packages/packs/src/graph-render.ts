import type { GraphLayer, GraphRecord, LoadedGraph } from './graph-load.js';
import { detectInjection } from './wrap.js';

/**
 * How subgraphs read to a model: one line per record, its kind, id and standing label first,
 * then its fields as written (lead text fields first, long values capped). Pure.
 */

export interface GraphUnit {
  /** `ontology/concepts.json#concept-offline` — the seed record's file and id. */
  path: string;
  layer: GraphLayer;
  /** The seed and its whole bounded neighbourhood. */
  full: string;
  /** The seed with its claims and constraints only (offered when `full` does not fit). */
  core: string;
  score: number;
  injections: string[];
  /** Warnings that travel in the wrapper when the unit is selected (unapproved claims, …). */
  warnings: string[];
  /** Record ids included in `full` (for de-duplication and audit). */
  ids: string[];
}

/** Text fields rendered first, in this order; the rest follow as written. */
const LEAD_FIELDS = [
  'name',
  'label',
  'title',
  'term',
  'question',
  'text',
  'statement',
  'claim',
  'answer',
  'definition',
  'description',
  'summary',
  'rule',
  'excerpt',
];

export type ClaimStanding = 'approved' | 'weak' | 'forbidden' | 'unapproved';

const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : null);
const APPROVED_REVIEW = new Set(['approved', 'reviewed', 'ready', 'verified', 'confirmed', 'passed']);
const BAD_STATUS = new Set(['disputed', 'stale', 'candidate', 'needs-review', 'draft', 'rejected', 'unreviewed']);

/** How a claim or answer block may be used, from its evidence, review and status fields. */
export function claimStanding(data: Record<string, unknown>): { standing: ClaimStanding; reason: string } {
  const evidence = lower(data.evidenceStatus ?? data.evidence_status ?? data.evidenceState ?? data.evidence_state);
  const review = lower(data.reviewStatus ?? data.review_status);
  const status = lower(data.status);
  if (evidence === 'forbidden' || status === 'forbidden') return { standing: 'forbidden', reason: 'forbidden' };
  if (status !== null && BAD_STATUS.has(status)) return { standing: 'unapproved', reason: `status ${status}` };
  if (review !== null && !APPROVED_REVIEW.has(review)) return { standing: 'unapproved', reason: `review ${review}` };
  if (evidence === 'verified') return { standing: 'approved', reason: 'verified' };
  if (evidence === 'weak') return { standing: 'weak', reason: 'weak evidence' };
  return { standing: 'unapproved', reason: evidence ? `evidence ${evidence}` : 'no evidence status' };
}

const CLAIM_KINDS = new Set(['claim', 'answer-block']);
/** What a subgraph keeps when its whole neighbourhood does not fit. */
const CORE_KINDS = new Set(['concept', 'question', 'answer-block', 'claim', 'constraint', 'decision-gate']);
const ORDER = [
  'concept',
  'question',
  'answer-block',
  'claim',
  'evidence',
  'citation-target',
  'constraint',
  'decision-gate',
  'relation',
  'coverage',
  'monitoring-run',
];
const STANDING_ORDER: ClaimStanding[] = ['approved', 'weak', 'unapproved', 'forbidden'];
/** Kind order, and inside claims and answers: approved first, forbidden last. */
const rank = (r: GraphRecord) => {
  const i = ORDER.indexOf(r.kind);
  const kind = i === -1 ? ORDER.length : i;
  return CLAIM_KINDS.has(r.kind) ? kind + STANDING_ORDER.indexOf(claimStanding(r.data).standing) / 10 : kind;
};

export function renderUnit(seed: GraphRecord, score: number, nodes: GraphRecord[], graph: LoadedGraph): GraphUnit {
  const warnings: string[] = [];
  const status = lower(graph.ontologyStatus);
  if (seed.layer === 'ontology' && status !== null && status !== 'reviewed' && status !== 'ready')
    warnings.push(`ontology manifest status is ${status}: treat this subgraph as unreviewed`);
  const lines = (list: GraphRecord[]) => {
    const [head, ...rest] = list;
    const sorted = [head, ...rest.sort((a, b) => rank(a) - rank(b))];
    return sorted.map((r) => renderRecord(r, warnings));
  };
  const title = `${seed.layer === 'answers' ? 'Answer' : 'Ontology'} subgraph around ${seed.kind} ${seed.id} (records from ${unique(nodes.map((n) => n.file)).join(', ')}; data only):`;
  const full = [title, ...lines(nodes)].join('\n');
  const coreNodes = nodes.filter((n, i) => i === 0 || CORE_KINDS.has(n.kind));
  const core = [title, ...lines(coreNodes).map((l) => l)].join('\n');
  return {
    path: `${seed.file}#${seed.id}`,
    layer: seed.layer,
    full,
    core,
    score,
    injections: detectInjection(full),
    warnings: unique(warnings),
    ids: nodes.map((n) => n.id),
  };
}

function renderRecord(r: GraphRecord, warnings: string[]): string {
  let label = '';
  if (CLAIM_KINDS.has(r.kind)) {
    const { standing, reason } = claimStanding(r.data);
    if (standing === 'approved') label = ' [approved: verified]';
    else if (standing === 'weak') label = ' [approved, weak evidence: say so]';
    else if (standing === 'forbidden') {
      label = ' [FORBIDDEN CLAIM: a constraint; never state it]';
      warnings.push(`${r.kind} ${r.id} is forbidden: it is listed only as a constraint; never state it`);
    } else {
      label = ` [NOT APPROVED (${reason}): do not state it as fact]`;
      warnings.push(`${r.kind} ${r.id} is not an approved fact (${reason}): use it only with this warning`);
    }
  } else if (r.kind === 'relation' && /candidate|needs-review/.test(lower(r.data.status) ?? ''))
    label = ' [candidate relation: unreviewed]';
  else if (r.kind === 'action-type') label = ' [declarative action type: data, never executed]';
  else if (r.kind === 'signal' || r.kind === 'action-log') label = ' [an observation: not evidence for any claim]';
  else if (r.kind === 'monitoring-run') label = ' [latest monitoring observation: not proof]';
  return `- ${r.kind} ${r.id}${label}: ${fields(r.data)}`;
}

const FIELD_CAP = 400;
const LINE_CAP = 900;

function fields(data: Record<string, unknown>): string {
  const keys = Object.keys(data).filter((k) => k !== 'id' && k !== '@id');
  keys.sort((a, b) => lead(a) - lead(b));
  const parts = keys.map((k) => `${k}: ${value(data[k])}`).filter((p) => !p.endsWith(': '));
  const line = parts.join('; ');
  return line.length > LINE_CAP ? `${line.slice(0, LINE_CAP)}…` : line;
}

function lead(key: string): number {
  const i = LEAD_FIELDS.indexOf(key);
  return i === -1 ? LEAD_FIELDS.length : i;
}

function value(v: unknown): string {
  if (typeof v === 'string') return cap(v.replace(/\s+/g, ' ').trim(), FIELD_CAP);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const shown = v
      .slice(0, 8)
      .map((x) => (typeof x === 'string' || typeof x === 'number' ? String(x) : cap(JSON.stringify(x), 120)));
    return cap(shown.join(', ') + (v.length > 8 ? `, … (${v.length - 8} more)` : ''), FIELD_CAP);
  }
  if (v === null || v === undefined) return '';
  return cap(JSON.stringify(v), 160);
}

function cap(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
