/**
 * What the market's commands need of the sandbox state (state.ts applies them, so they cannot import it:
 * the import-cycle lint). `SandboxState` satisfies it.
 */
import type { Exchange } from '../../core';
import type { MarketTape } from '../marketTape';
import type { World } from '../world';

/** The parts of SandboxState the market's commands read and drive. */
export interface MarketHost {
  readonly exchange: Exchange;
  readonly world: World;
  readonly users: ReadonlyMap<string, { uid: string; label: string }>;
  readonly tape: MarketTape;
}
