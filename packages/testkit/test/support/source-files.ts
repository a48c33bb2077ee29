import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root (with a trailing slash), where `git ls-files` paths start. */
export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** Every file git tracks, as paths from the root (package-lock.json and node_modules left out). */
export function trackedFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listing
    .split('\0')
    .filter((path) => path !== '' && !path.endsWith('package-lock.json') && !path.split('/').includes('node_modules'));
}

/** One comment: its text, one entry per source line, the first on line `line` (1-based). */
export interface SourceComment {
  line: number;
  lines: string[];
}

type Syntax = 'script' | 'sql' | 'hash';

/** How comments are written in `path`, or undefined for a file that has none we read (Markdown, JSON…). */
export function commentSyntax(path: string, text: string): Syntax | undefined {
  if (/\.(?:[cm]?[jt]s|jsonc)$/.test(path)) return 'script';
  if (path.endsWith('.sql')) return 'sql';
  if (/(?:\.ya?ml|\.sh|(?:^|\/)Dockerfile)$/.test(path) || text.startsWith('#!')) return 'hash';
  return undefined;
}

/** The comments of a source file: consecutive line comments are one comment. */
export function commentsOf(path: string, text: string): SourceComment[] {
  const syntax = commentSyntax(path, text);
  if (syntax === undefined) return [];
  const pieces = syntax === 'script' ? scriptComments(text) : syntax === 'sql' ? sqlComments(text) : hashComments(text);
  const comments: Piece[] = [];
  for (const piece of pieces) {
    const last = comments.at(-1);
    if (piece.kind === 'line' && last?.kind === 'line' && last.line + last.lines.length === piece.line) {
      last.lines.push(...piece.lines);
    } else {
      comments.push({ ...piece, lines: [...piece.lines] });
    }
  }
  return comments.map(({ line, lines }) => ({ line, lines }));
}

interface Piece extends SourceComment {
  kind: 'line' | 'block';
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/**
 * TypeScript and JavaScript: skips strings, template literals (their `${…}` parts are code
 * again) and regular expression literals, so a `//` or `/*` inside one is not a comment.
 */
function scriptComments(text: string): Piece[] {
  const pieces: Piece[] = [];
  /** Open `${` of template literals, innermost last: how many `{` each has open. */
  const templates: number[] = [];
  let line = 1;
  let i = 0;
  let regexAllowed = true;

  const skipTemplate = (): void => {
    // At the character after a backtick or after the `}` closing a `${`.
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i += 1;
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        templates.push(0);
        i += 2;
        return;
      } else {
        if (c === '\n') line += 1;
        i += 1;
      }
    }
  };

  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if (c === '/' && (next === '/' || next === '*')) {
      const { piece, end } = next === '/' ? lineComment(text, i, line) : blockComment(text, i, line);
      pieces.push(piece);
      line += piece.lines.length - 1;
      i = end;
    } else if (c === '"' || c === "'") {
      i += 1;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i += 1;
      regexAllowed = false;
    } else if (c === '`') {
      i += 1;
      skipTemplate();
      regexAllowed = false;
    } else if (c === '/' && regexAllowed) {
      let inClass = false;
      i += 1;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += text[i] === '\\' ? 2 : 1;
      }
      i += 1;
      regexAllowed = false;
    } else if (c === '}' && templates.length > 0 && templates.at(-1) === 0) {
      templates.pop();
      i += 1;
      skipTemplate();
      regexAllowed = false;
    } else if (/[\w$]/.test(c)) {
      const word = /^[\w$]+/.exec(text.slice(i, i + 64))![0];
      i += word.length;
      regexAllowed = BEFORE_REGEX.has(word);
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1]! += 1;
      if (templates.length > 0 && c === '}') templates[templates.length - 1]! -= 1;
      if (!/\s/.test(c)) regexAllowed = c !== ')' && c !== ']';
      i += 1;
    }
  }
  return pieces;
}

/** SQL: `-- …` to the end of the line and `/* … *\/`, outside quoted strings and identifiers. */
function sqlComments(text: string): Piece[] {
  const pieces: Piece[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line += 1;
      i += 1;
    } else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '*')) {
      const { piece, end } = c === '-' ? lineComment(text, i, line) : blockComment(text, i, line);
      pieces.push(piece);
      line += piece.lines.length - 1;
      i = end;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const end = close === -1 ? text.length : close;
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 1;
    } else {
      i += 1;
    }
  }
  return pieces;
}

/** Shell, YAML, Dockerfile: `#` at the start of a line or after a blank, outside quotes. */
function hashComments(text: string): Piece[] {
  const pieces: Piece[] = [];
  text.split('\n').forEach((content, index) => {
    let quote: string | undefined;
    for (let i = 0; i < content.length; i += 1) {
      const c = content[i];
      if (quote !== undefined) {
        if (c === '\\' && quote === '"') i += 1;
        else if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '#' && (i === 0 || /\s/.test(content[i - 1]!))) {
        pieces.push({ kind: 'line', line: index + 1, lines: [content.slice(i + 1)] });
        return;
      }
    }
  });
  return pieces;
}

/** The comment whose two-character marker (`//`, `--`) is at `from`, on line `line`: to the end of the line. */
function lineComment(text: string, from: number, line: number): { piece: Piece; end: number } {
  const newline = text.indexOf('\n', from);
  const end = newline === -1 ? text.length : newline;
  return { piece: { kind: 'line', line, lines: [text.slice(from + 2, end)] }, end };
}

/** The comment whose `/*` is at `from`, its first line `line`: to its `*\/` (or the end of the text). */
function blockComment(text: string, from: number, line: number): { piece: Piece; end: number } {
  const close = text.indexOf('*/', from + 2);
  const end = close === -1 ? text.length : close;
  return { piece: { kind: 'block', line, lines: text.slice(from + 2, end).split('\n') }, end: end + 2 };
}
