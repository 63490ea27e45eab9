/**
 * Entry bundled by ./moneyGate.test.ts (esbuild, as the extension ships: the connection loads the
 * API client with a dynamic import, which the bundle resolves): the extension's connection, money
 * gate and prompts.
 */
export { Connection } from '../../../src/host/connection';
export { ConfirmationRequiredError, MoneyGate } from '../../../src/host/moneyGate';
export { windowPrompts } from '../../../src/host/prompts';
