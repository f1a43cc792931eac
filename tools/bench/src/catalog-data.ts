import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonSchemaObject, ToolDefinition } from '@tool-search/core';
import { createRandom, type Random, shuffled } from './random.js';

/** Where the real tool definitions came from. */
export interface RealToolsSource {
  /** The file read. */
  file: string;
  /** `data` when read from `--data`, `fixtures` for the vendored fallback. */
  kind: 'data' | 'fixtures';
  /** Why the fallback was used, when it was. */
  fallbackReason?: string;
}

interface RawTool {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  server?: unknown;
  annotations?: unknown;
}

export const FIXTURE_CATALOG = fileURLToPath(new URL('../fixtures/catalog.json', import.meta.url));
const DATA_CATALOG = path.join('mcp-real', 'combined-catalog.json');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toIdentifier(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_');
}

/**
 * Turns the shared data's `{ name, description, inputSchema, server }` into MCP tool
 * definitions named `<server>__<name>` (names repeat across servers).
 */
export function toToolDefinitions(raw: unknown): ToolDefinition[] {
  if (!Array.isArray(raw)) throw new Error('expected a JSON array of tools');
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  for (const entry of raw as RawTool[]) {
    if (!isObject(entry) || typeof entry.name !== 'string') continue;
    const server = typeof entry.server === 'string' ? entry.server : 'unknown';
    const name = `${toIdentifier(server)}__${toIdentifier(entry.name)}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const tool: ToolDefinition = {
      name,
      description: typeof entry.description === 'string' ? entry.description : '',
      inputSchema: isObject(entry.inputSchema)
        ? (entry.inputSchema as JsonSchemaObject)
        : { type: 'object' },
      source: 'mcp',
      toolset: `mcp-${toIdentifier(server)}`,
    };
    if (isObject(entry.annotations)) tool.annotations = entry.annotations;
    tools.push(tool);
  }
  return tools;
}

/**
 * Reads the real tools: `<data>/mcp-real/combined-catalog.json`, or the vendored
 * fixture when that is not readable.
 */
export function loadRealTools(dataDir: string): {
  tools: ToolDefinition[];
  source: RealToolsSource;
} {
  const file = path.resolve(dataDir, DATA_CATALOG);
  try {
    const tools = toToolDefinitions(JSON.parse(readFileSync(file, 'utf8')));
    if (tools.length < 3) throw new Error(`only ${tools.length} tools`);
    return { tools, source: { file, kind: 'data' } };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const tools = toToolDefinitions(JSON.parse(readFileSync(FIXTURE_CATALOG, 'utf8')));
    return {
      tools,
      source: { file: FIXTURE_CATALOG, kind: 'fixtures', fallbackReason: `${file}: ${reason}` },
    };
  }
}

const STOP_WORDS = new Set(
  'the a an and or of to in on for with by from at as is are be this that it its into if not use used using can will when which you your all any get set'.split(
    ' ',
  ),
);

interface Vocabulary {
  /** Description words, repeated by frequency so that picks follow the real distribution. */
  words: string[];
  /** First tokens of real tool names (list, get, create, ...). */
  verbs: string[];
  /** Other tokens of real tool names (issue, page, file, ...). */
  nouns: string[];
  /** Real top-level parameters: name and schema. */
  parameters: [string, unknown][];
}

function nameTokens(name: string): string[] {
  const local = name.slice(name.indexOf('__') + 2);
  return local
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1);
}

function buildVocabulary(tools: readonly ToolDefinition[]): Vocabulary {
  const words: string[] = [];
  const verbs: string[] = [];
  const nouns: string[] = [];
  const parameters: [string, unknown][] = [];
  for (const tool of tools) {
    for (const word of (tool.description ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []) {
      if (!STOP_WORDS.has(word)) words.push(word);
    }
    const [verb, ...rest] = nameTokens(tool.name);
    if (verb !== undefined) verbs.push(verb);
    nouns.push(...rest);
    const properties = tool.inputSchema.properties;
    if (isObject(properties)) {
      for (const [name, schema] of Object.entries(properties)) parameters.push([name, schema]);
    }
  }
  if (words.length === 0) words.push('tool');
  if (verbs.length === 0) verbs.push('get');
  if (nouns.length === 0) nouns.push('item');
  return { words, verbs, nouns, parameters };
}

type NameStyle = 'snake' | 'camel' | 'kebab';

function joinName(tokens: readonly string[], style: NameStyle): string {
  if (style === 'snake') return tokens.join('_');
  if (style === 'kebab') return tokens.join('-');
  return tokens
    .map((token, i) => (i === 0 ? token : token.charAt(0).toUpperCase() + token.slice(1)))
    .join('');
}

interface SyntheticServer {
  name: string;
  style: NameStyle;
  /** The server's domain nouns, so that its tools share vocabulary like real servers do. */
  nouns: string[];
}

function createServer(vocabulary: Vocabulary, random: Random, used: Set<string>): SyntheticServer {
  let name = '';
  for (let attempt = 0; attempt < 50 && (name === '' || used.has(name)); attempt++) {
    const parts = [random.pick(vocabulary.nouns), random.pick(vocabulary.words)];
    if (random.chance(0.3)) parts.push(random.pick(['cloud', 'api', 'hub', 'mcp', 'pro', 'io']));
    name = parts.join('-');
  }
  while (used.has(name)) name = `${name}-${random.int(1000)}`;
  used.add(name);
  const nouns = Array.from({ length: 3 + random.int(4) }, () => random.pick(vocabulary.nouns));
  const style = random.pick<NameStyle>(['snake', 'snake', 'snake', 'camel', 'kebab']);
  return { name, style, nouns };
}

function varyDescription(
  description: string,
  server: SyntheticServer,
  vocabulary: Vocabulary,
  random: Random,
): string {
  return description.replace(/[A-Za-z]{4,}/g, (word) => {
    if (STOP_WORDS.has(word.toLowerCase())) return word;
    const roll = random.next();
    if (roll < 0.2) return random.pick(vocabulary.words);
    if (roll < 0.26) return random.pick(server.nouns);
    return word;
  });
}

function varySchema(schema: JsonSchemaObject, vocabulary: Vocabulary, random: Random) {
  const properties: Record<string, unknown> = {};
  const source = isObject(schema.properties) ? schema.properties : {};
  for (const [name, value] of Object.entries(source)) {
    if (random.chance(0.15)) continue;
    const renamed = random.chance(0.15) ? `${name}_${random.pick(vocabulary.nouns)}` : name;
    properties[renamed] = structuredClone(value);
  }
  const extra = random.int(3);
  for (let i = 0; i < extra && vocabulary.parameters.length > 0; i++) {
    const [name, value] = random.pick(vocabulary.parameters);
    if (!(name in properties)) properties[name] = structuredClone(value);
  }
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === 'string' && name in properties)
    : [];
  const result: JsonSchemaObject = { type: 'object', properties };
  if (required.length > 0) result.required = required;
  return result;
}

/**
 * Makes `count` synthetic tools from real ones: new servers with their own name style
 * and domain nouns, names from real verbs and nouns, descriptions of real tools with
 * about a quarter of their words swapped for real vocabulary, and real parameter
 * schemas, some dropped, renamed or added. Seeded: the same inputs give the same tools.
 */
export function generateSyntheticTools(
  real: readonly ToolDefinition[],
  count: number,
  seed: number,
): ToolDefinition[] {
  const random = createRandom(seed);
  const vocabulary = buildVocabulary(real);
  const usedServers = new Set(real.map((tool) => tool.toolset ?? ''));
  const usedNames = new Set(real.map((tool) => tool.name));
  const tools: ToolDefinition[] = [];
  let server = createServer(vocabulary, random, usedServers);
  let left = 5 + random.int(40);
  while (tools.length < count) {
    if (left-- <= 0) {
      server = createServer(vocabulary, random, usedServers);
      left = 5 + random.int(40);
    }
    const base = random.pick(real);
    const baseTokens = nameTokens(base.name);
    const tokens = [baseTokens[0] ?? random.pick(vocabulary.verbs), random.pick(server.nouns)];
    if (random.chance(0.4)) tokens.push(random.pick(vocabulary.nouns));
    let name = `${toIdentifier(server.name)}__${joinName(tokens, server.style)}`;
    for (let suffix = 2; usedNames.has(name); suffix++)
      name = `${name.replace(/_\d+$/, '')}_${suffix}`;
    usedNames.add(name);
    const tool: ToolDefinition = {
      name,
      description: varyDescription(base.description ?? '', server, vocabulary, random),
      inputSchema: varySchema(base.inputSchema, vocabulary, random),
      source: 'mcp',
      toolset: `mcp-${server.name}`,
    };
    if (base.annotations !== undefined) tool.annotations = { ...base.annotations };
    tools.push(tool);
  }
  return tools;
}

/**
 * The benchmark catalog of one size: a seeded sample of the real tools when there are
 * enough, otherwise every real tool followed by synthetic ones.
 */
export function buildCatalog(
  real: readonly ToolDefinition[],
  size: number,
  seed: number,
): { tools: ToolDefinition[]; realCount: number; syntheticCount: number } {
  if (size <= real.length) {
    const picked = new Set(shuffled(real, createRandom(seed)).slice(0, size));
    const tools = real.filter((tool) => picked.has(tool));
    return { tools, realCount: tools.length, syntheticCount: 0 };
  }
  const synthetic = generateSyntheticTools(real, size - real.length, seed);
  return {
    tools: [...real, ...synthetic],
    realCount: real.length,
    syntheticCount: synthetic.length,
  };
}

/**
 * Deep copies of the tools: new objects that no memo has seen, for cold measurements.
 */
export function freshCopies(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return structuredClone(tools as ToolDefinition[]);
}

/**
 * The list with `fraction` of its tools replaced by new objects whose description
 * changed (at least one tool), at seeded positions.
 */
export function withChangedFraction(
  tools: readonly ToolDefinition[],
  fraction: number,
  random: Random,
  round: number,
): ToolDefinition[] {
  const result = [...tools];
  const count = Math.min(tools.length, Math.max(1, Math.round(tools.length * fraction)));
  const positions = new Set<number>();
  while (positions.size < count) positions.add(random.int(result.length));
  let i = 0;
  for (const position of positions) {
    i++;
    const tool = result[position]!;
    // The mark of an earlier revision is replaced, not kept: a long run of changes does
    // not grow the descriptions (the heap it measures is the system's, not the data's).
    const text = (tool.description ?? '').replace(/ \(revision \d+\.\d+\)$/, '');
    result[position] = {
      ...tool,
      description: `${text} (revision ${round}.${i})`,
      inputSchema: structuredClone(tool.inputSchema),
    };
  }
  return result;
}
