/**
 * What a dashboard section's screenshot script receives and is (each section's file under
 * scripts/dashboard-shots/; the list is sections.ts).
 */
import type { Page } from 'playwright-core';
import type { Deps } from '../../gateway/runtime/deps.js';
import type { TestSmtp } from '../../test/support/smtp-server.js';

export interface SectionShotsContext {
  readonly page: Page;
  readonly shoot: (name: string) => Promise<void>;
  readonly publicUrl: string;
  readonly smtp: TestSmtp;
  readonly deps: Deps;
  /** The signed-in owner's account, email and password. */
  readonly merchantId: string;
  readonly email: string;
  readonly password: string;
  /** `desktop` or `phone`: names made unique per size (a second account's email...). */
  readonly size: string;
}

export type SectionShots = (context: SectionShotsContext) => Promise<void>;
