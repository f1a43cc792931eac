/**
 * Where a tool comes from. `core` tools are built into the runtime and are never
 * deferred; `mcp` and `plugin` tools may be deferred behind the bridge tools.
 */
export type ToolSource = 'core' | 'mcp' | 'plugin';

/**
 * A JSON Schema object describing the arguments object of a tool. Kept loose on
 * purpose: tool schemas come from third parties and carry any JSON Schema keyword.
 */
export interface JsonSchemaObject {
  type?: 'object' | (string & {});
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/**
 * MCP tool annotations: hints about a tool's behaviour. Untrusted unless the
 * server is trusted; used by approval policies, never for security decisions alone.
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

/**
 * A tool as the runtime registers it. `name` is unique within a session.
 *
 * @example
 * ```ts
 * const tool: ToolDefinition = {
 *   name: 'github_create_issue',
 *   description: 'Create a new issue in a GitHub repository',
 *   inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
 *   source: 'mcp',
 *   toolset: 'mcp-github',
 * };
 * ```
 */
export interface ToolDefinition {
  /** Unique within a session. */
  name: string;
  /** What the tool does, for the model and for search. */
  description?: string;
  /** JSON Schema of the arguments object. */
  inputSchema: JsonSchemaObject;
  /** Where the tool comes from; absent means unknown, and such a tool is never deferred. */
  source?: ToolSource;
  /** The toolset that holds the tool, e.g. `mcp-github`. */
  toolset?: string;
  /** Pinned: never deferred. */
  alwaysLoad?: boolean;
  /** MCP annotations (`readOnlyHint`, `destructiveHint`, ...). */
  annotations?: ToolAnnotations;
  /**
   * A human-readable name for a client to display (MCP `title`). Passed through to MCP
   * `tools/list`; never searched, never the name a model calls.
   */
  title?: string;
  /** Icons for a client to display (MCP `icons`: `src`, `mimeType`, `sizes`, `theme`), as given. */
  icons?: Record<string, unknown>[];
  /**
   * JSON Schema of the tool's structured result (MCP `outputSchema`): passed through to
   * MCP `tools/list`, so a client can check the `structuredContent` of a call's result.
   */
  outputSchema?: JsonSchemaObject;
  /**
   * Example argument objects that show the model how to call the tool (each valid
   * against `inputSchema`). Sent as Anthropic's `input_examples` by
   * `@tool-search/providers`, and shown by the bridge's `tool_describe`.
   */
  inputExamples?: Record<string, unknown>[];
  /**
   * The tool's stable identity when it comes from an MCP server: the server's name in
   * the config and the tool's name on that server. The exposed `name` may be prefixed
   * or renamed on a collision; `origin` never is, so policies (guardrails, approvals,
   * pins, audit) match their rules against it as well. Never sent to the model.
   */
  origin?: ToolOrigin;
  /**
   * Learned from use: the analysed query terms that led to successful calls of this
   * tool, with their (decayed) counts. A catalog given a learner (`createCatalog(tools,
   * { learner })`) hands its ranker copies of the tools with their learned terms here;
   * the default BM25 ranker indexes them as a field of their own, with a bounded weight.
   * Never sent to the model; dropped from untrusted definitions by `toolDefinitionSchema`.
   */
  learnedTerms?: Readonly<Record<string, number>>;
}

/**
 * Where a tool really comes from: its server and its upstream name. Policies match a
 * rule against `name` and against `server/name` (e.g. `github/delete_*`).
 */
export interface ToolOrigin {
  /** The server's name in the config, e.g. `github`. */
  server: string;
  /** The tool's name as the server publishes it, e.g. `delete_repository`. */
  name: string;
}

/**
 * One call of a tool, as a model makes it and as dispatch sees it.
 */
export interface ToolCall {
  /** The provider's call id, when it has one. */
  id?: string;
  /** The tool's name. */
  name: string;
  /** The arguments object. */
  arguments: Record<string, unknown>;
}

/**
 * A value or a promise of it: what plugin hooks may return.
 */
export type Promisable<T> = T | PromiseLike<T>;
