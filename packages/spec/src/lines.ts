/**
 * Offset → 1-based line/column. Parsers ask for positions in (almost always) increasing order, so
 * this keeps a cursor and counts only the line breaks between the previous position and the next:
 * a whole-file parse stays linear (maestro-flow recounted lines per entry: O(n²)), and a file
 * whose parser asks only near its start (knowhow frontmatter) never scans the rest. Moving
 * backwards is allowed and walks back line by line.
 */
export class LineIndex {
  private offset = 0;
  private line = 1;
  private lineStart = 0;

  /** `seed`: a known position (its 1-based line and where that line starts), to count from there. */
  constructor(
    private readonly text: string,
    seed?: { offset: number; line: number; lineStart: number },
  ) {
    if (seed) {
      this.offset = seed.offset;
      this.line = seed.line;
      this.lineStart = seed.lineStart;
    }
  }

  at(offset: number): { line: number; column: number } {
    const text = this.text;
    if (offset >= this.offset) {
      // Lines start after every '\n' before `offset`.
      let nl = text.indexOf('\n', this.offset);
      while (nl !== -1 && nl < offset) {
        this.line++;
        this.lineStart = nl + 1;
        nl = text.indexOf('\n', nl + 1);
      }
    } else {
      while (this.lineStart > offset) {
        this.line--;
        this.lineStart = this.lineStart >= 2 ? text.lastIndexOf('\n', this.lineStart - 2) + 1 : 0;
      }
    }
    this.offset = offset;
    return { line: this.line, column: offset - this.lineStart + 1 };
  }
}

/** The line ending a file mostly uses; new text written into it follows suit. */
export function detectEol(text: string): '\n' | '\r\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
}
