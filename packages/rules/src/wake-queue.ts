/**
 * When each key next needs attention, earliest first: a binary heap of
 * (time, key) with each key's current time beside it, so a key moved to a new
 * time leaves its old entry behind to be skipped when it surfaces.
 */
export class WakeQueue {
  private readonly heap: { at: number; key: string }[] = [];
  private readonly current = new Map<string, number>();

  /** The key's next time, or null for none. */
  set(key: string, at: number | null): void {
    if (at === null) {
      this.current.delete(key);
      return;
    }
    if (this.current.get(key) === at) return;
    this.current.set(key, at);
    this.heap.push({ at, key });
    this.up(this.heap.length - 1);
  }

  /** The earliest key due by `now` (its time no later than `now`), taken out; null when none is due. */
  popDue(now: number): { at: number; key: string } | null {
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const top = this.pop();
      if (this.current.get(top.key) !== top.at) continue; // moved or removed since
      this.current.delete(top.key);
      return top;
    }
    return null;
  }

  private pop(): { at: number; key: string } {
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= heap[i]!.at) return;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && heap[left]!.at < heap[least]!.at) least = left;
      if (right < heap.length && heap[right]!.at < heap[least]!.at) least = right;
      if (least === i) return;
      [heap[least], heap[i]] = [heap[i]!, heap[least]!];
      i = least;
    }
  }
}
