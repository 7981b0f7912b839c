/**
 * `gateway processor enable|disable --merchant ID --host HOST --processor SLUG`: which processors a
 * domain's checkout offers. The settings (`--config`) are validated by the processor's schema,
 * stored sealed and never printed back. `--json` prints `{merchant_id, host, processor, enabled,
 * position}`. Written to the account's audit log as the operator's.
 */
import { setProcessorEnabled } from '../../merchants/domain-processors.service.js';
import type { Command, CommandTable } from '../command.js';
import { operatorAudit } from '../operator-audit.js';
import { required, UsageError } from '../options.js';

function processorSwitch(enabled: boolean): Command {
  return (values) => {
    const merchantId = required(values, 'merchant');
    const host = required(values, 'host');
    const processor = required(values, 'processor');
    const rawPosition = values.position;
    if (rawPosition !== undefined && !/^\d{1,4}$/.test(rawPosition)) {
      throw new UsageError('--position must be a whole number from 0 to 1000');
    }
    const position = rawPosition === undefined ? undefined : Number(rawPosition);
    return async (deps) => {
      const result = await setProcessorEnabled(deps, {
        merchantId,
        host,
        processor,
        enabled,
        config: values.config,
        position,
      });
      const subject = `${processor} on ${result.host}`;
      if (enabled && values.config !== undefined) {
        await operatorAudit(deps, merchantId, 'processor.configured', subject);
      }
      await operatorAudit(deps, merchantId, enabled ? 'processor.enabled' : 'processor.disabled', subject);
      return { json: result, text: `${processor} ${enabled ? 'enabled' : 'disabled'} for ${result.host}.` };
    };
  };
}

export const processorCommands: CommandTable = {
  'processor enable': processorSwitch(true),
  'processor disable': processorSwitch(false),
};
