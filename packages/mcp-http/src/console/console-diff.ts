import type { ToolDefinition } from '@tool-search/core';

/** One line of a definition diff. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Beyond this many line pairs, a diff shows the whole before and after instead. */
const MAX_PAIRS = 250_000;

/** A definition as lines: the description's own lines, then the schema and annotations as JSON. */
export function definitionLines(
  tool: Pick<ToolDefinition, 'description' | 'inputSchema' | 'annotations'>,
): string[] {
  return [
    ...(tool.description ?? '').split('\n'),
    '---',
    ...JSON.stringify(
      { inputSchema: tool.inputSchema, annotations: tool.annotations ?? {} },
      null,
      2,
    ).split('\n'),
  ];
}

/**
 * The line diff of two texts (longest common subsequence): what was removed, added, kept.
 *
 * @param before - the lines before
 * @param after - the lines after
 * @returns the lines in order
 * @throws nothing
 */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  if (before.length * after.length > MAX_PAIRS) {
    return [
      ...before.map((text) => ({ kind: 'removed' as const, text })),
      ...after.map((text) => ({ kind: 'added' as const, text })),
    ];
  }
  // common[i][j]: the longest common subsequence of before[i..] and after[j..].
  const common = Array.from({ length: before.length + 1 }, () =>
    new Array<number>(after.length + 1).fill(0),
  );
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      common[i]![j] =
        before[i] === after[j]
          ? common[i + 1]![j + 1]! + 1
          : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      lines.push({ kind: 'same', text: before[i]! });
      i += 1;
      j += 1;
    } else if (
      j < after.length &&
      (i === before.length || common[i]![j + 1]! >= common[i + 1]![j]!)
    ) {
      lines.push({ kind: 'added', text: after[j]! });
      j += 1;
    } else {
      lines.push({ kind: 'removed', text: before[i]! });
      i += 1;
    }
  }
  return lines;
}
