// OpenAI's strict-mode rules for a function's `parameters` (Structured Outputs), as
// the API enforces them: what a schema must be for `strict: true` to be accepted.
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas

const ALLOWED = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  'const',
]);

/**
 * The places where a schema breaks strict mode, as `path: problem` lines; none when
 * the API would accept it.
 */
export function strictModeViolations(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [`${path}: not a schema object`];
  }
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(node)) {
    if (!ALLOWED.has(key)) problems.push(`${path}: keyword '${key}' is not kept in strict mode`);
  }
  if (node['anyOf'] !== undefined) {
    for (const [index, branch] of (node['anyOf'] as unknown[]).entries()) {
      problems.push(...strictModeViolations(branch, `${path}.anyOf[${index}]`));
    }
    return problems;
  }
  const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
  if (node['type'] === undefined) problems.push(`${path}: no type`);
  if (types.includes('object')) {
    const properties = node['properties'];
    if (typeof properties !== 'object' || properties === null) {
      problems.push(`${path}: an object without properties`);
    } else {
      const keys = Object.keys(properties).sort();
      const required = Array.isArray(node['required']) ? [...node['required']].sort() : [];
      if (JSON.stringify(keys) !== JSON.stringify(required)) {
        problems.push(
          `${path}: required ${JSON.stringify(required)} is not every property ${JSON.stringify(keys)}`,
        );
      }
      for (const [key, value] of Object.entries(properties)) {
        problems.push(...strictModeViolations(value, `${path}.${key}`));
      }
    }
    if (node['additionalProperties'] !== false) {
      problems.push(`${path}: additionalProperties must be false`);
    }
  }
  if (types.includes('array')) {
    if (node['items'] === undefined) problems.push(`${path}: an array without items`);
    else problems.push(...strictModeViolations(node['items'], `${path}[]`));
  }
  return problems;
}
