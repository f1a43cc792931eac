// RFC 6570 URI templates, matched (not expanded): enough to route a URI to the server
// whose template produced it. Each expression matches what its operator can expand to.

const REGEXP_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const MAX_TEMPLATE_CHARS = 2_000;

const cache = new Map<string, RegExp | null>();

function compile(template: string): RegExp | null {
  if (template.length > MAX_TEMPLATE_CHARS) return null;
  let source = '';
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf('{');
    if (open === -1) {
      source += rest.replace(REGEXP_SYNTAX, '\\$&');
      break;
    }
    const close = rest.indexOf('}', open);
    if (close === -1) return null;
    source += rest.slice(0, open).replace(REGEXP_SYNTAX, '\\$&');
    const operator = rest[open + 1];
    // `+` and `#` may expand to reserved characters (slashes); `?` and `&` to a query part.
    if (operator === '+' || operator === '#') source += '[\\s\\S]*';
    else if (operator === '?' || operator === '&') source += '(?:[?&][^#]*)?';
    else if (operator === '/') source += '(?:/[^?#]*)?';
    else source += '[^/?#]*';
    rest = rest.slice(close + 1);
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether a URI could be an expansion of a URI template.
 *
 * @param template - e.g. `test://template/{id}/data` (anything else never matches)
 * @param uri - the URI
 * @returns true when it matches
 * @throws nothing
 */
export function templateMatches(template: unknown, uri: string): boolean {
  if (typeof template !== 'string') return false;
  let compiled = cache.get(template);
  if (compiled === undefined) {
    compiled = compile(template);
    if (cache.size > 10_000) cache.clear();
    cache.set(template, compiled);
  }
  return compiled?.test(uri) ?? false;
}
