import {
  type ConfigWarning,
  parseToolSearchConfigWithWarnings,
  ToolSearchError,
} from '@tool-search/core';
import { describeError, isRecord } from '@tool-search/core/internal';
import { createToolsetRegistry, type ToolsetDefinition } from '@tool-search/toolsets';
import type { z } from 'zod/v4';
import { DEFAULT_REVIEW_FILE, DEFAULT_UPSTREAM_LIMITS } from './defaults.js';
import { findTooDeep, MAX_CONFIG_DEPTH } from './depth.js';
import { expandEnvVariables, formatPath } from './env.js';
import { camelKeys, type Issue, parseSection, typeName } from './issues.js';
import { programsSchema } from './program-schema.js';
import {
  type ApprovalConfig,
  approvalSchema,
  DEFAULT_APPROVAL_CONFIG,
  DEFAULT_GUARDRAILS_CONFIG,
  dropUndefined,
  type GatewayConfig,
  type GatewayPins,
  type GatewayProfile,
  type GuardrailsConfig,
  guardrailsSchema,
  type HttpServerConfig,
  httpServerSchema,
  inProcessServerSchema,
  pinsSchema,
  profileSchema,
  stdioServerSchema,
  toolsetSchema,
  type UpstreamServerConfig,
} from './schemas.js';
import {
  consoleSchema,
  learningSchema,
  limitsSchema,
  reviewSchema,
  type ToolReviewConfig,
  type UpstreamLimits,
} from './section-schemas.js';
import { withServerLoading } from './server-loading.js';
import { metricsSchema, telemetrySchema } from './telemetry-schema.js';

export type { GatewayConfig };

/** Options of {@link parseGatewayConfig}. */
export interface ParseGatewayConfigOptions {
  /** Variables for `${VAR}` expansion. @defaultValue `process.env` */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the config came from (its file path): in messages and `data.path` of errors. */
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
  'store',
  'console',
  'learning',
  'programs',
  'program',
  'telemetry',
  'metrics',
  '$schema',
]);

function parseServer(
  name: string,
  raw: unknown,
  issues: Issue[],
): UpstreamServerConfig | undefined {
  const path = ['mcpServers', name];
  if (!isRecord(raw)) {
    issues.push({ path, message: `expected object, received ${typeName(raw)}` });
    return undefined;
  }
  const type = raw['type'];
  // A `transport` (a function, so only ever from code) makes an in-process entry; in a
  // file it can only be data, which the schema refuses with a message that says why.
  if (raw['transport'] !== undefined || type === 'in-process')
    return parseSection(inProcessServerSchema, raw, path, issues);
  const isHttp =
    raw['url'] !== undefined ||
    type === 'http' ||
    type === 'sse' ||
    type === 'streamable-http' ||
    type === 'streamableHttp';
  if (isHttp)
    return parseSection(httpServerSchema, raw, path, issues) as HttpServerConfig | undefined;
  return parseSection(stdioServerSchema, raw, path, issues);
}

