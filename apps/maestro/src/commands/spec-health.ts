import type { CommandModule } from '../kit.js';
import { positionals } from './spec-cli.js';

const usage = 'maestro spec health';

export const command: CommandModule = {
  usage,
  summary: 'Counts, broken and cyclic supersession links, contested and stale entries, evidence from runs',
  options: {},
  optionHelp: {},
  examples: ['maestro spec health', 'maestro spec health --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    positionals(args, [], 0, usage);
    const { CONTRADICTED_BELOW, specHealthWithEvidence } = await import('@maestro/audit');
    const h = specHealthWithEvidence(ctx.layout, ctx.runtime.now());
    const lines = [
      `Spec entries: ${h.total} (${h.active} active, ${h.deprecated} deprecated, ${h.legacy} legacy)`,
      `Sids: ${h.withSid} with, ${h.withoutSid} without${h.withoutSid ? ' (run `maestro spec backfill-sid`)' : ''}`,
      `Confidence: ${h.contested} contested (${h.contestedStale} older than 30 days), ${h.lowConfidence} low`,
      `Supersession: ${h.chains} chain(s), ${h.danglingSupersedes.length + h.danglingSupersededBy.length} broken link(s), ${h.cyclicSids.length} cyclic sid(s)`,
      `Freshness: average ${h.avgFreshness.toFixed(3)}, ${h.staleActive} active entr${h.staleActive === 1 ? 'y' : 'ies'} below 0.5`,
      `Parse issues: ${h.issues.errors} error(s), ${h.issues.warnings} warning(s)${h.issues.errors + h.issues.warnings ? ' (see `maestro spec list`)' : ''}`,
    ];
    for (const d of h.danglingSupersedes)
      lines.push(`  ! ${d.id} supersedes missing ${d.missing} (.workflow/${d.file}:${d.line})`);
    for (const d of h.danglingSupersededBy)
      lines.push(`  ! ${d.id} superseded-by missing ${d.missing} (.workflow/${d.file}:${d.line})`);
    if (h.cyclicSids.length) lines.push(`  ! cycle: ${h.cyclicSids.join(', ')}`);
    for (const t of h.leftoverTemps) {
      lines.push(
        `  ! leftover temp file .workflow/${t} (an interrupted write; the next write of that file removes it)`,
      );
    }
    if (h.unindexedProse.length) {
      lines.push(
        `Unread text: ${h.unindexedProse.length} spec file(s) hold text outside any <spec-entry> block; search, context and review never see it`,
      );
      for (const p of h.unindexedProse) {
        lines.push(
          `  ! .workflow/${p.file}:${p.line} ${p.chars} characters of text, no entry (wrap each rule in a <spec-entry> block, or add it with \`maestro spec add <category> "<title>" "<content>"\`)`,
        );
      }
    }
    const capped = h.capped.entries;
    lines.push(
      `Indexing: ${capped.length} entr${capped.length === 1 ? 'y' : 'ies'} over ${h.capped.limit} characters (search, context and the matcher read only their start; load shows all)`,
    );
    for (const c of capped)
      lines.push(`  ~ ${c.id} ${c.chars} characters (.workflow/${c.file}${c.line ? `:${c.line}` : ''})`);
    const ev = h.evidence;
    lines.push(
      `Evidence: ${ev.entries} entr${ev.entries === 1 ? 'y' : 'ies'} judged by runs, ${ev.supported} supported, ${ev.contradicted} contradicted (${ev.below_threshold} below ${CONTRADICTED_BELOW})`,
    );
    for (const f of h.evidence_findings) lines.push(`  ! ${f.target}: ${f.evidence}`);
    return { data: h, text: lines.join('\n') };
  },
};
