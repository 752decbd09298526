// The tuning step of the quality bench: fits the verdict policy's numbers (`VerdictPolicy`) on
// training rows by grid search. Rows carry the matches the matcher found (the policy-independent
// part), so each grid point only re-runs the pure verdict policy. The objective is safety first:
// silent admissions above 2 % and over-review above 20 % cost far more than any F1 gain.
import { verdictFor } from '../../packages/reconcile/dist/index.js';
import { measure } from './labelled-sets.mjs';

const range = (from, to, step) => {
  const out = [];
  for (let x = from; x <= to + 1e-9; x += step) out.push(Math.round(x * 1000) / 1000);
  return out;
};
export const GRID = {
  severeRatio: range(0.6, 1.0, 0.1),
  restatement: range(0.22, 0.42, 0.04),
  actionTarget: [0, 0.1, 0.2],
  slotConflict: [0.1, 0.18, 0.26],
  distinctive: [0, 0.3, 0.5],
};

/** Verdicts of `rows` ({ case, candidate, matches }) under `policy`. */
export function applyPolicy(rows, policy) {
  return rows.map((r) => ({
    case: r.case,
    set: r.set,
    verdict: verdictFor(r.candidate, r.candidate.action ?? 'propose', r.matches, '1970-01-01T00:00:00.000Z', policy),
  }));
}

export function objective(m) {
  return (
    m.macro_f1_lenient +
    m.canonical_accuracy -
    8 * Math.max(0, m.safety - 0.02) -
    2 * Math.max(0, m.over_review - 0.2) -
    4 * (1 - m.exact_recall)
  );
}

/** The grid point with the best mean objective over the training sets (each set weighs the same). */
export function fitPolicy(rows) {
  const sets = [...new Set(rows.map((r) => r.set))];
  let best = null;
  for (const severeRatio of GRID.severeRatio)
    for (const restatement of GRID.restatement)
      for (const actionTarget of GRID.actionTarget)
        for (const slotConflict of GRID.slotConflict)
          for (const distinctive of GRID.distinctive) {
            const policy = { severeRatio, restatement, actionTarget, slotConflict, distinctive };
            const verdicts = applyPolicy(rows, policy);
            let score = 0;
            for (const s of sets) score += objective(measure(verdicts.filter((v) => v.set === s)));
            score /= sets.length;
            if (!best || score > best.score + 1e-12) best = { policy, score };
          }
  return best.policy;
}
