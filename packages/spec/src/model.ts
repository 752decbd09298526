import type { Issue } from '@maestro/core';

/**
 * The corpus as every other package sees it: one `KnowledgeEntry` per spec entry (tagged or
 * legacy) and per knowhow document. This is the *parsed* view; the on-disk shape (exact bytes,
 * attribute order, line endings) is kept by the file models in `spec-file.ts` / `knowhow-file.ts`.
 */
export type KnowledgeStore = 'spec' | 'knowhow';

/** The seven categories maestro-flow accepts; other values parse with an issue. */
export const SPEC_CATEGORIES = ['coding', 'arch', 'debug', 'test', 'review', 'learning', 'ui'] as const;
export type SpecCategory = (typeof SPEC_CATEGORIES)[number];

export type EntryStatus = 'active' | 'deprecated';

export interface KnowledgeEntry {
  /**
   * The one identity, used by search, load, the ledger, receipts and audit:
   * - spec with a sid: the sid (`S-YYYYMMDD-xxxx`);
   * - spec without a sid: a stable derived id (see `derivedSpecId`) that does not change when
   *   other entries are inserted or removed; `spec backfill-sid` replaces it with a real sid;
   * - knowhow: `knowhow-<slug of the file stem>` (maestro-flow's wiki id).
   */
  id: string;
  store: KnowledgeStore;
  title: string;
  /** Spec: the body without its leading `### ` heading line. Knowhow: the body after frontmatter. */
  content: string;
  category: string | null;
  keywords: string[];
  description: string | null;
  /** `YYYY-MM-DD` or null. */
  date: string | null;
  status: EntryStatus;
  /** `high` | `medium` | `low` | `contested`, or null. */
  confidence: string | null;
  supersedes: string[];
  supersededBy: string | null;
  /** Spec `ref` attribute (path of a knowhow doc relative to .workflow), if any. */
  ref: string | null;
  source: string | null;
  /** Path relative to `.workflow/`, with forward slashes, e.g. `specs/coding-conventions.md`. */
  file: string;
  /** 1-based line of the opening tag or legacy heading; null for knowhow. */
  line: number | null;
  /** `contentHash(content)` from @maestro/core. */
  contentHash: string;
  /** True for `### [category] [date] title` entries outside any tag. */
  legacy: boolean;
  /** True when `id` is a real sid written in the file. */
  hasSid: boolean;
  /** Knowhow type (tip, document, ...) or null for specs. */
  type: string | null;
  /** Conflict marker fields when present. */
  conflict: { marker: string; note: string | null; date: string | null } | null;
  /**
   * Where `title` came from (additive, optional): the `title` attribute, the `### ` heading, the
   * first line of the content (entries with neither; such titles never count as duplicates), or
   * the knowhow frontmatter / first `# ` heading / file name.
   */
  titleSource?: 'attribute' | 'heading' | 'content' | 'frontmatter' | 'filename' | 'none';
  /** Spec: every attribute of the tag, decoded (unknown ones such as `id`, `sourceRef` too). */
  attributes?: Record<string, string>;
  /** Knowhow: the explicit id (`explicitId` frontmatter, e.g. `tip-20260427-my-slug`), if any. */
  explicitId?: string | null;
}

export interface CorpusFileInfo {
  /** Relative to `.workflow/`. */
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * The inode change time: set by the system on every write and never by a tool, so an edit that
   * keeps the size and puts the mtime back still shows (derived indexes compare all three).
   */
  ctimeMs: number;
}

export interface Corpus {
  entries: KnowledgeEntry[];
  byId: Map<string, KnowledgeEntry>;
  /** Parse problems across all files, each with file (relative to the project root), line, column and hint. */
  issues: Issue[];
  files: CorpusFileInfo[];
}
