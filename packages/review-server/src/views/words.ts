import type { Disposition } from '@maestro/reconcile';
import { type Html, h } from '../html.js';
import { badge } from './layout.js';

/** Plain words and badge tones for the matcher's vocabulary (the page's only vocabulary table). */
const DISPOSITION: Record<Disposition, { label: string; tone: string }> = {
  potential_conflict: { label: 'conflict', tone: 'red' },
  supersede_candidate: { label: 'supersede', tone: 'orange' },
  semantic_duplicate: { label: 'duplicate', tone: 'yellow' },
  exact_duplicate: { label: 'exact duplicate', tone: 'grey' },
  extends: { label: 'extends', tone: 'blue' },
  related: { label: 'related', tone: 'blue' },
  unique: { label: 'unique', tone: 'green' },
};

export function dispositionBadge(d: Disposition | null): Html {
  if (!d) return badge('no verdict', 'grey');
  return badge(DISPOSITION[d].label, DISPOSITION[d].tone);
}

export const dispositionLabel = (d: Disposition) => DISPOSITION[d].label;

export function freshnessBadge(f: 'fresh' | 'stale' | 'missing'): Html {
  return f === 'fresh' ? badge('fresh receipt', 'green') : badge(f === 'stale' ? 'stale receipt' : 'no receipt', 'red');
}

export function eligibilityBadge(e: string | null): Html {
  if (!e) return h``;
  const tone = e === 'eligible' ? 'green' : e === 'review_required' ? 'orange' : 'grey';
  return badge(e.replace('_', ' '), tone);
}

export const ageText = (days: number) => (days === 0 ? 'today' : days === 1 ? '1 day' : `${days} days`);
