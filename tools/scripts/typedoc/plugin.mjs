// @ts-check
/**
 * A typedoc plugin for the Tool Search site (loaded by the root typedoc.json).
 *
 * 1. Names entry-point modules after their import path. In `packages` mode a
 *    package with two entry points (`src/index.ts`, `src/testing/index.ts`)
 *    would show modules called `index` and `testing`; readers import
 *    `@tool-search/core` and `@tool-search/core/testing`, so those are the names.
 *    After the packages are merged, the main entry point's exports are lifted into
 *    the package's own page, so `{@link @tool-search/core!createBm25Ranker}` works
 *    and the package page lists its API (`/testing` stays a sub-module).
 * 2. Resolves `{@link X}` in one package's TSDoc to `X` documented by a sibling
 *    package (e.g. `{@link ToolSearchError}` in @tool-search/mcp). TypeScript
 *    resolves such a link to the sibling's `dist/*.d.ts`, which the merged site
 *    does not know; this finds the export by package and name instead.
 * 3. Works around a typedoc 0.28 bug: an interface that extends a type alias gets a
 *    "View Summary" link to `hierarchy.html#<id>`, but the hierarchy page leaves it
 *    out. After rendering, such links whose anchor is missing become plain text.
 * 4. Appends to the main entry points an `@example` taken from a region of a file in
 *    docs/examples, which CI type-checks against the packed packages and runs (see
 *    EXAMPLES below), so that the API pages show code that is known to work.
 * 5. Groups the exports of large modules into categories by the source file
 *    that declares them (`config.ts` -> "Configuration"), unless the export
 *    already has its own `@category` tag, which always wins.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Application,
  Comment,
  CommentTag,
  Converter,
  ReflectionKind,
  RendererEvent,
} from 'typedoc';

/** Modules with fewer exports than this are not split into categories. */
const MIN_EXPORTS_FOR_CATEGORIES = 10;

/**
 * Categories by `<package>:<file base name>`, first match wins; other files get
 * their title-cased base name (`session-scope.ts` -> "Session scope").
 * @type {[RegExp, string][]}
 */
const CATEGORY_RULES = [
  [/^@tool-search\/core:(types|tool-definition)$/, 'Tool definitions'],
  [/^@tool-search\/hooks:(types|dispatcher|run-step)$/, 'Dispatcher'],
  [/:analyzer/, 'Text analysis'],
  [/:(bm25|ranker|.*-ranker|wink-embeddings)/, 'Ranking'],
  [/:catalog$/, 'Catalog'],
  [/:classify$/, 'Classification'],
  [/:(config|env|config\/(schemas|parse|load|defaults))$/, 'Configuration'],
  [/:errors$/, 'Errors'],
  [/:formats$/, 'Provider formats'],
  [/:tokens$/, 'Token estimates'],
  [/guardrail/, 'Guardrails'],
  [/approval/, 'Approvals'],
  [/-hook$/, 'Hooks'],
  [/:(glob|patterns|pin-matcher|tool-names)$/, 'Tool names and patterns'],
  [/:(gateway\/(server|http|http-options|start)|progress)$/, 'Gateway server'],
  [/:upstream\/(pool|pool-.*|call|connect|limits|screen|wait)$/, 'Upstream servers'],
  [/:upstream\/review$/, 'Tool review'],
  [/:upstream\/poisoning$/, 'Tool poisoning'],
  [/:terminal\/style$/, 'Terminal style'],
  [/:terminal\/text$/, 'Terminal text'],
];

/**
 * @param {string} packageName
 * @param {string} file
 */
