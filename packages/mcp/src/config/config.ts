import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  type ConfigWarning,
  describeError,
  parseToolSearchConfigWithWarnings,
  type ToolSearchConfig,
  ToolSearchError,
} from '@tool-search/core';
import { createToolsetRegistry, type ToolsetDefinition } from '@tool-search/toolsets';
import { z } from 'zod';
import {
  DEFAULT_UPSTREAM_LIMITS,
  MIN_DESCRIPTION_CHARS,
  type UpstreamLimits,
} from '../upstream/limits.js';
import { DEFAULT_REVIEW_FILE, type ToolReviewConfig } from '../upstream/review.js';
import { findTooDeep, MAX_CONFIG_DEPTH } from './depth.js';
import { expandEnvVariables, formatPath } from './env.js';

/** An upstream MCP server run as a child process that speaks MCP over stdio. */
export interface StdioServerConfig {
  /** `'stdio'`; optional in the file. */
  type: 'stdio';
  /** The executable, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. @defaultValue [] */
  args: string[];
  /** Extra environment variables (the process also gets a safe default environment). */
  env: Record<string, string>;
  /** The working directory. */
  cwd?: string;
  /** When true the server is left out. */
  disabled: boolean;
  /**
   * Trust the server's own metadata: its `_meta["anthropic/alwaysLoad"]` pins are
   * honoured. Descriptions are capped and schemas checked all the same. @defaultValue false
   */
  trusted: boolean;
  /** No answer and no progress for this long ends a call (wins over the gateway's default). */
  callTimeoutMs?: number;
  /** The longest call, however much progress it reports. */
  maxCallTimeMs?: number;
  /** The most calls that run at once on this server; more wait in line (FIFO). */
  maxConcurrency?: number;
}

/** An upstream MCP server reached over HTTP (Streamable HTTP, or the old SSE transport). */
export interface HttpServerConfig {
  /**
   * `'http'` tries Streamable HTTP and falls back to SSE for old servers (the default);
   * `'streamable-http'` never falls back; `'sse'` uses only the old SSE transport.
   */
  type: 'http' | 'streamable-http' | 'sse';
  /** The endpoint, e.g. `https://example.com/mcp`. */
  url: string;
  /** Headers sent with every request, e.g. `Authorization`. */
  headers: Record<string, string>;
  /** When true the server is left out. */
  disabled: boolean;
  /**
   * Trust the server's own metadata: its `_meta["anthropic/alwaysLoad"]` pins are
   * honoured. Descriptions are capped and schemas checked all the same. @defaultValue false
   */
  trusted: boolean;
  /** No answer and no progress for this long ends a call (wins over the gateway's default). */
  callTimeoutMs?: number;
  /** The longest call, however much progress it reports. */
  maxCallTimeMs?: number;
  /** The most calls that run at once on this server; more wait in line (FIFO). */
  maxConcurrency?: number;
}

/** One entry of `mcpServers`. */
export type UpstreamServerConfig = StdioServerConfig | HttpServerConfig;

/** A named session scope that HTTP clients select with their token, stdio clients by name. */
export interface GatewayProfile {
  /** Toolsets this profile may see; absent means all. */
  enabledToolsets?: string[];
  /** Toolsets this profile never sees. */
  disabledToolsets?: string[];
  /** The bearer token that selects this profile over HTTP. */
  token?: string;
}

/** Tools that are never deferred behind the bridge. */
export interface GatewayPins {
  /** Every tool of these servers stays visible. */
  servers: string[];
  /** Tools whose exposed or upstream names match these globs (`*`, `?`) stay visible. */
  tools: string[];
}

/** Globs (`*`, `?`) over tool names and toolsets (`mcp-<server>` is every tool of a server). */
export interface ToolPatternsConfig {
  /** Tool-name globs. */
  tools: string[];
  /** Toolset-name globs. */
  toolsets: string[];
}

/** Call policy that is checked before any upstream call. */
export interface GuardrailsConfig {
  /** When set, only tools it matches may be called. */
  allow?: ToolPatternsConfig;
  /** Tools it matches are never called (wins over `allow`). */
  deny: ToolPatternsConfig;
  /** The largest arguments object, in bytes of compact JSON. */
  maxArgumentBytes?: number;
  /** Check arguments against the tool's input schema before calling. @defaultValue false */
  validateArguments: boolean;
}

