import { TOPICS, type TileReplaced } from '@pulseboard/contracts';
import { consume, eachMessage, type Consuming, type KafkaConsumeOptions } from '@pulseboard/kafka-kit';

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
  options: Pick<KafkaConsumeOptions<TileReplaced>, 'kafka' | 'logger' | 'topic'> & {
    groupPrefix: string;
    publish: (projectKey: string, frame: Buffer) => void;
  },
): Promise<Consuming> {
  return consume({
    kafka: options.kafka,
    logger: options.logger,
    topic: options.topic,
    group: { fanOut: options.groupPrefix },
    offsets: 'none',
    decode: TOPICS.tileReplacements.decode,
    handler: eachMessage((replaced) => options.publish(replaced.project_key, tileReplacedFrame(replaced))),
  });
}
