// A reload of the config's policy parts while the sessions go on: the guardrails, the
// approval, the toolsets, tool search and the profiles are swapped in the context every
// session reads at each call; the sessions of a removed profile end.
import { ToolSearchError } from '@tool-search/core';
import type { GatewayConfig } from '../config/parse.js';
import { DEFAULT_APPROVAL_CONFIG } from '../config/schemas.js';
import { createApprovalInbox } from './approval-inbox.js';
import { type GatewayState, sessionGuardrails, toolsetRegistry } from './server-state.js';
import { refreshSessionPolicy } from './session.js';

/** The parts of a config that `GatewayServer.applyConfig` applies. */
export type GatewayPolicyConfig = Partial<
  Pick<GatewayConfig, 'guardrails' | 'approval' | 'profiles' | 'toolsets' | 'toolSearch'>
>;

/** What `GatewayServer.applyConfig` did to the open sessions. */
export interface GatewayPolicyReport {
  /** The sessions that follow the new policy from their next request. */
  refreshed: number;
  /** The sessions ended because their profile is gone, by id. */
  ended: string[];
}

/**
 * Applies a reloaded config's policy to a running gateway. Everything is checked first
 * (the toolsets make a registry, the gateway's default profile is still defined): a
 * config that fails changes nothing.
 *
 * @throws {@link ToolSearchError} `invalid_config` for toolsets that do not make a
 * registry or a config without the gateway's default profile
 */
export async function applyGatewayPolicy(
  state: GatewayState,
  config: GatewayPolicyConfig,
): Promise<GatewayPolicyReport> {
  const profiles = config.profiles ?? {};
  const defaultProfile = state.options.profile;
  if (defaultProfile !== undefined && profiles[defaultProfile] === undefined) {
    throw new ToolSearchError(
      'invalid_config',
      `The reloaded config has no profile '${defaultProfile}', the gateway's default profile: start the gateway again to change it.`,
      { data: { field: 'profiles' } },
    );
  }
  const registry = toolsetRegistry({ config: { toolsets: config.toolsets ?? [] } });
  const context = state.sessionContext;
  const guardrails = sessionGuardrails(state.options, config.guardrails, state.store);
  if (context.programs !== undefined) guardrails.push(context.programs.policy);
  const approvalConfig = config.approval ?? DEFAULT_APPROVAL_CONFIG;
  // Checked: swap everything at once (no await in between, so no call sees half of it).
  context.registry = registry;
  context.toolSearch = config.toolSearch;
  context.guardrails = guardrails;
  context.approvalConfig = approvalConfig;
  if (config.guardrails === undefined) delete context.rules;
  else context.rules = config.guardrails;
  const maxArgumentBytes = config.guardrails?.maxArgumentBytes;
  if (maxArgumentBytes === undefined) delete context.maxArgumentBytes;
  else context.maxArgumentBytes = maxArgumentBytes;
  if ((approvalConfig.via ?? 'elicitation') !== 'elicitation' && context.inbox === undefined) {
    context.inbox = createApprovalInbox(state.store, { timeoutMs: approvalConfig.timeoutMs });
  }
  state.profiles = profiles;
  // Stateless (2026-07-28) views are rebuilt on their next request, from the new context.
  state.stateless.close();
  const report: GatewayPolicyReport = { refreshed: 0, ended: [] };
  const ending: Promise<void>[] = [];
  for (const session of [...state.sessions.values()]) {
    if (session.profile !== undefined && profiles[session.profile] === undefined) {
      report.ended.push(session.id);
      ending.push(session.close());
      continue;
    }
    refreshSessionPolicy(
      session,
      session.profile === undefined ? undefined : profiles[session.profile],
    );
    report.refreshed += 1;
  }
  await Promise.allSettled(ending);
  return report;
}
