import type { Issue } from '@maestro/core';
import { appendAll } from '@maestro/core';
import { type KnowledgeEntry, knowhowEntry, parseKnowhowFile, parseSpecFile, specFileEntries } from '@maestro/spec';
import { entryGraphId, positionalIds } from '@maestro/spec/aliases';
import type { FileContribution, GraphEdge, GraphNode } from './model.js';

/**
 * Pure extraction: what one source file says about the graph. Each function sees only its own
 * file's text, which is what lets the stored graph be updated one changed file at a time.
 */

const CANDIDATE = /KDC-[a-f0-9]{16}/;
const PROMOTED_SOURCE = /^session:([^:\s]+):(KDC-[a-f0-9]{16})$/;

const problemsOf = (issues: Issue[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => `${i.file}${i.line ? `:${i.line}` : ''}: ${i.message}`);

/**
 * A copy of `s` that does not share the file's text. V8 keeps a substring of 13+ characters as a
 * view into its parent, so a node's title or id would keep a whole 10 MB spec file alive long
 * after extraction (80 MB of texts at 100k entries); a JSON round trip makes a compact copy.
 */
function own(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

function ownNullable(s: string | null): string | null {
  return s === null ? null : own(s);
}

/** The contribution with every string copied out of the source text (see `own`). */
function detached(c: FileContribution): FileContribution {
  return {
    nodes: c.nodes.map((n) => ({
      ...n,
      id: own(n.id),
      label: own(n.label),
      entry_id: ownNullable(n.entry_id),
      status: ownNullable(n.status),
      date: ownNullable(n.date),
      aliases: n.aliases.map(own),
    })),
    edges: c.edges.map((e) => ({ ...e, from: own(e.from), to: own(e.to), detail: ownNullable(e.detail) })),
    problems: c.problems.map(own),
  };
}

function edge(
  kind: GraphEdge['kind'],
  from: string,
  to: string,
  file: string,
  line: number | null,
  detail: string | null = null,
  at: string | null = null,
): GraphEdge {
  return { kind, from, to, file, line, detail, at };
}

/** The edges an entry's own attributes (or frontmatter) write, at `line`. */
function entryEdges(e: KnowledgeEntry, id: string, line: number | null): GraphEdge[] {
  const out: GraphEdge[] = [];
  for (const s of e.supersedes) out.push(edge('supersedes', id, s, e.file, line));
  if (e.supersededBy) out.push(edge('superseded_by', id, e.supersededBy, e.file, line));
  // A marker names its counterpart only when a resolution wrote it ("Knowledge candidate KDC-…: reason");
  // a hand-set marker relates the entry to nothing, so it is no edge.
  const marked = e.conflict?.note ? CANDIDATE.exec(e.conflict.note) : null;
  if (marked) out.push(edge('conflict_marked', id, `candidate:${marked[0]}`, e.file, line, e.conflict!.note));
  if (e.ref) out.push(edge('ref', id, e.ref.replace(/^\.workflow\//, ''), e.file, line));
  const promoted = e.source ? PROMOTED_SOURCE.exec(e.source) : null;
  if (promoted) out.push(edge('promoted_from', id, `candidate:${promoted[2]}`, e.file, line, `session ${promoted[1]}`));
  return out;
}

function entryNode(e: KnowledgeEntry, aliases: string[]): GraphNode {
  return {
    id: entryGraphId(e),
    kind: e.store,
    label: e.title,
    entry_id: e.id,
    status: e.status,
    date: e.date,
    file: e.file,
    line: e.line,
    aliases: aliases.filter((a) => a !== entryGraphId(e) && a !== e.id),
  };
}

/** A `specs/*.md` file: one node per entry (tagged or legacy), with its positional alias. */
export function extractSpecFile(file: string, text: string): FileContribution {
  const issues: Issue[] = [];
  const parsed = parseSpecFile(text, `.workflow/${file}`);
  const entries = specFileEntries(parsed.value, file, `.workflow/${file}`, issues);
  const positions = new Map<KnowledgeEntry, string>();
  for (const [alias, e] of positionalIds(entries)) positions.set(e, alias);
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const e of entries) {
    const aliases = [e.id, `spec:${e.id}`];
    const pos = positions.get(e);
    if (pos) aliases.push(pos);
    if (!e.hasSid && e.line !== null) aliases.push(`legacy:${file.replace(/^specs\//, '')}:${e.line}`);
    const node = entryNode(e, aliases);
    nodes.push(node);
    appendAll(edges, entryEdges(e, node.id, e.line));
  }
  return detached({ nodes, edges, problems: problemsOf([...parsed.issues, ...issues]) });
}

function lineOf(text: string, pattern: RegExp): number | null {
  const m = pattern.exec(text);
  return m ? text.slice(0, m.index).split('\n').length : null;
}

/** A `knowhow/*.md` document: one node, answering to every knowhow id form. */
export function extractKnowhowFile(file: string, text: string): FileContribution {
  const parsed = parseKnowhowFile(text, `.workflow/${file}`);
  const issues = [...parsed.issues];
  const e = knowhowEntry(parsed.value, file, issues);
  const base = file.slice(file.lastIndexOf('/') + 1);
  const aliases = [e.id, base, base.replace(/\.md$/, ''), file, ...(e.explicitId ? [e.explicitId] : [])];
  const node = entryNode(e, aliases);
  const at = (key: string) => lineOf(text, new RegExp(`^${key}\\s*:`, 'm')) ?? 1;
  const edges = entryEdges(e, node.id, 1).map((x) =>
    x.kind === 'supersedes'
      ? { ...x, line: at('supersedes') }
      : x.kind === 'superseded_by'
        ? { ...x, line: at('supersededBy') }
        : x,
  );
  return detached({ nodes: [node], edges, problems: problemsOf(issues) });
}

/** The line of the n-th occurrence of `"key": "value"` in a JSON text. */
function jsonLines(text: string, key: string): number[] {
  const out: number[] = [];
  const re = new RegExp(`"${key}"\\s*:`, 'g');
  let line = 1;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (; at < m.index; at++) if (text.charCodeAt(at) === 10) line++;
    out.push(line);
  }
  return out;
}

export interface LedgerDoc {
  session_id: string;
  run_id: string;
  inputs: { knowledge_id: string; signal: string; source: string; count: number; first_recorded_at: string }[];
  candidates: { candidate_id: string; title: string; status: string; promoted_id: string | null; target: string }[];
}

/** A run's `knowledge-delta.json` (ours or maestro-flow's: the same `run-knowledge-delta/1.0`). */
export function extractLedger(file: string, ledger: LedgerDoc, text: string): FileContribution {
  const run = `run:${ledger.session_id}/${ledger.run_id}`;
  const session = `session:${ledger.session_id}`;
  const dir = file.replace(/\/knowledge-delta\.json$/, '');
  const nodes: GraphNode[] = [
    {
      id: session,
      kind: 'session',
      label: ledger.session_id,
      entry_id: null,
      status: null,
      date: null,
      file: dir.replace(/\/runs\/.*$/, ''),
      line: null,
      aliases: [ledger.session_id],
    },
    {
      id: run,
      kind: 'run',
      label: ledger.run_id,
      entry_id: null,
      status: null,
      date: null,
      file,
      line: 1,
      aliases: [ledger.run_id],
    },
  ];
  const edges: GraphEdge[] = [edge('promoted_from', run, session, file, 1, 'run of session')];
  const inputLines = jsonLines(text, 'knowledge_id');
  ledger.inputs.forEach((i, n) => {
    edges.push(
      edge(
        i.signal as GraphEdge['kind'],
        run,
        i.knowledge_id,
        file,
        inputLines[n] ?? null,
        `${i.source} ×${i.count}`,
        i.first_recorded_at,
      ),
    );
  });
  const candidateLines = jsonLines(text, 'candidate_id');
  ledger.candidates.forEach((c, n) => {
    const id = `candidate:${c.candidate_id}`;
    const line = candidateLines[n] ?? null;
    nodes.push({
      id,
      kind: 'candidate',
      label: c.title,
      entry_id: null,
      status: c.status,
      date: null,
      file,
      line,
      aliases: [c.candidate_id],
    });
    edges.push(edge('promoted_from', id, run, file, line, `staged (${c.target})`));
    if (c.status === 'promoted' && c.promoted_id)
      edges.push(edge('promoted_from', c.promoted_id, id, file, line, 'promotion receipt'));
  });
  return { nodes, edges, problems: [] };
}

const CHOICE_OF: Record<string, string> = {
  exact_duplicate: 'duplicate',
  semantic_duplicate: 'duplicate',
  related: 'related',
  extends: 'related',
  potential_conflict: 'conflict',
  supersede_candidate: 'supersede',
};

export interface ReceiptDoc {
  candidates: {
    candidate_id: string;
    disposition: string;
    canonical_id: string | null;
    resolution: { status: string; choice?: string; target_id?: string | null } | null;
  }[];
}

/** A run's `knowledge-reconciliation.json`: confirmed (human) resolutions with a target. */
export function extractReceipt(file: string, receipt: ReceiptDoc, text: string): FileContribution {
  const lines = jsonLines(text, 'candidate_id');
  const edges: GraphEdge[] = [];
  receipt.candidates.forEach((c, n) => {
    if (c.resolution?.status !== 'confirmed') return;
    const choice = c.resolution.choice ?? CHOICE_OF[c.disposition];
    const target = c.resolution.target_id ?? c.canonical_id;
    if (!choice || choice === 'unique' || !target) return;
    edges.push(edge('resolved_as', `candidate:${c.candidate_id}`, target, file, lines[n] ?? null, choice));
  });
  return { nodes: [], edges, problems: [] };
}
