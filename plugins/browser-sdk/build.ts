/**
 * Builds the browser SDK (`src/index.ts`) into one minified IIFE for the browser, in memory, once
 * per process: the gateway serves the result at `/sdk/v1/`. The hash (of the built code) names the
 * immutable URL `/sdk/v1/sdk.<hash>.js` and is the ETag of the stable ones.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface BuiltSdk {
  /** The script, UTF-8 JavaScript. */
  readonly code: string;
  /** 16 hex digits of the SHA-256 of `code`. */
  readonly hash: string;
}

const ENTRY = fileURLToPath(new URL('./src/index.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

let cached: Promise<BuiltSdk> | undefined;

async function compile(): Promise<BuiltSdk> {
  const result = await build({
    entryPoints: [ENTRY],
    tsconfig: TSCONFIG,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
    banner: { js: '/* Payment gateway browser SDK v1 */' },
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (file === undefined) throw new Error('esbuild produced no output for the browser SDK');
  const code = file.text;
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

/** The built SDK; built on the first call and kept for the process (a failed build is retried). */
export function buildSdk(): Promise<BuiltSdk> {
  if (cached === undefined) {
    const building = compile();
    cached = building;
    building.catch(() => {
      if (cached === building) cached = undefined;
    });
  }
  return cached;
}
