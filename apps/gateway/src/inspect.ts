import { assembleTools } from '@tool-search/bridge';
import {
  classifyTools,
  createCatalog,
  estimateToolTokens,
  type ToolDefinition,
} from '@tool-search/core';
import { createUpstreamPool, type UpstreamPool, type UpstreamServerStatus } from '@tool-search/mcp';
import { findUnmatchedRules, type GatewayConfig } from '@tool-search/mcp/config';
import { readConfigFile, toolsOfProfile } from './config-file.js';
import {
  createStyle,
  formatInt,
  formatPct,
  formatWindow,
  renderTable,
  type Style,
  shouldColor,
  truncate,
} from './format.js';
import { printArgumentChecks } from './inspect-arguments.js';
import { printServerFeatures } from './inspect-features.js';
import { printLearning } from './inspect-learning.js';
import { printPrograms } from './inspect-programs.js';
import { printToolReview, printUntrustedDefinitions, safeText } from './inspect-review.js';
import { printSignIns, readSignIns } from './inspect-sign-in.js';
import { createProgressReporter } from './progress.js';
import { signInPoolOptions } from './serve-sign-in.js';

/** The context windows `inspect` decides activation for. */
export const INSPECT_CONTEXT_WINDOWS = [32_000, 128_000, 200_000, 1_000_000] as const;

interface Output {
  write(text: string): unknown;
}

/** Connects to the config's servers (no reconnects), runs `run`, then disconnects. */
async function withPool<T>(
  config: GatewayConfig,
  run: (pool: UpstreamPool) => Promise<T>,
  signIn: { configPath: string; store?: string | undefined; profile?: string | undefined },
): Promise<T> {
  // Servers that need sign-in are reached with the stored sign-in (the profile's own).
  const { pool: withSignIn, close } = await signInPoolOptions({ ...signIn, config });
  const pool = createUpstreamPool(config, {
    ...withSignIn,
    reconnect: false,
    onProgress: createProgressReporter({ color: shouldColor(process.stderr) }),
  });
  try {
    await pool.start();
    return await run(pool);
  } finally {
    await pool.close();
    await close?.();
  }
}

function serverOf(pool: UpstreamPool, tool: ToolDefinition): string {
  return pool.lookup(tool.name)?.server ?? tool.toolset?.replace(/^mcp-/, '') ?? '';
}

/**
 * `search "<query>" --config <file> [--limit N] [--profile P]`: connects to the
 * config's servers and prints the ranked matches over their tools.
 *
 * @param options - the parsed flags
 * @param out - where to print @defaultValue process.stdout
 * @returns the exit code
 * @throws {@link ConfigFileError} for a bad config file
 */
export async function runSearch(
  options: { config: string; query: string; limit?: number; profile?: string },
  out: Output = process.stdout,
): Promise<number> {
  const config = await readConfigFile(options.config, options);
  const style = createStyle(shouldColor(process.stdout));
  return withPool(
    config,
    async (pool) => {
      const tools = toolsOfProfile(pool.tools(), config, options.profile);
      const catalog = createCatalog(tools);
      const limit = options.limit ?? config.toolSearch.searchDefaultLimit;
      const hits = await catalog.search(options.query, { limit });
      const servers = new Set(tools.map((tool) => serverOf(pool, tool)));
      out.write(
        `${style.bold(`search ${JSON.stringify(options.query)}`)} over ${formatInt(tools.length)} tools of ${servers.size} servers` +
          `${options.profile ? ` (profile ${options.profile})` : ''}\n\n`,
      );
      if (hits.length === 0) {
        out.write('  no matches; try other or fewer words\n');
      } else {
        const lines = renderTable(
          [
            { header: '#', align: 'right' },
            { header: 'score', align: 'right' },
            { header: 'tool' },
            { header: 'server' },
            { header: 'description', maxWidth: 64 },
          ],
          hits.map((hit, index) => [
            String(index + 1),
            hit.score.toFixed(2),
            safeText(hit.name),
            safeText(serverOf(pool, catalog.get(hit.name) ?? { name: hit.name, inputSchema: {} })),
            truncate(safeText(hit.description), 64),
          ]),
          { style },
        );
        out.write(`${lines.join('\n')}\n`);
      }
      printFailures(pool, out, style);
      return 0;
    },
    { configPath: options.config, profile: options.profile },
  );
}

