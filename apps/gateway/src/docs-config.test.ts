import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromMcpTool, resolveToolNames, type ToolDefinition } from '@tool-search/core';
import {
  type ApprovalRequest,
  createDispatcher,
  createToolRuleMatcher,
  type DispatchResult,
} from '@tool-search/hooks';
import { createConfigGuardrails, createGatewayApproval } from '@tool-search/mcp';
import {
  findUnmatchedRules,
  type GatewayConfig,
  parseGatewayConfig,
} from '@tool-search/mcp/config';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);
const GUIDES = new URL('docs/guides/', ROOT);
const DOCUMENTS = [
  ...readdirSync(GUIDES)
    .filter((file) => file.endsWith('.md'))
    .map((file) => new URL(file, GUIDES)),
  new URL('apps/gateway/README.md', ROOT),
];
const SECTIONS = /"(mcpServers|guardrails|approval|pins|profiles|toolsets|toolSearch)"\s*:/;

interface Example {
  where: string;
  text: string;
}

/** Every JSON code block of the docs that holds a gateway config or one of its sections. */
function configExamples(): Example[] {
  const examples: Example[] = [];
  for (const document of DOCUMENTS) {
    const markdown = readFileSync(document, 'utf8');
    const relative = fileURLToPath(document).slice(fileURLToPath(ROOT).length);
    for (const match of markdown.matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
      const text = match[1]!;
      if (!SECTIONS.test(text)) continue;
      const line = markdown.slice(0, match.index).split('\n').length;
      examples.push({ where: `${relative}:${line}`, text });
    }
  }
  return examples;
}

/** A value for every `${VAR}` an example uses, long enough to be a profile token. */
function environmentOf(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)) {
    env[name!] = `value-of-${name}-0123456789`;
  }
  return env;
}

interface CatalogEntry {
  name: string;
  server: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const CATALOG = JSON.parse(
  readFileSync(new URL('apps/gateway/data/mcp-real/combined-catalog.json', ROOT), 'utf8'),
) as CatalogEntry[];

/**
 * The tools the example's servers would serve, from the recorded catalog of real
 * servers, named and given their origin as the pool does.
 */
function toolsOf(config: GatewayConfig): ToolDefinition[] {
  const entries = Object.keys(config.mcpServers).flatMap((server) =>
    CATALOG.filter((entry) => entry.server === server).map((entry) => ({
      server,
      tool: fromMcpTool(
        { ...entry, inputSchema: { type: 'object', ...entry.inputSchema } } as Parameters<
          typeof fromMcpTool
        >[0],
        { server },
      ),
    })),
  );
  return resolveToolNames(entries).map((entry) => ({ ...entry.tool, name: entry.name }));
}

/** Calls every tool once through the real guardrails and approval of the example. */
async function exercise(config: GatewayConfig, tools: readonly ToolDefinition[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const asked = new Set<string>();
  const ran = new Set<string>();
  const approval = createGatewayApproval(config.approval, () => ({
    name: 'recorder',
    request(request: ApprovalRequest) {
      asked.add(request.call.name);
      return 'deny';
    },
  }));
  const dispatch = createDispatcher({
    execute(call) {
      ran.add(call.name);
      return 'ok';
    },
    guardrails: createConfigGuardrails({ ...config.guardrails, validateArguments: false }),
    ...(approval ? { approval } : {}),
    resolveTool: (name) => byName.get(name),
  });
  const results = new Map<string, DispatchResult>();
  for (const tool of tools) {
    results.set(tool.name, await dispatch({ name: tool.name, arguments: {} }));
  }
  const deniedByGuardrail = (name: string) => {
    const result = results.get(name);
    return result?.status === 'denied' && result.by.kind === 'guardrail';
  };
  return { asked, ran, deniedByGuardrail };
}

const examples = configExamples();

describe('the config examples of the docs', () => {
  it('are found: the gateway guide, the security guide and the README hold several', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(examples.some((example) => example.where.startsWith('docs/guides/security.md'))).toBe(
      true,
    );
  });

  it.each(examples.map((example) => [example.where, example] as const))(
    '%s parses, every rule matches a recorded tool, and the rules do what they say',
    async (_where, example) => {
      expect(example.text, 'a config example is a whole config').toContain('"mcpServers"');
      const config = parseGatewayConfig(JSON.parse(example.text), {
        env: environmentOf(example.text),
        source: example.where,
      });
      const tools = toolsOf(config);
      expect(findUnmatchedRules(config, tools).map((rule) => rule.message)).toEqual([]);
      if (tools.length === 0) return;

      const { asked, ran, deniedByGuardrail } = await exercise(config, tools);
      const denies = createToolRuleMatcher(config.guardrails.deny.tools);
      const requires = createToolRuleMatcher(config.approval.require.tools);
      for (const tool of tools) {
        if (denies(tool.name, tool.origin)) {
          expect(deniedByGuardrail(tool.name), `${tool.name} is denied`).toBe(true);
          expect(ran.has(tool.name)).toBe(false);
        } else if (requires(tool.name, tool.origin) && !deniedByGuardrail(tool.name)) {
          expect(asked.has(tool.name), `${tool.name} needs approval`).toBe(true);
          expect(ran.has(tool.name)).toBe(false);
        }
      }
      // A sensible policy lets some calls through and stops others.
      expect(ran.size, 'some calls run').toBeGreaterThan(0);
      const rules =
        config.guardrails.deny.tools.length +
        config.guardrails.deny.toolsets.length +
        config.approval.require.tools.length +
        config.approval.require.toolsets.length +
        Object.keys(config.approval.require.annotations).length;
      if (rules > 0) expect(ran.size, 'some calls are stopped').toBeLessThan(tools.length);
    },
  );
});
