// @ts-check
/**
 * A typedoc plugin for the Tool Search site (loaded by the root typedoc.json).
 *
 * 1. Names entry-point modules after their import path. In `packages` mode a
 *    package with two entry points (`src/index.ts`, `src/testing/index.ts`)
 *    would show modules called `index` and `testing`; readers import
 *    `@tool-search/core` and `@tool-search/core/testing`, so those are the names.
 * 2. Groups the exports of large modules into categories by the source file
 *    that declares them (`config.ts` -> "Configuration"), unless the export
 *    already has its own `@category` tag, which always wins.
 */
import { basename } from 'node:path';
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/** Modules with fewer exports than this are not split into categories. */
const MIN_EXPORTS_FOR_CATEGORIES = 10;

/** File base names (without extension) whose category is not their title-cased name. */
const CATEGORY_BY_FILE = {
  activation: 'Activation',
  analyzer: 'Ranking',
  bm25: 'Ranking',
  'bm25-spec': 'Ranking',
  ranker: 'Ranking',
  'wink-embeddings': 'Ranking',
  catalog: 'Catalog',
  classify: 'Classification',
  config: 'Configuration',
  errors: 'Errors',
  formats: 'Provider formats',
  tokens: 'Token estimates',
  types: 'Tool definitions',
  'tool-definition': 'Tool definitions',
};

/** @param {string} file */
function categoryOf(file) {
  const base = basename(file).replace(/\.(d\.)?[cm]?[tj]sx?$/, '');
  if (base in CATEGORY_BY_FILE)
    return CATEGORY_BY_FILE[/** @type {keyof typeof CATEGORY_BY_FILE} */ (base)];
  if (base.endsWith('-ranker')) return 'Ranking';
  const words = base.split(/[-_.]/).filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
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
            new CommentTag('@category', [{ kind: 'text', text: categoryOf(file) }]),
          );
        }
      }
    },
    -100,
  );
}
