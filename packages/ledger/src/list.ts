/** Splits `a,b , c` (and repeated flags) into trimmed, non-empty, de-duplicated items. */
export function splitList(values: string | readonly string[] | undefined): string[] {
  const all = typeof values === 'string' ? [values] : (values ?? []);
  return [
    ...new Set(
      all
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
