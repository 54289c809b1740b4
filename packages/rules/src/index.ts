export { eventTimeMs, toRuleEvent, type RuleEvent } from './event.ts';
export { compileFilter, type EventPredicate } from './filter.ts';
export { compileEvaluator, type TileEvaluator } from './evaluator.ts';
export {
  adoptGroupedRule,
  adoptRule,
  compileProjectRules,
  compileTile,
  type CompiledTile,
  type GroupedAdoption,
  type ProjectRules,
  type TileDefinition,
} from './project-rules.ts';
export {
  tallyOf,
  WORST_FIRST,
  worstFirst,
  type GroupCounts,
  type GroupedStep,
  type GroupRecord,
  type GroupStep,
  type GroupTally,
  type Grouping,
} from './grouping.ts';
export { MAX_WINDOW_ENTRIES, WINDOW_SLOTS } from './window.ts';
export type { EvaluationState, EvaluationStep, LevelRuns, TileState, TileStateChange, WindowEntry } from './tile-state.ts';
export { RulePreview } from './preview.ts';
export { narrowEvent, ruleReads, type RuleReads } from './reads.ts';
