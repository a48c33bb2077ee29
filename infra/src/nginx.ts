import { readFile } from 'node:fs/promises';

/** One nginx directive: `name args…;`, or `name args… { block }`. */
export interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

/** Words, quoted strings (quotes removed) and the `{`, `}`, `;` between them; comments dropped. */
function tokens(text: string): string[] {
  const found: string[] = [];
  const pattern = /#[^\n]*|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([{};])|([^\s{};"'#]+)/g;
  for (const match of text.matchAll(pattern)) {
    if (match[0].startsWith('#')) continue;
    found.push(match[1] ?? match[2] ?? match[3] ?? match[4]!);
  }
  return found;
}

/**
 * The directives of an nginx configuration, nested as written. Enough to read what a file says
 * (no includes, no variables resolved); a brace or semicolon out of place throws.
 */
export function parseNginx(text: string): Directive[] {
  const words = tokens(text);
  let at = 0;
  const block = (nested: boolean): Directive[] => {
    const directives: Directive[] = [];
    while (at < words.length) {
      if (words[at] === '}') {
        if (!nested) throw new Error('nginx: } without {');
        at += 1;
        return directives;
      }
      const name = words[at]!;
      const args: string[] = [];
      at += 1;
      while (at < words.length && !['{', ';', '}'].includes(words[at]!)) args.push(words[at++]!);
      if (words[at] === ';') {
        at += 1;
        directives.push({ name, args });
      } else if (words[at] === '{') {
        at += 1;
        directives.push({ name, args, block: block(true) });
      } else {
        throw new Error(`nginx: ${name} ends without ; or {`);
      }
    }
    if (nested) throw new Error('nginx: { without }');
    return directives;
  };
  return block(false);
}

export async function readNginx(path: string): Promise<Directive[]> {
  return parseNginx(await readFile(path, 'utf8'));
}

/** Every directive called `name` anywhere below `directives`, depth first. */
export function findDirectives(directives: readonly Directive[], name: string): Directive[] {
  return directives.flatMap((directive) => [
    ...(directive.name === name ? [directive] : []),
    ...findDirectives(directive.block ?? [], name),
  ]);
}