function parseToolsets(raw: unknown, issues: Issue[]): ToolsetDefinition[] {
  if (raw === undefined) return [];
  // Either a list of definitions or a map from name to definition.
  const entries: [PropertyKey[], unknown][] = Array.isArray(raw)
    ? raw.map((item, index) => [['toolsets', index], item])
    : isRecord(raw)
      ? Object.entries(raw).map(([name, item]) => [
          ['toolsets', name],
          isRecord(item) ? { name, ...item } : item,
        ])
      : [];
  if (!Array.isArray(raw) && !isRecord(raw)) {
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

/** Throws `invalid_config` listing the first eight issues; `data.field` is the first's path. */
function failConfig(issues: Issue[], source: string | undefined): never {
  const where = source === undefined ? '' : ` in ${source}`;
  const origin = source === undefined ? {} : { path: source };
  const shown = issues
    .slice(0, 8)
    .map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
    .join('; ');
  const more = issues.length > 8 ? `; and ${issues.length - 8} more` : '';
  throw new ToolSearchError(
    'invalid_config',
    `Invalid gateway config${where}: ${shown}${more}. Fix the file and try again.`,
    { data: { ...origin, ...(issues[0] ? { field: formatPath(issues[0].path) } : {}) } },
  );
}

/** The raw config as an object, not too deep, with its `${VAR}`s expanded. */
function expandConfig(raw: unknown, options: ParseGatewayConfigOptions): Record<string, unknown> {
  const { source } = options;
  if (!isRecord(raw)) {
    return failConfig(
      [{ path: [], message: `expected object, received ${typeName(raw)}` }],
      source,
    );
  }
  const tooDeep = findTooDeep(raw);
  if (tooDeep !== undefined) {
    return failConfig(
      [{ path: tooDeep, message: `nested more than ${MAX_CONFIG_DEPTH} levels deep` }],
      source,
    );
  }
  try {
    return expandEnvVariables(raw, options.env ?? process.env) as Record<string, unknown>;
  } catch (error) {
    if (ToolSearchError.isInstance(error)) {
      const where = source === undefined ? '' : ` in ${source}`;
      throw new ToolSearchError(
        'invalid_config',
        `Invalid gateway config${where}: ${error.message}`,
        {
          cause: error,
          data: { ...error.data, ...(source === undefined ? {} : { path: source }) },
        },
      );
    }
    throw error;
  }
}

function parseServers(
  expanded: Record<string, unknown>,
  issues: Issue[],
): Record<string, UpstreamServerConfig> {
  const serversKey = expanded['mcpServers'] !== undefined ? 'mcpServers' : 'servers';
  const rawServers = expanded[serversKey];
  const mcpServers: Record<string, UpstreamServerConfig> = {};
  if (!isRecord(rawServers)) {
    issues.push({
      path: ['mcpServers'],
      message: `expected object, received ${typeName(rawServers)}`,
    });
    return mcpServers;
  }
  for (const [name, entry] of Object.entries(rawServers)) {
    if (name.trim() === '') {
      issues.push({ path: ['mcpServers', name], message: 'a server name must not be empty' });
      continue;
    }
    const server = parseServer(name, entry, issues);
    if (server !== undefined) mcpServers[name] = server;
  }
  return mcpServers;
}

function parseProfiles(raw: unknown, issues: Issue[]): Record<string, GatewayProfile> {
  const profiles: Record<string, GatewayProfile> = {};
  if (raw === undefined) return profiles;
  if (!isRecord(raw)) {
    issues.push({ path: ['profiles'], message: `expected object, received ${typeName(raw)}` });
    return profiles;
  }
  for (const [name, entry] of Object.entries(raw)) {
    const profile = parseSection(profileSchema, camelKeys(entry), ['profiles', name], issues);
    if (profile !== undefined) profiles[name] = dropUndefined(profile);
  }
  return profiles;
}

/** The sections with a schema of their own, each with its default when absent or bad. */
function parsePolicySections(expanded: Record<string, unknown>, issues: Issue[]) {
  const pins =
    parseSection(pinsSchema, camelKeys(expanded['pins'] ?? {}), ['pins'], issues) ??
    ({ servers: [], tools: [] } satisfies GatewayPins);
  const guardrails =
    expanded['guardrails'] === undefined
      ? { ...DEFAULT_GUARDRAILS_CONFIG }
      : (dropUndefined(
          parseSection(
            guardrailsSchema,
            camelKeys(expanded['guardrails']),
            ['guardrails'],
            issues,
          ) ?? DEFAULT_GUARDRAILS_CONFIG,
        ) as GuardrailsConfig);
  const approval: ApprovalConfig =
    expanded['approval'] === undefined
      ? { ...DEFAULT_APPROVAL_CONFIG }
      : (parseSection(approvalSchema, camelKeys(expanded['approval']), ['approval'], issues) ??
        DEFAULT_APPROVAL_CONFIG);
  const limits =
    parseSection(limitsSchema, camelKeys(expanded['limits'] ?? {}), ['limits'], issues) ??
    ({ ...DEFAULT_UPSTREAM_LIMITS } satisfies UpstreamLimits);
  const review =
    parseSection(reviewSchema, camelKeys(expanded['review'] ?? {}), ['review'], issues) ??
    ({ file: DEFAULT_REVIEW_FILE, hold: 'none' } satisfies ToolReviewConfig);
  return { pins, guardrails, approval, limits, review };
}

function checkStore(store: unknown, issues: Issue[]): void {
  if (
    store !== undefined &&
    (typeof store !== 'string' || !/^(memory|rediss?:\/\/.+)$/i.test(store))
  ) {
    issues.push({
      path: ['store'],
      message: `expected 'memory' or a redis://host:port[/db] URL, received ${typeof store === 'string' ? `'${store}'` : typeName(store)}`,
    });
  }
}

/** Checks across sections, once each section is valid on its own. */
function checkToolsets(config: GatewayConfig, issues: Issue[]): void {
  if (issues.length === 0) checkToolsetReferences(config, issues);
  if (issues.length === 0) {
    try {
      createToolsetRegistry(config.toolsets);
    } catch (error) {
      issues.push({ path: ['toolsets'], message: describeError(error) });
    }
  }
}

/**
 * Parses a gateway configuration: the standard `{ "mcpServers": { ... } }` format
 * of MCP clients (Claude Desktop, Cursor, Claude Code), plus the optional sections
 * `toolSearch` (core's config, snake_case accepted), `toolsets`, `profiles`, `pins`,
 * `guardrails`, `approval`, `limits` (see {@link UpstreamLimits}), `review` (see
 * {@link ToolReviewConfig}), `console`, `learning` (learning from use, off by default) and
 * `programs` (see `ProgramsConfig`); a server entry may say `trusted: true`. `${VAR}` and `${VAR:-default}` in string values expand
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
 * @param options.source - where it came from (its file path), for messages
 * @returns the complete configuration with defaults filled in
 * @throws {@link ToolSearchError} `invalid_config` whose message names the path of each
 * bad field, e.g. `mcpServers.github.command: expected string, received number`, or of a
 * value nested more than 64 levels deep; `data.field` is the first bad field's path
 * and `data.path` the `source`
 */
export function parseGatewayConfig(
  raw: unknown,
  options: ParseGatewayConfigOptions = {},
): GatewayConfig {
  const expanded = expandConfig(raw, options);
  const issues: Issue[] = [];
  const warnings: ConfigWarning[] = [];
  for (const key of Object.keys(expanded)) {
    if (!KNOWN_TOP_LEVEL.has(key)) warnings.push({ key, message: 'unknown key, ignored' });
  }
  const mcpServers = parseServers(expanded, issues);
  const toolSearch = parseToolSearchConfigWithWarnings(
    expanded['toolSearch'] ?? expanded['tool_search'],
  );
  for (const warning of toolSearch.warnings) {
    warnings.push({ key: `toolSearch.${warning.key}`, message: warning.message });
  }
  const toolsets = parseToolsets(expanded['toolsets'], issues);
  const profiles = parseProfiles(expanded['profiles'], issues);
  const sections = parsePolicySections(expanded, issues);
  const store = expanded['store'];
  checkStore(store, issues);
  const consoleSection =
    expanded['console'] === undefined
      ? undefined
      : parseSection(consoleSchema, camelKeys(expanded['console']), ['console'], issues);
  const learning =
    expanded['learning'] === undefined
      ? undefined
      : parseSection(learningSchema, camelKeys(expanded['learning']), ['learning'], issues);
  const telemetry = optionalSection(expanded, 'telemetry', telemetrySchema, issues);
  const metrics = optionalSection(expanded, 'metrics', metricsSchema, issues);
  const programsKey = expanded['programs'] !== undefined ? 'programs' : 'program';
  const programs =
    expanded[programsKey] === undefined
      ? undefined
      : parseSection(
          programsSchema,
          // `programs: true` is short for `programs: { enabled: true }`.
          typeof expanded[programsKey] === 'boolean'
            ? { enabled: expanded[programsKey] }
            : camelKeys(expanded[programsKey]),
          [programsKey],
          issues,
        );
  const config: GatewayConfig = {
    mcpServers,
    toolSearch: withServerLoading(toolSearch.config, mcpServers),
    toolsets,
    profiles,
    ...sections,
    ...(typeof store === 'string' ? { store } : {}),
    ...(consoleSection === undefined ? {} : { console: consoleSection }),
    ...(learning === undefined ? {} : { learning: dropUndefined(learning) }),
    ...(programs === undefined ? {} : { programs }),
    ...(telemetry === undefined ? {} : { telemetry: dropUndefined(telemetry) }),
    ...(metrics === undefined ? {} : { metrics: dropUndefined(metrics) }),
    warnings,
  };
  checkToolsets(config, issues);
  if (issues.length > 0) failConfig(issues, options.source);
  return config;
}

function optionalSection<T>(
  expanded: Record<string, unknown>,
  key: string,
  schema: z.ZodType<T>,
  issues: Issue[],
): T | undefined {
  if (expanded[key] === undefined) return undefined;
  return parseSection(schema, camelKeys(expanded[key]), [key], issues);
}
