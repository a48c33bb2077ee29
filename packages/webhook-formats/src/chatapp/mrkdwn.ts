/**
 * Slack's markup that Markdown readers would otherwise see raw: `<url|label>` and `<url>` links,
 * `<!here>`-style specials and the three escaped characters. Bold and italics are left alone
 * (Slack's `*bold*` would turn into italics if rewritten naively).
 */
export function slackToMarkdown(text: string): string {
  const linked = text.replace(/<([^<>\s|]+)(?:\|([^<>]*))?>/g, (match, target: string, label: string | undefined) => {
    if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0]}`;
    if (target.startsWith('@') || target.startsWith('#')) return label ? `${target[0]}${label}` : match;
    if (!/^(https?:\/\/|mailto:)/i.test(target)) return match;
    return label ? `[${label}](${target})` : target;
  });
  return linked.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
