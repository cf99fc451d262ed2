/**
 * Items waiting, one queue per client, served in turn: the next item is the first client's
 * oldest, that client then waiting behind every other client waiting. Bounded by `limit` in all:
 * past it, the newest item of the client with the most waiting goes, the newcomer counted — the
 * newcomer's own when its client would have as many as any, so that a newcomer never pushes out
 * the one item of another (security/hash-pool.ts, docs/performance.md "Sign-in").
 */
export class FairQueue<T> {
  /** The items waiting, by client, in the order the clients are served next. */
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  constructor(private readonly limit: number) {}

  /** Items waiting, all clients together. */
  get size(): number {
    return this.count;
  }

  /**
   * Adds `item` for `client`: `{ added: true, dropped }` with the item pushed out to make room,
   * if one was; `{ added: false }` when the queue is full and `item` is the one refused.
   */
  push(client: string, item: T): { added: true; dropped?: T } | { added: false } {
    let dropped: T | undefined;
    if (this.count >= this.limit) {
      dropped = this.makeRoomFor(client);
      if (dropped === undefined) return { added: false };
    }
    const waiting = this.queues.get(client);
    if (waiting) waiting.push(item);
    else this.queues.set(client, [item]);
    this.count++;
    return dropped === undefined ? { added: true } : { added: true, dropped };
  }

  /**
   * The next item: the first client's oldest, that client then waiting behind the others; with
   * `eligible`, the first such client's that it accepts (the others keep their place).
   */
  next(eligible?: (client: string) => boolean): T | undefined {
    for (const [client, waiting] of this.queues) {
      if (eligible && !eligible(client)) continue;
      const item = waiting.shift();
      this.queues.delete(client);
      if (waiting.length > 0) this.queues.set(client, waiting);
      if (item !== undefined) {
        this.count--;
        return item;
      }
    }
    return undefined;
  }

  /** Every item waiting, the queue left empty. */
  drain(): T[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.count = 0;
    return all;
  }

  /**
   * Full: takes out the newest item of the client with the most waiting, unless `client`'s queue,
   * its new item counted, would be as long (undefined: the new item is the one refused).
   */
  private makeRoomFor(client: string): T | undefined {
    const own = this.queues.get(client)?.length ?? 0;
    let largest: T[] | undefined;
    for (const waiting of this.queues.values()) {
      if (!largest || waiting.length > largest.length) largest = waiting;
    }
    if (!largest || largest.length <= own + 1) return undefined;
    const dropped = largest.pop();
    if (dropped !== undefined) this.count--;
    return dropped;
  }
}
