import { isRecord } from '@tool-search/core/internal';
import type { z } from 'zod/v4';

// The readable issues of the config walk: zod's issues with the path of the section.

/** One problem of a config, with the path of the field. */
export interface Issue {
  /** Where: the keys and indices from the top. */
  path: PropertyKey[];
  /** What is wrong. */
  message: string;
}

function camelCase(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

// Our own sections accept snake_case keys (`max_argument_bytes`) as the YAML habit is.
export function camelKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [camelCase(key), item]));
}

export function zodIssues(error: z.ZodError, prefix: PropertyKey[]): Issue[] {
  return issuesOf(error.issues, prefix);
}

/**
 * Readable issues. A union (`deny: [globs]` or `deny: { tools, toolsets }`) reports the
 * issues of the form the value has; a value of neither form is told the forms there are,
 * rather than zod's bare "Invalid input".
 */
export function issuesOf(list: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): Issue[] {
  return list.flatMap((issue): Issue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `'${key}'`).join(', ');
      return [{ path, message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}` }];
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const rootType = (branch: readonly z.core.$ZodIssue[]) =>
        branch.find((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
      const matching = issue.errors.filter((branch) => rootType(branch) === undefined);
      if (matching.length > 0) return issuesOf(matching[0]!, path);
      const expected = issue.errors.map((branch) => {
        const found = rootType(branch) as { expected?: string } | undefined;
        return found?.expected === 'array' ? 'a list' : `an ${found?.expected ?? 'other value'}`;
      });
      return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}` }];
    }
    return [{ path, message: issue.message.replace(/^Invalid input: /, '') }];
  });
}

export function parseSection<T>(
  schema: z.ZodType<T>,
  value: unknown,
  path: PropertyKey[],
  issues: Issue[],
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...zodIssues(result.error, path));
  return undefined;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
