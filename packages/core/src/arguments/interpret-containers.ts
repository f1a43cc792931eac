import type { ErrorObject } from 'ajv';
import { uniqueItems } from './bounded-keywords.js';
import {
  arrayCountFailures,
  dependencyFailures,
  type Failure,
  hasType,
  objectCountFailures,
  type PatternTest,
} from './interpret-keywords.js';
import type { Draft } from './interpret-refs.js';

/**
 * The interpreter's keywords of arrays and objects (`items`, `contains`, `properties`,
 * `additionalProperties`, `dependencies`, ...) and `unevaluated*`, in ajv's order.
 */

/** What the keyword groups need of a running interpretation. */
export interface Run {
  draft: Draft;
  /** The errors of the running check (truncated when a branch's errors are dropped). */
  errors(): ErrorObject[];
  push(failure: Failure, place: Place, data: unknown, parentSchema: unknown): void;
  evaluate(node: unknown, data: unknown, place: Place, seen: Evaluated): boolean;
  pattern: PatternTest;
}

/** The instances an in-place applicator evaluated, for `unevaluated*`. */
export interface Evaluated {
  props: Set<string>;
  allProps: boolean;
  items: Set<number>;
  allItems: boolean;
}

export interface Place {
  /** The instance path (a JSON pointer). */
  path: string;
  /** The schema path, as ajv writes it (`#/properties/a/type`). */
  schemaPath: string;
  /** The base URI. */
  base: string;
  /** The schema resources entered, outermost first (the dynamic scope). */
  dynamic: readonly string[];
}

export function childPointer(path: string, key: string): string {
  return `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function fresh(): Evaluated {
  return { props: new Set(), allProps: false, items: new Set(), allItems: false };
}

export function merge(into: Evaluated, from: Evaluated): void {
  for (const prop of from.props) into.props.add(prop);
  for (const item of from.items) into.items.add(item);
  into.allProps ||= from.allProps;
  into.allItems ||= from.allItems;
}

export function evaluateArray(
  run: Run,
  s: Record<string, unknown>,
  data: unknown[],
  here: Place,
  seen: Evaluated,
  child: (sub: unknown, value: unknown, key: number, keyword: string) => boolean,
): void {
  for (const failure of arrayCountFailures(s, data)) run.push(failure, here, data, s);
  const tooMany = (keyword: string, limit: number): void =>
    run.push(
      { keyword, params: { limit }, message: `must NOT have more than ${limit} items` },
      here,
      data,
      s,
    );
  const tuple =
    run.draft === '2020-12' ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  const length = Array.isArray(tuple) ? tuple.length : 0;
  const rest =
    run.draft === '2020-12' ? s.items : Array.isArray(s.items) ? s.additionalItems : s.items;
  const restKeyword =
    run.draft === '2020-12' || !Array.isArray(s.items) ? 'items' : 'additionalItems';
  const checkRest = (): void => {
    if (rest === false && data.length > length) tooMany(restKeyword, length);
    else if (rest !== undefined) {
      for (let i = length; i < data.length; i++) child(rest, data[i], i, restKeyword);
      if (data.length > length) seen.allItems = true;
    }
  };
  // draft-07's `additionalItems` runs before `items` in ajv; 2020-12's `items` after `prefixItems`.
  if (restKeyword === 'additionalItems') checkRest();
  if (Array.isArray(tuple)) {
    const keyword = run.draft === '2020-12' ? 'prefixItems' : 'items';
    for (let i = 0; i < Math.min(length, data.length); i++) {
      child(tuple[i], data[i], i, `${keyword}/${i}`);
      seen.items.add(i);
    }
  }
  if (restKeyword === 'items') checkRest();
  if (s.contains !== undefined) {
    const min = run.draft === 'draft-07' || typeof s.minContains !== 'number' ? 1 : s.minContains;
    const max =
      run.draft === 'draft-07' || typeof s.maxContains !== 'number' ? undefined : s.maxContains;
    const mark = run.errors().length;
    let count = 0;
    data.forEach((item, i) => {
      if (child(s.contains, item, i, 'contains')) {
        count++;
        seen.items.add(i);
      }
    });
    if (count < min || (max !== undefined && count > max)) {
      const params =
        max === undefined ? { minContains: min } : { minContains: min, maxContains: max };
      const message =
        max === undefined
          ? `must contain at least ${min} valid item(s)`
          : `must contain at least ${min} and no more than ${max} valid item(s)`;
      run.push({ keyword: 'contains', params, message }, here, data, s);
    } else run.errors().length = mark;
  }
  if (s.uniqueItems === true) {
    const check = uniqueItems as unknown as { errors?: Failure[] | null };
    if (!uniqueItems(true, data))
      for (const failure of check.errors ?? []) run.push(failure, here, data, s);
  }
}

export function evaluateObject(
  run: Run,
  s: Record<string, unknown>,
  data: Record<string, unknown>,
  here: Place,
  seen: Evaluated,
  apply: {
    inPlace: (sub: unknown, keyword: string, into: Evaluated) => boolean;
    child: (sub: unknown, value: unknown, key: string, keyword: string) => boolean;
  },
): void {
  const report = (failures: readonly Failure[]): void => {
    for (const failure of failures) run.push(failure, here, data, s);
  };
  report(objectCountFailures(s, data));
  if (s.propertyNames !== undefined) {
    for (const key of Object.keys(data)) {
      const mark = run.errors().length;
      if (
        !run.evaluate(
          s.propertyNames,
          key,
          { ...here, schemaPath: `${here.schemaPath}/propertyNames` },
          fresh(),
        )
      ) {
        for (const error of run.errors().slice(mark))
          error.params = { ...error.params, propertyName: key };
        report([
          {
            keyword: 'propertyNames',
            params: { propertyName: key },
            message: 'property name must be valid',
          },
        ]);
      }
    }
  }
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const patternProperties = Object.entries((s.patternProperties ?? {}) as Record<string, unknown>);
  if (s.additionalProperties !== undefined) {
    for (const key of Object.keys(data)) {
      if (
        Object.hasOwn(properties, key) ||
        patternProperties.some(([source]) => run.pattern(source).test(key))
      )
        continue;
      if (s.additionalProperties === false) {
        report([
          {
            keyword: 'additionalProperties',
            params: { additionalProperty: key },
            message: 'must NOT have additional properties',
          },
        ]);
      } else apply.child(s.additionalProperties, data[key], key, 'additionalProperties');
    }
    seen.allProps = true;
  }
  const schemaDependencies = (keyword: string, map: unknown): void => {
    if (typeof map !== 'object' || map === null) return;
    for (const [property, sub] of Object.entries(map)) {
      if (Array.isArray(sub) || data[property] === undefined) continue;
      apply.inPlace(sub, `${keyword}/${property}`, seen);
    }
  };
  if (typeof s.dependencies === 'object' && s.dependencies !== null) {
    report(dependencyFailures('dependencies', s.dependencies as Record<string, unknown>, data));
    schemaDependencies('dependencies', s.dependencies);
  }
  for (const [name, sub] of Object.entries(properties)) {
    if (data[name] === undefined) continue;
    apply.child(
      sub,
      data[name],
      name,
      `properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    );
    seen.props.add(name);
  }
  for (const [source, sub] of patternProperties) {
    const test = run.pattern(source);
    for (const key of Object.keys(data)) {
      if (!test.test(key)) continue;
      apply.child(sub, data[key], key, `patternProperties/${source}`);
      seen.props.add(key);
    }
  }
  if (
    run.draft !== 'draft-07' &&
    typeof s.dependentRequired === 'object' &&
    s.dependentRequired !== null
  ) {
    report(
      dependencyFailures('dependentRequired', s.dependentRequired as Record<string, unknown>, data),
    );
  }
  if (run.draft !== 'draft-07') schemaDependencies('dependentSchemas', s.dependentSchemas);
}

