const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is already safe: what `html` returns, and the only thing it inserts unescaped. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * A template whose every interpolated value is escaped unless it is Html (or an array of it):
 * a ban value, a reason or a key name can never become markup or script.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1]!;
  });
  return new Html(text);
}

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "in 6 days", "3 hours ago", "now": the nearest whole unit. */
export function relativeTime(at: Date, now: number): string {
  const delta = at.getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return relative.format(Math.round(delta / ms), unit);
  }
  return 'now';
}

/**
 * A time for people: absolute in UTC and relative to now, with the ISO form in `datetime`
 * (Fluxer's panel prints raw ISO strings). `never` says what null means in that column.
 */
export function timeCell(iso: string | null, never: string, now = Date.now()): Html {
  if (iso === null) return html`${never}`;
  const at = new Date(iso);
  const absolute = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${iso}">${absolute}</time> <span class="relative">(${relativeTime(at, now)})</span>`;
}
