// The npm mirror here carries only this platform's native binaries (rollup, oxc, unrs, ...), so `npm install` writes a lock
// without rollup's other platform packages, and `npm ci` then refuses it ("Missing: … from lock
// file"). This puts them back as optional entries constrained by os/cpu/libc: `npm ci` sees them,
// finds them foreign to the platform and skips them without fetching. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };
let added = 0;
/** `@rollup/rollup-linux-x64-gnu`, `@oxc-parser/binding-darwin-arm64`, `@unrs/resolver-binding-win32-x64-msvc`, ... */
const PLATFORM_BINARY =
  /^@[\w.-]+\/(?:rollup-|[\w-]*binding-)(android|darwin|freebsd|linux|openharmony|win32|wasm32|netbsd|openbsd|sunos|aix)-([a-z0-9]+)(?:-([a-z]+))?$/;

for (const [where, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    if (packages[`node_modules/${name}`]) continue;
    const m = PLATFORM_BINARY.exec(name);
    if (!m) {
      if (name === 'fsevents') continue; // darwin-only, already optional in npm's own handling
      throw new Error(`${where}: optional ${name} is missing from the lock and is not a platform binary`);
    }
    const [, os, cpu, abi] = m;
    const entry = { version, cpu: [cpu], dev: meta.dev ?? false, license: 'MIT', optional: true, os: [os] };
    if (os === 'linux' && abi && LIBC[abi]) entry.libc = [LIBC[abi]];
    packages[`node_modules/${name}`] = entry;
    added++;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: ${added} optional platform entries restored`);
