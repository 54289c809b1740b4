import { TOPICS, type TileReplaced } from '@pulseboard/contracts';
import { runFanOutConsumer, type FanOutConsumerOptions, type RunningFanOutConsumer } from '@pulseboard/kafka-kit';

/** The `tile_replaced` message (protocol.md) a tile-replacements message becomes, built once for every subscriber. */
export function tileReplacedFrame(replaced: TileReplaced): Buffer {
  const { project_key, tile_id, since, until, state } = replaced;
  return Buffer.from(JSON.stringify({ type: 'tile_replaced', v: 1, project: project_key, tile_id, since, until, state }), 'utf8');
}

/**
 * Tiles whose history an applied replay replaced (the rule engine's
 * tile-replacements topic), to the subscribers of each tile's project only:
 * every instance reads every message (fan-out) and hands it to its own
 * subscribers of that project, as it does tile changes.
 */
export function runReplacementFeed(
  options: Pick<FanOutConsumerOptions<TileReplaced>, 'kafka' | 'logger' | 'topic' | 'groupPrefix'> & { publish: (projectKey: string, frame: Buffer) => void },
): Promise<RunningFanOutConsumer> {
  return runFanOutConsumer({
    kafka: options.kafka,
    logger: options.logger,
    topic: options.topic,
    groupPrefix: options.groupPrefix,
    decode: TOPICS.tileReplacements.decode,
    handle: (replaced) => options.publish(replaced.project_key, tileReplacedFrame(replaced)),
  });
}
