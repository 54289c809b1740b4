import type { TileLevel } from '@pulseboard/contracts';

export interface LevelThresholds {
  warning?: number | undefined;
  critical?: number | undefined;
  direction?: 'above' | 'below' | undefined;
}

/** A number's level: `above` (the default) means value ≥ threshold, `below` value ≤ threshold; critical first. */
export function compileLevels({ warning, critical, direction }: LevelThresholds): (value: number) => TileLevel {
  const beyond = direction === 'below' ? (value: number, threshold: number) => value <= threshold : (value: number, threshold: number) => value >= threshold;
  return (value) => {
    if (critical !== undefined && beyond(value, critical)) return 'critical';
    if (warning !== undefined && beyond(value, warning)) return 'warning';
    return 'ok';
  };
}
