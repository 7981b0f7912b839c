/**
 * The settings forms generated from each adapter's zod schema: every field of every adapter has a
 * label in English, Armenian and Russian; secrets are password fields by the key rule; what a form
 * posts becomes settings the adapter's schema accepts, and problems are named by field.
 */
import { describe, expect, it } from 'vitest';
import { PROCESSORS_MESSAGES } from '../../gateway/dashboard/processors/messages.js';
import {
  isSecretKey,
  settingsFields,
  settingsFromForm,
  settingsProblems,
} from '../../gateway/dashboard/processors/settings-form.js';
import { PROCESSOR_SLUGS, processorFor } from '../../gateway/processors/registry.js';

describe('processor settings forms', () => {
  it('labels every field of every adapter in the three languages', () => {
    for (const slug of PROCESSOR_SLUGS) {
      const fields = settingsFields(processorFor(slug));
      expect(fields.length > 0, slug).toBe(processorFor(slug).configSchema !== null);
      for (const field of fields) {
        for (const messages of Object.values(PROCESSORS_MESSAGES)) {
          expect(messages.fields[field.key]?.label, `${slug}.${field.key}`).toBeTruthy();
        }
      }
    }
  });

  it('reads secrets from the key and kinds from the schema', () => {
    expect(['password', 'secret_key', 'shop_key', 'token', 'callback_secret'].every(isSecretKey)).toBe(true);
    expect(['client_id', 'username', 'base_url', 'rec_account', 'order_id_min', 'issuer'].some(isSecretKey)).toBe(
      false,
    );
    const ameria = Object.fromEntries(settingsFields(processorFor('ameria')).map((f) => [f.key, f]));
    expect(ameria.password?.kind).toBe('secret');
    expect(ameria.password?.required).toBe(true);
    expect(ameria.base_url).toMatchObject({ kind: 'url', required: false });
    expect(ameria.base_url?.defaultValue).toBe('https://services.ameriabank.am/VPOS/');
    expect(ameria.order_id_min?.kind).toBe('integer');
    const telcell = Object.fromEntries(settingsFields(processorFor('telcell')).map((f) => [f.key, f]));
    expect(telcell.shop_key?.kind).toBe('secret');
    expect(telcell.shop_key?.defaultValue).toBeUndefined();
    expect(telcell.valid_days).toMatchObject({ kind: 'integer', required: false, defaultValue: '1' });
  });

  it('turns a posted form into settings the schema accepts, and names the fields it refuses', () => {
    const telcell = processorFor('telcell');
    const fields = settingsFields(telcell);
    const posted: Record<string, string> = {
      setting_issuer: ' shop@example.am ',
      setting_shop_key: ' key with spaces ',
      setting_base_url: '',
      setting_valid_days: '3',
    };
    const settings = settingsFromForm(fields, (name) => posted[name] ?? '');
    expect(settings).toEqual({ issuer: 'shop@example.am', shop_key: ' key with spaces ', valid_days: 3 });
    expect(settingsProblems(telcell, settings)).toEqual({});
    const bad = settingsFromForm(fields, (name) => ({ setting_valid_days: 'soon' })[name] ?? '');
    const problems = settingsProblems(telcell, bad);
    expect(Object.keys(problems).sort()).toEqual(['issuer', 'shop_key', 'valid_days']);
    expect(problems.issuer).toEqual({ kind: 'required' });
    expect(problems.valid_days?.kind).toBe('invalid');
    expect(JSON.stringify(problems)).not.toContain('soon');
  });
});
