/**
 * Offset → 1-based line/column in O(log n) after one O(n) pass, so that locating every entry of
 * a large file stays linear overall (maestro-flow recounted lines per entry: O(n²)).
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    let i = text.indexOf('\n');
    while (i !== -1) {
      this.starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
  }

  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}

/** The line ending a file mostly uses; new text written into it follows suit. */
export function detectEol(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
}
