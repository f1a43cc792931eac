import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ConfigWarning, ToolLoading, ToolSearchConfig } from '@tool-search/core';
import { TOOL_LOADINGS } from '@tool-search/core';
import { DEFAULT_APPROVAL_ARGUMENT_CHARS } from '@tool-search/hooks';
import type { ToolsetDefinition } from '@tool-search/toolsets';
import { z } from 'zod/v4';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from './defaults.js';
import { programsSchema } from './program-schema.js';
import { consoleSchema, learningSchema, limitsSchema, reviewSchema } from './section-schemas.js';
import { metricsSchema, telemetrySchema } from './telemetry-schema.js';
import { upstreamAuthSchema } from './upstream-auth-schema.js';

// The schemas of the config's sections: the exported types are their outputs, so a
// field is written once, with its documentation. The walk over the file is parse.ts.

/**
 * How a server's tools are loaded (its toolset `mcp-<server>`): `eager` never deferred,
 * `deferred` deferred even below the threshold, `auto` as the threshold decides.
 */
const toolLoadingSchema = z.enum(TOOL_LOADINGS as [ToolLoading, ...ToolLoading[]]).optional();

// Env and header values are strings; numbers and booleans are accepted and written out.
const scalarString = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const stringRecord = z.record(z.string(), scalarString);
const pattern = z.string().min(1, 'must not be empty');

/**
 * The fields every entry of `mcpServers` has, whatever its transport: written once, and
 * extended by the stdio, HTTP and in-process schemas below.
 */
const serverCommonSchema = z.object({
  /** When true the server is left out. */
  disabled: z.boolean().optional().default(false),
  /**
   * Trust the server's own metadata: its `_meta["anthropic/alwaysLoad"]` pins are
   * honoured. Descriptions are capped and schemas checked all the same. @defaultValue false
   */
  trusted: z.boolean().optional().default(false),
  /**
   * Whether the server may sample the user's model during a call: `deny`, `ask` (the
   * client of the call is asked first) or `allow`. A server with held tools never samples.
   * @defaultValue 'ask'
   */
  sampling: z.enum(['deny', 'ask', 'allow']).optional(),
  /** No answer and no progress for this long ends a call (wins over the gateway's default). */
  callTimeoutMs: z.number().int().positive().optional(),
  /** The longest call, however much progress it reports. */
  maxCallTimeMs: z.number().int().positive().optional(),
  /** The most calls that run at once on this server; more wait in line (FIFO). */
  maxConcurrency: z.number().int().positive().optional(),
  /**
   * With `maxConcurrency`: how long the server has to answer a call it was told to
   * cancel (a timeout, a cancellation) before its connection is restarted; the call
   * keeps its slot until then. @defaultValue 5000
   */
  cancelGraceMs: z.number().int().positive().optional(),
  /**
   * How this server's tools are loaded: `eager` (never deferred), `deferred` (behind the
   * bridge even below the threshold) or `auto` (the threshold decides). @defaultValue 'auto'
   */
  toolLoading: toolLoadingSchema,
  /** The same as `toolLoading` (which wins when both are given). */
  loading: toolLoadingSchema,
});

/** The schema of one stdio entry of `mcpServers`. */
export const stdioServerSchema = serverCommonSchema.extend({
  /** `'stdio'`; optional in the file. */
  type: z.literal('stdio').optional().default('stdio'),
  /** The executable, e.g. `npx` or `node`. */
  command: z.string().min(1, 'must not be empty'),
  /** Its arguments. @defaultValue [] */
  args: z.array(z.string()).optional().default([]),
  /** Extra environment variables (the process also gets a safe default environment). */
  env: stringRecord.optional().default({}),
  /** The working directory. */
  cwd: z.string().min(1).optional(),
});

