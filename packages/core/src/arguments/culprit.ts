import type { CompiledSchema } from './compile.js';

const UNIONS = ['anyOf', 'oneOf', 'allOf'];

/**
 * The keyword an overrun leaves out. First choice: the union (`anyOf`, `oneOf`,
 * `allOf`) closest to the root of the blowup, i.e. the least evaluated of those that
 * ran more than once and whose branches together ran at least half as often again as
 * itself (each such union multiplies the work below it; dropping the first one drops
 * the product). Else the in-place applicator that ran most often.
 *
 * @param compiled - the schema whose check overran
 * @param counts - the evaluations per location of the check that overran
 * @returns the JSON pointer of the keyword to leave out, or `undefined` when none is to blame
 * @throws nothing
 */
export function culprit(compiled: CompiledSchema, counts: Uint32Array): string | undefined {
  const { locations, applicators } = compiled.prepared;
  const ids = new Map(locations.map((pointer, location) => [pointer, location]));
  let multiplier: string | undefined;
  let fewest = Number.POSITIVE_INFINITY;
  let busiest: string | undefined;
  let most = 0;
  for (let location = 0; location < counts.length; location++) {
    const count = counts[location] ?? 0;
    const keywords = applicators[location] ?? [];
    const first = keywords[0];
    if (first !== undefined && count > most) {
      most = count;
      busiest = `${locations[location]}/${first}`;
    }
    if (count < 2 || count >= fewest) continue;
    for (const keyword of keywords) {
      if (!UNIONS.includes(keyword)) continue;
      let branches = 0;
      for (let index = 0; ; index++) {
        const branch = ids.get(`${locations[location]}/${keyword}/${index}`);
        if (branch === undefined) break;
        branches += counts[branch] ?? 0;
      }
      if (branches * 2 >= count * 3) {
        fewest = count;
        multiplier = `${locations[location]}/${keyword}`;
        break;
      }
    }
  }
  return multiplier ?? busiest;
}

/**
 * The keyword a JSON pointer ends in.
 *
 * @param pointer - e.g. `/$defs/node/anyOf`
 * @returns e.g. `anyOf`
 * @throws nothing
 */
export function keywordOf(pointer: string): string {
  return (pointer.split('/').at(-1) ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}
