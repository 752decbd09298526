import { createRequire } from 'node:module';
import type { Issue, Parsed } from '@maestro/core';
import type { Node } from 'yaml';
import type { StageInput } from './stage.js';

export const DECISION_STATUSES = ['proposed', 'accepted', 'rejected'] as const;
export const CONSTRAINT_STATUSES = ['locked', 'open', 'deferred'] as const;

/** A decision or constraint from `report.md` frontmatter. */
export interface ReportItem {
  kind: 'decision' | 'constraint';
  /** As written, or stamped `D-<n>` / `C-<n>` from its 1-based position. */
  id: string;
  text: string;
  status: string;
  /** 1-based line in report.md. */
  line: number;
}

const KINDS = {
  decision: { key: 'decisions', prefix: 'D', statuses: DECISION_STATUSES, plain: 'proposed' },
  constraint: { key: 'constraints', prefix: 'C', statuses: CONSTRAINT_STATUSES, plain: 'open' },
} as const;

/**
 * `yaml` is loaded on first use (a report with frontmatter): the commands that only import this
 * package for its other readers (the gate, reviews) never pay for loading the library.
 */
let yamlModule: typeof import('yaml') | null = null;
function yamlLib(): typeof import('yaml') {
  if (yamlModule === null) yamlModule = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/** The YAML between a leading `---` line and the next `---` line, and the line it starts on. */
function frontmatter(text: string): { yaml: string; firstLine: number } | null {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const m = /^---[ \t]*\r?\n/.exec(body);
  if (!m) return null;
  const rest = body.slice(m[0].length);
  const end = /^---[ \t]*$/m.exec(rest);
  if (!end) return null;
  return { yaml: rest.slice(0, end.index), firstLine: 2 };
}

/**
 * Reads `decisions[]` and `constraints[]` from report.md frontmatter (pure). Items are
 * `{id?, text, status}`, the shorthand `{accepted: "text"}` / `{locked: "text"}`, or a plain
 * string (a proposed decision / an open constraint). Every problem is returned at once, with its
 * line; no frontmatter means no items.
 */
export function parseReport(text: string, file: string): Parsed<ReportItem[]> {
  const fm = frontmatter(text);
  if (!fm) return { value: [], issues: [] };
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlLib();
  const counter = new LineCounter();
  const doc = parseDocument(fm.yaml, { lineCounter: counter, prettyErrors: false });
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? fm.firstLine : counter.linePos(offset).line + fm.firstLine - 1;
  const issues: Issue[] = [];
  const problem = (line: number, message: string, hint?: string) =>
    issues.push({ file, line, severity: 'error', code: 'REPORT_INVALID', message, ...(hint ? { hint } : {}) });
  for (const e of doc.errors) problem(lineOf(e.pos[0]), `frontmatter is not valid YAML: ${e.message.split('\n')[0]}`);
  if (doc.errors.length) return { value: [], issues };
  if (!isMap(doc.contents)) return { value: [], issues };
  const items: ReportItem[] = [];
  for (const kind of ['decision', 'constraint'] as const) {
    const spec = KINDS[kind];
    const list = doc.contents.get(spec.key, true) as Node | undefined;
    if (list === undefined || (isScalar(list) && list.value === null)) continue;
    if (!isSeq(list)) {
      problem(lineOf(list.range?.[0]), `${spec.key} must be a list`, `write ${spec.key}: as a YAML list of items`);
      continue;
    }
    list.items.forEach((node, index) => {
      const line = lineOf((node as Node).range?.[0]);
      const item = readItem(node as Node, kind, index, (m, h) => problem(line, m, h));
      if (!item) return;
      // An accepted decision or locked constraint is meant to be staged; without text it cannot be.
      if (item.text === '' && isStaged({ ...item, text: '-', line })) {
        problem(line, `${kind} ${index + 1} is ${item.status} but its text is empty`, 'write the rule it states');
        return;
      }
      items.push({ ...item, line });
    });
  }
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) problem(item.line, `${item.kind} id ${item.id} is used twice`, 'give each item its own id');
    seen.add(item.id);
  }
  return { value: items, issues: issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
}

function readItem(
  node: Node,
  kind: 'decision' | 'constraint',
  index: number,
  problem: (message: string, hint?: string) => void,
): Omit<ReportItem, 'line'> | null {
  const spec = KINDS[kind];
  const statuses = spec.statuses as readonly string[];
  const stamped = `${spec.prefix}-${index + 1}`;
  const value = (node as { toJSON(): unknown }).toJSON();
  if (typeof value === 'string') return { kind, id: stamped, text: value.trim(), status: spec.plain };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problem(`${kind} ${index + 1} must be text or a mapping`, `write {text: "...", status: ${statuses.join('|')}}`);
    return null;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && statuses.includes(keys[0])) {
    return { kind, id: stamped, text: String(obj[keys[0]] ?? '').trim(), status: keys[0] };
  }
  if (typeof obj.text !== 'string') {
    problem(
      `${kind} ${index + 1} has no text`,
      `write {text: "...", status: ${statuses.join('|')}} or {${statuses[1]}: "..."}`,
    );
    return null;
  }
  const status = obj.status === undefined ? spec.plain : String(obj.status);
  if (!statuses.includes(status)) {
    problem(`${kind} ${index + 1} has unknown status "${status}"`, `use one of ${statuses.join(', ')}`);
    return null;
  }
  const id = obj.id === undefined || obj.id === null ? stamped : String(obj.id).trim() || stamped;
  return { kind, id, text: obj.text.trim(), status };
}

/** Whether a report item becomes a candidate at completion: accepted decisions, locked constraints. */
export function isStaged(item: ReportItem): boolean {
  return item.text !== '' && (item.kind === 'decision' ? item.status === 'accepted' : item.status === 'locked');
}

/** The evidence ref that ties a candidate to its report item. */
export function reportRef(item: ReportItem): string {
  return `report.md#${item.kind}:${item.id}`;
}

/**
 * The spec `propose` candidate a staged report item becomes (pure): category `arch`, title the
 * first 120 characters of the text, evidence the run and the report item.
 */
export function handoffCandidate(item: ReportItem, runId: string): StageInput {
  return {
    target: 'spec',
    action: 'propose',
    title: [...item.text.replace(/\s+/g, ' ')].slice(0, 120).join('').trim(),
    content: item.text,
    category: 'arch',
    source_kind: item.kind,
    evidence_refs: [`run:${runId}`, reportRef(item)],
  };
}