/** `unevaluatedProperties` and `unevaluatedItems`, after every other keyword. */
export function unevaluated(
  run: Run,
  s: Record<string, unknown>,
  data: unknown,
  here: Place,
  seen: Evaluated,
  child: (sub: unknown, value: unknown, key: string | number, keyword: string) => boolean,
): void {
  if (s.unevaluatedProperties !== undefined && hasType(data, 'object') && !seen.allProps) {
    for (const key of Object.keys(data as object)) {
      if (seen.props.has(key)) continue;
      if (s.unevaluatedProperties === false) {
        run.push(
          {
            keyword: 'unevaluatedProperties',
            params: { unevaluatedProperty: key },
            message: 'must NOT have unevaluated properties',
          },
          here,
          data,
          s,
        );
      } else
        child(
          s.unevaluatedProperties,
          (data as Record<string, unknown>)[key],
          key,
          'unevaluatedProperties',
        );
    }
    seen.allProps = true;
  }
  if (s.unevaluatedItems !== undefined && Array.isArray(data) && !seen.allItems) {
    if (s.unevaluatedItems === false) {
      const first = data.findIndex((_, i) => !seen.items.has(i));
      if (first !== -1) {
        run.push(
          {
            keyword: 'unevaluatedItems',
            params: { limit: first },
            message: `must NOT have more than ${first} items`,
          },
          here,
          data,
          s,
        );
      }
    } else {
      data.forEach((item, i) => {
        if (!seen.items.has(i)) child(s.unevaluatedItems, item, i, 'unevaluatedItems');
      });
    }
    seen.allItems = true;
  }
}
