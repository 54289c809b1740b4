/**
 * The gateway's round trips in a phase, from its own /metrics: Kafka produce
 * requests (pulseboard_gateway_kafka_produce_request_messages) and limiter script calls
 * (pulseboard_gateway_limiter_batch_operations), summed over every gateway. Per event,
 * they say how much the gateway's batching across requests shares, which the
 * broker's and Redis' CPU follow.
 */
export interface GatewayTrips {
  produceRequests: number;
  producedMessages: number;
  limiterCalls: number;
}

const SERIES = {
  produceRequests: 'pulseboard_gateway_kafka_produce_request_messages_count',
  producedMessages: 'pulseboard_gateway_kafka_produce_request_messages_sum',
  limiterCalls: 'pulseboard_gateway_limiter_batch_operations_count',
} as const;

/** One reading of the counters; a gateway that does not answer counts as zero (the run says so by its figures). */
export async function readGatewayTrips(gateways: readonly string[]): Promise<GatewayTrips> {
  const trips: GatewayTrips = { produceRequests: 0, producedMessages: 0, limiterCalls: 0 };
  for (const url of gateways) {
    const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.text())
      .catch(() => '');
    for (const line of text.split('\n')) {
      for (const [field, name] of Object.entries(SERIES) as [keyof GatewayTrips, string][]) {
        // Unlabelled series, or summed over labels.
        if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{')) trips[field] += Number(line.slice(line.lastIndexOf(' ') + 1));
      }
    }
  }
  return trips;
}

export function tripsBetween(before: GatewayTrips, after: GatewayTrips): GatewayTrips {
  return {
    produceRequests: after.produceRequests - before.produceRequests,
    producedMessages: after.producedMessages - before.producedMessages,
    limiterCalls: after.limiterCalls - before.limiterCalls,
  };
}