function printFailures(pool: UpstreamPool, out: Output, style: Style): void {
  for (const status of pool.status()) {
    if (status.state === 'failed') {
      out.write(
        `\n${style.yellow('warning')}: server '${safeText(status.name)}' failed and was skipped: ${safeText(status.error ?? 'unknown error')}\n`,
      );
    }
  }
}

function printUnmatchedRules(
  config: GatewayConfig,
  pool: UpstreamPool,
  out: Output,
  style: Style,
): void {
  const unmatched = findUnmatchedRules(config, pool.tools());
  out.write(`\n${style.bold('rules')}: `);
  if (unmatched.length === 0) {
    out.write('every pattern of guardrails, approval and pins matches a tool\n');
    return;
  }
  out.write(
    `${unmatched.length} patterns match no tool (a pattern matches a tool's exposed name, its upstream name, or server/name)\n`,
  );
  for (const rule of unmatched) out.write(`  ${style.yellow('warning')}: ${rule.message}\n`);
}

type InspectOptions = { config: string; profile?: string; accept?: boolean; store?: string };

/** One inspection: the config, the started pool, the profile's tools and where to print. */
interface Inspection {
  readonly options: InspectOptions;
  readonly config: GatewayConfig;
  readonly pool: UpstreamPool;
  readonly tools: ToolDefinition[];
  readonly visible: ToolDefinition[];
  readonly deferrable: ToolDefinition[];
  readonly out: Output;
  readonly style: Style;
}

/** The note of a server's row: what is outside the profile, why it failed, or its time. */
function serverNote(
  inspection: Inspection,
  status: UpstreamServerStatus,
  own: number,
  all: number,
): string {
  return inspection.options.profile !== undefined && own < all
    ? `${all - own} of ${all} tools outside the profile`
    : status.state === 'failed'
      ? safeText(status.error ?? '')
      : status.rejectedTools.length
        ? `${status.rejectedTools.length} bad definitions skipped: ${status.rejectedTools
            .slice(0, 3)
            .map((tool) => safeText(tool.name))
            .join(', ')}`
        : status.connectMs !== undefined
          ? `${formatInt(status.connectMs)} ms${status.era === 'modern' ? ', MCP 2026-07-28' : ''}`
          : '';
}

/** The table of servers: state, tools, tokens and pins of each, then the total. */
function printServers(inspection: Inspection): void {
  const { pool, tools, visible, style } = inspection;
  const pinned = new Set(visible.map((tool) => tool.name));
  const rows: string[][] = [];
  for (const status of pool.status()) {
    const own = tools.filter((tool) => serverOf(pool, tool) === status.name);
    const state =
      status.state === 'ready'
        ? style.green('ready')
        : status.state === 'failed'
          ? style.red('failed')
          : status.state;
    const all = pool.tools().filter((tool) => serverOf(pool, tool) === status.name).length;
    rows.push([
      safeText(status.name),
      state,
      formatInt(own.length),
      formatInt(estimateToolTokens(own)),
      formatInt(own.filter((tool) => pinned.has(tool.name)).length),
      truncate(serverNote(inspection, status, own.length, all), 60),
    ]);
  }
  rows.push([
    style.bold('total'),
    '',
    style.bold(formatInt(tools.length)),
    style.bold(formatInt(estimateToolTokens(tools))),
    style.bold(formatInt(visible.length)),
    '',
  ]);
  inspection.out.write(
    `${renderTable(
      [
        { header: 'server' },
        { header: 'state' },
        { header: 'tools', align: 'right' },
        { header: '~tokens', align: 'right' },
        { header: 'pinned', align: 'right' },
        { header: 'note' },
      ],
      rows,
      { style },
    ).join('\n')}\n`,
  );
}

