/** Types of bin/launch.mjs (plain JavaScript, run by node before anything is compiled). */
export function sourceFiles(root: string): { code: string[]; assets: string[] };
export function sourceState(root: string): { files: number; newestMs: number };
export function builtFromCurrentSources(root: string): boolean;
export function launch(root: string, entry: string): Promise<Record<string, unknown>>;
