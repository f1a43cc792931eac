/**
 * The changesets check (issue 8).
 *
 * 1. `changeset status --since=<first commit>` with `--output`: every changeset parses
 *    with changesets' own parser and the release plan is computed. (Plain
 *    `changeset status` compares with `main`, which on `main` itself sees no change;
 *    the first commit is a base that exists in any clone, shallow or not.)
 * 2. Each changeset names only public workspace packages with a valid bump and has a
 *    summary; every public package changed since the first commit is named by at
 *    least one changeset (stricter than `status`, which the lockstep group satisfies
 *    as soon as any one package has a changeset).
 * 3. A dry run of `changeset version` in a temporary copy of the repository: the
 *    lockstep group moves to one new version, each package gets a CHANGELOG.md with
 *    that version and the summaries of its changesets, private packages are left
 *    alone, and the changesets are consumed.
 *
 * Usage: `tsx src/check-changesets.ts`. Exits non-zero with a list of failures.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckReporter, runCheck } from './check-reporter.js';
import { run } from './run.js';
import { publicPackages, repoRoot } from './workspace.js';

const root = repoRoot();
const changesetBin = join(root, 'node_modules', '.bin', 'changeset');
const BUMPS = new Set(['patch', 'minor', 'major']);

const reporter = createCheckReporter('changesets');
const { fail, pass, step } = reporter;

interface Changeset {
  file: string;
  releases: Map<string, string>;
  summary: string;
}

/** The front matter and summary of every `.changeset/*.md` except the README. */
async function readChangesets(): Promise<Changeset[]> {
  const folder = join(root, '.changeset');
  const files = (await readdir(folder))
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort();
  const result: Changeset[] = [];
  for (const file of files) {
    const text = await readFile(join(folder, file), 'utf8');
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
    if (!match) {
      fail(`.changeset/${file}: no front matter (--- / '<package>': <bump> / ---)`);
      continue;
    }
    const releases = new Map<string, string>();
    for (const line of match[1]!.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const release = /^\s*["']?([^"':]+)["']?\s*:\s*(\w+)\s*$/.exec(line);
      if (!release) {
        fail(`.changeset/${file}: cannot read the front matter line ${JSON.stringify(line)}`);
        continue;
      }
      releases.set(release[1]!, release[2]!);
    }
    result.push({ file, releases, summary: match[2]!.trim() });
  }
  return result;
}