/** An MCP tool annotation that approval rules can match. */
export type ApprovalHintName =
  | 'readOnlyHint'
  | 'destructiveHint'
  | 'idempotentHint'
  | 'openWorldHint';

/**
 * Which calls an approval rule matches: a tool-name glob, a toolset glob, or any
 * of the annotation values (with the MCP defaults for absent hints: a tool that is
 * not read-only is destructive and open-world unless it says otherwise).
 */
export interface ApprovalRuleConfig {
  /** Tool-name globs. */
  tools: string[];
  /** Toolset-name globs. */
  toolsets: string[];
  /** Annotation values, e.g. `{ destructiveHint: true }`; any one matching is enough. */
  annotations: Partial<Record<ApprovalHintName, boolean>>;
}

/** Which calls need a person's approval, and what happens when nobody can be asked. */
export interface ApprovalConfig {
  /** Calls that must be approved (wins over `autoApprove`). */
  require: ApprovalRuleConfig;
  /** Calls allowed without asking. */
  autoApprove: ApprovalRuleConfig;
  /** What happens to calls that neither rule matches. @defaultValue 'allow' */
  otherwise: 'allow' | 'ask' | 'deny';
  /**
   * The answer when a call must be approved and the client cannot be asked (it does
   * not support MCP elicitation). @defaultValue 'deny'
   */
  fallback: 'allow' | 'deny';
  /** How long to wait for a person's answer; no answer means deny. @defaultValue 120000 */
  timeoutMs: number;
}

/** A parsed gateway configuration: see {@link parseGatewayConfig}. */
export interface GatewayConfig {
  /** The upstream servers, by name, in file order (disabled ones included). */
  mcpServers: Record<string, UpstreamServerConfig>;
  /** The tool search configuration of core. */
  toolSearch: ToolSearchConfig;
  /** Toolset definitions, beside the implicit `mcp-<server>` toolset of every server. */
  toolsets: ToolsetDefinition[];
  /** Named session scopes. */
  profiles: Record<string, GatewayProfile>;
  /** Tools that are never deferred. */
  pins: GatewayPins;
  /** Call guardrails. */
  guardrails: GuardrailsConfig;
  /** The approval policy. */
  approval: ApprovalConfig;
  /** How much of an upstream tool definition is accepted and shown. */
  limits: UpstreamLimits;
  /**
   * Where the reviewed tool fingerprints live and which tools are held back until
   * accepted. A relative `file` is resolved against the config file's folder by
   * {@link loadGatewayConfig} (against the working directory by {@link parseGatewayConfig}).
   */
  review: ToolReviewConfig;
  /** What was ignored or defaulted, with the path (never fatal). */
  warnings: ConfigWarning[];
}

/** Options of {@link parseGatewayConfig}. */
export interface ParseGatewayConfigOptions {
  /** Variables for `${VAR}` expansion. @defaultValue `process.env` */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the config came from, for messages (e.g. its file path). */
  source?: string;
}

const KNOWN_TOP_LEVEL = new Set([
  'mcpServers',
  'servers',
  'toolSearch',
  'tool_search',
  'toolsets',
  'profiles',
  'pins',
  'guardrails',
  'approval',
  'limits',
  'review',
  '$schema',
]);

// Env and header values are strings; numbers and booleans are accepted and written out.
const scalarString = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const stringRecord = z.record(z.string(), scalarString);
const pattern = z.string().min(1, 'must not be empty');

// The per-server call limits, shared by both kinds of entry.
const callLimitFields = {
  callTimeoutMs: z.number().int().positive().optional(),
  maxCallTimeMs: z.number().int().positive().optional(),
  maxConcurrency: z.number().int().positive().optional(),
};

const stdioSchema = z.object({
  type: z.literal('stdio').optional().default('stdio'),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional().default([]),
  env: stringRecord.optional().default({}),
  cwd: z.string().min(1).optional(),
  disabled: z.boolean().optional().default(false),
  trusted: z.boolean().optional().default(false),
  ...callLimitFields,
});

