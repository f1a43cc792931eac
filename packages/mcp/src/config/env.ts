import { ToolSearchError } from '@tool-search/core';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string value of a JSON value
 * (keys are left alone). A variable that is unset and has no default is an error
 * that names where it was used.
 *
 * @param value - a parsed JSON value
 * @param env - the variables @defaultValue `process.env`
 * @param path - the path of `value`, for messages
 * @returns a copy with every string expanded
 * @throws {@link ToolSearchError} `invalid_config`, e.g.
 * `mcpServers.github.env.TOKEN: environment variable GITHUB_TOKEN is not set`
 */
export function expandEnvVariables(
  value: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
  path: readonly (string | number)[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      if (found !== undefined) return found;
      throw new ToolSearchError(
        'invalid_config',
        `${formatPath(path)}: environment variable ${name} is not set. Set it, or write \${${name}:-default}.`,
        { data: { field: formatPath(path) } },
      );
    });
  }
  if (Array.isArray(value))
    return value.map((item, index) => expandEnvVariables(item, env, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[key] = expandEnvVariables(item, env, [...path, key]);
    return out;
  }
  return value;
}

/** `a.b.0.c`, or `(root)` for the empty path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}
