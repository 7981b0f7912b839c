/**
 * The order test files start in: the few that take minutes first (the parts of the WooCommerce
 * seam's model, then the browser tests), so that none of them starts last and holds the run open
 * while the other workers are idle; then vitest's own order (the files that failed or took longest
 * last time, else the larger first).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first: what each pattern matches takes longer than what the next one does. */
const LONG: readonly RegExp[] = [
  /\/woocommerce-seam\.model\.\d+\.test\.ts$/,
  /-browser\.test\.ts$/,
  /\/sdk-[a-z-]+\.test\.ts$/,
];

function rank(file: TestSpecification): number {
  const index = LONG.findIndex((pattern) => pattern.test(file.moduleId));
  return index === -1 ? LONG.length : index;
}

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank, vitest's order stands.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
