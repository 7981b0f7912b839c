/**
 * The per-address cap on unknown connect tokens the connector checks with the gateway.
 */
import { describe, expect, it } from 'vitest';
import { createIntrospectionLimit } from '../../connector/api/introspection-limit.js';
import { ConnectorError } from '../../connector/errors.js';

describe('introspection limit', () => {
  it('admits the allowance per address per minute, then refuses with 429 and a retry time', () => {
    let now = 1_000;
    const admit = createIntrospectionLimit(3, () => now);
    for (let i = 0; i < 3; i += 1) admit('10.0.0.1');
    let refused: unknown;
    try {
      admit('10.0.0.1');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConnectorError);
    expect(refused).toMatchObject({ status: 429, code: 'too_many_attempts', extra: { retry_after: 60 } });
    // Another address has its own allowance.
    expect(() => admit('10.0.0.2')).not.toThrow();
    now += 45_000;
    expect(() => admit('10.0.0.1')).toThrow(expect.objectContaining({ extra: { retry_after: 15 } }));
    now += 15_000;
    expect(() => admit('10.0.0.1')).not.toThrow();
  });
});
