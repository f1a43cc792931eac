import type { ToolDefinition } from '@tool-search/core';
import { type CutTool, checkToolLimits, type UpstreamLimits } from './limits.js';
import { fingerprintTool } from './review.js';

/** What {@link screenUpstreamTools} made of one server's validated definitions. */
export interface ScreenedTools {
  /** The accepted definitions: descriptions cut, untrusted self-pins removed. */
  tools: ToolDefinition[];
  /** The fingerprint of each accepted tool as its server sent it, by its name. */
  fingerprints: Map<string, string>;
  /** Definitions refused by the limits, with why. */
  rejected: { name: string; error: string }[];
  /** Definitions whose description was cut. */
  cut: CutTool[];
  /** Tools that pinned themselves (`_meta["anthropic/alwaysLoad"]`) on an untrusted server. */
  ignoredPins: string[];
}

/**
 * Screens the validated tool definitions of one upstream server: refuses those over
 * the limits, cuts long descriptions, fingerprints what the server sent, and drops the
 * self-pins of a server the config does not trust.
 *
 * @param tools - the server's definitions, after `validateToolDefinitions`
 * @param options.trusted - whether the config trusts the server's own pins
 * @param options.limits - the limits
 * @returns the screened definitions and what was refused, cut or ignored
 * @throws nothing
 */
export function screenUpstreamTools(
  tools: readonly ToolDefinition[],
  options: { trusted: boolean; limits: UpstreamLimits },
): ScreenedTools {
  const screened: ScreenedTools = {
    tools: [],
    fingerprints: new Map(),
    rejected: [],
    cut: [],
    ignoredPins: [],
  };
  for (const tool of tools) {
    const verdict = checkToolLimits(tool, options.limits);
    if (!verdict.ok) {
      screened.rejected.push({ name: tool.name, error: verdict.error });
      continue;
    }
    screened.fingerprints.set(tool.name, fingerprintTool(tool));
    let accepted = verdict.tool;
    if (verdict.cut) screened.cut.push(verdict.cut);
    if (accepted.alwaysLoad === true && !options.trusted) {
      const { alwaysLoad: _ignored, ...rest } = accepted;
      accepted = rest;
      screened.ignoredPins.push(tool.name);
    }
    screened.tools.push(accepted);
  }
  return screened;
}
