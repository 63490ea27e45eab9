/**
 * Entry bundled by ./moneyGate.test.ts (esbuild, as the extension ships: the connection loads the
 * API client with a dynamic import, which the bundle resolves): the extension's connection, money
 * gate and prompts.
 */
export { Connection } from '../../../src/extension/connection';
export { ConfirmationRequiredError, MoneyGate } from '../../../src/extension/moneyGate';
export { windowPrompts } from '../../../src/extension/prompts';
