import { inputError } from './errors.js';

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Parses JSON, turning a syntax error into a MaestroError (exit 2) that names the file, line and
 * column. A leading BOM is tolerated.
 */
export function parseJsonText(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const m = /position (\d+)/.exec(message);
    const offset = m ? Number(m[1]) : jsonErrorOffset(body);
    const at = lineColumnAt(body, offset);
    // One line: V8 quotes the broken source, newlines included.
    const detail =
      body.trim() === '' ? 'the file is empty' : message.replace(/^JSON\.parse: /, '').replace(/\s+/g, ' ');
    throw inputError('INVALID_JSON', `${file}${at ? `:${at.line}:${at.column}` : ''}: invalid JSON: ${detail}`, {
      hint: `fix or restore ${file}; nothing was written`,
      location: { file, ...(at ?? {}) },
      cause: err,
    });
  }
}

/**
 * Offset of the first syntax error in `text`, for engines whose JSON.parse message has no
 * position. A small recursive-descent scan; only called after JSON.parse has failed.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      if (text[i] === '\\') i++;
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    }
    if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    return i;
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0;
  }
}