const httpSchema = z.object({
  type: z
    .enum(['http', 'streamable-http', 'streamableHttp', 'sse'])
    .optional()
    .default('http')
    .transform((type) => (type === 'streamableHttp' ? 'streamable-http' : type)),
  url: z.url({ message: 'must be an http(s) URL', protocol: /^https?$/ }),
  headers: stringRecord.optional().default({}),
  disabled: z.boolean().optional().default(false),
  trusted: z.boolean().optional().default(false),
  ...callLimitFields,
});

const toolsetSchema = z.strictObject({
  name: z.string().min(1, 'must not be empty'),
  description: z.string().optional(),
  tools: z.array(z.string().min(1)).optional(),
  includes: z.array(z.string().min(1)).optional(),
});

const profileSchema = z.strictObject({
  enabledToolsets: z.array(z.string().min(1)).optional(),
  disabledToolsets: z.array(z.string().min(1)).optional(),
  token: z.string().min(16, 'must be at least 16 characters').optional(),
});

const pinsSchema = z.strictObject({
  servers: z.array(z.string().min(1)).optional().default([]),
  tools: z.array(pattern).optional().default([]),
});

// A bare list of globs is shorthand for `{ tools: [...] }`.
const toolPatternsSchema = z
  .union([
    z.array(pattern),
    z.strictObject({
      tools: z.array(pattern).optional(),
      toolsets: z.array(pattern).optional(),
    }),
  ])
  .transform(
    (value): ToolPatternsConfig =>
      Array.isArray(value)
        ? { tools: value, toolsets: [] }
        : { tools: value.tools ?? [], toolsets: value.toolsets ?? [] },
  );

const guardrailsSchema = z.strictObject({
  allow: toolPatternsSchema.optional(),
  deny: toolPatternsSchema.optional().default({ tools: [], toolsets: [] }),
  maxArgumentBytes: z.number().int().positive().optional(),
  validateArguments: z.boolean().optional().default(false),
});

const approvalRuleSchema = z
  .union([
    z.array(pattern),
    z.strictObject({
      tools: z.array(pattern).optional(),
      toolsets: z.array(pattern).optional(),
      annotations: z
        .strictObject({
          readOnlyHint: z.boolean().optional(),
          destructiveHint: z.boolean().optional(),
          idempotentHint: z.boolean().optional(),
          openWorldHint: z.boolean().optional(),
        })
        .optional(),
    }),
  ])
  .transform(
    (value): ApprovalRuleConfig =>
      Array.isArray(value)
        ? { tools: value, toolsets: [], annotations: {} }
        : {
            tools: value.tools ?? [],
            toolsets: value.toolsets ?? [],
            annotations: dropUndefined(value.annotations ?? {}),
          },
  );

const EMPTY_RULE: ApprovalRuleConfig = { tools: [], toolsets: [], annotations: {} };

const approvalSchema = z.strictObject({
  require: approvalRuleSchema.optional().default(EMPTY_RULE),
  autoApprove: approvalRuleSchema.optional().default(EMPTY_RULE),
  otherwise: z.enum(['allow', 'ask', 'deny']).optional().default('allow'),
  fallback: z.enum(['allow', 'deny']).optional().default('deny'),
  timeoutMs: z.number().int().positive().optional().default(120_000),
});

const limitsSchema = z.strictObject({
  maxDescriptionChars: z
    .number()
    .int()
    .min(MIN_DESCRIPTION_CHARS)
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxDescriptionChars),
  maxSchemaBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxSchemaBytes),
  maxSchemaDepth: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxSchemaDepth),
  maxToolBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .default(DEFAULT_UPSTREAM_LIMITS.maxToolBytes),
}) satisfies z.ZodType<UpstreamLimits, unknown>;

const reviewSchema = z.strictObject({
  file: z.string().min(1, 'must not be empty').optional().default(DEFAULT_REVIEW_FILE),
  hold: z.enum(['none', 'changed', 'new-and-changed']).optional().default('none'),
}) satisfies z.ZodType<ToolReviewConfig, unknown>;

/** Default guardrails: nothing denied, arguments not checked. */
const DEFAULT_GUARDRAILS: GuardrailsConfig = {
  deny: { tools: [], toolsets: [] },
  validateArguments: false,
};
/** Default approval: nothing needs approval; a call that must be approved and cannot be asked is denied. */
const DEFAULT_APPROVAL: ApprovalConfig = {
  require: EMPTY_RULE,
  autoApprove: EMPTY_RULE,
  otherwise: 'allow',
  fallback: 'deny',
  timeoutMs: 120_000,
};