/** The schema of one HTTP entry of `mcpServers`. */
export const httpServerSchema = serverCommonSchema.extend({
  /**
   * `'http'` tries Streamable HTTP and falls back to SSE for old servers (the default);
   * `'streamable-http'` never falls back; `'sse'` uses only the old SSE transport.
   */
  type: z
    .enum(['http', 'streamable-http', 'streamableHttp', 'sse'])
    .optional()
    .default('http')
    .transform((type) => (type === 'streamableHttp' ? 'streamable-http' : type)),
  /** The endpoint, e.g. `https://example.com/mcp`. */
  url: z.url({ message: 'must be an http(s) URL', protocol: /^https?$/ }),
  /** Headers sent with every request, e.g. `Authorization`. */
  headers: stringRecord.optional().default({}),
  /**
   * Sign-in to a server that needs it (OAuth 2.1, the MCP authorization spec): `'oauth'`
   * (a person signs in with `tool-search-gateway login <server>`), an object of the same
   * type with a pre-registered client or a Client ID Metadata Document URL, or
   * `client_credentials` for a machine account. @defaultValue none (fixed headers only)
   */
  auth: upstreamAuthSchema.optional(),
});

/** What a config file says when it names a `transport`: only code can give one. */
const IN_PROCESS_ONLY_IN_CODE =
  'must be a function that returns an MCP transport; an in-process server is given in code ' +
  '(the config object passed to parseGatewayConfig, createUpstreamPool or startGateway), ' +
  'never in a config file';

/**
 * The schema of one in-process entry of `mcpServers`: a function that returns a new,
 * unstarted MCP client transport each time the pool connects (at start and at every
 * restart), e.g. one end of the MCP SDK's `InMemoryTransport.createLinkedPair()` whose
 * other end a server in the same process is connected to. Only code can give one: a
 * JSON config file cannot hold a function, so a `transport` in a file is refused.
 */
export const inProcessServerSchema = serverCommonSchema.extend({
  /** `'in-process'`; optional. */
  type: z.literal('in-process').optional().default('in-process'),
  /** Returns a new transport to the server for every connection. */
  transport: z.custom<() => Transport>((value) => typeof value === 'function', {
    message: IN_PROCESS_ONLY_IN_CODE,
  }),
});

/** An upstream MCP server run as a child process that speaks MCP over stdio. */
export interface StdioServerConfig extends z.output<typeof stdioServerSchema> {}

/** An upstream MCP server reached over HTTP (Streamable HTTP, or the old SSE transport). */
export interface HttpServerConfig extends z.output<typeof httpServerSchema> {}

/**
 * An upstream MCP server in the same process, reached through a transport the entry's
 * `transport` function makes (a programmatic entry: never from a config file).
 */
export interface InProcessServerConfig extends z.output<typeof inProcessServerSchema> {}

/** One entry of `mcpServers`. */
export type UpstreamServerConfig = StdioServerConfig | HttpServerConfig | InProcessServerConfig;

/** The schema of one toolset definition. */
export const toolsetSchema = z.strictObject({
  name: z.string().min(1, 'must not be empty'),
  description: z.string().optional(),
  tools: z.array(z.string().min(1)).optional(),
  includes: z.array(z.string().min(1)).optional(),
});

/** The schema of one entry of `profiles`. */
export const profileSchema = z.strictObject({
  /** Toolsets this profile may see; absent means all. */
  enabledToolsets: z.array(z.string().min(1)).optional(),
  /** Toolsets this profile never sees. */
  disabledToolsets: z.array(z.string().min(1)).optional(),
  /** The bearer token that selects this profile over HTTP. */
  token: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Whether this profile's token may sign in to the operator console. @defaultValue false */
  operator: z.boolean().optional(),
  /** Serve `tool_program` to this profile's sessions or not, whatever `programs.enabled` says. */
  programs: z.boolean().optional(),
});

/** A named session scope that HTTP clients select with their token, stdio clients by name. */
export interface GatewayProfile extends z.output<typeof profileSchema> {}

/** The schema of `pins`. */
export const pinsSchema = z.strictObject({
  /** Every tool of these servers stays visible. */
  servers: z.array(z.string().min(1)).optional().default([]),
  /** Tools whose exposed or upstream names match these globs (`*`, `?`) stay visible. */
  tools: z.array(pattern).optional().default([]),
});

/** Tools that are never deferred behind the bridge. */
export interface GatewayPins extends z.output<typeof pinsSchema> {}

/** The parsed form of a tool pattern rule (what {@link toolPatternsSchema} gives). */
const toolPatternsShape = z.object({
  /** Tool-name globs. */
  tools: z.array(pattern),
  /** Toolset-name globs. */
  toolsets: z.array(pattern),
});

