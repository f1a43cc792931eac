// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings are config input here
import { ToolSearchError } from '@tool-search/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GatewayConfig, parseGatewayConfig } from './parse.js';

const ENV = { HOME: '/home/user', TOKEN: 'token-from-env-0123456789' };

/** A config that uses every section, in the forms the docs show. */
const VALID = {
  mcpServers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: '${TOKEN}', DEBUG: 1 },
    },
    files: { type: 'stdio', command: 'node', args: ['server.js', '${HOME}/notes'], cwd: '/tmp' },
    docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
    legacy: { type: 'sse', url: 'http://localhost:3001/sse', disabled: true },
  },
  toolSearch: { enabled: 'auto', threshold_pct: 10, search_default_limit: 5 },
  toolsets: [
    { name: 'code', includes: ['mcp-github', 'mcp-files'] },
    { name: 'reading', tools: ['read_text_file'] },
  ],
  profiles: {
    dev: { enabledToolsets: ['code'], token: 'dev-token-0123456789abcdef' },
    reader: { enabled_toolsets: ['reading', 'mcp-docs'], disabledToolsets: ['mcp-legacy'] },
  },
  pins: { servers: ['docs'], tools: ['read_*'] },
  guardrails: { deny: ['delete_*'], allow: { toolsets: ['mcp-*'] }, max_argument_bytes: 65536 },
  approval: {
    require: { annotations: { destructiveHint: true }, tools: ['write_*'] },
    autoApprove: ['read_*'],
    otherwise: 'ask',
    fallback: 'deny',
    timeoutMs: 10_000,
  },
};

/** Where a message names the failing field: `Invalid gateway config[ in src]: <path>: ...`. */
const NAMES_A_PATH = /^Invalid gateway config(?: in .+?)?: (\(root\)|\S.*?): \S/s;

/** The config, or the ToolSearchError it throws; any other throw fails the property. */
function parseOrError(raw: unknown): GatewayConfig | ToolSearchError {
  try {
    return parseGatewayConfig(raw, { env: ENV });
  } catch (error) {
    if (ToolSearchError.isInstance(error)) return error;
    throw new Error(`parseGatewayConfig threw something else: ${String(error)}`, { cause: error });
  }
}

function expectWellFormed(outcome: GatewayConfig | ToolSearchError): void {
  if (ToolSearchError.isInstance(outcome)) {
    expect(outcome.code).toBe('invalid_config');
    expect(outcome.message).toMatch(NAMES_A_PATH);
    return;
  }
  expect(typeof outcome.mcpServers).toBe('object');
  for (const server of Object.values(outcome.mcpServers)) {
    if (server.type === 'stdio') expect(server.command.length).toBeGreaterThan(0);
    // JSON holds no function: an in-process entry never comes out of it.
    else if (server.type === 'in-process') expect.fail('an in-process entry from JSON');
    else expect(server.url).toMatch(/^https?:/);
  }
  expect(Array.isArray(outcome.warnings)).toBe(true);
}

type Path = (string | number)[];

/** Every path of a JSON value, the root included. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const here: Path[] = [prefix];
  if (Array.isArray(value)) {
    return here.concat(...value.map((item, index) => pathsOf(item, [...prefix, index])));
  }
  if (typeof value === 'object' && value !== null) {
    return here.concat(
      ...Object.entries(value).map(([key, item]) => pathsOf(item, [...prefix, key])),
    );
  }
  return here;
}

type Mutation =
  | { op: 'replace'; value: unknown }
  | { op: 'delete' }
  | { op: 'add'; key: string; value: unknown };

/** A copy of `root` with one mutation at `path`. */
function mutate(root: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return mutation.op === 'replace' ? mutation.value : copy;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (mutation.op === 'replace') parent[last] = mutation.value;
  else if (mutation.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
      Object.defineProperty(target, mutation.key, {
        value: mutation.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
    } else if (Array.isArray(target)) target.push(mutation.value);
  }
  return copy;
}

const VALID_PATHS = pathsOf(VALID);

/** Values a hand-edited config could hold where another was expected. */
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    ' ',
    '${UNSET_VARIABLE}',
    '${UNSET:-fallback}',
    'mcp-nowhere',
    '__proto__',
    'constructor',
    -1,
    0,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    'x'.repeat(10_000),
    [],
    {},
    null,
    true,
  ),
);
const oddKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'type', 'url', 'command', 'token', ''),
);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('replace' as const), value: oddValue }),
  fc.constant({ op: 'delete' as const }),
  fc.record({ op: fc.constant('add' as const), key: oddKey, value: oddValue }),
);

describe('parseGatewayConfig (fuzzed)', () => {
  it('parses the valid config that the mutations start from', () => {
    expectWellFormed(parseGatewayConfig(VALID, { env: ENV }));
  });

  it('answers any JSON value with a config or an invalid_config error that names a path', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (raw) => {
        expectWellFormed(parseOrError(raw));
      }),
      { numRuns: 400 },
    );
  });

  it('answers any JSON object under the known sections the same way', () => {
    const section = fc.constantFrom(
      'mcpServers',
      'servers',
      'toolSearch',
      'tool_search',
      'toolsets',
      'profiles',
      'pins',
      'guardrails',
      'approval',
    );
    fc.assert(
      fc.property(
        fc.dictionary(section, fc.oneof(oddValue, fc.dictionary(oddKey, oddValue))),
        (raw) => {
          expectWellFormed(parseOrError(raw));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers up to three mutations of a valid config with a config or a clear error, and never changes its input', () => {
    const step = fc.tuple(fc.constantFrom(...VALID_PATHS), mutation);
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 3 }), (steps) => {
        let raw: unknown = VALID;
        for (const [path, change] of steps) {
          // A path may be gone after an earlier step: mutate only where it still leads.
          if (pathsOf(raw).some((known) => known.join('\u0000') === path.join('\u0000'))) {
            raw = mutate(raw, path, change);
          }
        }
        const before = structuredClone(raw);
        const first = parseOrError(raw);
        expectWellFormed(first);
        expect(raw).toEqual(before);
        // The same input always gets the same answer.
        const second = parseOrError(raw);
        expect(ToolSearchError.isInstance(second) ? second.message : second).toEqual(
          ToolSearchError.isInstance(first) ? first.message : first,
        );
      }),
      { numRuns: 600 },
    );
  });

  it('answers a deeply nested value with a clear error, not a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let depth = 0; depth < 100_000; depth++) deep = [deep];
    for (const raw of [
      { mcpServers: { deep: { command: 'node', args: deep } } },
      { mcpServers: {}, unknownSection: deep },
      deep,
    ]) {
      expectWellFormed(parseOrError(raw));
    }
  });
});
