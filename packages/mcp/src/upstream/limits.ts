import type { ToolDefinition } from '@tool-search/core';
import { DEFAULT_UPSTREAM_LIMITS, MIN_DESCRIPTION_CHARS } from '../config/defaults.js';
import type { UpstreamLimits } from '../config/section-schemas.js';

export type { UpstreamLimits };
export { DEFAULT_UPSTREAM_LIMITS, MIN_DESCRIPTION_CHARS };

/** A tool definition that the pool shortened, and how. */
export interface CutTool {
  /** The tool's name on its server. */
  name: string;
  /** What was cut. */
  field: 'description';
  /** Its length as the server sent it, in characters. */
  fromChars: number;
  /** Its length as the model sees it, in characters. */
  toChars: number;
}

/** The verdict of {@link checkToolLimits} on one definition. */
export type ToolLimitsVerdict =
  | { ok: true; tool: ToolDefinition; cut?: CutTool }
  | { ok: false; error: string };

const formatInt = (value: number) => value.toLocaleString('en-US');

/**
 * Cuts a text to at most `maxChars` characters, ending with a marker that says how
 * much was cut. A text within the limit is returned as it is, so that cutting twice
 * changes nothing. Never splits a surrogate pair.
 *
 * @param text - the text, e.g. an upstream tool's description
 * @param maxChars - the longest result (at least {@link MIN_DESCRIPTION_CHARS})
 * @returns the text, or its beginning and the marker `[… N more characters cut by the gateway]`
 * @throws nothing
 */