function categoryOf(packageName, file) {
  const base = basename(file).replace(/\.(d\.)?[cm]?[tj]sx?$/, '');
  const key = `${packageName}:${base}`;
  // A package's rooms (`src/gateway/server.ts`) are matched as `<folder>/<base>` too.
  const roomKey = `${packageName}:${basename(dirname(file))}/${base}`;
  for (const [pattern, category] of CATEGORY_RULES) {
    if (pattern.test(key) || pattern.test(roomKey)) return category;
  }
  const words = base.split(/[-_.]/).filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * `[package, export, file in docs/examples, region]`: the checked example appended to
 * an export's documentation.
 * @type {[string, string, string, string][]}
 */
const EXAMPLES = [
  ['@tool-search/core', 'createBm25Ranker', 'custom-ranker.ts', 'use'],
  ['@tool-search/core', 'createCatalog', 'custom-ranker.ts', 'use'],
  ['@tool-search/core', 'defineRanker', 'custom-ranker.ts', 'ranker'],
  ['@tool-search/core', 'parseToolSearchConfigWithWarnings', 'configuration.ts', 'parse'],
  ['@tool-search/core', 'decideActivation', 'configuration.ts', 'gate'],
  ['@tool-search/core', 'activationThreshold', 'configuration.ts', 'gate'],
  ['@tool-search/core', 'toOpenAITool', 'openai.ts', 'openai'],
  ['@tool-search/core', 'toAnthropicTool', 'anthropic.ts', 'anthropic'],
  ['@tool-search/core', 'fromMcpTool', 'mcp-formats.ts', 'mcp'],
  ['@tool-search/core', 'validateToolDefinitions', 'mcp-formats.ts', 'mcp'],
  ['@tool-search/core', 'testRanker', 'custom-ranker.test.ts', 'conformance'],
  ['@tool-search/toolsets', 'scopeTools', 'getting-started.ts', 'assemble'],
  ['@tool-search/toolsets', 'narrowScope', 'security.ts', 'scope'],
  ['@tool-search/bridge', 'assembleTools', 'getting-started.ts', 'assemble'],
  ['@tool-search/bridge', 'handleBridgeCall', 'getting-started.ts', 'loop'],
  ['@tool-search/bridge', 'unwrapToolCall', 'getting-started.ts', 'loop'],
  ['@tool-search/hooks', 'createDispatcher', 'getting-started.ts', 'dispatch'],
  ['@tool-search/hooks', 'Guardrail', 'security.ts', 'fail-closed'],
  ['@tool-search/providers', 'prepareAnthropicTools', 'native-anthropic.ts', 'anthropic-native'],
  [
    '@tool-search/providers',
    'answerAnthropicToolSearch',
    'native-anthropic.ts',
    'anthropic-native',
  ],
  ['@tool-search/providers', 'prepareOpenAIResponsesTools', 'native-openai.ts', 'openai-native'],
  ['@tool-search/providers', 'answerOpenAIToolSearch', 'native-openai.ts', 'openai-native'],
];

const EXAMPLES_DIR = fileURLToPath(new URL('../../../docs/examples/', import.meta.url));

/**
 * The lines between `// #region <name>` and `// #endregion <name>`, dedented.
 * @param {string} file
 * @param {string} region
 */
function exampleRegion(file, region) {
  const lines = readFileSync(join(EXAMPLES_DIR, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${region}`);
  const end = lines.findIndex((line) => line.trim() === `// #endregion ${region}`);
  if (start < 0 || end <= start) {
    throw new Error(`docs/examples/${file} has no region '${region}' (typedoc plugin EXAMPLES)`);
  }
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(
    Converter.EVENT_RESOLVE_BEGIN,
    (context) => {
      const project = context.project;
      const packageName = project.packageName ?? project.name;
      const modules = (project.children ?? []).filter((child) =>
        child.kindOf(ReflectionKind.Module),
      );
      if (modules.length > 1 && packageName) {
        for (const module of modules) {
          module.name = module.name === 'index' ? packageName : `${packageName}/${module.name}`;
        }
      }
      const containers = modules.length > 0 ? modules : [project];
      for (const [pkg, name, file, region] of EXAMPLES) {
        if (pkg !== packageName) continue;
        for (const container of containers) {
          const target = container.children?.find((child) => child.name === name);
          if (!target) continue;
          const holder = target.signatures?.[0] ?? target;
          holder.comment ??= new Comment();
          holder.comment.blockTags.push(
            new CommentTag('@example', [
              { kind: 'text', text: `From docs/examples/${file} (type-checked and run in CI)\n` },
              { kind: 'code', text: `\`\`\`ts\n${exampleRegion(file, region)}\n\`\`\`` },
            ]),
          );
        }
      }
      for (const container of containers) {
        const exports = (container.children ?? []).filter(
          (child) => !child.kindOf(ReflectionKind.Reference),
        );
        if (exports.length < MIN_EXPORTS_FOR_CATEGORIES) continue;
        for (const child of exports) {
          if (child.comment?.getTag('@category')) continue;
          const file = project.getSymbolIdFromReflection(child)?.fileName;
          if (!file) continue;
          child.comment ??= new Comment();
          child.comment.blockTags.push(
            new CommentTag('@category', [{ kind: 'text', text: categoryOf(packageName, file) }]),
          );
        }
      }
    },
    -100,
  );

  /** @type {import('typedoc').ProjectReflection | undefined} */
  let merged;
  app.converter.addUnknownSymbolResolver((reference, _reflection, part, symbolId) => {
    if (!merged) return undefined;
    const packageName = symbolId?.packageName ?? reference.moduleSource;
    if (packageName !== undefined && !packageName.startsWith('@tool-search/')) return undefined;
    const path =
      symbolId?.qualifiedName.split('.') ??
      reference.symbolReference?.path?.map((component) => component.path) ??
      [];
    if (path.length === 0) return undefined;
    // A link without a package (TypeScript could not resolve it) matches only when
    // exactly one package exports that name.
    const packages = (merged.children ?? []).filter(
      (child) =>
        child.kindOf(ReflectionKind.Module) &&
        child.name.startsWith('@tool-search/') &&
        (packageName === undefined || child.name === packageName),
    );
    const found = packages.flatMap((pkg) => {
      const scopes = [pkg, ...(pkg.children ?? []).filter((c) => c.kindOf(ReflectionKind.Module))];
      for (const scope of scopes) {
        /** @type {import('typedoc').Reflection | undefined} */
        let target = scope;
        for (const name of path) {
          target = /** @type {import('typedoc').ContainerReflection} */ (target).children?.find(
            (child) => child.name === name,
          );
          if (!target) break;
        }
        if (target) return [target];
      }
      return [];
    });
    if (found.length !== 1) return undefined;
    const target = /** @type {import('typedoc').Reflection} */ (found[0]);
    return { target, caption: part?.tsLinkText || target.name };
  });

  app.on(
    Application.EVENT_PROJECT_REVIVE,
    (project) => {
      merged = project;
      for (const pkg of project.children ?? []) {
        if (!pkg.kindOf(ReflectionKind.Module)) continue;
        const main = pkg.children?.find(
          (child) => child.kindOf(ReflectionKind.Module) && child.name === pkg.name,
        );
        if (!main) continue;
        const lifted = main.children ?? [];
        for (const child of lifted) child.parent = pkg;
        const rest = (pkg.children ?? []).filter((child) => child !== main);
        // The other entry points (e.g. `/testing`) sit among the lifted exports' categories.
        for (const module of rest) {
          if (!module.kindOf(ReflectionKind.Module) || module.comment?.getTag('@category'))
            continue;
          const category = module.name.endsWith('/testing') ? 'Testing' : 'Entry points';
          module.comment ??= new Comment();
          module.comment.blockTags.push(
            new CommentTag('@category', [{ kind: 'text', text: category }]),
          );
        }
        pkg.children = [...lifted, ...rest];
        pkg.childrenIncludingDocuments = [
          ...lifted,
          ...(main.documents ?? []),
          ...(pkg.childrenIncludingDocuments ?? []).filter((child) => child !== main),
        ];
        if (main.documents?.length) {
          for (const document of main.documents) document.parent = pkg;
          pkg.documents = [...(pkg.documents ?? []), ...main.documents];
        }
        pkg.comment ??= main.comment;
        pkg.readme ??= main.readme;
        main.children = [];
        main.documents = [];
        main.childrenIncludingDocuments = [];
        project.removeReflection(main);
      }
    },
    // After typedoc's own early revive steps, before grouping (-100), categories (-200) and links (-300).
    50,
  );

  app.renderer.on(RendererEvent.END, (event) => {
    const out = event.outputDirectory;
    let hierarchy;
    try {
      hierarchy = readFileSync(join(out, 'hierarchy.html'), 'utf8');
    } catch {
      return;
    }
    const ids = new Set([...hierarchy.matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]));
    const link = /<a href="((?:\.\.\/)*)hierarchy\.html#([^"]*)">([^<]*)<\/a>/g;
    for (const entry of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.html')) continue;
      const file = join(out, entry);
      const html = readFileSync(file, 'utf8');
      if (!html.includes('hierarchy.html#')) continue;
      const fixed = html.replace(link, (whole, _up, id, text) => (ids.has(id) ? whole : text));
      if (fixed !== html) writeFileSync(file, fixed);
    }
  });
}