/** When tool search activates, and what each context window would list. */
function printActivation(inspection: Inspection): void {
  const { config, tools, visible, deferrable, out, style } = inspection;
  const search = config.toolSearch;
  const rule =
    search.enabled === 'auto'
      ? search.thresholdTokens !== undefined
        ? `when the deferrable tools reach ${formatInt(search.thresholdTokens)} tokens`
        : `when the deferrable tools reach ${search.thresholdPct}% of the context window`
      : search.enabled === 'on'
        ? 'always (enabled: on)'
        : 'never (enabled: off)';
  out.write(
    `\n${style.bold('tool search')}: activates ${rule}; ${formatInt(deferrable.length)} deferrable tools ` +
      `(~${formatInt(estimateToolTokens(deferrable))} tokens), ${formatInt(visible.length)} always visible (~${formatInt(estimateToolTokens(visible))} tokens)\n\n`,
  );
  const decisions = INSPECT_CONTEXT_WINDOWS.map((window) => {
    const assembly = assembleTools({ tools, config: search, contextWindow: window });
    const { decision, stats } = assembly;
    const listed = estimateToolTokens(assembly.tools);
    return [
      formatWindow(window),
      decision.thresholdTokens ? formatInt(decision.thresholdTokens) : '—',
      decision.active ? style.green('active') : style.yellow('passthrough'),
      decision.reason,
      formatInt(assembly.tools.length),
      formatInt(listed),
      formatPct(listed, window),
      formatInt(stats.tokensSaved),
    ];
  });
  out.write(
    `${renderTable(
      [
        { header: 'context' },
        { header: 'threshold', align: 'right' },
        { header: 'decision' },
        { header: 'why' },
        { header: 'listed', align: 'right' },
        { header: '~tokens', align: 'right' },
        { header: 'of context', align: 'right' },
        { header: 'saved', align: 'right' },
      ],
      decisions,
      { style },
    ).join('\n')}\n`,
  );
}

/**
 * Prints what the config parse ignored or replaced (unknown keys, bad values, e.g.
 * `toolSearch.enabeld: unknown key, ignored`): the warnings `serve` prints on stderr.
 */
function printConfigWarnings(config: GatewayConfig, out: Output, style: Style): void {
  if (config.warnings.length === 0) return;
  out.write(
    `${style.bold('config')}: ${config.warnings.length} ${config.warnings.length === 1 ? 'key' : 'keys'} not used as written
`,
  );
  for (const warning of config.warnings) {
    out.write(
      `  ${style.yellow('warning')}: ${safeText(warning.key)}: ${safeText(warning.message)}
`,
    );
  }
  out.write('\n');
}

/**
 * `inspect --config <file> [--profile P] [--accept]`: first the config keys it ignored or
 * replaced (unknown keys, bad values); then per server, its state, tools and
 * estimated tokens; then the activation decision at 32k, 128k, 200k and 1M tokens of
 * context; then the patterns of guardrails, approval and pins that match no tool; then
 * the definitions that were refused, cut, held or flagged as poisoning; then the schema
 * keywords that argument checks leave unchecked (with their JSON pointers); then learning
 * from use (on or off, and each tool's learned terms and counts on a Redis store); then whether
 * the profile is served `tool_program`, its policy and limits; and the new,
 * changed and removed tools against the review file (`--accept` writes the current
 * fingerprints into it).
 *
 * @param options - the parsed flags
 * @param out - where to print @defaultValue process.stdout
 * @returns the exit code (1 when every server failed)
 * @throws {@link ConfigFileError} for a bad config file
 */
export async function runInspect(
  options: InspectOptions,
  out: Output = process.stdout,
): Promise<number> {
  const config = await readConfigFile(options.config, options);
  const style = createStyle(shouldColor(process.stdout));
  return withPool(
    config,
    async (pool) => {
      const tools = toolsOfProfile(pool.tools(), config, options.profile);
      const { visible, deferrable } = classifyTools(tools);
      out.write(
        `${style.bold('inspect')} ${options.config}${options.profile ? ` (profile ${options.profile})` : ''}\n\n`,
      );
      const inspection: Inspection = {
        options,
        config,
        pool,
        tools,
        visible,
        deferrable,
        out,
        style,
      };
      printConfigWarnings(config, out, style);
      printServers(inspection);
      printServerFeatures(pool, out, style);
      printSignIns(
        await readSignIns({
          configPath: options.config,
          config,
          store: options.store,
          profile: options.profile,
        }),
        out,
      );
      printActivation(inspection);
      printUnmatchedRules(config, pool, out, style);
      printUntrustedDefinitions(pool, out, style);
      printArgumentChecks(tools, out, style);
      await printLearning(
        config,
        {
          ...(options.profile === undefined ? {} : { profile: options.profile }),
          ...(options.store === undefined ? {} : { store: options.store }),
        },
        out,
        style,
      );
      printPrograms(config, tools, options.profile, out, style);
      const shared = options.store ?? config.store;
      await printToolReview(
        pool,
        config,
        {
          accept: options.accept === true,
          ...(shared === undefined || shared === 'memory' ? {} : { store: shared }),
        },
        out,
        style,
      );
      return pool.status().some((status) => status.state === 'ready') ||
        Object.values(config.mcpServers).every((server) => server.disabled)
        ? 0
        : 1;
    },
    { configPath: options.config, store: options.store, profile: options.profile },
  );
}