/** Globs (`*`, `?`) over tool names and toolsets (`mcp-<server>` is every tool of a server). */
export interface ToolPatternsConfig extends z.output<typeof toolPatternsShape> {}

/** The schema of `allow` and `deny`: a bare list of globs is shorthand for `{ tools: [...] }`. */
export const toolPatternsSchema = z
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

/** The schema of `guardrails`. */
/** Deny rules of resources or prompts (globs over `server/uri` or `server/name`). */
const featureRulesSchema = z
  .strictObject({ deny: z.array(pattern).optional().default([]) })
  .optional();

export const guardrailsSchema = z.strictObject({
  /** When set, only tools it matches may be called. */
  allow: toolPatternsSchema.optional(),
  /** Tools it matches are never called (wins over `allow`). */
  deny: toolPatternsSchema.optional().default({ tools: [], toolsets: [] }),
  /**
   * The largest arguments object, in bytes of compact JSON; checked before the
   * arguments' schema (by the bridge and the schema guardrail). Without it, argument
   * checks still refuse more than 1 MiB (core's `DEFAULT_MAX_ARGUMENT_BYTES`).
   */
  maxArgumentBytes: z.number().int().positive().optional(),
  /** Check arguments against the tool's input schema before calling. @defaultValue false */
  validateArguments: z.boolean().optional().default(false),
  /**
   * Resources never read nor subscribed: globs over `server/uri`, e.g.
   * `files/file:///etc/*` or `*\/secret://*`. A denied resource looks like an unknown one.
   */
  resources: featureRulesSchema,
  /** Prompts never listed nor got: globs over `server/name` (the server's own prompt name). */
  prompts: featureRulesSchema,
});

/** Call policy that is checked before any upstream call. */
export interface GuardrailsConfig extends z.output<typeof guardrailsSchema> {}

const approvalHintNameSchema = z.enum([
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
]);