interface Issue {
  path: PropertyKey[];
  message: string;
}

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

// Our own sections accept snake_case keys (`max_argument_bytes`) as the YAML habit is.
function camelKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [camelCase(key), item]));
}

function zodIssues(error: z.ZodError, prefix: PropertyKey[]): Issue[] {
  return issuesOf(error.issues, prefix);
}

/**
 * Readable issues. A union (`deny: [globs]` or `deny: { tools, toolsets }`) reports the
 * issues of the form the value has; a value of neither form is told the forms there are,
 * rather than zod's bare "Invalid input".
 */
function issuesOf(list: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): Issue[] {
  return list.flatMap((issue): Issue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `'${key}'`).join(', ');
      return [{ path, message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}` }];
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const rootType = (branch: readonly z.core.$ZodIssue[]) =>
        branch.find((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
      const matching = issue.errors.filter((branch) => rootType(branch) === undefined);
      if (matching.length > 0) return issuesOf(matching[0]!, path);
      const expected = issue.errors.map((branch) => {
        const found = rootType(branch) as { expected?: string } | undefined;
        return found?.expected === 'array' ? 'a list' : `an ${found?.expected ?? 'other value'}`;
      });
      return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}` }];
    }
    return [{ path, message: issue.message.replace(/^Invalid input: /, '') }];
  });
}

function parseSection<T>(
  schema: z.ZodType<T>,
  value: unknown,
  path: PropertyKey[],
  issues: Issue[],
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...zodIssues(result.error, path));
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function parseServer(
  name: string,
  raw: unknown,
  issues: Issue[],
): UpstreamServerConfig | undefined {
  const path = ['mcpServers', name];
  if (!isPlainObject(raw)) {
    issues.push({ path, message: `expected object, received ${typeName(raw)}` });
    return undefined;
  }
  const type = raw['type'];
  const isHttp =
    raw['url'] !== undefined ||
    type === 'http' ||
    type === 'sse' ||
    type === 'streamable-http' ||
    type === 'streamableHttp';
  if (isHttp) return parseSection(httpSchema, raw, path, issues) as HttpServerConfig | undefined;
  return parseSection(stdioSchema, raw, path, issues);
}

function parseToolsets(raw: unknown, issues: Issue[]): ToolsetDefinition[] {
  if (raw === undefined) return [];
  // Either a list of definitions or a map from name to definition.
  const entries: [PropertyKey[], unknown][] = Array.isArray(raw)
    ? raw.map((item, index) => [['toolsets', index], item])
    : isPlainObject(raw)
      ? Object.entries(raw).map(([name, item]) => [
          ['toolsets', name],
          isPlainObject(item) ? { name, ...item } : item,
        ])
      : [];
  if (!Array.isArray(raw) && !isPlainObject(raw)) {
    issues.push({
      path: ['toolsets'],
      message: `expected array or object, received ${typeName(raw)}`,
    });
  }
  const out: ToolsetDefinition[] = [];
  const seen = new Set<string>();
  for (const [path, item] of entries) {
    const definition = parseSection(toolsetSchema, item, path, issues);
    if (definition === undefined) continue;
    if (seen.has(definition.name)) {
      issues.push({
        path: [...path, 'name'],
        message: `toolset '${definition.name}' is defined twice`,
      });
      continue;
    }
    seen.add(definition.name);
    out.push(definition);
  }
  return out;
}

