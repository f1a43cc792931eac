import { type ToolDefinition, ToolSearchError } from '@tool-search/core';
import { type GatewayConfig, loadGatewayConfig } from '@tool-search/mcp/config';
import { createToolsetRegistry, scopeTools } from '@tool-search/toolsets';
import { ConfigFileError } from './errors.js';

/**
 * Loads a gateway config file, turning every config problem into a
 * {@link ConfigFileError} whose message names the file and the path of the bad field.
 *
 * @param path - the file
 * @param options.profile - a profile that must exist in the file
 * @returns the config
 * @throws {@link ConfigFileError} for a missing, unreadable or invalid file or an unknown profile
 */
export async function readConfigFile(
  path: string,
  options: { profile?: string } = {},
): Promise<GatewayConfig> {
  let config: GatewayConfig;
  try {
    config = await loadGatewayConfig(path);
  } catch (error) {
    if (ToolSearchError.isInstance(error) && error.code === 'invalid_config') {
      throw new ConfigFileError(error.message, { cause: error });
    }
    throw error;
  }
  if (options.profile !== undefined && !Object.hasOwn(config.profiles, options.profile)) {
    const known = Object.keys(config.profiles);
    throw new ConfigFileError(
      `Unknown profile '${options.profile}': ${path} defines ${
        known.length ? known.map((name) => `'${name}'`).join(', ') : 'no profiles'
      } under profiles.`,
    );
  }
  return config;
}

/**
 * The tools a profile of the config may see (all tools without a profile).
 *
 * @param tools - the pool's tools
 * @param config - the config
 * @param profile - the profile's name
 * @returns the tools in scope, in order
 */
export function toolsOfProfile(
  tools: readonly ToolDefinition[],
  config: GatewayConfig,
  profile: string | undefined,
): ToolDefinition[] {
  if (profile === undefined) return [...tools];
  const scope = config.profiles[profile];
  if (scope === undefined) return [...tools];
  const registry = createToolsetRegistry(config.toolsets);
  return scopeTools(
    tools,
    {
      ...(scope.enabledToolsets ? { enabledToolsets: scope.enabledToolsets } : {}),
      ...(scope.disabledToolsets ? { disabledToolsets: scope.disabledToolsets } : {}),
    },
    registry,
  );
}
