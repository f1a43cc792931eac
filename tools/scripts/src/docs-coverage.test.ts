// The front doors name what is there: the README and the docs home name every published
// package, the docs home links every guide of the site, the README's layout table lists
// every package folder, and every published package says where it lives.
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicPackages, repoRoot } from './workspace.js';

const root = repoRoot();
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const packages = publicPackages(root);

describe('the README and the docs home', () => {
  it('name every published package', () => {
    const readme = read('README.md');
    const home = read('docs/index.md');
    const missing = packages.flatMap(({ manifest }) => {
      const short = manifest.name.replace('@tool-search/', '');
      return [
        ...(readme.includes(manifest.name) || readme.includes(`\`${short}\``)
          ? []
          : [`README.md does not name ${manifest.name}`]),
        ...(home.includes(manifest.name) ? [] : [`docs/index.md does not name ${manifest.name}`]),
      ];
    });
    expect(missing).toEqual([]);
  });

  it('link every guide of the site (docs home) and list every package folder (README layout)', () => {
    const home = read('docs/index.md');
    const guides = (JSON.parse(read('typedoc.json')) as { projectDocuments: string[] })
      .projectDocuments;
    expect(guides.length).toBeGreaterThan(0);
    const unlinked = guides
      .map((guide) => `./guides/${basename(guide)}`)
      .filter((link) => !home.includes(`](${link})`));
    expect(unlinked).toEqual([]);
    const readme = read('README.md');
    const folders = packages
      .map(({ dir }) => relative(root, dir).split('\\').join('/'))
      .filter((folder) => !readme.includes(`| \`${folder}\``));
    expect(folders).toEqual([]);
  });
});

describe('every published package.json', () => {
  it('has a repository (with its directory), a homepage and a bugs link', () => {
    const incomplete = packages
      .filter(({ manifest }) => {
        const raw = manifest as unknown as Record<string, unknown>;
        const repository = raw['repository'] as { directory?: unknown } | undefined;
        return (
          typeof repository?.directory !== 'string' ||
          typeof raw['homepage'] !== 'string' ||
          raw['bugs'] === undefined
        );
      })
      .map(({ manifest }) => manifest.name);
    expect(incomplete).toEqual([]);
  });
});
