/**
 * The settings form of a processor, generated from its adapter's zod schema (`configSchema`):
 * the schema is turned into JSON Schema (`z.toJSONSchema`, the input side, so a field with a
 * default is optional) and each property becomes a field:
 *
 * - `string`: a text field; `type="url"` when its format is `uri` or its name ends in `_url`;
 *   a secret (`type="password"`, never filled in) when its name names one: `password`, `secret`,
 *   `key`, `token`, `certificate`, `pem`. A certificate or PEM is a textarea (several lines).
 * - `integer` / `number`: a number field; `boolean`: a checkbox; `enum`: a select.
 * - required unless the schema has a default or makes it optional; a default is pre-filled for a
 *   field that is not secret (a default is the adapter's, never the merchant's).
 *
 * The form always starts empty of the merchant's values: saving it replaces all the settings, so
 * every required field is asked again. What a form posts becomes the JSON object the CLI takes as
 * `--config` and is validated by the same schema; problems are named by field, never with the value.
 */
import { z } from 'zod';
import type { Processor } from '../../processors/processor.js';

export type SettingsFieldKind = 'text' | 'url' | 'secret' | 'pem' | 'integer' | 'number' | 'boolean' | 'enum';

export interface SettingsField {
  readonly key: string;
  readonly kind: SettingsFieldKind;
  readonly required: boolean;
  readonly defaultValue: string | undefined;
  readonly options: readonly string[];
  readonly description: string | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
}

interface JsonProperty {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonProperty[];
}

const SECRET_NAME = /(^|_)(password|passphrase|secret|key|token|certificate|cert|pem)(_|$)/;
const PEM_NAME = /(^|_)(certificate|cert|pem)(_|$)/;

/** Whether a settings key holds a secret (the rule above); also used to keep values out of pages. */
export function isSecretKey(key: string): boolean {
  return SECRET_NAME.test(key);
}

function kindOf(key: string, property: JsonProperty): SettingsFieldKind {
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
  if (Array.isArray(property.enum) && property.enum.every((v) => typeof v === 'string')) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (PEM_NAME.test(key)) return 'pem';
  if (isSecretKey(key)) return 'secret';
  if (property.format === 'uri' || key.endsWith('_url')) return 'url';
  return 'text';
}

/** The fields of a processor's settings form, in the schema's order; [] for a processor that takes none. */
export function settingsFields(processor: Processor): SettingsField[] {
  const schema = processor.configSchema;
  if (schema === null) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonProperty>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([key, raw]) => {
    const property = raw.anyOf?.find((p) => p.type !== 'null') ?? raw;
    const kind = kindOf(key, { ...property, default: raw.default ?? property.default });
    const fallback = raw.default ?? property.default;
    const secret = kind === 'secret' || kind === 'pem';
    return {
      key,
      kind,
      required: required.has(key),
      defaultValue:
        secret || fallback === undefined || typeof fallback === 'object' ? undefined : String(fallback as string),
      options: kind === 'enum' ? (property.enum as string[]) : [],
      description: raw.description ?? property.description,
      min: property.minimum,
      max: property.maximum,
    };
  });
}

/**
 * The settings object of a posted form: an empty field is left out (so the schema's default, or
 * its "required", applies); a number field that reads as a number becomes one (otherwise it stays
 * text, and the schema names the field); a checkbox is true when ticked.
 */
export function settingsFromForm(
  fields: readonly SettingsField[],
  read: (name: string) => string,
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = read(`setting_${field.key}`);
    if (field.kind === 'boolean') {
      settings[field.key] = raw !== '';
      continue;
    }
    const secret = field.kind === 'secret' || field.kind === 'pem';
    const value = secret ? raw : raw.trim();
    if (value.trim() === '') continue;
    if (field.kind === 'integer' || field.kind === 'number') {
      settings[field.key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    } else {
      settings[field.key] = value;
    }
  }
  return settings;
}

/** What is wrong with one field: missing, or the schema's message (which never quotes the value). */
export type SettingsProblem = { readonly kind: 'required' } | { readonly kind: 'invalid'; readonly message: string };

/** Validates the settings with the adapter's schema; the problems by field (`''`: the settings as a whole). */
export function settingsProblems(processor: Processor, settings: unknown): Record<string, SettingsProblem> {
  const schema = processor.configSchema;
  if (schema === null) return {};
  const parsed = schema.safeParse(settings);
  if (parsed.success) return {};
  const problems: Record<string, SettingsProblem> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '';
    if (problems[key] !== undefined) continue;
    const missing =
      issue.code === 'invalid_type' &&
      issue.path.length > 0 &&
      (settings as Record<string, unknown>)[key] === undefined;
    problems[key] = missing ? { kind: 'required' } : { kind: 'invalid', message: issue.message };
  }
  return problems;
}