export function capDescription(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // The marker's length depends on the count it shows; sized for the largest count.
  const longest = `\n[… ${formatInt(text.length)} more characters cut by the gateway]`;
  let keep = Math.max(0, maxChars - longest.length);
  const code = text.charCodeAt(keep - 1);
  if (code >= 0xd800 && code <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}\n[… ${formatInt(text.length - keep)} more characters cut by the gateway]`;
}

const cappedOf = new WeakMap<ToolDefinition, { max: number; tool: ToolDefinition }>();

/**
 * The tool with its description cut to `maxChars` (see {@link capDescription}); the same
 * object when nothing is cut, and the same cut object for the same input, so that work
 * memoized per tool object (token estimates, ranker analysis) is kept.
 *
 * @param tool - a definition from any source
 * @param maxChars - the longest description
 * @returns the definition the model may be shown
 * @throws nothing
 */
export function capToolDescription(tool: ToolDefinition, maxChars: number): ToolDefinition {
  if (tool.description === undefined || tool.description.length <= maxChars) return tool;
  const known = cappedOf.get(tool);
  if (known !== undefined && known.max === maxChars) return known.tool;
  const capped = { ...tool, description: capDescription(tool.description, maxChars) };
  cappedOf.set(tool, { max: maxChars, tool: capped });
  return capped;
}

/** The size and depth of a JSON value, measured without recursion. */
export interface JsonMeasure {
  /** The deepest nesting of objects and arrays (a scalar is 0, `{}` is 1). */
  depth: number;
  /**
   * A lower bound of its compact JSON size in characters; exact enough to compare
   * with a limit, and never more than the real size.
   */
  minChars: number;
  /** True when the walk stopped early because a bound was passed. */
  stopped: boolean;
}

/**
 * Measures the nesting depth and (a lower bound of) the size of a parsed JSON value
 * iteratively, so that a value nested 100,000 levels deep cannot overflow the stack.
 * Stops as soon as `maxDepth` or `maxChars` is passed.
 *
 * @param value - a parsed JSON value
 * @param bounds.maxDepth - stop once deeper than this
 * @param bounds.maxChars - stop once the size is known to be larger than this
 * @returns the measure
 * @throws nothing
 */
export function measureJson(
  value: unknown,
  bounds: { maxDepth: number; maxChars: number },
): JsonMeasure {
  const stack: [unknown, number][] = [[value, 1]];
  let depth = 0;
  let chars = 0;
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (typeof node === 'string') chars += node.length + 2;
    else if (typeof node === 'object' && node !== null) {
      if (level > depth) depth = level;
      if (depth > bounds.maxDepth) return { depth, minChars: chars, stopped: true };
      chars += 2;
      if (Array.isArray(node)) {
        chars += Math.max(0, node.length - 1);
        for (const item of node) stack.push([item, level + 1]);
      } else {
        const keys = Object.keys(node);
        chars += Math.max(0, keys.length - 1);
        for (const key of keys) {
          chars += key.length + 3;
          stack.push([(node as Record<string, unknown>)[key], level + 1]);
        }
      }
    } else chars += 1;
    if (chars > bounds.maxChars) return { depth, minChars: chars, stopped: true };
  }
  return { depth, minChars: chars, stopped: false };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/**
 * Checks one validated upstream definition against the limits: refuses a schema that
 * is too large or too deep and a definition too large as a whole, and cuts a long
 * description. The depth is checked first and without recursion, so that nothing
 * later (serialising, hashing, validating arguments) meets an unbounded nesting.
 *
 * @param tool - the definition (after `validateToolDefinition`)
 * @param limits - the limits
 * @returns `{ ok: true, tool, cut? }` (the tool itself when nothing was cut), or
 * `{ ok: false, error }` whose text names the tool, the limit and how to change it
 * @throws nothing
 */
export function checkToolLimits(tool: ToolDefinition, limits: UpstreamLimits): ToolLimitsVerdict {
  const schema = measureJson(tool.inputSchema, {
    maxDepth: limits.maxSchemaDepth,
    // Characters are at least a third of UTF-8 bytes: a bound that is surely too large.
    maxChars: limits.maxSchemaBytes,
  });
  if (schema.depth > limits.maxSchemaDepth) {
    return {
      ok: false,
      error: `Tool '${tool.name}' was refused: its input schema is nested deeper than ${limits.maxSchemaDepth} levels (limits.maxSchemaDepth).`,
    };
  }
  const schemaBytes = schema.stopped ? schema.minChars : jsonBytes(tool.inputSchema);
  if (schemaBytes > limits.maxSchemaBytes) {
    return {
      ok: false,
      error: `Tool '${tool.name}' was refused: its input schema has ${schema.stopped ? 'more than ' : ''}${formatInt(schemaBytes)} bytes, over the limit of ${formatInt(limits.maxSchemaBytes)} (limits.maxSchemaBytes).`,
    };
  }
  let result = tool;
  let cut: CutTool | undefined;
  if (tool.description !== undefined && tool.description.length > limits.maxDescriptionChars) {
    const description = capDescription(tool.description, limits.maxDescriptionChars);
    result = { ...tool, description };
    cut = {
      name: tool.name,
      field: 'description',
      fromChars: tool.description.length,
      toChars: description.length,
    };
  }
  if (result.annotations !== undefined) {
    const annotations = measureJson(result.annotations, {
      maxDepth: limits.maxSchemaDepth,
      maxChars: limits.maxToolBytes,
    });
    if (annotations.stopped) {
      return {
        ok: false,
        error: `Tool '${tool.name}' was refused: its annotations are larger or deeper than the definition limits allow (limits.maxToolBytes, limits.maxSchemaDepth).`,
      };
    }
  }
  const total = jsonBytes({
    name: result.name,
    description: result.description,
    inputSchema: result.inputSchema,
    annotations: result.annotations,
  });
  if (total > limits.maxToolBytes) {
    return {
      ok: false,
      error: `Tool '${tool.name}' was refused: its definition has ${formatInt(total)} bytes, over the limit of ${formatInt(limits.maxToolBytes)} (limits.maxToolBytes).`,
    };
  }
  return cut === undefined ? { ok: true, tool: result } : { ok: true, tool: result, cut };
}
