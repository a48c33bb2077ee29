/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a scrape (comments skipped); label values unescaped. */
export function parseMetrics(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match || line.startsWith('#')) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key!] = value!.replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Scrapes `url` (a `/metrics` endpoint) and parses it; the raw text too, to assert what must not appear. */
export async function scrapeMetrics(url: string): Promise<{ text: string; samples: MetricSample[] }> {
  const answer = await fetch(url);
  if (answer.status !== 200) throw new Error(`scrape of ${url} answered ${answer.status}`);
  const text = await answer.text();
  return { text, samples: parseMetrics(text) };
}

/**
 * The value of the one sample named `name` whose labels include `labels`, or undefined when
 * none matches. More than one match is an error: the test's labels should pick one series.
 */
export function metricValue(
  samples: readonly MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matching.length > 1) throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matching[0]?.value;
}