function checkToolsetReferences(config: GatewayConfig, issues: Issue[]): void {
  const known = new Set([
    ...Object.keys(config.mcpServers).map((server) => `mcp-${server}`),
    ...config.toolsets.map((toolset) => toolset.name),
  ]);
  const check = (names: readonly string[] | undefined, path: PropertyKey[]) => {
    names?.forEach((name, index) => {
      if (!known.has(name)) {
        issues.push({
          path: [...path, index],
          message: `unknown toolset '${name}' (known: ${[...known].join(', ') || 'none'})`,
        });
      }
    });
  };
  config.toolsets.forEach((toolset, index) => {
    check(toolset.includes, ['toolsets', index, 'includes']);
  });
  for (const [name, profile] of Object.entries(config.profiles)) {
    check(profile.enabledToolsets, ['profiles', name, 'enabledToolsets']);
    check(profile.disabledToolsets, ['profiles', name, 'disabledToolsets']);
  }
  config.pins.servers.forEach((server, index) => {
    if (!(server in config.mcpServers)) {
      issues.push({ path: ['pins', 'servers', index], message: `unknown server '${server}'` });
    }
  });
  const tokens = new Map<string, string>();
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (profile.token === undefined) continue;
    const other = tokens.get(profile.token);
    if (other !== undefined) {
      issues.push({
        path: ['profiles', name, 'token'],
        message: `the same token as profile '${other}'; every profile needs its own`,
      });
    }
    tokens.set(profile.token, name);
  }
}

/**
 * Parses a gateway configuration: the standard `{ "mcpServers": { ... } }` format
 * of MCP clients (Claude Desktop, Cursor, Claude Code), plus the optional sections
 * `toolSearch` (core's config, snake_case accepted), `toolsets`, `profiles`, `pins`,
 * `guardrails`, `approval`, `limits` (see {@link UpstreamLimits}) and `review` (see
 * {@link ToolReviewConfig}); a server entry may say `trusted: true`. `${VAR}` and `${VAR:-default}` in string values expand
 * from `options.env`. Unknown top-level keys (e.g. the other settings of a Claude
 * Desktop config file) are ignored with a warning; unknown keys inside the gateway's
 * own sections are errors, so that typos do not pass silently.
 *
 * @example
 * ```ts
 * const config = parseGatewayConfig({
 *   mcpServers: {
 *     github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'],
 *               env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
 *     docs: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } },
 *   },
 *   toolSearch: { enabled: 'auto', threshold_pct: 10 },
 *   approval: { require: { annotations: { destructiveHint: true } }, fallback: 'deny' },
 * });
 * ```
 *
 * @param raw - the parsed JSON
 * @param options.env - variables for `${VAR}` @defaultValue `process.env`
 * @param options.source - where it came from, for messages
 * @returns the complete configuration with defaults filled in
 * @throws {@link ToolSearchError} `invalid_config` whose message names the path of each
 * bad field, e.g. `mcpServers.github.command: expected string, received number`, or of a
 * value nested more than 64 levels deep
 */
