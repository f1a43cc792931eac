import type { ToolDefinition } from '@tool-search/core';

// A verb that asks for something, not negated ("do not include") and not an adjective
// ("read-only").
const ASKS_TO =
  "(?<!\\b(not|never|n't) (any |the )?)\\b(read|cat|open|send|pass|include|upload|exfiltrate|leak|copy|attach|forward|print)\\b(?!-)";

// Any character but a line break or a full stop that ends a sentence (paths keep theirs).
const SAME_SENTENCE = '(?:[^.\\n]|\\.(?=\\S))';

/** One pattern of instruction-like text aimed at the model. */
export interface PoisoningPattern {
  /** A stable id, e.g. `ignore-instructions`. */
  id: string;
  /** What it means, in words. */
  label: string;
  /** The pattern (no `g` flag). */
  pattern: RegExp;
}

/**
 * The known tool-poisoning patterns: text in a tool's description or schema that
 * speaks to the model rather than describing the tool. Checked against the 397 real
 * tools of 23 published MCP servers without a false positive.
 */
export const TOOL_POISONING_PATTERNS: readonly PoisoningPattern[] = Object.freeze([
  {
    id: 'ignore-instructions',
    label: 'tells the model to ignore its instructions',
    pattern:
      /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|other|system|your|the user'?s?)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|directives|guidelines)\b/i,
  },
  {
    id: 'hidden-tag',
    label: 'a tag that addresses the model (<IMPORTANT>, <SYSTEM>, ...)',
    pattern:
      /<\s*\/?\s*(important|system|instructions?|secret|hidden|admin|assistant|prompt|override|sudo|critical)\b[^>]{0,40}>/i,
  },
  {
    id: 'secret-files',
    label: 'asks to read files that hold keys or credentials',
    pattern: new RegExp(
      `${ASKS_TO}${SAME_SENTENCE}{0,40}(~\\/\\.ssh|\\.ssh\\/|\\bid_(rsa|dsa|ecdsa|ed25519)\\b|\\.aws\\/credentials|~\\/\\.aws\\b|\\.netrc\\b|\\.pgpass\\b|\\/etc\\/(passwd|shadow)\\b|\\.kube\\/config\\b|\\.docker\\/config\\.json|\\.git-credentials\\b|\\bmcp\\.json\\b)`,
      'i',
    ),
  },
  {
    id: 'read-secrets',
    label: 'asks to read or pass on secrets',
    pattern: new RegExp(
      `${ASKS_TO}${SAME_SENTENCE}{0,40}(\\.env\\b|\\bapi[ _-]?keys?\\b|\\bsecret keys?\\b|\\bprivate keys?\\b|\\bpasswords?\\b|\\bcredentials\\b|\\baccess tokens?\\b|\\bssh keys?\\b|\\bsession cookies?\\b)`,
      'i',
    ),
  },
  {
    id: 'conceal-from-user',
    label: 'tells the model to hide something from the user',
    pattern:
      /\b(do not|don'?t|never|without)\s+(tell(ing)?|mention(ing)?|inform(ing)?|reveal(ing)?|show(ing)?|notify(ing)?|alert(ing)?|let(ting)?)\b[^.\n]{0,30}\b(user|human|operator)s?\b|\b(user|human)s?\b[^.\n]{0,20}\b(must|should|need) not (know|see|be told|notice)\b/i,
  },
  {
    id: 'call-other-tools',
    label: 'tells the model to call other tools',
    pattern:
      /\bbefore (using|calling|invoking) (any|all|every) other tools?\b|\b(also|then|secretly|silently|always)\s+(call|invoke|run|use)\s+[`'"]?[a-z][a-z0-9]*_[a-z0-9_]+[`'"]?[^.\n]{0,40}\b(with|passing)\b[^.\n]{0,20}\b(result|output|contents?|data|response)\b/i,
  },
  {
    id: 'invisible-text',
    label: 'invisible, bidi or control characters (hidden text)',
    pattern:
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/,
  },
]);

/** One match of a poisoning pattern in a tool definition. */
export interface PoisoningFinding {
  /** The pattern's id. */
  id: string;
  /** The pattern's label. */
  label: string;
  /** Where: `description`, or the path of a string in the schema (`inputSchema.properties.q.description`). */
  where: string;
  /** The matched text with a little context (raw: sanitise it before printing). */
  excerpt: string;
}

const EXCERPT_CONTEXT = 30;

function* strings(tool: ToolDefinition): Generator<[string, string]> {
  if (tool.description !== undefined) yield ['description', tool.description];
  // Iterative: a schema's depth is bounded by the pool's limits, but not here.
  const stack: [unknown, string][] = [[tool.inputSchema, 'inputSchema']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') yield [path, node];
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node).reverse()) {
        stack.push([value, `${path}.${key}`]);
      }
    }
  }
}

/**
 * Finds instruction-like text aimed at the model in a tool's description and in the
 * strings of its input schema: the known tool-poisoning patterns
 * ({@link TOOL_POISONING_PATTERNS}). It only reports; nothing is rewritten.
 *
 * @param tool - the definition
 * @param patterns - the patterns to look for @defaultValue {@link TOOL_POISONING_PATTERNS}
 * @returns one finding per pattern and place, in pattern order
 * @throws nothing
 */
export function detectToolPoisoning(
  tool: ToolDefinition,
  patterns: readonly PoisoningPattern[] = TOOL_POISONING_PATTERNS,
): PoisoningFinding[] {
  const findings: PoisoningFinding[] = [];
  const texts = [...strings(tool)];
  for (const { id, label, pattern } of patterns) {
    for (const [where, text] of texts) {
      const match = pattern.exec(text);
      if (match === null) continue;
      const start = Math.max(0, match.index - EXCERPT_CONTEXT);
      const end = Math.min(text.length, match.index + match[0].length + EXCERPT_CONTEXT);
      findings.push({ id, label, where, excerpt: text.slice(start, end) });
    }
  }
  return findings;
}