const annotationsSchema = z.strictObject({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** The parsed form of an approval rule (what {@link approvalRuleSchema} gives). */
const approvalRuleShape = z.object({
  /** Tool-name globs. */
  tools: z.array(pattern),
  /** Toolset-name globs. */
  toolsets: z.array(pattern),
  /** Annotation values, e.g. `{ destructiveHint: true }`; any one matching is enough. */
  annotations: z.partialRecord(approvalHintNameSchema, z.boolean()),
});

/**
 * Which calls an approval rule matches: a tool-name glob, a toolset glob, or any
 * of the annotation values (with the MCP defaults for absent hints: a tool that is
 * not read-only is destructive and open-world unless it says otherwise).
 */
export interface ApprovalRuleConfig extends z.output<typeof approvalRuleShape> {}

/** An MCP tool annotation that approval rules can match. */
export type ApprovalHintName = keyof ApprovalRuleConfig['annotations'];

/** The schema of `approval.require` and `approval.autoApprove`: a bare list is tool globs. */
export const approvalRuleSchema = z
  .union([
    z.array(pattern),
    z.strictObject({
      tools: z.array(pattern).optional(),
      toolsets: z.array(pattern).optional(),
      annotations: annotationsSchema.optional(),
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

const EMPTY_APPROVAL_RULE: ApprovalRuleConfig = { tools: [], toolsets: [], annotations: {} };

/** The schema of `approval`. */
export const approvalSchema = z.strictObject({
  /** Calls that must be approved (wins over `autoApprove`). */
  require: approvalRuleSchema.optional().default(EMPTY_APPROVAL_RULE),
  /** Calls allowed without asking. */
  autoApprove: approvalRuleSchema.optional().default(EMPTY_APPROVAL_RULE),
  /** What happens to calls that neither rule matches. @defaultValue 'allow' */
  otherwise: z.enum(['allow', 'ask', 'deny']).optional().default('allow'),
  /**
   * The answer when a call must be approved and the client cannot be asked (it does
   * not support MCP elicitation). @defaultValue 'deny'
   */
  fallback: z.enum(['allow', 'deny']).optional().default('deny'),
  /** How long to wait for a person's answer; no answer means deny. @defaultValue 120000 */
  timeoutMs: z.number().int().positive().optional().default(DEFAULT_APPROVAL_TIMEOUT_MS),
  /**
   * The most characters of arguments an approval question shows (escapes and markers
   * included). @defaultValue 4000
   */
  maxArgumentChars: z.number().int().positive().optional().default(DEFAULT_APPROVAL_ARGUMENT_CHARS),
  /**
   * What happens to a call whose arguments are longer: 'deny' without asking, or 'ask'
   * with a question that names each cut field and how much of it is cut. @defaultValue 'deny'
   */
  oversize: z.enum(['deny', 'ask']).optional().default('deny'),
  /**
   * Who is asked: `'elicitation'` the person at the MCP client (when it supports
   * elicitation, else `fallback` answers); `'console'` the operators in the console's
   * approvals inbox; `'elicitation-or-console'` the client when it can be asked, else
   * the console. A question in the console waits up to `timeoutMs`, then denies.
   * Absent means `'elicitation'`.
   */
  via: z.enum(['elicitation', 'console', 'elicitation-or-console']).optional(),
});

/** Which calls need a person's approval, and what happens when nobody can be asked. */
export interface ApprovalConfig extends z.output<typeof approvalSchema> {}

/** Default approval: nothing needs approval; a call that must be approved and cannot be asked is denied. */
export const DEFAULT_APPROVAL_CONFIG: ApprovalConfig = approvalSchema.parse({});

/** Default guardrails: nothing denied, arguments not checked. */
export const DEFAULT_GUARDRAILS_CONFIG: GuardrailsConfig = guardrailsSchema.parse({});

/**
 * The shape of a parsed gateway configuration, section by section: what
 * `parseGatewayConfig` returns (it parses each section with its own schema above, so
 * that a bad section is reported with its path; this one only names the whole).
 */
export const gatewayConfigSchema = z.object({
  /** The upstream servers, by name, in file order (disabled ones included). */
  mcpServers: z.record(
    z.string(),
    z.union([stdioServerSchema, httpServerSchema, inProcessServerSchema]),
  ),
  /** The tool search configuration of core. */
  toolSearch: z.custom<ToolSearchConfig>(),
  /** Toolset definitions, beside the implicit `mcp-<server>` toolset of every server. */
  toolsets: z.array(z.custom<ToolsetDefinition>()),
  /** Named session scopes. */
  profiles: z.record(z.string(), profileSchema),
  /** Tools that are never deferred. */
  pins: pinsSchema,
  /** Call guardrails. */
  guardrails: guardrailsSchema,
  /** The approval policy. */
  approval: approvalSchema,
  /** How much of an upstream tool definition is accepted and shown. */
  limits: limitsSchema,
  /**
   * Where the reviewed tool fingerprints live and which tools are held back until
   * accepted. A relative `file` is resolved against the config file's folder by
   * `loadGatewayConfig` (against the working directory by `parseGatewayConfig`).
   */
  review: reviewSchema,
  /** The operator console (off unless `enabled`). */
  console: consoleSchema.optional(),
  /** Learning from use (off unless `enabled`). */
  learning: learningSchema.optional(),
  /** `tool_program` for every client, with its policy and limits (off unless `enabled`). */
  programs: programsSchema.optional(),
  /** OpenTelemetry traces (see "Observing the gateway"). */
  telemetry: telemetrySchema.optional(),
  /** The Prometheus endpoint `GET /metrics`. */
  metrics: metricsSchema.optional(),
  /**
   * Where sessions, approvals, stream events and the audit trail are kept: `memory`
   * (absent: the default) or a `redis://host:port[/db]` URL, so that several replicas
   * share them. `serve --store` overrides it.
   */
  store: z.string().optional(),
  /** What was ignored or defaulted, with the path (never fatal). */
  warnings: z.array(z.custom<ConfigWarning>()),
});

/** A parsed gateway configuration: see `parseGatewayConfig`. */
export interface GatewayConfig extends z.output<typeof gatewayConfigSchema> {}

/**
 * The object without its `undefined` properties.
 *
 * @param value - any object
 * @returns a copy without them
 * @throws nothing
 */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
