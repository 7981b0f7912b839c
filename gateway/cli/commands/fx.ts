/**
 * `gateway fx set|remove|list`: the exchange rates payments in other currencies lock
 * (docs/decisions.md, "Currencies"). `--json`: `fx set` and `fx remove` print
 * `{currency, rate, set_at}` (`rate` null after a removal); `fx list` prints `{fx_rates: [...]}`.
 */
import { type FxRateView, listFxRates, removeFxRate, setFxRate } from '../../payments/fx-rates.service.js';
import type { CommandTable, Run } from '../command.js';
import { required } from '../options.js';

function line(view: FxRateView): string {
  return view.rate === null
    ? `${view.set_at}  ${view.currency}  withdrawn`
    : `${view.set_at}  1 ${view.currency} = ${view.rate} AMD`;
}

export function fxSet(currency: string, rate: string): Run {
  return async (deps) => {
    const set = await setFxRate(deps, { currency, rate });
    return { json: set, text: `From ${set.set_at}, 1 ${set.currency} = ${set.rate} AMD for new payments.` };
  };
}

export function fxRemove(currency: string): Run {
  return async (deps) => {
    const removed = await removeFxRate(deps, { currency });
    return { json: removed, text: `From ${removed.set_at}, payments in ${removed.currency} are refused.` };
  };
}

export function fxList(currency: string | undefined): Run {
  return async (deps) => {
    const listed = await listFxRates(deps, { currency });
    const empty =
      currency === undefined
        ? 'No exchange rates are set: payments are taken in AMD only.'
        : `No rate was ever set for ${currency.toUpperCase()}.`;
    return { json: listed, text: listed.fx_rates.length === 0 ? empty : listed.fx_rates.map(line).join('\n') };
  };
}

export const fxCommands: CommandTable = {
  'fx set': (values) => fxSet(required(values, 'currency'), required(values, 'rate')),
  'fx remove': (values) => fxRemove(required(values, 'currency')),
  'fx list': (values) => fxList(values.currency),
};
