/**
 * The rule engine's verdict on events the gateway just accepted: how many tiles
 * changed state because of each (spec 4.2 `tiles_affected`).
 *
 * There is no rule engine yet, so no implementation exists and /webhooks answers
 * 202 `accepted` without `tiles_affected`; nothing is made up. The rule-engine
 * work plugs an implementation into `GatewayDeps.ruleOutcomes`, and /webhooks
 * then waits for it, bounded by WEBHOOK_OUTCOME_TIMEOUT_MS (CONTRACT: 201 with
 * the outcome within the bound, 202 past it; the events are processed either way).
 */
export interface RuleOutcomeWaiter {
  /**
   * Starts listening for the outcomes of these events. Called before the events
   * are handed to Kafka, so an outcome that arrives quickly cannot be missed.
   * (Implemented by the gateway's one ReplyWaiter, keyed by event id.)
   */
  watch(eventIds: readonly number[]): RuleOutcomeWatch;
}

export interface RuleOutcomeWatch {
  /**
   * Resolves with tiles affected per event id once every event has an outcome,
   * or with undefined when `timeoutMs` passes first. Never rejects.
   */
  result(timeoutMs: number): Promise<ReadonlyMap<number, number> | undefined>;
  /** Stops listening (the request failed, or the answer no longer matters). */
  cancel(): void;
}
