/**
 * The live feed's heavy part, loaded with dynamic `import()` on first need (activation stays light:
 * `ws` and the stream schemas are not initialised until a stream is wanted). Binds
 * {@link LiveFeed} to the real `StreamClient` (src/api/stream.ts).
 */
import { StreamClient } from '../../api/stream';
import { LiveFeed, type LiveFeedDeps } from './feed';

/** A live feed whose channels use `StreamClient` (jittered reconnect: 250 ms doubling to 10 s). */
export function createLiveFeed(deps: LiveFeedDeps): LiveFeed {
  return new LiveFeed({ ...deps, create: deps.create ?? ((opts) => new StreamClient({ maxReconnectDelayMs: 15_000, ...opts })) });
}
