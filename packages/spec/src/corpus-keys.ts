/** A file's entry ids and link values as the `spec_ids` and `spec_links` rows take them. */
export interface EncodedKeys {
  /** JSON array of the ids (position = index). */
  ids: string;
  /** JSON array of `[link value, position]` pairs; null when no entry has a link. */
  links: string | null;
}

/** Entry ids and link values as JSON (one string each, not an object per entry). */
export function encodeKeys(keys: readonly { id: string; links: string[] }[], from = 0): EncodedKeys {
  const links: [string, number][] = [];
  keys.forEach((k, i) => {
    for (const v of k.links) links.push([v, from + i]);
  });
  return { ids: JSON.stringify(keys.map((k) => k.id)), links: links.length ? JSON.stringify(links) : null };
}

/** `encodeKeys` one entry after the other: the ids and the link pairs, without an object per entry. */
export class KeysWriter {
  private readonly ids: string[] = [];
  private readonly links: [string, number][] = [];
  add(id: string, links: readonly string[]): void {
    for (const v of links) this.links.push([v, this.ids.length]);
    this.ids.push(id);
  }
  encoded(): EncodedKeys {
    return { ids: JSON.stringify(this.ids), links: this.links.length ? JSON.stringify(this.links) : null };
  }
}
