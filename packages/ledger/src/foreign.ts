/**
 * Migrate-on-read for maestro-flow's session and run files (`session/1.x|2.x|3.x`,
 * `command-run/1.x`, `run/3.x`), so a project maestro-flow wrote can be reviewed, gated and
 * promoted as it is. Only the fields Maestro's records need are taken; every other key is kept as
 * it was (the record schemas are loose), and the file is not rewritten by reading it.
 */

type Raw = Record<string, unknown>;

const FLOW_SESSION = /^session\/[123]\.\d+$/;
const FLOW_RUN = /^(command-run\/1|run\/3)\.\d+$/;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The day a `YYYYMMDD-…` id names, as an ISO time (the fallback when a file has no timestamps). */
function dayOf(id: unknown): string {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(typeof id === 'string' ? id : '');
  return m ? `${m[1]}-${m[2]}-${m[3]}T00:00:00.000Z` : '1970-01-01T00:00:00.000Z';
}

export function fromFlowSession(raw: unknown): unknown {
  const r = obj(raw);
  if (!FLOW_SESSION.test(String(r.schema_version ?? ''))) return raw;
  const life = obj(r.lifecycle);
  const created = str(r.created_at) ?? str(r.createdAt) ?? dayOf(r.session_id);
  const sealedAt = str(life.sealed_at) ?? str(r.sealed_at);
  return {
    ...r,
    schema_version: 'maestro-session/1.0',
    title: str(r.title) ?? str(r.intent) ?? String(r.session_id ?? ''),
    status: r.status === 'sealed' || sealedAt !== null ? 'sealed' : 'running',
    created_at: created,
    updated_at: str(r.updated_at) ?? str(r.updatedAt) ?? sealedAt ?? created,
    revision:
      typeof r.activity_revision === 'number' ? r.activity_revision : typeof r.revision === 'number' ? r.revision : 0,
    lifecycle: {
      sealed_at: sealedAt,
      seal_summary: str(life.seal_summary),
      promoted_spec_ids: ids(life.promoted_spec_ids),
      promoted_knowhow_ids: ids(life.promoted_knowhow_ids),
    },
  };
}

const RUN_STATUS: Record<string, 'running' | 'completed' | 'sealed'> = {
  sealed: 'sealed',
  completed: 'completed',
  succeeded: 'completed',
  failed: 'completed',
  blocked: 'completed',
  cancelled: 'completed',
};

export function fromFlowRun(raw: unknown): unknown {
  const r = obj(raw);
  if (!FLOW_RUN.test(String(r.schema_version ?? ''))) return raw;
  const command = typeof r.command === 'string' ? r.command : (str(obj(r.command).name) ?? 'run');
  const started = str(r.started_at) ?? str(r.created_at) ?? dayOf(r.run_id);
  const completed = str(r.completed_at);
  const sealed = str(r.sealed_at);
  return {
    ...r,
    schema_version: 'maestro-run/1.0',
    command,
    status: RUN_STATUS[String(r.status)] ?? (sealed ? 'sealed' : 'running'),
    created_at: started,
    updated_at: sealed ?? completed ?? started,
    completed_at: completed,
    sealed_at: sealed,
    summary: str(r.summary),
    revision: typeof r.revision === 'number' ? r.revision : 0,
  };
}