export function parseGatewayConfig(
  raw: unknown,
  options: ParseGatewayConfigOptions = {},
): GatewayConfig {
  const where = options.source === undefined ? '' : ` in ${options.source}`;
  const fail = (issues: Issue[]): never => {
    const shown = issues
      .slice(0, 8)
      .map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
      .join('; ');
    const more = issues.length > 8 ? `; and ${issues.length - 8} more` : '';
    throw new ToolSearchError(
      'invalid_config',
      `Invalid gateway config${where}: ${shown}${more}. Fix the file and try again.`,
    );
  };

  if (!isPlainObject(raw))
    return fail([{ path: [], message: `expected object, received ${typeName(raw)}` }]);
  const tooDeep = findTooDeep(raw);
  if (tooDeep !== undefined) {
    return fail([{ path: tooDeep, message: `nested more than ${MAX_CONFIG_DEPTH} levels deep` }]);
  }
  let expanded: Record<string, unknown>;
  try {
    expanded = expandEnvVariables(raw, options.env ?? process.env) as Record<string, unknown>;
  } catch (error) {
    if (ToolSearchError.isInstance(error)) {
      throw new ToolSearchError(
        'invalid_config',
        `Invalid gateway config${where}: ${error.message}`,
      );
    }
    throw error;
  }

  const issues: Issue[] = [];
  const warnings: ConfigWarning[] = [];
  for (const key of Object.keys(expanded)) {
    if (!KNOWN_TOP_LEVEL.has(key)) warnings.push({ key, message: 'unknown key, ignored' });
  }

  const serversKey = expanded['mcpServers'] !== undefined ? 'mcpServers' : 'servers';
  const rawServers = expanded[serversKey];
  const mcpServers: Record<string, UpstreamServerConfig> = {};
  if (!isPlainObject(rawServers)) {
    issues.push({
      path: ['mcpServers'],
      message: `expected object, received ${typeName(rawServers)}`,
    });
  } else {
    for (const [name, entry] of Object.entries(rawServers)) {
      if (name.trim() === '') {
        issues.push({ path: ['mcpServers', name], message: 'a server name must not be empty' });
        continue;
      }
      const server = parseServer(name, entry, issues);
      if (server !== undefined) mcpServers[name] = server;
    }
  }

  const toolSearchRaw = expanded['toolSearch'] ?? expanded['tool_search'];
  const toolSearch = parseToolSearchConfigWithWarnings(toolSearchRaw);
  for (const warning of toolSearch.warnings) {
    warnings.push({ key: `toolSearch.${warning.key}`, message: warning.message });
  }

  const toolsets = parseToolsets(expanded['toolsets'], issues);

  const profiles: Record<string, GatewayProfile> = {};
  const rawProfiles = expanded['profiles'];
  if (rawProfiles !== undefined) {
    if (!isPlainObject(rawProfiles)) {
      issues.push({
        path: ['profiles'],
        message: `expected object, received ${typeName(rawProfiles)}`,
      });
    } else {
      for (const [name, entry] of Object.entries(rawProfiles)) {
        const profile = parseSection(profileSchema, camelKeys(entry), ['profiles', name], issues);
        if (profile !== undefined) profiles[name] = dropUndefined(profile);
      }
    }
  }

  const pins =
    parseSection(pinsSchema, camelKeys(expanded['pins'] ?? {}), ['pins'], issues) ??
    ({ servers: [], tools: [] } satisfies GatewayPins);

  const guardrails =
    expanded['guardrails'] === undefined
      ? { ...DEFAULT_GUARDRAILS }
      : (dropUndefined(
          parseSection(
            guardrailsSchema,
            camelKeys(expanded['guardrails']),
            ['guardrails'],
            issues,
          ) ?? DEFAULT_GUARDRAILS,
        ) as GuardrailsConfig);

  const approval: ApprovalConfig =
    expanded['approval'] === undefined
      ? { ...DEFAULT_APPROVAL }
      : (parseSection(approvalSchema, camelKeys(expanded['approval']), ['approval'], issues) ??
        DEFAULT_APPROVAL);

  const limits =
    parseSection(limitsSchema, camelKeys(expanded['limits'] ?? {}), ['limits'], issues) ??
    ({ ...DEFAULT_UPSTREAM_LIMITS } satisfies UpstreamLimits);
  const review =
    parseSection(reviewSchema, camelKeys(expanded['review'] ?? {}), ['review'], issues) ??
    ({ file: DEFAULT_REVIEW_FILE, hold: 'none' } satisfies ToolReviewConfig);

  const config: GatewayConfig = {
    mcpServers,
    toolSearch: toolSearch.config,
    toolsets,
    profiles,
    pins,
    guardrails,
    approval,
    limits,
    review,
    warnings,
  };
  if (issues.length === 0) checkToolsetReferences(config, issues);
  if (issues.length === 0) {
    try {
      createToolsetRegistry(config.toolsets);
    } catch (error) {
      issues.push({ path: ['toolsets'], message: describeError(error) });
    }
  }
  if (issues.length > 0) fail(issues);
  return config;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/**
 * Reads and parses a gateway configuration file (JSON). See {@link parseGatewayConfig}.
 *
 * @param path - the file's path
 * @param options.env - variables for `${VAR}` @defaultValue `process.env`
 * @returns the parsed configuration
 * @throws {@link ToolSearchError} `invalid_config` when the file cannot be read, is not
 * JSON, or has a bad field (the message names the file and the field's path)
 */
export async function loadGatewayConfig(
  path: string,
  options: Omit<ParseGatewayConfigOptions, 'source'> = {},
): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      `Cannot read the gateway config ${path}: ${describeError(error)}. Check the path.`,
      { cause: error },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ToolSearchError(
      'invalid_config',
      `The gateway config ${path} is not valid JSON: ${describeError(error)}.`,
      { cause: error },
    );
  }
  const config = parseGatewayConfig(raw, { ...options, source: path });
  config.review.file = resolve(dirname(path), config.review.file);
  return config;
}