async function main(): Promise<void> {
  const packages = publicPackages(root);
  const names = new Set(packages.map((pkg) => pkg.manifest.name));
  const firstCommit = (
    await run('git', ['rev-list', '--max-parents=0', 'HEAD'], { cwd: root })
  ).stdout
    .trim()
    .split('\n')
    .at(-1);
  if (!firstCommit) throw new Error('not a git checkout: git rev-list found no first commit');
  const work = await mkdtemp(join(tmpdir(), 'tool-search-changesets-'));
  try {
    step(`changeset status --since=${firstCommit.slice(0, 12)}`);
    const planFile = join(work, 'release-plan.json');
    const status = await run(
      changesetBin,
      ['status', `--since=${firstCommit}`, `--output=${planFile}`],
      { cwd: root },
    );
    if (status.code !== 0) {
      fail(`changeset status exits ${status.code}:\n${status.stdout}${status.stderr}`);
    } else {
      const plan = JSON.parse(await readFile(planFile, 'utf8')) as {
        changesets: unknown[];
        releases: { name: string; type: string; newVersion: string }[];
      };
      pass(
        `${plan.changesets.length} changesets parse; plan: ${plan.releases
          .map((release) => `${release.name}@${release.newVersion}`)
          .join(', ')}`,
      );
    }

    step('changeset files');
    const changesets = await readChangesets();
    const covered = new Set<string>();
    for (const changeset of changesets) {
      const problems: string[] = [];
      if (changeset.releases.size === 0) problems.push('names no package');
      for (const [name, bump] of changeset.releases) {
        if (!names.has(name)) problems.push(`'${name}' is not a public package of this workspace`);
        if (!BUMPS.has(bump)) problems.push(`'${name}': ${bump} is not patch, minor or major`);
        covered.add(name);
      }
      if (changeset.summary === '') problems.push('has no summary');
      if (problems.length > 0) fail(`.changeset/${changeset.file}: ${problems.join('; ')}`);
    }
    for (const pkg of packages) {
      const name = pkg.manifest.name;
      const folder = pkg.dir.slice(root.length + 1);
      const log = await run('git', ['log', '--format=%h', `${firstCommit}..HEAD`, '--', folder], {
        cwd: root,
      });
      const changed = log.stdout.trim() !== '';
      if (changed && !covered.has(name)) {
        fail(`${name} changed since ${firstCommit.slice(0, 12)} but no changeset names it`);
      }
    }
    if (reporter.failures.length === 0) {
      pass(`${changesets.length} changesets name public packages, with bumps and summaries`);
    }

    console.log('\n--- dry run of changeset version in a temporary copy');
    const copy = join(work, 'repo');
    await run('mkdir', ['-p', copy]);
    const archive = await run('sh', ['-c', `git archive HEAD | tar -x -C '${copy}'`], {
      cwd: root,
    });
    if (archive.code !== 0) throw new Error(`git archive failed: ${archive.stderr}`);
    // The working tree's changesets, so that a new, uncommitted one is checked too.
    await rm(join(copy, '.changeset'), { recursive: true, force: true });
    await cp(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
    await symlink(join(root, 'node_modules'), join(copy, 'node_modules'));
    const version = await run(changesetBin, ['version'], { cwd: copy });
    if (version.code !== 0) {
      fail(`changeset version exits ${version.code}:\n${version.stdout}${version.stderr}`);
      return;
    }
    const versions = new Map<string, string>();
    for (const pkg of packages) {
      const folder = join(copy, pkg.dir.slice(root.length + 1));
      const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as {
        version: string;
      };
      versions.set(pkg.manifest.name, manifest.version);
      const changelogFile = join(folder, 'CHANGELOG.md');
      if (!existsSync(changelogFile)) {
        fail(`${pkg.manifest.name}: no CHANGELOG.md after changeset version`);
        continue;
      }
      const changelog = await readFile(changelogFile, 'utf8');
      const problems: string[] = [];
      if (!changelog.startsWith(`# ${pkg.manifest.name}\n`)) problems.push('no "# <name>" title');
      if (!changelog.includes(`\n## ${manifest.version}\n`)) {
        problems.push(`no "## ${manifest.version}" section`);
      }
      for (const changeset of changesets) {
        if (!changeset.releases.has(pkg.manifest.name)) continue;
        const firstLine = changeset.summary.split('\n')[0]!;
        if (!changelog.includes(firstLine)) {
          problems.push(`the summary of ${changeset.file} is missing`);
        }
      }
      if (problems.length > 0) fail(`${pkg.manifest.name} CHANGELOG.md: ${problems.join('; ')}`);
    }
    const distinct = new Set(versions.values());
    const before = new Set(packages.map((pkg) => pkg.manifest.version));
    if (distinct.size !== 1) {
      fail(`the lockstep group split: ${JSON.stringify(Object.fromEntries(versions))}`);
    } else if ([...before].some((old) => old === [...distinct][0])) {
      fail(`no version moved (still ${[...distinct][0]})`);
    } else {
      pass(
        `lockstep: ${[...before].join(', ')} -> ${[...distinct][0]} for ${versions.size} packages`,
      );
    }
    for (const folder of ['tools/eval', 'tools/bench', 'tools/load', 'tools/scripts']) {
      if (!existsSync(join(copy, folder, 'package.json'))) continue;
      const manifest = JSON.parse(await readFile(join(copy, folder, 'package.json'), 'utf8')) as {
        version?: string;
      };
      const original = JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8')) as {
        version?: string;
      };
      if (manifest.version !== original.version || existsSync(join(copy, folder, 'CHANGELOG.md'))) {
        fail(`${folder} is private but changeset version touched it`);
      }
    }
    const left = (await readdir(join(copy, '.changeset'))).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
    if (left.length > 0) fail(`changesets not consumed: ${left.join(', ')}`);
    const core = packages.find((pkg) => pkg.manifest.name === '@tool-search/core');
    if (core) {
      const text = await readFile(
        join(copy, core.dir.slice(root.length + 1), 'CHANGELOG.md'),
        'utf8',
      );
      console.log(`\n${text.split('\n').slice(0, 12).join('\n')}\n...`);
    }
    if (reporter.failures.length === 0)
      pass('changelogs: a title, the new version and every summary');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

void runCheck(reporter, main);
