// A strict reader of the Prometheus text exposition format (0.0.4): every line is a
// HELP or TYPE comment, another comment, blank, or a sample of a declared family;
// names and labels are checked, values parsed, histograms checked for `le` buckets that
// end with +Inf and never decrease. It throws on the first line that breaks a rule.

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusText {
  types: Map<string, string>;
  samples: PrometheusSample[];
  /** The sum of a family's samples (a counter's `_total`) whose labels include `where`. */
  sum(name: string, where?: Record<string, string>): number;
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
    throw new Error(`not a number '${text}' in: ${line}`);
  }
  return Number(text);
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = body;
  while (rest.length > 0) {
    const match = /^([^=]+)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
    if (!match) throw new Error(`malformed labels in: ${line}`);
    const [whole, key, raw] = match as unknown as [string, string, string];
    if (!LABEL.test(key)) throw new Error(`bad label name '${key}' in: ${line}`);
    if (key in labels) throw new Error(`label '${key}' twice in: ${line}`);
    labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count', '_total', '_created']) {
    if (name.endsWith(suffix) && types.has(name.slice(0, -suffix.length))) {
      return name.slice(0, -suffix.length);
    }
  }
  return undefined;
}

export function parsePrometheusText(text: string): PrometheusText {
  if (!text.endsWith('\n')) throw new Error('the text must end with a line feed');
  const types = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const comment = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!comment) continue;
      const [, kind, name, rest] = comment as unknown as [string, string, string, string?];
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest ?? '')) throw new Error(`bad type in: ${line}`);
        if (types.has(name)) throw new Error(`TYPE of '${name}' twice`);
        types.set(name, rest!);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!sample) throw new Error(`malformed sample: ${line}`);
    const [, name, labelBody, value] = sample as unknown as [
      string,
      string,
      string | undefined,
      string,
    ];
    if (familyOf(name, types) === undefined)
      throw new Error(`sample of an undeclared family: ${line}`);
    samples.push({
      name,
      labels: parseLabels(labelBody ?? '', line),
      value: parseValue(value, line),
    });
  }
  checkHistograms(types, samples);
  return {
    types,
    samples,
    sum(name, where = {}) {
      return samples
        .filter((s) => s.name === name)
        .filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v))
        .reduce((total, s) => total + s.value, 0);
    },
  };
}

function checkHistograms(types: Map<string, string>, samples: PrometheusSample[]): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, PrometheusSample[]>();
    for (const s of samples.filter((entry) => entry.name === `${family}_bucket`)) {
      if (s.labels['le'] === undefined) throw new Error(`a bucket of '${family}' without le`);
      const { le: _le, ...rest } = s.labels;
      const key = JSON.stringify(Object.entries(rest).sort());
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const buckets of series.values()) {
      const last = buckets.at(-1)!;
      if (last.labels['le'] !== '+Inf') throw new Error(`'${family}' buckets do not end with +Inf`);
      for (let i = 1; i < buckets.length; i += 1) {
        if (buckets[i]!.value < buckets[i - 1]!.value)
          throw new Error(`'${family}' buckets decrease`);
      }
    }
  }
}
