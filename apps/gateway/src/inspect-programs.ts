import { createProgramPolicy, DEFAULT_PROGRAM_LIMITS, TOOL_PROGRAM } from '@tool-search/code';
import type { ToolDefinition } from '@tool-search/core';
import {
  DEFAULT_PROGRAMS_CONFIG,
  type GatewayConfig,
  gatewayProgramLimits,
} from '@tool-search/mcp/config';
import type { Style } from './format.js';
import { safeText } from './inspect-review.js';

interface Output {
  write(text: string): unknown;
}

/** The most tool names the section lists. */
const SHOWN_NAMES = 12;

// Each limit as the gateway gives it: set by the config, fitted to the approval's wait, or
// the default.
function limitsLine(config: GatewayConfig): string {
  const set: Readonly<Record<string, number | undefined>> = config.programs?.limits ?? {};
  const limits = gatewayProgramLimits(config.programs ?? DEFAULT_PROGRAMS_CONFIG, config.approval);
  const defaults: Readonly<Record<string, number>> = { ...DEFAULT_PROGRAM_LIMITS };
  return Object.entries(limits)
    .map(([key, value]) => {
      if (set[key] !== undefined) return `${key} ${value} (set)`;
      return value === defaults[key]
        ? `${key} ${value}`
        : `${key} ${value} (fits approval.timeoutMs)`;
    })
    .join(', ');
}

/**
 * The `programs` section of `inspect`: whether the profile's sessions are served
 * `tool_program`, the program policy and which of the profile's tools it lets programs
 * call, the limits of each program (the ones the config sets marked), and the workers.
 *
 * @param config - the parsed config
 * @param tools - the profile's tools
 * @param profile - the profile inspected, when one was named
 * @param out - where to print
 * @param style - the terminal style
 * @returns nothing
 * @throws nothing
 */
export function printPrograms(
  config: GatewayConfig,
  tools: readonly ToolDefinition[],
  profile: string | undefined,
  out: Output,
  style: Style,
): void {
  const programs = config.programs;
  const scope = profile === undefined ? undefined : config.profiles[profile];
  const enabled = scope?.programs ?? programs?.enabled ?? false;
  const where = profile === undefined ? 'sessions without a profile' : `profile ${profile}`;
  out.write(`\n${style.bold('programs')}: `);
  if (!enabled) {
    out.write(
      `off for ${where} (${TOOL_PROGRAM} is served with "programs": { "enabled": true }, or a profile's "programs": true)\n`,
    );
    return;
  }
  const readOnly = programs?.readOnly ?? true;
  const policy = createProgramPolicy({
    allow: programs?.allow ?? [],
    deny: programs?.deny ?? [],
    readOnly,
  });
  const callable = tools.filter((tool) => policy.allows(tool)).map((tool) => safeText(tool.name));
  out.write(`${TOOL_PROGRAM} is served to ${where}\n`);
  const rules = [
    readOnly ? 'read-only tools (readOnlyHint)' : 'no tool for being read-only',
    `allow: ${programs?.allow.length ? programs.allow.map(safeText).join(', ') : '-'}`,
    `deny: ${programs?.deny.length ? programs.deny.map(safeText).join(', ') : '-'}`,
  ];
  out.write(`  policy: ${rules.join('; ')}\n`);
  const shown = callable.slice(0, SHOWN_NAMES).join(', ');
  const more = callable.length > SHOWN_NAMES ? `, and ${callable.length - SHOWN_NAMES} more` : '';
  out.write(
    `  programs may call ${callable.length} of ${tools.length} tools${callable.length ? `: ${shown}${more}` : ''}\n`,
  );
  out.write(`  limits: ${limitsLine(config)}\n`);
  const workers = programs?.workers ?? {};
  out.write(
    `  workers: ${workers.size ?? 2} kept warm, ${workers.maxConcurrentPrograms ?? 4} programs at once, ${workers.workerHeapMb ?? 96} MiB heap each\n`,
  );
}
