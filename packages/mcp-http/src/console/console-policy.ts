import type { ToolDefinition } from '@tool-search/core';
import {
  type ApprovalAdapter,
  createPolicyApproval,
  createToolPolicyGuardrail,
  type DispatchContext,
  type Guardrail,
} from '@tool-search/hooks';
import type { GatewayConfig } from '@tool-search/mcp/config';

/** What applies to one tool, as the Tools page shows it at a glance. */
export interface ConsoleToolPolicy {
  /** Denied by the config's guardrails (`guardrails.allow` / `deny`), with the reason. */
  denied?: string;
  /** Whether a call asks for approval (`ask`), runs unasked (`allow`) or is refused unasked (`deny`). */
  approval: 'ask' | 'allow' | 'deny';
  /**
   * The upstream says the tool is read-only (`readOnlyHint`): its word only, a hint that
   * counts only as far as the config's approval rules use hints.
   */
  readOnlyHint?: true;
}

const PROBE_CONTEXT = { via: 'direct', signal: new AbortController().signal } as DispatchContext;

/**
 * The policy at a glance of each tool: the config's own guardrail and approval adapter
 * are asked about an empty call of the tool (nothing runs, nobody is asked), so what the
 * page says is what the gateway decides, not a second reading of the rules.
 *
 * @param tools - the tools served
 * @param config - the gateway config
 * @returns the policy per exposed tool name
 * @throws nothing
 */
export async function toolPolicies(
  tools: readonly ToolDefinition[],
  config: Pick<GatewayConfig, 'guardrails' | 'approval'>,
): Promise<Map<string, ConsoleToolPolicy>> {
  const { guardrails, approval } = config;
  const denies = guardrails.deny.tools.length > 0 || guardrails.deny.toolsets.length > 0;
  const guardrail: Guardrail | undefined =
    guardrails.allow !== undefined || denies
      ? createToolPolicyGuardrail({
          ...(guardrails.allow === undefined ? {} : { allow: guardrails.allow }),
          deny: guardrails.deny,
        })
      : undefined;
  let asked = false;
  const ask: ApprovalAdapter = {
    name: 'probe',
    request: () => {
      asked = true;
      return 'deny';
    },
  };
  const policy = createPolicyApproval({
    require: approval.require,
    autoApprove: approval.autoApprove,
    otherwise: approval.otherwise,
    ask,
    name: 'approval',
  });
  const decide = async (adapter: ApprovalAdapter, tool: ToolDefinition) => {
    asked = false;
    const answer = await adapter.request({
      call: { name: tool.name, arguments: {} },
      tool,
      via: 'direct',
      signal: PROBE_CONTEXT.signal,
    });
    const decision = typeof answer === 'string' ? answer : answer.decision;
    return asked ? 'ask' : decision === 'deny' ? 'deny' : 'allow';
  };
  const policies = new Map<string, ConsoleToolPolicy>();
  for (const tool of tools) {
    const verdict = guardrail
      ? await guardrail.check({ name: tool.name, arguments: {} }, { ...PROBE_CONTEXT, tool })
      : { allow: true as const };
    const entry: ConsoleToolPolicy = { approval: await decide(policy, tool) };
    if (!verdict.allow) entry.denied = verdict.reason;
    if (tool.annotations?.readOnlyHint === true) entry.readOnlyHint = true;
    policies.set(tool.name, entry);
  }
  return policies;
}
